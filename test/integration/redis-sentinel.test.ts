/**
 * Redis through Sentinel (issue 34, docs/operations.md "Two hosts"): `carrier-screen start` given
 * REDIS_SENTINELS and REDIS_SENTINEL_NAME, as the real process, against a real Redis primary, its
 * replica and a real sentinel (redis-server --sentinel), on the record of this pass of the matrix.
 * It screens through the primary; the primary is SIGKILLed; the sentinel promotes the replica and
 * the same process goes on screening through it, with nothing accepted lost. A bad sentinel setting
 * stops the start in one line naming the variable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { keyOf, withEmulator } from '../helpers/emulator.js';
import { freePort } from '../helpers/free-port.js';
import { ensureBuilt, spawnCli, startIntakeProcess, until, type StartedIntake, type WorkerEnv } from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { testRecord, type TestRecord } from '../helpers/test-db.js';

const TOKEN = 'sentinel-test-admin-token-0123456789abcdef';
const GROUP = 'cs-test';

interface Server {
  port: number;
  proc: ChildProcess;
}

let dir: string;
const servers: Server[] = [];
let primary: Server;
let replica: Server;
let sentinel: Server;
let record: TestRecord;
let emulator: RunningEmulator;
let env: WorkerEnv;
let svc: StartedIntake | undefined;

async function answers(port: number): Promise<boolean> {
  const r = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** A redis-server of this test's own (no persistence), ready when it answers PING. */
async function redisServer(args: string[], port: number): Promise<Server> {
  const proc = spawn('redis-server', args, { stdio: 'ignore' });
  const s = { port, proc };
  servers.push(s);
  await until(`redis-server on ${port}`, 10_000, () => answers(port), 50);
  return s;
}

/** ROLE of the server on `port`: 'master' or 'slave'; 'unknown' while a failover drops its connections. */
async function role(port: number): Promise<string> {
  const r = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    return ((await r.call('ROLE')) as [string])[0];
  } catch {
    return 'unknown';
  } finally {
    r.disconnect();
  }
}

async function screen(tender: string, dot: string): Promise<{ status: number; json: any }> {
  const res = await request(`${svc!.url}/screenings?wait=10`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'idempotency-key': `sentinel-${tender}` },
    body: JSON.stringify({ dot_number: dot, tender_id: tender }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'cs-sentinel-'));
  const [p1, p2, p3] = [await freePort(), await freePort(), await freePort()];
  const base = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  primary = await redisServer(['--port', String(p1), '--dir', dir, ...base], p1);
  replica = await redisServer(['--port', String(p2), '--dir', dir, ...base, '--replicaof', '127.0.0.1', String(p1)], p2);
  // The sentinel rewrites its file: one of its own, in this test's directory.
  const conf = join(dir, 'sentinel.conf');
  writeFileSync(
    conf,
    [
      `port ${p3}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${GROUP} 127.0.0.1 ${p1} 1`,
      `sentinel down-after-milliseconds ${GROUP} 1000`,
      `sentinel failover-timeout ${GROUP} 10000`,
      '',
    ].join('\n'),
  );
  sentinel = await redisServer([conf, '--sentinel'], p3);
  record = await testRecord();
  emulator = await withEmulator({ mode: 'sandbox' });
  env = {
    SVC_API_KEY: keyOf(emulator),
    SVC_BASE_URL: emulator.baseUrl,
    // Only its database number counts here: the sentinels name the host.
    REDIS_URL: 'redis://ignored.invalid:1/0',
    REDIS_SENTINELS: `127.0.0.1:${p3}`,
    REDIS_SENTINEL_NAME: GROUP,
    SCREEN_REDIS_PREFIX: uniquePrefix('sentinel'),
    INTAKE_TOKEN: TOKEN,
    SCREEN_DB: record.screenDb,
    ...record.env,
  };
}, 120_000);

afterAll(async () => {
  await svc?.stop();
  await emulator?.close();
  await record?.cleanup();
  for (const s of servers) if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Redis through Sentinel (REDIS_SENTINELS)', () => {
  it('screens through the primary, and through the promoted replica after the primary is killed', async () => {
    svc = await startIntakeProcess(env, { readyMs: 60_000 });
    // It says where its Redis is: the group and the sentinels, never a host of its own guessing.
    await svc.waitForOutput(new RegExp(`Redis at sentinel group ${GROUP} via 127\\.0\\.0\\.1:${sentinel.port}`), 10_000);
    const first = await screen('SEN-1', '1000001');
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json.status).toBe('done');
    expect(await role(primary.port)).toBe('master');

    primary.proc.kill('SIGKILL');
    await until('the sentinel to promote the replica', 60_000, async () => (await role(replica.port)) === 'master', 200);

    // Accepted once Redis is back: the process found the new primary by itself (503 until then).
    const answered: number[] = [];
    const second = await until(
      'a screening through the new primary',
      60_000,
      async () => {
        const r = await screen('SEN-2', '1000002');
        answered.push(r.status);
        return r.status === 200 ? r : undefined;
      },
      250,
    );
    expect(second.json.status).toBe('done');
    expect(answered.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    // The queue is on the promoted server now: its keys are there, under the install's prefix.
    const onReplica = new Redis({ port: replica.port, host: '127.0.0.1' });
    try {
      expect((await onReplica.keys(`${env.SCREEN_REDIS_PREFIX}:*`)).length).toBeGreaterThan(0);
    } finally {
      onReplica.disconnect();
    }
    // The first screening, accepted before the failover, is still done.
    const again = await screen('SEN-1', '1000001');
    expect([again.status, again.json.id, again.json.status]).toEqual([200, first.json.id, 'done']);
  }, 180_000);

  it('a sentinel list it cannot read stops the start in one line naming REDIS_SENTINELS (exit 2)', async () => {
    const p = spawnCli(['start'], { env: { ...env, INTAKE_PORT: String(await freePort()), REDIS_SENTINELS: '127.0.0.1' } });
    const exit = await p.exited;
    expect(exit.code).toBe(2);
    expect(p.stderr()).toMatch(/REDIS_SENTINELS.*"127\.0\.0\.1" is not host:port/);
  }, 60_000);

  it('REDIS_SENTINELS without REDIS_SENTINEL_NAME stops the start naming REDIS_SENTINEL_NAME (exit 2)', async () => {
    const { REDIS_SENTINEL_NAME: _, ...without } = env;
    const p = spawnCli(['start'], { env: { ...without, INTAKE_PORT: String(await freePort()) } });
    const exit = await p.exited;
    expect(exit.code).toBe(2);
    expect(p.stderr()).toMatch(/REDIS_SENTINEL_NAME.*is required with REDIS_SENTINELS/);
  }, 60_000);
});
