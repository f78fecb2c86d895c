/**
 * The load generator: `concurrency` closed loops over one keep-alive undici Pool, each sending
 * its next request as soon as the previous answer is read. Runs in its own process
 * (loadgen-process.ts) so it never competes with the process being measured for an event loop.
 */
import { performance } from 'node:perf_hooks';
import { Pool, RetryAgent, type Dispatcher } from 'undici';
import { summarize, type LatencySummary } from './percentiles.js';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** The "standard retry library" of the naive integration: undici's RetryAgent. */
export interface RetryPolicy {
  /** Retries after the first request (4 = five attempts, the spec's maximum). */
  maxRetries: number;
  minTimeoutMs: number;
  maxTimeoutMs: number;
  timeoutFactor: number;
}

export interface LoadJob {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  headers?: Record<string, string>;
  requests: LoadRequest[];
  concurrency: number;
  /** Cycle through `requests` for this long (after `warmupMs`); without it, send each once. */
  durationMs?: number;
  /** Requests sent during the warm-up are not recorded. */
  warmupMs?: number;
  /** Send through a RetryAgent (the naive integration) instead of the bare pool. */
  retry?: RetryPolicy;
  /** Count the values of this top-level field of every JSON answer (e.g. "source"). */
  tally?: string;
}

export interface LoadResult {
  /** Requests recorded (completed inside the measured window). */
  completed: number;
  elapsedMs: number;
  rps: number;
  /** Milliseconds, from sending the request to reading the whole answer. */
  latency: LatencySummary;
  /** Final HTTP status → count (after retries, for the naive integration). */
  statuses: Record<string, number>;
  /** Network errors and exhausted retries → count. */
  errors: Record<string, number>;
  tally: Record<string, number>;
  /** CPU time of this process over the measured window, and its share of one core. */
  cpu: { ms: number; share: number };
}

function bump(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

export async function runLoad(job: LoadJob): Promise<LoadResult> {
  if (job.requests.length === 0) throw new RangeError('load job: requests is empty');
  if (!Number.isInteger(job.concurrency) || job.concurrency < 1) throw new RangeError('load job: concurrency must be a whole number ≥ 1');
  const pool = new Pool(job.origin, { connections: job.concurrency, pipelining: 1 });
  const dispatcher: Dispatcher = job.retry
    ? new RetryAgent(pool, {
        maxRetries: job.retry.maxRetries,
        minTimeout: job.retry.minTimeoutMs,
        maxTimeout: job.retry.maxTimeoutMs,
        timeoutFactor: job.retry.timeoutFactor,
        retryAfter: true,
      })
    : pool;
  const statuses: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const tally: Record<string, number> = {};
  let latencies = new Float64Array(1 << 16);
  let recorded = 0;
  const record = (ms: number): void => {
    if (recorded === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[recorded++] = ms;
  };

  const timed = job.durationMs !== undefined;
  const t0 = performance.now();
  const measureFrom = t0 + (timed ? (job.warmupMs ?? 0) : 0);
  const measureTo = timed ? measureFrom + job.durationMs! : Number.POSITIVE_INFINITY;
  let cpuAtStart = timed && (job.warmupMs ?? 0) > 0 ? undefined : process.cpuUsage();
  let next = 0;

  async function loop(): Promise<void> {
    for (;;) {
      const start = performance.now();
      if (timed ? start >= measureTo : next >= job.requests.length) return;
      if (cpuAtStart === undefined && start >= measureFrom) cpuAtStart = process.cpuUsage();
      const r = job.requests[next++ % job.requests.length]!;
      let status = 'error';
      let body: string | undefined;
      try {
        const res = await dispatcher.request({
          origin: job.origin,
          method: r.method,
          path: r.path,
          headers: { ...job.headers, ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(r.body !== undefined ? { body: r.body } : {}),
        });
        status = String(res.statusCode);
        if (job.tally) body = await res.body.text();
        else await res.body.dump();
      } catch (e) {
        const err = e as { code?: string; statusCode?: number };
        // RetryAgent gives up by throwing, with the last status it saw.
        if (err.code === 'UND_ERR_REQ_RETRY' && err.statusCode !== undefined) {
          status = String(err.statusCode);
          bump(errors, 'retries_exhausted');
        } else bump(errors, err.code ?? 'error');
      }
      const end = performance.now();
      if (start < measureFrom || end > measureTo) continue;
      record(end - start);
      bump(statuses, status);
      if (job.tally && body !== undefined) {
        let v: unknown;
        try {
          v = (JSON.parse(body) as Record<string, unknown>)[job.tally];
        } catch {
          v = '(not JSON)';
        }
        bump(tally, String(v));
      }
    }
  }

  await Promise.all(Array.from({ length: job.concurrency }, loop));
  const t1 = timed ? measureTo : performance.now();
  const cpu = process.cpuUsage(cpuAtStart);
  await pool.close();
  const elapsedMs = t1 - measureFrom;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return {
    completed: recorded,
    elapsedMs,
    rps: (recorded / elapsedMs) * 1000,
    latency: summarize(latencies.subarray(0, recorded)),
    statuses,
    errors,
    tally,
    cpu: { ms: cpuMs, share: cpuMs / elapsedMs },
  };
}
