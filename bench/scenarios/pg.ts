/**
 * Scenario `--pg` (issue 34): a cache hit's statement sequence on PostgreSQL against the
 * PostgreSQL durable floor, with the SQLite floor and the SQLite sequence beside them, all with
 * the same load generator, alternated run by run. bench/README.md → PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { liveDots } from '../carriers.js';
import type { Harness } from '../harness.js';
import type { LoadRequest } from '../load-generator.js';
import { benchPgDatabase, pgUnavailable, shownUrl, type BenchPgDatabase } from '../pg-db.js';
import { forkRpc, type ChildRpc } from '../rpc.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { screeningRequests } from './cache-hit.js';
import { seedDurableFloor, startFloor, type FloorServer } from './floor.js';

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
};

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
    return { db, admin, floor: Object.assign(floor, { url: floorUrl }), hit: Object.assign(hit, { url: hitUrl }), sqliteFloor };
  } catch (err) {
    for (const c of children) await c.stop().catch(() => undefined);
    await admin.end();
    await db.drop();
    throw err;
  }
}

/** The PostgreSQL backends of one child's pool, by the application name it connects with. */
async function backends(s: Started, app: string): Promise<Record<string, number>> {
  const { rows } = await s.admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [
    s.db.name,
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
  const route = HIT_ROUTE[target];
  const server =
    target === 'sqlite-floor'
      ? s.sqliteFloor!
      : target === 'pg-floor'
        ? { url: s.floor.url, rpc: s.floor }
        : { url: s.hit.url, rpc: s.hit };
  const token = await server.rpc.call<string>('token');
  const path = (p: string): string => (route ? `/${route}${p}` : `/durable${p}`);
  const pg =
    target === 'sqlite-floor' || target === 'sqlite-hit'
      ? {}
      : await backends(s, target === 'pg-floor' ? 'carrier-screen-bench-floor' : 'carrier-screen-bench-hit');
  const { result, cpu } = await h.load(
    {
      origin: server.url,
      requests: requests.map((r) => ({ ...r, path: path(r.path.replace(/\?.*$/, '')) })),
      concurrency: h.opts.concurrency,
      headers: { authorization: `Bearer ${token}` },
      ...(opts.durationMs !== undefined ? { durationMs: opts.durationMs, warmupMs: opts.warmupMs } : {}),
    },
    { server: server.rpc.pid, ...pg },
  );
  const pgShare = Object.entries(cpu)
    .filter(([k]) => k.startsWith('pg:'))
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
    nodeUsPerReq: perReq(cpu.server ?? Number.NaN),
    pgUsPerReq: perReq(pgShare),
    others: cpu.others ?? Number.NaN,
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
    return { database: s.db.name, loadBefore, loadAfter, runs, counts, scoreBytes };
  } finally {
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
    `load: before ${r.loadBefore.replace(/^.*load average/, 'load average')}; after ${r.loadAfter.replace(/^.*load average/, 'load average')}; other processes up to ${Math.round(others * 100)} % of a core during a run${others > 0.2 ? ' (NOISY: compare ratios within this run)' : ''}`,
  ].join('\n');
}
