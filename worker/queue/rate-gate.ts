import type { Redis } from 'ioredis';
import { sleep } from '../svc/retry.js';
import type { LimitsSnapshot } from '../svc/limits.js';

/**
 * The account's per-minute rate limit, counted in Redis for every request any of our
 * processes makes (score lookups, their retries, usage polls, start-up checks), in the
 * service's own fixed windows. BullMQ's limiter paces jobs, but it cannot see retries or
 * usage polls and its window starts when the first job does; this gate can, and is lined
 * up with X-RateLimit-Reset, so steady-state pacing never earns a 429.
 */

// KEYS[1] counter key base, KEYS[2] the learned phase. ARGV: now ms, window ms, phase ms, limit, guard ms. Returns ms to
// wait (0 = go). Nothing is sent in a window's last `guard` ms: a request counted in one window
// that reaches the service after the next has begun is counted there too, over its limit.
// The window's phase is the one any process learned from X-RateLimit-Reset (KEYS[2]),
// else ARGV[3]: every process counts in the service's own windows, a new one from its first request.
const ACQUIRE = `
local now, w, phase, limit, guard = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local learned = redis.call('GET', KEYS[2])
if learned then phase = tonumber(learned) end
local into = (now - phase) % w
if into >= w - guard then return w - into end
local id = math.floor((now - phase) / w)
local key = KEYS[1] .. ':' .. id
local c = redis.call('INCR', key)
if c == 1 then redis.call('PEXPIRE', key, w * 2) end
if c > limit then return (id + 1) * w + phase - now end
return 0
`;

// KEYS[1] one window's counter. ARGV: the service's count, TTL ms. Raises the counter to it, never lowers it.
const AT_LEAST = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 0
`;

/** A window's last moments, when no request is sent: 5 % of it, at most 250 ms (a minute's 0.4 %). */
export function rateGuardMs(windowMs: number): number {
  return Math.min(250, Math.floor(windowMs * 0.05));
}

export class RateGate {
  readonly #redis: Redis;
  readonly #key: string;
  readonly #phaseKey: string;
  readonly #guardMs: number;
  #phaseMs = 0;
  /** This process's #phaseMs is the one in Redis. */
  #shared = false;
  #limit: number;

  constructor(
    redis: Redis,
    keyPrefix: string,
    private readonly windowMs: number,
    limit: number,
    // Real time: the service's windows are wall-clock windows, whatever clock tests inject.
    private readonly clock: () => number = Date.now,
  ) {
    this.#redis = redis;
    this.#key = `${keyPrefix}:rate-window`;
    this.#phaseKey = `${keyPrefix}:rate-phase`;
    this.#limit = limit;
    this.#guardMs = rateGuardMs(windowMs);
  }

  /** Wait until a request fits in the current window, then count it. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = (await this.#redis.eval(
        ACQUIRE,
        2,
        this.#key,
        this.#phaseKey,
        this.clock(),
        this.windowMs,
        this.#phaseMs,
        this.#limit,
        this.#guardMs,
      )) as number;
      if (wait <= 0) return;
      await sleep(wait, signal);
    }
  }

  /**
   * Line the windows up with what the service said (X-RateLimit-Limit / -Reset). The phase goes
   * to Redis, where every process's next acquire reads it: one window for all processes.
   */
  observe(l: LimitsSnapshot): void {
    if (l.rateLimit !== null && l.rateLimit > 0) this.#limit = l.rateLimit;
    if (l.rateResetAt === null) return;
    const resetMs = Date.parse(l.rateResetAt);
    this.#seed(resetMs, l.rateLimit, l.rateRemaining);
    const phase = resetMs % this.windowMs;
    if (phase === this.#phaseMs && this.#shared) return;
    this.#phaseMs = phase;
    this.#shared = true;
    // Kept a day past the last answer that said it; a lost write is made by the next answer.
    this.#redis.set(this.#phaseKey, String(phase), 'EX', 86_400).catch(() => {
      this.#shared = false;
    });
  }

  /**
   * The service's own count for the window ending at `resetMs` (limit − remaining) raises the
   * shared count of that window: requests counted before the phase was known (the start-up
   * check, a process's first requests) or by other clients of the account are not forgotten.
   * Only from an answer with room left (remaining > 0): a 429 says remaining 0 and would park
   * every request until the window's end, but a 429 is waited out by its Retry-After (an
   * injected rate_limit_exceeded may say 0 s), not by filling the window.
   */
  #seed(resetMs: number, limit: number | null, remaining: number | null): void {
    if (limit === null || remaining === null || remaining <= 0) return;
    const used = limit - remaining;
    if (used <= 0) return;
    // The id ACQUIRE gives a moment of this window, in the phase this answer implies.
    const id = Math.floor(resetMs / this.windowMs) - 1;
    this.#redis.eval(AT_LEAST, 1, `${this.#key}:${id}`, used, this.windowMs * 2).catch(() => {});
  }
}
