/**
 * Scenario `--pg` (issue 34): the product's cache hit on PostgreSQL (the real worker process,
 * SCREEN_DB a database of this run's) and a hit's statement sequences, against the PostgreSQL
 * durable floor, with the SQLite floor, the SQLite worker and the SQLite sequence beside them,
 * all with the same load generator, alternated run by run; then the two-worker economy on both
 * backends. bench/README.md → PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { liveDots } from '../carriers.js';
import { startProbedEmulator, type ProbedEmulator } from '../emulator-probe.js';
import type { Harness, WorkerHandle } from '../harness.js';
import type { LoadRequest } from '../load-generator.js';
import { benchPgDatabase, pgUnavailable, shownUrl, type BenchPgDatabase } from '../pg-db.js';
import { table, type Target } from '../report.js';
import { forkRpc, type ChildRpc } from '../rpc.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { screeningRequests, warmCache } from './cache-hit.js';
import { seedDurableFloor, startFloor, type FloorServer } from './floor.js';
import { runTwoWorkerEconomy, type TwoWorkersEconomy } from './two-workers.js';

export const HIT_VARIANTS = ['a', 'b', 'c', 'a-par', 'c-par', 'a-local', 'b-local', 'sqlite'] as const;
export type HitVariant = (typeof HIT_VARIANTS)[number];

/** What is measured, in the order of one round. */
export const PG_TARGETS = [
  'sqlite-floor',
  'pg-floor',
  'pg-hit-a',
  'pg-hit-b',
  'pg-hit-c',
  'pg-hit-a-par',
  'pg-hit-c-par',
  'pg-hit-a-local',
  'pg-hit-b-local',
  'sqlite-hit',
  'sqlite-worker',
  'pg-worker',
] as const;
export type PgTarget = (typeof PG_TARGETS)[number];

export const PG_TARGET_LABELS: Record<PgTarget, string> = {
  'sqlite-floor': 'SQLite durable floor (floor-server.ts)',
  'pg-floor': 'PG durable floor (pg-floor-server.ts)',
  'pg-hit-a': 'PG hit (a) plain repositories',
  'pg-hit-b': 'PG hit (b) reads folded in one statement',
  'pg-hit-c': "PG hit (c) (b), a batch's writes in one statement",
  'pg-hit-a-par': 'PG hit (a), 4 batches in flight',
  'pg-hit-c-par': 'PG hit (c), 4 batches in flight',
  'pg-hit-a-local': 'PG hit (a), score from a local SQLite file',
  'pg-hit-b-local': 'PG hit (b), score from a local SQLite file',
  'sqlite-hit': 'SQLite hit sequence (same statements, SQLite Store)',
  'sqlite-worker': 'SQLite product: the worker process, cache hit',
  'pg-worker': 'PG product: the worker process on PostgreSQL, cache hit',
};

/** The real worker process (worker-process.ts), on a SQLite file or on a PostgreSQL database of this run's. */
const WORKER_TARGETS = ['sqlite-worker', 'pg-worker'] as const;
type WorkerTarget = (typeof WORKER_TARGETS)[number];
const isWorker = (t: PgTarget): t is WorkerTarget => (WORKER_TARGETS as readonly PgTarget[]).includes(t);
/** The pool's application name in the product (worker/open-record.ts). */
const PRODUCT_APP = 'carrier-screen';

const HIT_ROUTE: Partial<Record<PgTarget, HitVariant>> = {
  'pg-hit-a': 'a',
  'pg-hit-b': 'b',
  'pg-hit-c': 'c',
  'pg-hit-a-par': 'a-par',
  'pg-hit-c-par': 'c-par',
  'pg-hit-a-local': 'a-local',
  'pg-hit-b-local': 'b-local',
  'sqlite-hit': 'sqlite',
};

export interface PgRun {
  target: PgTarget;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  completed: number;
  statuses: Record<string, number>;
  errors: Record<string, number>;
  /** The answers' `source` (the workers': all `cache`). */
  tally: Record<string, number>;
  /** CPU µs per answered request: the Node server process, and the PostgreSQL backends of its pool. */
  nodeUsPerReq: number;
  pgUsPerReq: number;
  /** CPU share (1 = a core) of everything else on the machine meanwhile. */
  others: number;
}

export interface PgCounts {
  floor: { answered: number; committed: number };
  hit: {
    stats: Record<HitVariant, { answered: number; batches: number; pieces: number }>;
    pg: { screenings: number; events: number; mixed: number; dangling: number };
    sqlite: { screenings: number; events: number };
  };
}

export type PgScenario =
  | { skipped: string }
  | {
      database: string;
      loadBefore: string;
      loadAfter: string;
      runs: PgRun[];
      counts: PgCounts;
      scoreBytes: number;
      /** Two worker processes on one database and one Redis prefix, per backend (absent without `twoWorkers`). */
      twoWorkers?: { sqlite: TwoWorkersEconomy; pg: TwoWorkersEconomy };
      /** The workers' databases (made for this run, dropped at its end). */
      productDatabases: string[];
    };

export interface PgScenarioOptions {
  adminUrl: string;
  dots: number;
  /** First DOT of the hot carriers. */
  firstDot: number;
  repeats: number;
  poolMax: number;
  targets?: readonly PgTarget[];
  /** The database's name prefix (default `cs_bench_<pid>_`). */
  dbPrefix?: string;
  /** Also the two-worker economy on both backends (scenario 7's first half), over DOTs from here. */
  twoWorkers?: { fromDot: number };
}

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

function uptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return 'uptime unavailable';
  }
}

interface Started {
  db: BenchPgDatabase;
  admin: ReturnType<typeof openPgPool>;
  floor: ChildRpc & { url: string };
  hit: ChildRpc & { url: string };
  sqliteFloor: FloorServer | undefined;
  /** The workers' own databases (the product's rows must not mix with the sequences' counts), and their /v1. */
  product: { dbs: BenchPgDatabase[]; emulator: ProbedEmulator | undefined; workers: Partial<Record<WorkerTarget, WorkerHandle>> };
}

async function start(o: PgScenarioOptions, targets: readonly PgTarget[]): Promise<Started> {
  const db = await benchPgDatabase(o.adminUrl, o.dbPrefix);
  const admin = openPgPool(o.adminUrl, { max: 1, applicationName: 'carrier-screen-bench' });
  const children: ChildRpc[] = [];
  try {
    const floor = forkRpc(here('../pg-floor-server.js'), { name: 'PG floor server' });
    children.push(floor);
    const hit = forkRpc(here('../pg-hit-sequence.js'), { name: 'PG hit server' });
    children.push(hit);
    const floorUrl = await floor.call<string>('open', { url: db.url, poolMax: o.poolMax });
    const hitUrl = await hit.call<string>('open', { url: db.url, poolMax: o.poolMax });
    const sqliteFloor = targets.includes('sqlite-floor') ? await startFloor() : undefined;
    if (sqliteFloor) children.push(sqliteFloor.rpc);
    return {
      db,
      admin,
      floor: Object.assign(floor, { url: floorUrl }),
      hit: Object.assign(hit, { url: hitUrl }),
      sqliteFloor,
      product: { dbs: [], emulator: undefined, workers: {} },
    };
  } catch (err) {
    for (const c of children) await c.stop().catch(() => undefined);
    await admin.end();
    await db.drop();
    throw err;
  }
}

/**
 * The worker processes as `carrier-screen start` runs them, against an emulator with no limit
 * (scenario 2's): one on a SQLite file, one with SCREEN_DB a PostgreSQL database made for it.
 */
async function startWorkers(h: Harness, s: Started, o: PgScenarioOptions, targets: readonly PgTarget[]): Promise<void> {
  if (!targets.some(isWorker)) return;
  s.product.emulator = await startProbedEmulator({ ratePerMinute: 100_000_000, rateWindowMs: 1000, monthlyQuota: 100_000_000 });
  const svc = s.product.emulator.baseUrl;
  if (targets.includes('sqlite-worker')) s.product.workers['sqlite-worker'] = await h.startWorker('pg-run-sqlite', svc);
  if (targets.includes('pg-worker')) {
    const db = await benchPgDatabase(o.adminUrl, o.dbPrefix);
    s.product.dbs.push(db);
    s.product.workers['pg-worker'] = await h.startWorker('pg-run-pg', svc, {
      SCREEN_DB: db.url,
      SCREEN_DATA_DIR: join(h.dir, 'pg-run-pg'),
    });
  }
}

/** The PostgreSQL backends of one child's pool, by the application name it connects with. */
async function backends(s: Started, app: string, datname = s.db.name): Promise<Record<string, number>> {
  const { rows } = await s.admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [
    datname,
    app,
  ]);
  return Object.fromEntries(rows.map((r) => [`pg:${r.pid}`, r.pid]));
}

async function measure(
  h: Harness,
  s: Started,
  target: PgTarget,
  requests: LoadRequest[],
  opts: { warmupMs: number; durationMs?: number },
): Promise<PgRun> {
  const server = isWorker(target) ? workerServer(s, target) : await benchServer(s, target);
  if (target === 'pg-worker') {
    // The product's pool closes idle connections (10 s): open them again before its backends are listed.
    await h.load({ origin: server.url, requests, concurrency: h.opts.concurrency, headers: server.headers });
  }
  const pg =
    target === 'sqlite-floor' || target === 'sqlite-hit' || target === 'sqlite-worker'
      ? {}
      : target === 'pg-worker'
        ? await backends(s, PRODUCT_APP, s.product.dbs[0]!.name)
        : await backends(s, target === 'pg-floor' ? 'carrier-screen-bench-floor' : 'carrier-screen-bench-hit');
  const { result, cpu } = await h.load(
    {
      origin: server.url,
      requests: requests.map((r) => ({ ...r, path: server.path(r.path) })),
      concurrency: h.opts.concurrency,
      headers: server.headers,
      // As scenario 2 counts them: every worker answer is checked to be `source: cache`.
      tally: 'source',
      ...(opts.durationMs !== undefined ? { durationMs: opts.durationMs, warmupMs: opts.warmupMs } : {}),
    },
    { server: server.pid, ...pg },
  );
  const pgShare = Object.entries(cpu)
    // A backend whose connection the pool closed as idle during the run is gone (NaN): it did no work.
    .filter(([k, v]) => k.startsWith('pg:') && Number.isFinite(v))
    .reduce((a, [, v]) => a + v, 0);
  const perReq = (share: number): number => (result.rps > 0 ? (share / result.rps) * 1e6 : Number.NaN);
  return {
    target,
    rps: result.rps,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    completed: result.completed,
    statuses: result.statuses,
    errors: result.errors,
    tally: result.tally,
    nodeUsPerReq: perReq(cpu.server ?? Number.NaN),
    pgUsPerReq: perReq(pgShare),
    others: cpu.others ?? Number.NaN,
  };
}

interface Server {
  url: string;
  pid: number;
  headers: Record<string, string>;
  path(p: string): string;
}

function workerServer(s: Started, target: WorkerTarget): Server {
  const w = s.product.workers[target];
  if (!w) throw new Error(`${target} not started`);
  // The request as scenario 2 sends it: POST /screenings?wait=5 with the intake token.
  return { url: w.url, pid: w.pid, headers: w.headers, path: (p) => p };
}

async function benchServer(s: Started, target: PgTarget): Promise<Server> {
  const route = HIT_ROUTE[target];
  const server =
    target === 'sqlite-floor'
      ? s.sqliteFloor!
      : target === 'pg-floor'
        ? { url: s.floor.url, rpc: s.floor }
        : { url: s.hit.url, rpc: s.hit };
  const token = await server.rpc.call<string>('token');
  return {
    url: server.url,
    pid: server.rpc.pid,
    headers: { authorization: `Bearer ${token}` },
    path: (p) => `${route ? `/${route}` : '/durable'}${p.replace(/\?.*$/, '')}`,
  };
}

/**
 * Create the bench's database, start the servers, seed them with the same hot carriers, warm each
 * target once (its pool filled, its memo read), then measure every target `repeats` times in
 * rotation. Skipped (not failed) when no PostgreSQL answers at `adminUrl`.
 */
export async function runPgScenario(h: Harness, o: PgScenarioOptions, log: (line: string) => void): Promise<PgScenario> {
  const why = await pgUnavailable(o.adminUrl);
  if (why !== undefined) return { skipped: `no PostgreSQL answers at ${shownUrl(o.adminUrl)} (${why}); set SCREEN_BENCH_PG_URL` };
  const targets = o.targets ?? PG_TARGETS;
  const s = await start(o, targets);
  try {
    log(`PostgreSQL database ${s.db.name} (created for this run, dropped at its end)`);
    const hot = liveDots(o.dots, o.firstDot);
    const scoreBytes = await s.floor.call<number>('seed', hot);
    await s.hit.call<number>('seed', hot);
    if (s.sqliteFloor) await seedDurableFloor(s.sqliteFloor, hot);
    log(`seeded ${hot.length} carriers (score JSON ${scoreBytes} bytes each) in both floors, PostgreSQL and the local SQLite file`);
    await startWorkers(h, s, o, targets);
    for (const t of WORKER_TARGETS) {
      const w = s.product.workers[t];
      if (w) await warmCache(h, w, hot);
    }
    if (targets.some(isWorker))
      log(`worker processes on SQLite and on PostgreSQL (${s.product.dbs[0]?.name ?? '–'}), each screened the ${hot.length} carriers once`);
    const requests = screeningRequests(hot, 5);
    // Fill the pools and the parsed-score memos: the pool's backends are then the ones metered.
    for (const t of targets) await measure(h, s, t, requests, { warmupMs: 0 });
    const loadBefore = uptime();
    log(`load before: ${loadBefore}`);
    const runs: PgRun[] = [];
    const durationMs = h.opts.durationS * 1000;
    const warmupMs = h.opts.quick ? 300 : 1000;
    for (let i = 0; i < o.repeats; i++) {
      for (const t of targets) {
        const r = await measure(h, s, t, requests, { durationMs, warmupMs });
        runs.push(r);
        log(
          `${t.padEnd(15)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  node ${r.nodeUsPerReq.toFixed(0)} µs/req  pg ${r.pgUsPerReq.toFixed(0)} µs/req  others ${Math.round(r.others * 100)} %`,
        );
      }
    }
    const loadAfter = uptime();
    log(`load after: ${loadAfter}`);
    const counts: PgCounts = {
      floor: await s.floor.call('counts'),
      hit: await s.hit.call('counts'),
    };
    for (const w of Object.values(s.product.workers)) await w.stop();
    let twoWorkers: { sqlite: TwoWorkersEconomy; pg: TwoWorkersEconomy } | undefined;
    if (o.twoWorkers) {
      // Each backend over its own carriers: neither finds the other's lookups in its cache.
      const sqlite = await runTwoWorkerEconomy(h, o.twoWorkers.fromDot, { name: 'two-economy-sqlite' });
      const db = await benchPgDatabase(o.adminUrl, o.dbPrefix);
      s.product.dbs.push(db);
      const pg = await runTwoWorkerEconomy(h, o.twoWorkers.fromDot + 100_000, { name: 'two-economy-pg', db: db.url });
      twoWorkers = { sqlite, pg };
    }
    return {
      database: s.db.name,
      loadBefore,
      loadAfter,
      runs,
      counts,
      scoreBytes,
      ...(twoWorkers ? { twoWorkers } : {}),
      productDatabases: s.product.dbs.map((d) => d.name),
    };
  } finally {
    for (const w of Object.values(s.product.workers)) await w.stop().catch(() => undefined);
    await s.product.emulator?.close().catch(() => undefined);
    for (const d of s.product.dbs) await d.drop().catch(() => undefined);
    await s.floor.stop().catch(() => undefined);
    await s.hit.stop().catch(() => undefined);
    await s.sqliteFloor?.rpc.stop().catch(() => undefined);
    await s.admin.end().catch(() => undefined);
    await s.db.drop();
  }
}

/** Medians per target over the repeats, and each against the PG floor and the SQLite floor. */
export function summarizePg(runs: PgRun[]): Array<{
  target: PgTarget;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  nodeUs: number;
  pgUs: number;
  ofPgFloor: number;
  ofSqliteFloor: number;
}> {
  const med = (xs: number[]): number => {
    const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    if (v.length === 0) return Number.NaN;
    const m = Math.floor(v.length / 2);
    return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
  };
  const by = (t: PgTarget): PgRun[] => runs.filter((r) => r.target === t);
  const targets = PG_TARGETS.filter((t) => by(t).length > 0);
  // Ratios run by run (the same round), then their median: drift touches both alike.
  const ratio = (t: PgTarget, floor: PgTarget): number => {
    const a = by(t);
    const f = by(floor);
    return med(a.map((r, i) => (f[i] ? r.rps / f[i].rps : Number.NaN)));
  };
  return targets.map((t) => ({
    target: t,
    rps: med(by(t).map((r) => r.rps)),
    p50Ms: med(by(t).map((r) => r.p50Ms)),
    p99Ms: med(by(t).map((r) => r.p99Ms)),
    nodeUs: med(by(t).map((r) => r.nodeUsPerReq)),
    pgUs: med(by(t).map((r) => r.pgUsPerReq)),
    ofPgFloor: ratio(t, 'pg-floor'),
    ofSqliteFloor: ratio(t, 'sqlite-floor'),
  }));
}

/**
 * Scenario 2's and 7's targets for the product on both backends, from this one run: the cache
 * hit against its own backend's durable floor (round by round), its p99, and lookups per carrier
 * across two workers.
 */
export function pgTargets(r: Exclude<PgScenario, { skipped: string }>): Target[] {
  const sum = summarizePg(r.runs);
  const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '–');
  const out: Target[] = [];
  const backends = [
    { suffix: '', name: 'SQLite', target: 'sqlite-worker', floor: 'SQLite', ratio: (x: (typeof sum)[number]) => x.ofSqliteFloor },
    { suffix: '-pg', name: 'PostgreSQL', target: 'pg-worker', floor: 'PG', ratio: (x: (typeof sum)[number]) => x.ofPgFloor },
  ] as const;
  for (const b of backends) {
    const x = sum.find((y) => y.target === b.target);
    if (!x) continue;
    const cache = r.runs.filter((y) => y.target === b.target).every((y) => Object.keys(y.tally).every((k) => k === 'cache'));
    out.push(
      {
        id: `2a${b.suffix}`,
        what: `${b.name}: worker cache hit ÷ ${b.floor} durable floor${cache ? '' : ' (NOT all source=cache)'}`,
        value: pct(b.ratio(x)),
        target: '≥ 50 %',
        met: cache && b.ratio(x) >= 0.5,
      },
      {
        id: `2b${b.suffix}`,
        what: `${b.name}: worker cache-hit p99`,
        value: `${x.p99Ms.toFixed(2)} ms`,
        target: '≤ 10 ms',
        met: x.p99Ms <= 10,
      },
    );
  }
  if (r.twoWorkers)
    for (const [suffix, name, e] of [
      ['', 'SQLite', r.twoWorkers.sqlite],
      ['-pg', 'PostgreSQL', r.twoWorkers.pg],
    ] as const)
      out.push({
        id: `7a${suffix}`,
        what: `${name}: two workers, /v1 lookups per distinct carrier`,
        value: `${e.lookupsPerCarrier.toFixed(3)} (${e.lookups} / ${e.distinct}, max ${e.maxLookupsPerCarrier} on one)`,
        target: 'exactly 1',
        met: e.lookups === e.distinct && e.maxLookupsPerCarrier === 1,
      });
  return out;
}

function twoWorkerLines(r: Exclude<PgScenario, { skipped: string }>): string[] {
  if (!r.twoWorkers) return [];
  const line = (name: string, e: TwoWorkersEconomy): string =>
    `two workers on ${name}: ${e.tenders} tenders, ${e.lookups} lookups for ${e.distinct} carriers (max ${e.maxLookupsPerCarrier} on one), ${e.rateLimited} × 429, ${e.withoutScore} without a score, p50 ${e.p50Ms.map((x) => x.toFixed(1)).join('/')} ms, ${e.wallS.toFixed(1)} s`;
  return [line('SQLite', r.twoWorkers.sqlite), line('PostgreSQL', r.twoWorkers.pg)];
}

export function renderPg(r: Exclude<PgScenario, { skipped: string }>, concurrency: number): string {
  const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '–');
  const rows = summarizePg(r.runs).map((x) => [
    PG_TARGET_LABELS[x.target],
    x.rps.toFixed(0),
    `${x.p50Ms.toFixed(2)} / ${x.p99Ms.toFixed(2)}`,
    Number.isFinite(x.nodeUs) ? x.nodeUs.toFixed(0) : '–',
    Number.isFinite(x.pgUs) && !x.target.startsWith('sqlite') ? x.pgUs.toFixed(0) : '–',
    pct(x.ofPgFloor),
    pct(x.ofSqliteFloor),
  ]);
  const head = ['target (medians)', 'req/s', 'p50 / p99 ms', 'node µs/req', 'PG µs/req', '÷ PG floor', '÷ SQLite floor'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const st = r.counts.hit.stats;
  const batch = (v: HitVariant): string => (st[v].batches > 0 ? (st[v].pieces / st[v].batches).toFixed(1) : '–');
  const others = Math.max(...r.runs.map((x) => x.others));
  const hitA = summarizePg(r.runs).find((x) => x.target === 'pg-hit-a');
  return [
    `PostgreSQL (issue 34), ${concurrency} connections, database ${r.database} (dropped)`,
    line(head),
    ...rows.map(line),
    `hits per group commit: a ${batch('a')}, b ${batch('b')}, c ${batch('c')}, a-par ${batch('a-par')}, c-par ${batch('c-par')}, a-local ${batch('a-local')}, b-local ${batch('b-local')}`,
    `rows: PG floor ${r.counts.floor.committed} committed for ${r.counts.floor.answered} answers; PG hit ${r.counts.hit.pg.screenings} screenings and ${r.counts.hit.pg.events} events for ${HIT_VARIANTS.filter((v) => v !== 'sqlite').reduce((n, v) => n + st[v].answered, 0)} answers; SQLite hit ${r.counts.hit.sqlite.screenings} for ${st.sqlite.answered}`,
    `target: PG hit ≥ 50 % of the PG durable floor: ${hitA ? `(a) ${pct(hitA.ofPgFloor)}` : ''}${summarizePg(r.runs)
      .filter((x) => ['pg-hit-b', 'pg-hit-c', 'pg-hit-c-par'].includes(x.target))
      .map((x) => `, (${x.target.slice(7)}) ${pct(x.ofPgFloor)}`)
      .join('')}`,
    ...twoWorkerLines(r),
    '',
    table([['#', 'target', 'value', 'goal', ''], ...pgTargets(r).map((x) => [x.id, x.what, x.value, x.target, x.met ? 'met' : 'NOT MET'])]),
    '',
    `load: before ${r.loadBefore.replace(/^.*load average/, 'load average')}; after ${r.loadAfter.replace(/^.*load average/, 'load average')}; other processes up to ${Math.round(others * 100)} % of a core during a run${others > 0.2 ? ' (NOISY: compare ratios within this run)' : ''}`,
  ].join('\n');
}
