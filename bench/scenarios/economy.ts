/**
 * Scenario 3, economy on a realistic tender stream: the same Zipf stream of tenders once
 * through the worker (POST /screenings?wait=30) and once through a naive integration (every
 * tender calls /v1 itself, through undici's RetryAgent), each against its own live emulator
 * with the same rate limit and latency. Counts what /v1 saw.
 */
import { DEMO_KEYS, type EmulatorStats } from '../../emulator/index.js';
import { startProbedEmulator } from '../emulator-probe.js';
import type { Harness } from '../harness.js';
import type { LoadJob, LoadResult } from '../load-generator.js';
import { zipfTenderStream } from '../tender-stream.js';
import { screeningRequests } from './cache-hit.js';

export interface EconomyArm {
  tenders: number;
  wallS: number;
  /** 200 score answers: what a live quota is charged. */
  lookups: number;
  /** Every /v1/svc-score request, refused ones included. */
  scoreRequests: number;
  /** 429 rate_limit_exceeded answers received. */
  rateLimited: number;
  /** Lookups per distinct carrier of the stream (1 is the least possible). */
  lookupsPerCarrier: number;
  /** Most lookups spent on one carrier. */
  maxLookupsPerCarrier: number;
  p50Ms: number;
  p99Ms: number;
  /** Tenders that ended without a fresh or cached score. */
  withoutScore: number;
  /** Worker: screening `source` per tender; naive: final HTTP status per tender. */
  outcomes: Record<string, number>;
  /** CPU share of the bench process, where the emulator runs. */
  emulatorCpu: number;
}

export interface EconomyResult {
  stream: { tenders: number; carriers: number; distinct: number; s: number };
  rateLimit: { perWindow: number; windowMs: number };
  emulatorLatencyMs: number;
  worker: EconomyArm;
  naive: EconomyArm;
  /** Share of /v1 lookups the worker saved against the naive integration. */
  lookupsSaved: number;
}

const RATE = { perWindow: 60, windowMs: 1000 };
const LATENCY_MS = 20;

export function arm(
  result: LoadResult,
  stats: EmulatorStats,
  distinct: number,
  tenders: number,
  wallS: number,
  withoutScore: number,
  outcomes: Record<string, number>,
  cpu: Record<string, number>,
): EconomyArm {
  const perCarrier = Object.values(stats.byDot);
  return {
    tenders,
    wallS,
    lookups: stats.scoreLookups,
    scoreRequests: stats.scoreRequests,
    rateLimited: stats.rateLimited,
    lookupsPerCarrier: stats.scoreLookups / distinct,
    maxLookupsPerCarrier: perCarrier.length ? Math.max(...perCarrier) : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    withoutScore,
    outcomes,
    emulatorCpu: cpu.bench ?? Number.NaN,
  };
}

export async function runEconomy(h: Harness, fromDot: number): Promise<EconomyResult> {
  const stream = zipfTenderStream({ size: h.opts.stream, carriers: 3000, s: 1.1, seed: 20_261_122, fromDot });
  const emulatorOpts = {
    ratePerMinute: RATE.perWindow,
    rateWindowMs: RATE.windowMs,
    monthlyQuota: 100_000_000,
    faults: { latencyMs: LATENCY_MS },
  };
  h.log(`economy: ${stream.dots.length} tenders over ${stream.carriers} carriers (${stream.distinct} distinct), Zipf s=${stream.s}`);

  // The worker.
  const emuW = await startProbedEmulator(emulatorOpts);
  let worker: EconomyArm;
  try {
    const w = await h.startWorker('economy', emuW.baseUrl);
    try {
      emuW.reset();
      const t0 = performance.now();
      const job: LoadJob = {
        origin: w.url,
        headers: w.headers,
        requests: screeningRequests(stream.dots, 30),
        concurrency: h.opts.concurrency,
        tally: 'source',
      };
      const { result, cpu } = await h.load(job, { server: w.pid });
      const wallS = (performance.now() - t0) / 1000;
      const scored = (result.tally.cache ?? 0) + (result.tally.service ?? 0) + (result.tally.stale_cache ?? 0);
      worker = arm(
        result,
        emuW.stats(),
        stream.distinct,
        stream.dots.length,
        wallS,
        stream.dots.length - scored,
        { ...result.tally, ...prefixed('http ', result.statuses) },
        cpu,
      );
    } finally {
      await w.stop();
    }
  } finally {
    await emuW.close();
  }
  h.log(`economy: worker ${worker.lookups} lookups, ${worker.rateLimited} × 429, ${worker.wallS.toFixed(1)} s`);

  // The naive integration: each tender asks /v1, retrying as undici's RetryAgent does.
  const emuN = await startProbedEmulator(emulatorOpts);
  let naive: EconomyArm;
  try {
    const t0 = performance.now();
    const { result, cpu } = await h.load({
      origin: emuN.baseUrl,
      headers: { authorization: `Bearer ${DEMO_KEYS.live}` },
      requests: stream.dots.map((d) => ({ method: 'GET', path: `/v1/svc-score?dot_number=${d}` })),
      concurrency: h.opts.concurrency,
      // Five attempts in all, waiting Retry-After or 1 s, 2 s, 4 s, 8 s: the spec's schedule.
      retry: { maxRetries: 4, minTimeoutMs: 1000, maxTimeoutMs: 30_000, timeoutFactor: 2 },
    });
    const wallS = (performance.now() - t0) / 1000;
    naive = arm(
      result,
      emuN.stats(),
      stream.distinct,
      stream.dots.length,
      wallS,
      stream.dots.length - (result.statuses['200'] ?? 0),
      prefixed('http ', result.statuses),
      cpu,
    );
  } finally {
    await emuN.close();
  }
  h.log(`economy: naive ${naive.lookups} lookups, ${naive.rateLimited} × 429, ${naive.wallS.toFixed(1)} s`);

  return {
    stream: { tenders: stream.dots.length, carriers: stream.carriers, distinct: stream.distinct, s: stream.s },
    rateLimit: RATE,
    emulatorLatencyMs: LATENCY_MS,
    worker,
    naive,
    lookupsSaved: 1 - worker.lookups / naive.lookups,
  };
}

export function prefixed(p: string, m: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [p + k, v]));
}
