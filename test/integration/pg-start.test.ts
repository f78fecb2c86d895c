/**
 * `carrier-screen start` on PostgreSQL (SCREEN_DB=postgres://…), as the real process
 * (dist/worker/cli.js): real Redis, the real emulator over HTTP, a test database of its own. It
 * takes screenings (a miss that calls /v1, a cache hit, a held carrier decided through the
 * reviews API, a callback to a real listener), lists them through its reader (GET /screenings,
 * /reviews, /event-log, /callbacks, /decisions, the watch and block lists, /audit.csv; /metrics),
 * and starts again on the same database with everything still there.
 * A `worker`, `screen`, `token create` and `token list` work on the same database (and refuse it while it is
 * empty: only `start` makes the record), and the URL's password never appears in any output. No SQLite file is made: the data dir holds only the worker's own files.
 */
import { readdirSync, rmSync } from 'node:fs';
import pg from 'pg';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import type { Review, Screening } from '../../shared/screening.js';
import { startCallbackListener, type CallbackListener } from '../helpers/callback-listener.js';
import { keyOf, withEmulator } from '../helpers/emulator.js';
import { pgTestDatabase, type PgTestDatabase } from '../helpers/pg-db.js';
import {
  ensureBuilt,
  mkdirTemp,
  spawnCli,
  startIntakeProcess,
  startWorkerProcess,
  until,
  type StartedIntake,
  type WorkerEnv,
} from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { startRedis, type OwnRedis } from '../helpers/redis-server.js';

const TOKEN = 'pg-start-test-admin-token-0123456789abcdef';
/** In the URL only: the test server trusts loopback, so any password is taken, and none may be shown. */
const PASSWORD = `pw-${process.pid}-never-shown`;

let db: PgTestDatabase;
let url: string;
let redis: OwnRedis;
let emulator: RunningEmulator;
let listener: CallbackListener;
let dataDir: string;
let env: WorkerEnv;
let svc: StartedIntake | undefined;
/** Every process's output, to look for the password in at the end. */
const outputs: string[] = [];

beforeAll(async () => {
  await ensureBuilt();
  db = await pgTestDatabase();
  const u = new URL(db.url);
  u.password = PASSWORD;
  url = u.toString();
  redis = await startRedis();
  emulator = await withEmulator({ mode: 'sandbox' });
  listener = await startCallbackListener();
  dataDir = mkdirTemp('cs-pg-start-');
  env = {
    SVC_API_KEY: keyOf(emulator),
    SVC_BASE_URL: emulator.baseUrl,
    REDIS_URL: redis.url,
    SCREEN_DB: url,
    SCREEN_DATA_DIR: dataDir,
    SCREEN_REDIS_PREFIX: uniquePrefix('pgstart'),
    INTAKE_TOKEN: TOKEN,
    LOG_LEVEL: 'debug',
  };
}, 180_000);

afterAll(async () => {
  if (svc) outputs.push(svc.stdout(), svc.stderr());
  await svc?.stop();
  await listener?.close();
  await emulator?.close();
  await redis?.stop();
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<StartedIntake> {
  const p = await startIntakeProcess(env, { readyMs: 60_000 });
  svc = p;
  return p;
}

async function stop(p: StartedIntake): Promise<void> {
  const exit = await p.stop();
  outputs.push(p.stdout(), p.stderr());
  svc = undefined;
  expect(exit.code, p.stderr()).toBe(0);
}

async function call(method: 'GET' | 'POST', path: string, body?: unknown, token = TOKEN) {
  const res = await request(svc!.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? (JSON.parse(text) as any) : undefined };
}

/** GET `path`'s status and body as text (CSV, the metrics). */
async function getText(path: string): Promise<{ status: number; text: string }> {
  const res = await request(svc!.url + path, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: res.statusCode, text: await res.body.text() };
}

/** Run a command to its end; its exit code and output (kept for the password check). */
async function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const p = spawnCli(args, { env });
  const timer = setTimeout(() => void p.kill(), 60_000);
  const exit = await p.exited;
  clearTimeout(timer);
  outputs.push(p.stdout(), p.stderr());
  return { code: exit.code, out: p.stdout(), err: p.stderr() };
}

/** A query on the test database itself: what the record holds, seen from outside the product. */
async function sql<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end();
  }
}

describe('carrier-screen start with SCREEN_DB=postgres://…', () => {
  let miss: Screening;
  let hit: Screening;
  let held: Screening;
  let decided: Review;

  it('on the empty database, worker, screen and token refuse in one line: only start makes the record', async () => {
    for (const args of [['worker'], ['screen', '--dot', '1000001'], ['token', 'list'], ['token', 'create', '--role', 'tms']]) {
      const r = await run(args);
      expect(
        [
          r.code,
          r.err
            .trim()
            .split('\n')
            .filter((l) => l.startsWith('carrier-screen: ')),
        ],
        args.join(' '),
      ).toEqual([2, [expect.stringContaining('the database holds no carrier-screen record yet; only `carrier-screen start` makes one')]]);
    }
    expect(await sql("SELECT 1 FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
  }, 60_000);

  it('takes screenings: a miss that calls /v1, a cache hit, a held carrier decided by a person, callbacks', async () => {
    const p = await start();
    // With INTAKE_TOKEN set no token file is written: the banner's examples read the variable.
    expect(p.stdout()).toContain('token:       from INTAKE_TOKEN');
    expect(p.stdout()).toContain('-H "Authorization: Bearer $INTAKE_TOKEN"');
    expect(p.stdout()).not.toContain('intake-token)');
    // Sandbox: the example screens the emulator's carrier that is held for review.
    expect(p.stdout()).toContain('"dot_number":"1000003"');
    // Its lines name the database without the password.
    const said = await p.waitForOutput(/screening worker running/);
    expect(said).toContain(`"db":"${db.url.replace('postgres://postgres@', 'postgres://postgres:***@')}"`);

    const before = emulator.stats().scoreRequests;
    const m = await call('POST', '/screenings?wait=10', { dot_number: '1000001', tender_id: 'PG-1', callback_url: listener.url });
    expect(m.status, JSON.stringify(m.json)).toBe(200);
    miss = m.json;
    expect(miss).toMatchObject({ status: 'done', source: 'service', action: 'tender' });
    expect(emulator.stats().scoreRequests).toBe(before + 1);

    const h = await call('POST', '/screenings?wait=10', { dot_number: '1000001', tender_id: 'PG-2' });
    hit = h.json;
    expect(hit).toMatchObject({ status: 'done', source: 'cache', action: 'tender' });
    expect(emulator.stats().scoreRequests).toBe(before + 1);

    const r = await call('POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'PG-3', callback_url: listener.url });
    held = r.json;
    expect(held).toMatchObject({ status: 'done', action: 'hold', review: { state: 'pending' } });
    const review = (await call('GET', `/reviews/${held.review!.id}`)).json as Review;
    const approve = await call('POST', `/reviews/${held.review!.id}/approve`, {
      by: 'Dana Dispatcher',
      note: 'called them',
      review_version: review.version,
    });
    expect(approve.status, JSON.stringify(approve.json)).toBe(200);
    decided = approve.json;
    expect(decided).toMatchObject({ state: 'approved', decided_by: 'Dana Dispatcher' });

    // The callbacks, from the outbox in PostgreSQL to a real listener.
    await until('the three callbacks', 30_000, () => listener.received.length >= 3);
    expect(listener.received.map((c) => [c.event, c.screening.id]).sort()).toEqual(
      [
        ['review.resolved', held.id],
        ['screening.completed', held.id],
        ['screening.completed', miss.id],
      ].sort(),
    );

    // The rows are in PostgreSQL, written by connections that say whose they are.
    const rows = await sql<{ id: string }>('SELECT id FROM screenings ORDER BY id');
    expect(rows.map((x) => x.id).sort()).toEqual([miss.id, hit.id, held.id].sort());
    const apps = await sql<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'carrier-screen'",
      [db.name],
    );
    expect(apps[0]!.n).toBeGreaterThan(0);
  }, 120_000);

  it('lists them through its reader: GET /screenings, /reviews, /event-log', async () => {
    const list = await call('GET', '/screenings?limit=10');
    expect(list.status, JSON.stringify(list.json)).toBe(200);
    expect((list.json.data as Screening[]).map((s) => s.id).sort()).toEqual([miss.id, hit.id, held.id].sort());
    const search = await call('GET', '/screenings?dot_number=1000003');
    expect((search.json.data as Screening[]).map((s) => s.id)).toEqual([held.id]);
    const reviews = await call('GET', '/reviews?state=all');
    expect(reviews.status, JSON.stringify(reviews.json)).toBe(200);
    expect(reviews.json.data).toEqual([expect.objectContaining({ id: decided.id, state: 'approved' })]);
    const log = await call('GET', '/event-log?limit=100');
    expect(log.status, JSON.stringify(log.json)).toBe(200);
    const events = (log.json.data as Array<{ event: string }>).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(['screening.completed', 'review.created', 'review.resolved']));
    // The other lists and the audit export, through the same reader.
    const callbacks = await call('GET', '/callbacks?state=all');
    expect(callbacks.status, JSON.stringify(callbacks.json)).toBe(200);
    expect((callbacks.json.data as Array<{ state: string }>).map((c) => c.state)).toEqual(['delivered', 'delivered', 'delivered']);
    const decisions = await call('GET', '/decisions');
    expect(decisions.status, JSON.stringify(decisions.json)).toBe(200);
    expect(decisions.json.data).toEqual([expect.objectContaining({ decision: 'approved', state: 'standing' })]);
    for (const path of ['/watchlist', '/changes', '/blocks?state=all']) expect((await call('GET', path)).status, path).toBe(200);
    const csv = await getText(`/audit.csv?from=2000-01-01&to=${new Date(Date.now() + 60_000).toISOString()}`);
    expect(csv.status, csv.text).toBe(200);
    for (const s of [miss, hit, held]) expect(csv.text).toContain(s.id);
    const metrics = await getText('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^carrier_screen_data_dir_free_bytes \d/m);
  });

  it('starts again on the same database with everything still there', async () => {
    await stop(svc!);
    const before = emulator.stats().scoreRequests;
    await start();
    expect((await call('GET', `/screenings/${held.id}`)).json).toMatchObject({ id: held.id, action: 'tender' });
    expect((await call('GET', `/reviews/${decided.id}`)).json).toMatchObject({ state: 'approved', decided_by: 'Dana Dispatcher' });
    expect(((await call('GET', '/screenings?limit=10')).json.data as Screening[]).length).toBe(3);
    expect(((await call('GET', '/event-log?limit=100')).json.data as unknown[]).length).toBeGreaterThan(0);
    // The score cache is the database's: a hit, and the approved carrier's decision stands.
    const again = (await call('POST', '/screenings?wait=10', { dot_number: '1000001', tender_id: 'PG-4' })).json as Screening;
    expect(again).toMatchObject({ status: 'done', source: 'cache' });
    const standing = (await call('POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'PG-5' })).json as Screening;
    expect(standing).toMatchObject({ action: 'tender', settled_by: 'standing_decision' });
    expect(emulator.stats().scoreRequests).toBe(before);
    expect((await call('GET', '/healthz')).json).toMatchObject({ status: 'ok', record: true, record_writable: true });
  }, 120_000);

  it("screen runs on the same database: a hit from the service's cache, and its screening is the service's", async () => {
    const before = emulator.stats().scoreRequests;
    const r = await run(['screen', '--dot', '1000001', '--tender', 'PG-CLI', '--json']);
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out) as Screening;
    expect(s).toMatchObject({ status: 'done', source: 'cache', tender_id: 'PG-CLI' });
    expect(emulator.stats().scoreRequests).toBe(before);
    expect((await call('GET', `/screenings/${s.id}`)).json).toMatchObject({ id: s.id, tender_id: 'PG-CLI' });
  }, 60_000);

  it('a worker process runs on the same database beside it and stops cleanly', async () => {
    const w = await startWorkerProcess(env, { readyMs: 60_000 });
    try {
      expect(w.stderr()).toContain('postgres://postgres:***@');
      // Work still gets done with two processes taking jobs from the one queue.
      const s = await call('POST', '/screenings?wait=10', { dot_number: '1000001', tender_id: 'PG-W', refresh: true });
      expect(s.json).toMatchObject({ status: 'done', source: 'service' });
    } finally {
      const exit = await w.stop();
      outputs.push(w.stdout(), w.stderr());
      expect(exit.code, w.stderr()).toBe(0);
    }
  }, 60_000);

  it('token create and token list work on the same database; the running service takes the new token', async () => {
    const made = await run(['token', 'create', '--role', 'tms', '--name', 'PG TMS']);
    expect(made.code, made.err).toBe(0);
    const token = made.out.trim();
    expect(token).toMatch(/^cs_tms_/);
    const listed = await run(['token', 'list', '--json']);
    expect(listed.code, listed.err).toBe(0);
    expect(JSON.parse(listed.out).data).toEqual([expect.objectContaining({ role: 'tms', name: 'PG TMS' })]);
    expect((await call('GET', '/screenings?limit=1', undefined, token)).status).toBe(200);
    expect((await sql<{ n: number }>('SELECT count(*)::int AS n FROM intake_tokens'))[0]!.n).toBe(1);
  }, 60_000);

  it('makes no SQLite file, and never shows the password', async () => {
    await stop(svc!);
    expect(readdirSync(dataDir).filter((f) => /\.db/.test(f))).toEqual([]);
    expect(readdirSync(dataDir)).toContain('callback-secret');
    const all = outputs.join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(PASSWORD);
    expect(all).toContain('postgres://postgres:***@');
  }, 60_000);
});
