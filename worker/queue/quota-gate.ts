import type { Redis } from 'ioredis';
import type { Config } from '../../shared/config.js';
import type { Priority, QuotaStatus } from '../../shared/screening.js';
import type { SvcUsage } from '../../shared/svc-contract.js';
import { monthOf, nextMonthStart } from './month.js';

/**
 * The monthly-quota gate, kept in Redis so every worker process shares it.
 *
 * Live only: sandbox requests never count against the quota. The gate closes on
 * 429 monthly_quota_exceeded or when the service says 0 remain, until the 1st 00:00 UTC
 * or until GET /v1/usage shows room again. Below the reserve only tender-time requests
 * may spend quota. Admission takes one lookup from the shared count atomically, so
 * concurrent processes cannot together spend past the floor; every live response
 * then sets the count to what the service says.
 */

export type Admission = { ok: true } | { ok: false; reason: 'quota_exhausted' | 'quota_reserved' };

// KEYS[1] gate hash. ARGV: now ms, priority, reserve kind, reserve value, month (YYYY-MM).
// A new month forgets last month's count and closure: the quota has reset.
const ADMIT = `
local m = redis.call('HGET', KEYS[1], 'month')
if m and m ~= ARGV[5] then redis.call('HDEL', KEYS[1], 'remaining', 'used', 'closed_until') end
redis.call('HSET', KEYS[1], 'month', ARGV[5])
local closed = tonumber(redis.call('HGET', KEYS[1], 'closed_until') or '0')
if closed > tonumber(ARGV[1]) then return 0 end
local rem = redis.call('HGET', KEYS[1], 'remaining')
if not rem then return 1 end
rem = tonumber(rem)
if rem <= 0 then return 0 end
local floor = 0
if ARGV[2] ~= 'tender' then
  if ARGV[3] == 'count' then
    floor = tonumber(ARGV[4])
  else
    local limit = tonumber(redis.call('HGET', KEYS[1], 'limit') or '0')
    floor = math.ceil(tonumber(ARGV[4]) * limit)
  end
end
if rem <= floor then return -1 end
redis.call('HINCRBY', KEYS[1], 'remaining', -1)
return 1
`;

// KEYS[1] gate hash. ARGV: remaining (header), limit (header, '' if none), month, now ISO.
// Returns the count kept.
const OBSERVE = `
local rem, limit, month = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local cur = tonumber(redis.call('HGET', KEYS[1], 'remaining') or '')
local curLimit = tonumber(redis.call('HGET', KEYS[1], 'limit') or '')
local sameMonth = redis.call('HGET', KEYS[1], 'month') == month
if cur and sameMonth and not (limit and curLimit and limit > curLimit) and cur < rem then rem = cur end
redis.call('HSET', KEYS[1], 'remaining', rem, 'month', month, 'updated_at', ARGV[4])
if limit then redis.call('HSET', KEYS[1], 'limit', limit) end
return rem
`;

/** KEYS[1] the gate; ARGV closed_until, month, updated_at. Returns the closed_until it replaced (or nil). */
const CLOSE = `
local before = redis.call('HGET', KEYS[1], 'closed_until')
redis.call('HSET', KEYS[1], 'closed_until', ARGV[1], 'remaining', 0, 'month', ARGV[2], 'updated_at', ARGV[3])
return before
`;

export class QuotaGate {
  readonly #redis: Redis;
  readonly #key: string;

  constructor(
    redis: Redis,
    keyPrefix: string,
    private readonly opts: {
      live: boolean;
      reserve: Config['quotaReserve'];
      now: () => Date;
      /** Told once per closing, by the process whose write closed the gate (the log's one warning). */
      onClosed?: (until: Date) => void;
    },
  ) {
    this.#redis = redis;
    this.#key = `${keyPrefix}:quota-gate`;
  }

  /** Take one live lookup for a request of this priority, or say why not. */
  async admit(priority: Priority): Promise<Admission> {
    if (!this.opts.live) return { ok: true };
    const { reserve, now } = this.opts;
    const r = (await this.#redis.eval(
      ADMIT,
      1,
      this.#key,
      now().getTime(),
      priority,
      reserve.kind,
      reserve.value,
      monthOf(now()),
    )) as number;
    if (r === 1) return { ok: true };
    return { ok: false, reason: r === -1 ? 'quota_reserved' : 'quota_exhausted' };
  }

  /**
   * What a live response's X-Quota-* headers said. Never raises the shared count within a month
   * at the same limit: an answer was counted before the lookups admitted since (in any process)
   * reached the service, so its figure is too high by those, and taking it would let background
   * work spend through the reserve. A raised limit or a new month is taken as it comes.
   */
  async observe(limit: number | null, remaining: number | null): Promise<void> {
    if (!this.opts.live || remaining === null) return;
    const left = (await this.#redis.eval(
      OBSERVE,
      1,
      this.#key,
      remaining,
      limit ?? '',
      monthOf(this.opts.now()),
      this.opts.now().toISOString(),
    )) as number;
    if (left <= 0) await this.closeUntilMonthEnd();
  }

  /** 429 monthly_quota_exceeded: no live score calls until the 1st, 00:00 UTC. */
  async closeUntilMonthEnd(): Promise<void> {
    if (!this.opts.live) return;
    const until = nextMonthStart(this.opts.now());
    // The earlier closed_until and the new one in one step: only the write that closed an open gate tells.
    const before = (await this.#redis.eval(
      CLOSE,
      1,
      this.#key,
      until.getTime(),
      monthOf(this.opts.now()),
      this.opts.now().toISOString(),
    )) as string | null;
    if (before === null || Number(before) <= this.opts.now().getTime()) this.opts.onClosed?.(until);
  }

  /** GET /v1/usage is the authority: room again reopens the gate early. */
  async observeUsage(usage: SvcUsage): Promise<void> {
    if (!this.opts.live) return;
    await this.#redis.hset(this.#key, {
      limit: usage.monthly_quota,
      remaining: usage.remaining,
      used: usage.live_requests_used,
      month: monthOf(this.opts.now()),
      updated_at: this.opts.now().toISOString(),
    });
    if (usage.remaining > 0) await this.#redis.hdel(this.#key, 'closed_until');
    else await this.closeUntilMonthEnd();
  }

  /** Live: whether Redis holds any figures (none after Redis lost its data: re-read /v1/usage). */
  async hasFigures(): Promise<boolean> {
    return !this.opts.live || (await this.#redis.exists(this.#key)) === 1;
  }

  async status(): Promise<QuotaStatus> {
    const now = this.opts.now();
    const h = await this.#redis.hgetall(this.#key);
    if (h.month !== undefined && h.month !== monthOf(now)) {
      // Last month's figures: the quota has reset since.
      delete h.remaining;
      delete h.used;
      delete h.closed_until;
    }
    const num = (v: string | undefined): number | null => (v === undefined ? null : Number(v));
    const limit = num(h.limit);
    const remaining = num(h.remaining);
    const closedUntil = num(h.closed_until);
    const reserve =
      limit === null ? null : this.opts.reserve.kind === 'count' ? this.opts.reserve.value : Math.ceil(this.opts.reserve.value * limit);
    const closed = this.opts.live && ((closedUntil !== null && closedUntil > now.getTime()) || remaining === 0);
    const gate: QuotaStatus['gate'] = !this.opts.live
      ? 'open'
      : closed
        ? 'closed'
        : remaining !== null && reserve !== null && remaining <= reserve
          ? 'reserve'
          : 'open';
    return {
      livemode: this.opts.live,
      monthly_quota: limit,
      // Headers update `remaining` on every live answer, `used` only comes with a usage poll.
      used: limit !== null && remaining !== null ? Math.max(0, limit - remaining) : h.used !== undefined ? Number(h.used) : null,
      remaining,
      resets_at: nextMonthStart(now).toISOString(),
      gate,
      reserve,
      updated_at: h.updated_at ?? null,
    };
  }
}
