/**
 * When to retry a /v1 call and how long to wait. Pure except `sleep`.
 *
 * The spec: "retry only on 429 rate_limit_exceeded and on 5xx; other errors fail the same way
 * again". We add network failures and time-outs (no answer at all). We do NOT retry:
 * 400, 401, 404, 429 monthly_quota_exceeded, a 429 with another code, other 4xx/3xx, and a
 * 2xx whose body is not a valid score/usage object (the spec gives no reason to expect a
 * second try to differ, and a retry on live could spend quota twice).
 */
import { exponentialBackoffMs } from '../../shared/backoff.js';
import { SvcError } from './errors.js';

export function isRetryable(err: SvcError): boolean {
  if (err.kind === 'network') return true;
  if (err.status !== null && err.status >= 500 && err.status <= 599) return true;
  return err.status === 429 && err.code === 'rate_limit_exceeded';
}

export interface BackoffOptions {
  /** First exponential wait. Default 1000 ms. */
  baseMs?: number;
  /** Ceiling of the exponential part. Default 30000 ms. */
  capMs?: number;
  /** Random jitter added on top: 0 ≤ jitter < jitterMs. Default 250 ms. */
  jitterMs?: number;
}

export const DEFAULT_BACKOFF = { baseMs: 1000, capMs: 30_000, jitterMs: 250 } as const;

function nonNegative(name: string, v: number): number {
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be a finite number ≥ 0, got ${v}`);
  return v;
}

/**
 * Wait before retry number `attempt` (1 = the wait after the first failed request):
 * max(Retry-After, min(cap, base·2^(attempt−1))) + jitter.
 * The cap bounds only our own exponential guess: a server's Retry-After above the cap is
 * honoured as sent, because retrying earlier would just be refused again.
 */
export function backoffMs(attempt: number, retryAfterMs: number | null, random: () => number, opts: BackoffOptions = {}): number {
  const base = nonNegative('backoff.baseMs', opts.baseMs ?? DEFAULT_BACKOFF.baseMs);
  const cap = nonNegative('backoff.capMs', opts.capMs ?? DEFAULT_BACKOFF.capMs);
  const jitterMax = nonNegative('backoff.jitterMs', opts.jitterMs ?? DEFAULT_BACKOFF.jitterMs);
  const server = retryAfterMs === null ? 0 : nonNegative('retryAfterMs', retryAfterMs);
  const exponential = exponentialBackoffMs(attempt, base, cap);
  const r = random();
  const jitter = Math.floor((r >= 0 && r < 1 ? r : 0) * jitterMax);
  return Math.max(server, exponential) + jitter;
}

/** Resolve after `ms`; reject with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
