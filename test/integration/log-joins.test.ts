/**
 * Logs an operator can join up, read from the real pino output of the real stack (the
 * command line's own logger, worker/log.ts, as JSON lines into memory): every line about one
 * screening carries its screening id and the intake request id that accepted it; a callback's
 * lines carry its delivery id, and its retries after the first are debug; pause and resume say
 * so once each; each schema step is logged with its time; the /v1 state changes are told once,
 * by the process whose write changed them, however many processes write the same state.
 */
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../worker/log.js';
import { QuotaGate } from '../../worker/queue/quota-gate.js';
import { ServiceState, type ServiceTransition } from '../../worker/queue/service-state.js';
import { openStore } from '../../worker/store/index.js';
import { latestVersion } from '../../worker/store/migrations.js';
import { latestPgVersion } from '../../worker/store/pg/pg-migrations.js';
import { freePort } from '../helpers/free-port.js';
import { until } from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { onPostgres } from '../helpers/test-db.js';

type Line = Record<string, any> & { msg: string; level: number };

function memoryLogger(): { logger: ReturnType<typeof createLogger>; lines: Line[] } {
  const lines: Line[] = [];
  let rest = '';
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      const text = rest + chunk.toString('utf8');
      const parts = text.split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) if (p.trim() !== '') lines.push(JSON.parse(p) as Line);
      cb();
    },
  });
  return { logger: createLogger({ env: { LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }, destination }), lines };
}

let stack: Stack;
let lines: Line[];
const OTHER = uniquePrefix('other-install');
beforeAll(async () => {
  // Another install's queue in the same Redis, there before this one starts.
  const r = new Redis(inject('redisUrl'));
  await r.hset(`${OTHER}:screenings:meta`, 'opts.maxLenEvents', '10000');
  r.disconnect();
  const m = memoryLogger();
  lines = m.lines;
  stack = await startStack({ logger: m.logger, callbackBackoffMs: 50 });
});
afterAll(async () => {
  await stack?.close();
});

async function post(path: string, body: unknown, requestId: string): Promise<any> {
  const r = await request(stack.intakeUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify(body),
  });
  return r.body.json();
}

describe('which Redis', () => {
  it('the start says which Redis (host:port, no password) and prefix, and warns of another install queued there', async () => {
    const u = new URL(inject('redisUrl'));
    const at = `${u.hostname}:${u.port || '6379'}`;
    const said = lines.find((l) => l.msg === `Redis at ${at}, key prefix ${stack.prefix}`);
    expect(said).toMatchObject({ level: 30, redis: at, prefix: stack.prefix });
    const warned = await until('the other-install warning', 5_000, () =>
      lines.find((l) => l.msg.includes('also holds screening queues of another install')),
    );
    expect(warned.level).toBe(40);
    expect(warned.others).toContain(OTHER);
    expect(warned.others).not.toContain(stack.prefix);
    expect(JSON.stringify(lines)).not.toMatch(/redis:\/\/[^"]*@/);
  });
});

describe('log lines that join up', () => {
  it('every line of a screening worked by the queue carries its screening id and the request id that accepted it', async () => {
    const s = await post('/screenings?wait=10', { dot_number: '1000003', tender_id: 'LOG-1' }, 'req-log-join-1');
    expect(s.status).toBe('done');
    const done = await until('the screening done line', 10_000, () =>
      lines.find((l) => l.msg === 'screening done' && l.screening === s.id),
    );
    expect(done.request_id).toBe('req-log-join-1');
    const mine = lines.filter((l) => l.screening === s.id);
    // The /v1 lookup at debug, the result at info: all of them joined to the request.
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['/v1 lookup', 'screening done']));
    expect(mine.filter((l) => l.request_id !== 'req-log-join-1')).toEqual([]);
    // And the intake's own lines of that request.
    expect(lines.some((l) => l.msg === 'request' && l.request_id === 'req-log-join-1')).toBe(true);
  });

  it("a callback's lines carry its delivery id; only the first failure is a warning", async () => {
    const refused = `http://127.0.0.1:${await freePort()}/hook`;
    const s = await post('/screenings?wait=10', { dot_number: '1000005', callback_url: refused }, 'req-log-cb');
    const failed = await until('three failed attempts', 15_000, () => {
      const f = lines.filter((l) => l.msg.startsWith('callback failed') && l.delivery !== undefined && l.to === new URL(refused).origin);
      return f.length >= 3 ? f : undefined;
    });
    expect(failed.every((l) => typeof l.delivery === 'string' && l.delivery.length > 0)).toBe(true);
    expect(failed.map((l) => [l.attempt, l.level]).slice(0, 3)).toEqual([
      [1, 40],
      [2, 20],
      [3, 20],
    ]);
    expect(s.id).toMatch(/^scr_/);
    await post(`/callbacks/cancel`, { url: refused }, 'req-log-cb-cancel');
  });

  it('pause and resume are one warning each, however often they are asked', async () => {
    for (const path of ['/queue/pause', '/queue/pause', '/queue/resume', '/queue/resume']) await post(path, {}, `req-${path.slice(7)}`);
    const said = lines.filter((l) => /^queue (paused|resumed)/.test(l.msg));
    expect(said.map((l) => [l.msg.split(' ')[1], l.level])).toEqual([
      ['paused', 40],
      ['resumed', 40],
    ]);
    expect(said.map((l) => l.request_id)).toEqual(['req-pause', 'req-resume']);
  });
});

describe('schema steps', () => {
  it('a new database logs each migration with its time', () => {
    const db = tempDbPath();
    const steps: Array<{ version: number; name: string; ms: number }> = [];
    const store = openStore(db.path, { onMigration: (m) => steps.push(m) });
    store.close();
    expect(steps.map((s) => s.version)).toEqual(Array.from({ length: latestVersion() }, (_, i) => i + 1));
    expect(steps.every((s) => Number.isInteger(s.ms) && s.ms >= 0 && s.name.length > 0)).toBe(true);
    // Opened again: nothing to apply, nothing said.
    const again: unknown[] = [];
    openStore(db.path, { onMigration: (m) => again.push(m) }).close();
    expect(again).toEqual([]);
    db.cleanup();
  });

  it('the worker says it in its log', () => {
    // Each backend has its own schema steps (SCREEN_TEST_DB, test-db.ts).
    const latest = onPostgres ? latestPgVersion() : latestVersion();
    expect(lines.filter((l) => /^schema migration \d+ applied in \d+ ms: /.test(l.msg)).map((l) => l.version)).toEqual(
      Array.from({ length: latest }, (_, i) => i + 1),
    );
  });
});

describe('the monthly quota used up, told once', () => {
  it('two processes close the gate; only the write that closed it tells, and again only after it reopened', async () => {
    const prefix = uniquePrefix('quota-once');
    const told: string[] = [];
    const clients = [new Redis(inject('redisUrl')), new Redis(inject('redisUrl'))];
    try {
      const now = () => new Date('2026-03-10T12:00:00Z');
      const [a, b] = clients.map(
        (r, i) =>
          new QuotaGate(r, prefix, {
            live: true,
            reserve: { kind: 'count', value: 0 },
            now,
            onClosed: (u) => told.push(`${i}:${u.toISOString()}`),
          }),
      );
      await a!.closeUntilMonthEnd();
      await b!.closeUntilMonthEnd();
      await a!.closeUntilMonthEnd();
      expect(told).toEqual(['0:2026-04-01T00:00:00.000Z']);
      // Room again (the usage poll), then used up again: a second warning.
      await b!.observeUsage({ monthly_quota: 1000, live_requests_used: 10, remaining: 990 } as never);
      await b!.closeUntilMonthEnd();
      expect(told).toEqual(['0:2026-04-01T00:00:00.000Z', '1:2026-04-01T00:00:00.000Z']);
    } finally {
      for (const c of clients) c.disconnect();
    }
  });
});

describe('/v1 state changes, told once', () => {
  it('down, up, key refused and accepted: once each, by whichever of two processes changed it', async () => {
    const prefix = uniquePrefix('svcstate');
    const told: Array<[string, ServiceTransition['kind']]> = [];
    const clients = [new Redis(inject('redisUrl')), new Redis(inject('redisUrl'))];
    try {
      const [a, b] = clients.map(
        (r, i) =>
          new ServiceState(
            r,
            prefix,
            () => new Date(),
            (t) => told.push([i === 0 ? 'a' : 'b', t.kind]),
          ),
      );
      await a!.reachable();
      await b!.reachable();
      await a!.unreachable('ECONNREFUSED');
      await b!.unreachable('ECONNREFUSED');
      await b!.unreachable('timeout');
      await a!.reachable();
      await b!.reachable();
      await b!.keyRejected('401 invalid_api_key');
      await a!.keyRejected('401 invalid_api_key');
      await a!.keyAccepted();
      await b!.keyAccepted();
      expect(told).toEqual([
        ['a', 'down'],
        ['a', 'up'],
        ['b', 'key_rejected'],
        ['a', 'key_accepted'],
      ]);
    } finally {
      for (const c of clients) c.disconnect();
    }
  });
});
