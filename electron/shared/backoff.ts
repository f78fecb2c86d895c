import { exponentialBackoffMs } from '../../shared/backoff.js';

/** Reconnect delays: exponential from `initialMs`, capped at `maxMs`, with jitter so many trays do not reconnect in step. */

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000 };

/**
 * Delay before reconnect attempt `attempt` (0 = first retry). Between 75% and 100% of
 * min(maxMs, initialMs · 2^attempt); `random` is a source in [0, 1).
 */
export function backoffDelay(attempt: number, opts: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt must be a whole number >= 0, got ${attempt}`);
  const ceiling = exponentialBackoffMs(attempt + 1, opts.initialMs, opts.maxMs);
  return Math.round(ceiling * (0.75 + 0.25 * random()));
}
