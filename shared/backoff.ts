/**
 * The one exponential backoff: the wait before retry `attempt` (1 = after the first failure) is
 * min(capMs, baseMs · 2^(attempt−1)). Each caller adds its own spread on top: the /v1 client
 * a small additive jitter and the server's Retry-After (worker/svc/retry.ts), the tray 75–100 %
 * so many trays do not reconnect in step (electron/shared/backoff.ts), the callback sender none
 * (its rows are spread by when they failed).
 */
export function exponentialBackoffMs(attempt: number, baseMs: number, capMs: number): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a whole number ≥ 1, got ${attempt}`);
  // 2^(attempt−1) overflows to Infinity for huge attempts; min() keeps it at the cap.
  return Math.min(capMs, baseMs * 2 ** Math.min(attempt - 1, 1000));
}
