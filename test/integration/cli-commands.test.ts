/**
 * Every command line the README documents, run as the real process (`node dist/worker/cli.js`):
 * `emulator --port --mode`, `start`, `worker`, `screen --dot / --mc / --file`, `status`, `token`,
 * `backup`. Real Redis, the record of this pass (a SQLite file, or a PostgreSQL database:
 * test-db.ts), the emulator over real HTTP. `backup` copies a SQLite file (on PostgreSQL it
 * refuses the URL: record-location-cli.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_KEYS } from '../../emulator/index.js';
import { freePort } from '../helpers/free-port.js';
import { loadConfig } from '../../shared/config.js';
import { openRecord } from '../../worker/open-record.js';
import {
  REPO_ROOT,
  ensureBuilt,
  mkdirTemp,
  spawnCli,
  startIntakeProcess,
  type RunningProcess,
  type StartedIntake,
  type WorkerEnv,
} from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { describeSqlite, testRecord, type TestRecord } from '../helpers/test-db.js';
import { installedElectron } from '../../worker/tray-launcher.js';

const TOKEN = 'cli-commands-test-token-0123456789abcdef';
let emulator: RunningProcess;
let emulatorUrl: string;
let intake: StartedIntake;
let env: WorkerEnv;
let dir: string;
let record: TestRecord | undefined;

/** Run a command to its end; its exit code and output. */
async function run(args: string[], ms = 60_000): Promise<{ code: number | null; out: string; err: string }> {
  const p = spawnCli(args, { env: { ...env, LOG_LEVEL: 'debug' } });
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    void p.kill();
  }, ms);
  const exit = await p.exited;
  clearTimeout(timer);
  return { code: exit.code, out: p.stdout(), err: (killed ? `(killed after ${ms} ms)\n` : '') + p.stderr() };
}

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdirTemp('cs-cli-');
  record = await testRecord();
  const port = await freePort();
  // As the README writes it: `carrier-screen emulator --port 4010 --mode live` (here sandbox, then live below).
  emulator = spawnCli(['emulator', '--port', String(port), '--mode', 'sandbox'], { name: 'emulator' });
  const out = await emulator.waitForOutput(/base URL:\s+(\S+)/);
  emulatorUrl = /base URL:\s+(\S+)/.exec(out)![1]!;
  env = {
    SVC_API_KEY: DEMO_KEYS.sandbox,
    SVC_BASE_URL: emulatorUrl,
    REDIS_URL: inject('redisUrl'),
    ...record.env,
    SCREEN_DB: record.screenDb,
    SCREEN_REDIS_PREFIX: uniquePrefix(),
    INTAKE_TOKEN: TOKEN,
    INTAKE_PORT: String(await freePort()),
  };
  intake = await startIntakeProcess(env);
}, 120_000);

afterAll(async () => {
  await intake?.stop();
  await emulator?.stop();
  await record?.cleanup();
});

describe('carrier-screen emulator', () => {
  it('--port P --mode live serves live on that port and prints its base URL and keys', async () => {
    const port = await freePort();
    const live = spawnCli(['emulator', '--port', String(port), '--mode', 'live'], { name: 'emulator-live' });
    try {
      const out = await live.waitForOutput(/live key:/);
      expect(out).toContain(`base URL:    http://127.0.0.1:${port}`);
      expect(out).toContain(DEMO_KEYS.live);
      const res = await request(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${DEMO_KEYS.live}` } });
      expect(((await res.body.json()) as { livemode: boolean }).livemode).toBe(true);
    } finally {
      const exit = await live.stop();
      expect(exit.signal).toBeNull(); // it stopped on SIGTERM by itself
    }
  });

  it('a bad option is refused, naming it', async () => {
    const r = await run(['emulator', '--mode', 'prod']);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/--mode/);
  });
});

describe('carrier-screen screen (beside a running start, same Redis and database)', () => {
  it('--dot prints the action, --mc a block; exit 0 when the screening is done', async () => {
    const held = await run(['screen', '--dot', '01000003', '--tender', 'T-cli', '--wait', '30']);
    expect(held.out).toMatch(/DOT 1000003/);
    expect(held.out).toMatch(/action:\s+HOLD \(manual_review\)/);
    const blocked = await run(['screen', '--mc', 'mc-1000005', '--wait', '30']);
    expect(blocked.out).toMatch(/action:\s+BLOCK/);
    expect([held.code, blocked.code], `${held.err}\n---\n${blocked.err}`).toEqual([0, 0]);
  });

  it('--file reads a spreadsheet-style roster (quoted names with commas) and reports each carrier', async () => {
    const roster = join(dir, 'roster.csv');
    writeFileSync(roster, '\uFEFFLEGAL_NAME,DOT_NUMBER\r\n"Smith, Inc.",1000003\r\n"Say ""Hi"" Freight",1000005\r\n"Bad, Co.",12x\r\n');
    const r = await run(['screen', '--file', roster, '--json', '--wait', '60']);
    expect(r.err + r.out).toMatch(/line 4: dot_number must be 1 to 8 digits/);
    expect(r.code).toBe(1); // a roster with a bad line: the rest screened, the exit says so
    const dots = [...r.out.matchAll(/"dot_number":\s*"(\d+)"/g)].map((m) => m[1]);
    expect(new Set(dots)).toEqual(new Set(['1000003', '1000005']));
  });

  it('refuses a bad --dot before doing anything, naming it', async () => {
    const r = await run(['screen', '--dot', '0']);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/--dot.*0|dot_number must not be 0/);
  });
});

describe('carrier-screen status', () => {
  it("prints the running worker's queue, quota and reviews", async () => {
    const r = await run(['status', '--url', intake.url]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/review/i);
    const json = await run(['status', '--url', intake.url, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ object: 'status', environment: 'sandbox' });
  });
});

describe('carrier-screen worker', () => {
  it('runs beside start, and stops on SIGTERM by itself', async () => {
    const w = spawnCli(['worker'], { name: 'worker', env: { LOG_LEVEL: 'info', ...env } });
    await w.waitForOutput(/screening worker running/);
    const exit = await w.stop(15_000);
    expect(exit).toEqual({ code: 0, signal: null });
  });
});

describeSqlite('carrier-screen backup', () => {
  it('copies the live database (workers running) into a file that opens, passes its integrity check and holds the screenings', async () => {
    const file = join(dir, 'backup.db');
    const r = await run(['backup', file]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/integrity ok/);
    const { default: Database } = await import('better-sqlite3');
    const copy = new Database(file, { readonly: true });
    const live = new Database(env.SCREEN_DB, { readonly: true });
    try {
      const count = (d: InstanceType<typeof Database>): number =>
        (d.prepare('SELECT COUNT(*) AS n FROM screenings').get() as { n: number }).n;
      expect(count(copy)).toBeGreaterThan(0);
      expect(count(copy)).toBe(count(live));
    } finally {
      copy.close();
      live.close();
    }
    // A second run does not overwrite it unless told to.
    const again = await run(['backup', file]);
    expect([again.code, again.err]).toEqual([2, expect.stringContaining('--force')]);
    expect((await run(['backup', file, '--force'])).code).toBe(0);
  });
});

describe('carrier-screen token', () => {
  it('create prints a token once, which the running intake takes with its role; list shows it without the secret; revoke ends it', async () => {
    const made = await run(['token', 'create', '--role', 'desk', '--name', 'Dana Dispatcher']);
    expect(made.code, made.err).toBe(0);
    const token = made.out.trim();
    expect(token).toMatch(/^cs_desk_[a-z2-7]{40}$/);
    expect(made.err).toMatch(/shown only now/);
    const call = (path: string, method: 'GET' | 'POST' = 'GET') =>
      request(`${intake.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({
        status: r.statusCode,
        json: (await r.body.json()) as any,
      }));
    expect((await call('/status')).status).toBe(200);
    const pause = await call('/queue/pause', 'POST');
    expect([pause.status, pause.json.error.code]).toEqual([403, 'forbidden']);

    const list = await run(['token', 'list']);
    expect(list.code).toBe(0);
    expect(list.out).toContain('Dana Dispatcher');
    expect(list.out).toContain('desk');
    expect(list.out).not.toContain(token);
    const id = /(tok_[a-z2-7]{26})/.exec(list.out)![1]!;
    const json = JSON.parse((await run(['token', 'list', '--json'])).out) as { data: Array<{ id: string; last_used_at: string | null }> };
    expect(json.data.find((t) => t.id === id)?.last_used_at).not.toBeNull();

    expect((await run(['token', 'revoke', id])).code).toBe(0);
    expect((await call('/status')).status).toBe(401);
    const again = await run(['token', 'revoke', id]);
    expect([again.code, again.err]).toEqual([2, expect.stringContaining('no active token')]);
    const bad = await run(['token', 'create', '--role', 'root']);
    expect([bad.code, bad.err]).toEqual([2, expect.stringContaining('--role must be metrics, tms, desk or admin')]);
  });

  it('list with no scoped tokens says where the admin token comes from: INTAKE_TOKEN, or the file in the data dir (beside a SQLite file)', async () => {
    const fresh = await testRecord();
    try {
      await (await openRecord(loadConfig({ ...env, ...fresh.env }))).close(); // a record with no scoped tokens
      const listOn = async (e: WorkerEnv) => {
        const p = spawnCli(['token', 'list'], { env: e });
        const exit = await p.exited;
        return { code: exit.code, out: p.stdout() || p.stderr() };
      };
      const freshEnv = { ...fresh.env, SCREEN_DB: fresh.screenDb };
      expect(await listOn({ ...env, ...freshEnv })).toEqual({ code: 0, out: 'no scoped tokens (the admin token is INTAKE_TOKEN)\n' });
      const { INTAKE_TOKEN: _, ...fromFile } = env;
      const dataDir = fresh.env.SCREEN_DATA_DIR ?? dirname(fresh.screenDb);
      expect(await listOn({ ...fromFile, ...freshEnv } as WorkerEnv)).toEqual({
        code: 0,
        out: `no scoped tokens (the admin token is in ${join(dataDir, 'intake-token')})\n`,
      });
    } finally {
      await fresh.cleanup();
    }
  });
});

/** Where the Electron binary is installed (a developer's machine) this would start the app: skip there. */
function electronInstalled(): boolean {
  return installedElectron(REPO_ROOT) !== null;
}

describe.skipIf(electronInstalled())('carrier-screen tray', () => {
  it('says in one line that the Electron binary is missing (it is, on this machine) and exits 2, from any directory', async () => {
    const p = spawnCli(['tray'], { env, cwd: dir });
    const exit = await p.exited;
    expect(exit.code).toBe(2);
    expect(p.stderr().trim().split('\n')).toEqual([expect.stringContaining('the Electron binary is not installed')]);
  });
});
