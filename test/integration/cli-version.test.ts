/**
 * What runs and how a refused start ends, as the real process (dist/worker/cli.js): `--version`,
 * the version in the start log and in carrier_screen_build_info, and the exit codes the systemd
 * unit relies on (RestartPreventExitStatus=2: 2 is "fix something first", 1 is "try again").
 * On the record of this pass (SQLite or PostgreSQL, test-db.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_KEYS, type RunningEmulator } from '../../emulator/index.js';
import { withEmulator } from '../helpers/emulator.js';
import { freePort } from '../helpers/free-port.js';
import { REPO_ROOT, ensureBuilt, spawnCli, startIntakeProcess } from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { onPostgres, testRecord } from '../helpers/test-db.js';
import { MIGRATIONS } from '../../worker/store/index.js';
import { PG_MIGRATIONS } from '../../worker/store/pg/schema/index.js';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
let emu: RunningEmulator;

beforeAll(async () => {
  await ensureBuilt();
  emu = await withEmulator({ mode: 'sandbox' });
}, 180_000);
afterAll(async () => emu?.close());

async function run(args: string[], env: Record<string, string | undefined> = {}) {
  const p = spawnCli(args, { env });
  const exit = await p.exited;
  return { code: exit.code, out: p.stdout(), err: p.stderr() };
}

describe('carrier-screen --version and build_info', () => {
  it('--version prints the package version; start logs it and /metrics carries it', async () => {
    const v = await run(['--version']);
    expect([v.code, v.out.trim()]).toEqual([0, `carrier-screen ${VERSION} (Node ${process.version})`]);

    const token = 'cli-version-test-token-0123456789';
    const rec = await testRecord();
    const svc = await startIntakeProcess({
      SVC_API_KEY: DEMO_KEYS.sandbox,
      SVC_BASE_URL: emu.baseUrl,
      REDIS_URL: inject('redisUrl'),
      ...rec.env,
      SCREEN_DB: rec.screenDb,
      SCREEN_REDIS_PREFIX: uniquePrefix('version'),
      INTAKE_TOKEN: token,
      LOG_FORMAT: 'json',
    });
    try {
      const started = svc
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; version?: string })
        .find((l) => l.msg === `carrier-screen ${VERSION} starting`);
      expect(started?.version).toBe(VERSION);
      const metrics = await (await request(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).body.text();
      expect(metrics).toContain(`carrier_screen_build_info{version="${VERSION}",node="${process.version}"} 1`);
      // A new database: each schema step of its backend in the log with its time, after the version line.
      const msgs = (): string[] =>
        svc
          .stderr()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => (JSON.parse(l) as { msg: string }).msg);
      const steps = msgs().flatMap((m) => /^schema migration (\d+) applied in \d+ ms/.exec(m)?.[1] ?? []);
      expect(steps.map(Number)).toEqual((onPostgres ? PG_MIGRATIONS : MIGRATIONS).map((m) => m.version));
      // SIGTERM: a line when it begins and one when it is done.
      const exit = await svc.stop();
      expect(exit.code).toBe(0);
      expect(msgs().slice(-2)).toEqual(['SIGTERM: stopping', 'stopped']);
    } finally {
      await svc.stop();
      await rec.cleanup();
    }
  }, 60_000);
});

describe('exit codes of a refused start', () => {
  it('2 for settings to fix (the unit does not restart), 1 for a Redis that does not answer yet (restarted)', async () => {
    const rec = await testRecord();
    try {
      const bad = await run(['start'], { SVC_API_KEY: 'not-a-key', SVC_BASE_URL: emu.baseUrl, ...rec.env });
      expect([bad.code, bad.err]).toEqual([2, expect.stringContaining('SVC_API_KEY: must start with svc_test_ or svc_live_')]);
      const noRedis = await run(['start'], {
        SVC_API_KEY: DEMO_KEYS.sandbox,
        SVC_BASE_URL: emu.baseUrl,
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
        ...rec.env,
      });
      expect([noRedis.code, noRedis.err]).toEqual([1, expect.stringContaining('REDIS_URL does not answer')]);
    } finally {
      await rec.cleanup();
    }
  }, 60_000);
});
