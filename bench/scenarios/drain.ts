/**
 * Scenario 5, backlog drain: N distinct carriers queued at once (the queue paused while they
 * are accepted, resumed at the start of a rate window) against a known limit. Counts the
 * lookups in each of the emulator's fixed windows and the 429s the worker received. With
 * several workers (scenario 7), each accepts its share and all of them work the one queue.
 */
import { request } from 'undici';
import type { ProbedEmulator } from '../emulator-probe.js';
import type { Harness, WorkerHandle } from '../harness.js';
import { CpuMeter } from '../proc-stats.js';
import { screeningRequests } from './cache-hit.js';

export interface DrainRun {
  carriers: number;
  limit: number;
  windowMs: number;
  /** Lookups in each rate window, from the one the queue resumed in to the last. */
  perWindow: number[];
  windowsUsed: number;
  /** ceil(carriers / limit): the fewest windows any client could use. */
  minWindows: number;
  /** Lookups per window over every window but the last, as a share of the limit. */
  achievedShare: number;
  /** From resume to the last lookup. */
  elapsedS: number;
  rateLimited: number;
  /** Jobs still waiting, active or delayed after the last lookup (0 once the queue has drained). */
  unfinished: number;
  /** CPU share during the drain: worker(s), Redis, the bench (emulator) and every other process. */
  cpu: Record<string, number>;
  /** Worker processes that drained the queue together. */
  workers: number;
}

/** The service's limit: `limit` per `windowMs`, windows starting `offsetMs` after the clock's. */
export interface DrainRate {
  limit: number;
  windowMs: number;
  offsetMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function intake<T>(worker: WorkerHandle, method: 'GET' | 'POST', path: string): Promise<T> {
  const res = await request(worker.url + path, { method, headers: worker.headers });
  const body = (await res.body.json()) as T;
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: HTTP ${res.statusCode} ${JSON.stringify(body)}`);
  return body;
}

interface QueueCounts {
  queue: { waiting: number; active: number; delayed: number };
}

export async function measureDrain(
  h: Harness,
  workers: WorkerHandle | WorkerHandle[],
  emu: ProbedEmulator,
  dots: string[],
  rate: DrainRate,
): Promise<DrainRun> {
  const all = Array.isArray(workers) ? workers : [workers];
  const worker = all[0]!;
  const off = rate.offsetMs ?? 0;
  // The queue (in Redis) is one for every worker on the prefix: paused and resumed through any.
  await intake(worker, 'POST', '/queue/pause');
  // Each worker accepts its share of the carriers.
  const loads = await Promise.all(
    all.map((w, k) => {
      const mine = dots.filter((_, i) => i % all.length === k);
      return h.load({
        origin: w.url,
        headers: w.headers,
        requests: screeningRequests(mine, 0, { priority: 'background' }),
        concurrency: Math.max(1, Math.floor(16 / all.length)),
      });
    }),
  );
  const accepted = loads.reduce((n, l) => n + (l.result.statuses['202'] ?? 0), 0);
  if (accepted !== dots.length)
    throw new Error(`drain: expected ${dots.length} × 202 queued, got ${JSON.stringify(loads.map((l) => l.result.statuses))}`);

  // Resume just after a window starts, so every window but the last can be used in full.
  await sleep(rate.windowMs - ((Date.now() - off) % rate.windowMs) + 2);
  emu.reset();
  const pids: Record<string, number> =
    all.length === 1 ? { worker: worker.pid } : Object.fromEntries(all.map((w, k) => [`worker${k + 1}`, w.pid]));
  const meter = new CpuMeter({ ...pids, redis: h.redis.pid, bench: process.pid }).start();
  const t0 = Date.now();
  await intake(worker, 'POST', '/queue/resume');
  await emu.lookups(dots.length, (dots.length / rate.limit) * rate.windowMs * 4 + 10_000);
  const cpu = meter.stop();
  const tLast = emu.lookupTimes[emu.lookupTimes.length - 1]!;
  const stats = emu.stats();

  let unfinished = Number.NaN;
  for (let i = 0; i < 100; i++) {
    const s = await intake<QueueCounts>(worker, 'GET', '/status');
    unfinished = s.queue.waiting + s.queue.active + s.queue.delayed;
    if (unfinished === 0) break;
    await sleep(50);
  }

  const first = Math.floor((t0 - off) / rate.windowMs);
  const perWindow: number[] = [];
  for (const t of emu.lookupTimes) {
    const i = Math.floor((t - off) / rate.windowMs) - first;
    while (perWindow.length <= i) perWindow.push(0);
    perWindow[i]!++;
  }
  const full = perWindow.slice(0, -1);
  const achievedShare = full.length ? full.reduce((a, b) => a + b, 0) / (full.length * rate.limit) : dots.length / rate.limit;
  return {
    carriers: dots.length,
    limit: rate.limit,
    windowMs: rate.windowMs,
    perWindow,
    windowsUsed: perWindow.length,
    minWindows: Math.ceil(dots.length / rate.limit),
    achievedShare,
    elapsedS: (tLast - t0) / 1000,
    rateLimited: stats.rateLimited,
    unfinished,
    cpu,
    workers: all.length,
  };
}
