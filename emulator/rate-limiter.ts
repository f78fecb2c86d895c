/** Per-account fixed-window rate limit: every counted request of an account shares one window. */

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends. */
  resetAt: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfter: number;
}

export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => Date,
    /** Windows start this many ms after the wall-clock boundary (0: on the minute). */
    private readonly offsetMs = 0,
  ) {
    if (!(windowMs > 0)) throw new Error('rateWindowMs must be a positive number of milliseconds');
    if (!(offsetMs >= 0 && offsetMs < windowMs)) throw new Error('rateWindowOffsetMs must be from 0 to below rateWindowMs');
  }

  private window(accountId: string): { start: number; count: number; end: number; nowMs: number } {
    const nowMs = this.now().getTime();
    const start = Math.floor((nowMs - this.offsetMs) / this.windowMs) * this.windowMs + this.offsetMs;
    let w = this.windows.get(accountId);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(accountId, w);
    }
    return { ...w, end: start + this.windowMs, nowMs };
  }

  private decision(allowed: boolean, limit: number, count: number, end: number, nowMs: number): RateDecision {
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt: Math.ceil(end / 1000),
      retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)),
    };
  }

  /** Count one request; refused when the window is already full (refusals are not counted). */
  take(accountId: string, limit: number): RateDecision {
    const w = this.window(accountId);
    if (w.count >= limit) return this.decision(false, limit, w.count, w.end, w.nowMs);
    const count = w.count + 1;
    this.windows.set(accountId, { start: w.start, count });
    return this.decision(true, limit, count, w.end, w.nowMs);
  }

  /** The state without counting (for unauthenticated answers). */
  peek(accountId: string, limit: number): RateDecision {
    const w = this.window(accountId);
    return this.decision(w.count < limit, limit, w.count, w.end, w.nowMs);
  }
}
