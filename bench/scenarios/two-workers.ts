/**
 * Scenario 7, two worker processes on one Redis prefix and one SQLite file (as `start` beside
 * `worker` or `screen --file`), against an emulator whose rate windows do not start on the
 * clock's (2 s windows starting 1 s after it: only the service's X-RateLimit-Reset, shared in
 * Redis, lines the processes up). The economy stream split tender by tender between the two,
 * then the backlog drain accepted by both and worked by both. Issue 29: one lookup per carrier
 * and no 429 across processes.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startProbedEmulator } from '../emulator-probe.js';
import type { Harness, WorkerHandle } from '../harness.js';
import { liveDots } from '../carriers.js';
import { zipfTenderStream } from '../tender-stream.js';
import { screeningRequests } from './cache-hit.js';
import { measureDrain, type DrainRate, type DrainRun } from './drain.js';

export interface TwoWorkersEconomy {
  tenders: number;
  distinct: number;
  lookups: number;
  lookupsPerCarrier: number;
  maxLookupsPerCarrier: number;
  rateLimited: number;
  withoutScore: number;
  wallS: number;
  /** Tender latency of each worker's half. */
  p50Ms: number[];
  p99Ms: number[];
  /** Screening `source` per tender, both halves. */
  outcomes: Record<string, number>;
}

export interface TwoWorkersResult {
  economyRate: DrainRate;
  drainRate: DrainRate;
  emulatorLatencyMs: number;
  economy: TwoWorkersEconomy;
  drain: DrainRun;
}

const WINDOW_MS = 2000;
const OFFSET_MS = 1000;
/** The economy at scenario 3's rate (60/s); the drain at scenario 5's 100 a window, so it spans as many windows. */
const ECONOMY_RATE: DrainRate = { limit: 120, windowMs: WINDOW_MS, offsetMs: OFFSET_MS };
const DRAIN_RATE: DrainRate = { limit: 100, windowMs: WINDOW_MS, offsetMs: OFFSET_MS };
const LATENCY_MS = 20;

/** Two worker processes sharing one Redis prefix and one database (`db`: a PostgreSQL URL; default a SQLite file). */
async function startPair(h: Harness, name: string, svcBaseUrl: string, db?: string): Promise<[WorkerHandle, WorkerHandle]> {
  const shared = {
    SCREEN_DB: db ?? join(h.dir, `${name}.db`),
    // The worker's own files; on PostgreSQL there is no SQLite file's directory to default to.
    ...(db ? { SCREEN_DATA_DIR: join(h.dir, name) } : {}),
    SCREEN_REDIS_PREFIX: `bench-${name}-${randomBytes(4).toString('hex')}`,
    SCREEN_RATE_WINDOW: `${WINDOW_MS / 1000}s`,
  };
  // One after the other, as an operator starts them: the second finds the window's phase in Redis.
  const a = await h.startWorker(`${name}-1`, svcBaseUrl, shared);
  const b = await h.startWorker(`${name}-2`, svcBaseUrl, shared);
  return [a, b];
}

/** The emulator both runs use: its rate window off the clock's, /v1's latency, quota no object. */
function emulatorLimitedTo(ratePerMinute: number): ReturnType<typeof startProbedEmulator> {
  return startProbedEmulator({
    ratePerMinute,
    rateWindowMs: WINDOW_MS,
    rateWindowOffsetMs: OFFSET_MS,
    monthlyQuota: 100_000_000,
    faults: { latencyMs: LATENCY_MS },
  });
}

/**
 * The economy half: a Zipf stream split tender by tender between two workers on one database
 * (`o.db`: a PostgreSQL URL, as the `--pg` scenario passes; default a SQLite file in the temp dir).
 */
export async function runTwoWorkerEconomy(h: Harness, fromDot: number, o: { db?: string; name?: string } = {}): Promise<TwoWorkersEconomy> {
  const name = o.name ?? 'two-economy';
  const stream = zipfTenderStream({ size: h.opts.stream, carriers: 3000, s: 1.1, seed: 20_261_126, fromDot });
  h.log(`${name}: economy, ${stream.dots.length} tenders (${stream.distinct} distinct) split between two processes`);
  const emuE = await emulatorLimitedTo(ECONOMY_RATE.limit);
  let economy: TwoWorkersEconomy;
  try {
    const pair = await startPair(h, name, emuE.baseUrl, o.db);
    try {
      emuE.reset();
      const t0 = performance.now();
      const halves = await Promise.all(
        pair.map((w, k) =>
          h.load({
            origin: w.url,
            headers: w.headers,
            requests: screeningRequests(stream.dots, 30).filter((_, i) => i % 2 === k),
            concurrency: Math.max(1, Math.floor(h.opts.concurrency / 2)),
            tally: 'source',
          }),
        ),
      );
      const wallS = (performance.now() - t0) / 1000;
      const stats = emuE.stats();
      const outcomes: Record<string, number> = {};
      for (const { result } of halves) for (const [k, v] of Object.entries(result.tally)) outcomes[k] = (outcomes[k] ?? 0) + v;
      const scored = (outcomes.cache ?? 0) + (outcomes.service ?? 0) + (outcomes.stale_cache ?? 0);
      const perCarrier = Object.values(stats.byDot);
      economy = {
        tenders: stream.dots.length,
        distinct: stream.distinct,
        lookups: stats.scoreLookups,
        lookupsPerCarrier: stats.scoreLookups / stream.distinct,
        maxLookupsPerCarrier: perCarrier.length ? Math.max(...perCarrier) : 0,
        rateLimited: stats.rateLimited,
        withoutScore: stream.dots.length - scored,
        wallS,
        p50Ms: halves.map((x) => x.result.latency.p50),
        p99Ms: halves.map((x) => x.result.latency.p99),
        outcomes,
      };
    } finally {
      for (const w of pair) await w.stop();
    }
  } finally {
    await emuE.close();
  }
  h.log(
    `${name}: economy ${economy.lookups} lookups for ${economy.distinct} carriers, ${economy.rateLimited} × 429, ${economy.wallS.toFixed(1)} s`,
  );
  return economy;
}

export async function runTwoWorkers(h: Harness, dots: { economy: number; drain: number }): Promise<TwoWorkersResult> {
  const economy = await runTwoWorkerEconomy(h, dots.economy);
  const emuD = await emulatorLimitedTo(DRAIN_RATE.limit);
  let drain: DrainRun;
  try {
    const pair = await startPair(h, 'two-drain', emuD.baseUrl);
    try {
      drain = await measureDrain(h, pair, emuD, liveDots(h.opts.drain, dots.drain), DRAIN_RATE);
    } finally {
      for (const w of pair) await w.stop();
    }
  } finally {
    await emuD.close();
  }
  h.log(`two workers: drain ${drain.perWindow.join(' ')} per window, ${drain.rateLimited} × 429`);
  return { economyRate: ECONOMY_RATE, drainRate: DRAIN_RATE, emulatorLatencyMs: LATENCY_MS, economy, drain };
}
