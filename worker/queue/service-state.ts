import type { Redis } from 'ioredis';
import type { StatusReport } from '../../shared/screening.js';
import type { LimitsSnapshot } from '../svc/limits.js';

/**
 * What every worker process last learned about the /v1 service — reachable or not, key
 * rejected, the rate-limit window — kept in one Redis hash so /status is the same whichever
 * process answers it. Writes are skipped when nothing changed, to keep the hot path cheap.
 */
export type ServiceTransition = { kind: 'down' | 'key_rejected'; detail?: string | undefined } | { kind: 'up' | 'key_accepted' };

/** KEYS[1] the hash; ARGV field, value, …. Returns reachable and key_rejected as they were. */
const SET_RETURNING_BEFORE = `
local before = redis.call('HMGET', KEYS[1], 'reachable', 'key_rejected')
redis.call('HSET', KEYS[1], unpack(ARGV))
return before
`;

/** The longest service-wide hold-off a Retry-After can set. */
export const HOLD_OFF_CAP_MS = 60 * 60_000;

export class ServiceState {
  readonly #redis: Redis;
  readonly #key: string;
  #last = '';
  #lastAt = 0;

  constructor(
    redis: Redis,
    keyPrefix: string,
    private readonly now: () => Date,
    /** Told when a write changes reachability or the key's standing (one process sees each change). */
    private readonly onTransition?: (t: ServiceTransition) => void,
  ) {
    this.#redis = redis;
    this.#key = `${keyPrefix}:service-state`;
  }

  async #set(fields: Record<string, string>, signature: string): Promise<void> {
    // Another process may have written since: repeat an unchanged state every few seconds.
    const t = this.now().getTime();
    if (signature === this.#last && t - this.#lastAt < 5_000) return;
    this.#last = signature;
    this.#lastAt = t;
    const all = { ...fields, checked_at: this.now().toISOString() };
    // The fields before this write, in the same step: which process's write changed what.
    const before = (await this.#redis.eval(SET_RETURNING_BEFORE, 1, this.#key, ...Object.entries(all).flat())) as [
      string | null,
      string | null,
    ];
    if (this.onTransition) this.#tell(before[0], before[1], fields);
  }

  #tell(reachable: string | null, keyRejected: string | null, now: Record<string, string>): void {
    const t = this.onTransition!;
    const err = now.last_error || undefined;
    if (now.reachable === '0' && reachable !== '0') t({ kind: 'down', detail: err });
    if (now.reachable === '1' && reachable === '0') t({ kind: 'up' });
    if (now.key_rejected === '1' && keyRejected !== '1') t({ kind: 'key_rejected', detail: err });
    if (now.key_rejected === '0' && keyRejected === '1') t({ kind: 'key_accepted' });
  }

  reachable(): Promise<void> {
    return this.#set({ reachable: '1', last_error: '', key_rejected: '0' }, 'ok');
  }

  unreachable(message: string): Promise<void> {
    return this.#set({ reachable: '0', last_error: message }, `down:${message}`);
  }

  /**
   * /v1 refused the key (401): like an environment mismatch, no more score lookups from any
   * process until a key check (the usage poll, or a start) passes again.
   */
  async keyRejected(message: string): Promise<void> {
    await this.#redis.hset(this.#key, { key_stop: message });
    await this.#set({ reachable: '1', last_error: message, key_rejected: '1' }, `key:${message}`);
  }

  /** A key check (GET /v1/usage) passed: a refused key no longer stops calls. */
  async keyAccepted(): Promise<void> {
    await this.#redis.hdel(this.#key, 'key_stop');
    this.#last = ''; // the next state is written, whatever this process wrote before
    await this.reachable();
  }

  async limits(l: LimitsSnapshot): Promise<void> {
    const f: Record<string, string> = {};
    if (l.rateLimit !== null) f.rate_limit = String(l.rateLimit);
    if (l.rateRemaining !== null) f.rate_remaining = String(l.rateRemaining);
    if (l.rateResetAt !== null) f.rate_reset_at = l.rateResetAt;
    if (Object.keys(f).length > 0) await this.#redis.hset(this.#key, f);
  }

  /**
   * The service said (Retry-After) not to call before `untilMs`, further off than a screening
   * can wait: every process holds off its /v1 calls until then — at most HOLD_OFF_CAP_MS, so a
   * wrong or absurd Retry-After cannot stop the service for days. The key expires by itself.
   */
  async holdOff(untilMs: number): Promise<number | null> {
    const t = this.now().getTime();
    const until = Math.min(untilMs, t + HOLD_OFF_CAP_MS);
    const ms = Math.ceil(until - t);
    if (ms <= 0) return null;
    await this.#redis.set(`${this.#key}:hold-off`, String(until), 'PX', ms);
    return until;
  }

  /**
   * An answer came from the other environment than the key's (livemode, SVC-Environment):
   * no more /v1 calls until a start checks the key again and it matches.
   */
  async environmentMismatch(message: string): Promise<void> {
    await this.#redis.hset(this.#key, { env_mismatch: message, last_error: message });
  }

  /** The start-up key check passed. */
  async environmentMatches(): Promise<void> {
    await this.#redis.hdel(this.#key, 'env_mismatch');
  }

  /** What stops /v1 calls now, in one round trip: a hold-off (ms epoch), an environment mismatch or a refused key. */
  async callsBlocked(): Promise<{ holdOffUntil: number | null; envMismatch: string | null; keyRejected: string | null }> {
    const [[, until], [, mismatch], [, key]] = (await this.#redis
      .multi()
      .get(`${this.#key}:hold-off`)
      .hget(this.#key, 'env_mismatch')
      .hget(this.#key, 'key_stop')
      .exec()) as [[unknown, string | null], [unknown, string | null], [unknown, string | null]];
    const v = Number(until);
    return {
      holdOffUntil: until !== null && Number.isFinite(v) && v > this.now().getTime() ? v : null,
      envMismatch: mismatch || null,
      keyRejected: key || null,
    };
  }

  /** ms epoch until which no /v1 call may be made, or null. */
  async holdOffUntil(): Promise<number | null> {
    const v = Number(await this.#redis.get(`${this.#key}:hold-off`));
    return Number.isFinite(v) && v > this.now().getTime() ? v : null;
  }

  async report(): Promise<{ service: StatusReport['service']; rate_limit: StatusReport['rate_limit'] }> {
    const [h, holdOff] = await Promise.all([this.#redis.hgetall(this.#key), this.holdOffUntil()]);
    const num = (v: string | undefined): number | null => (v === undefined || v === '' ? null : Number(v));
    return {
      service: {
        reachable: h.reachable !== '0',
        checked_at: h.checked_at ?? null,
        last_error: h.last_error ? h.last_error : null,
        key_rejected: h.key_rejected === '1',
        hold_off_until: holdOff === null ? null : new Date(holdOff).toISOString(),
        environment_mismatch: h.env_mismatch ? h.env_mismatch : null,
      },
      rate_limit: { per_minute: num(h.rate_limit), remaining: num(h.rate_remaining), resets_at: h.rate_reset_at ?? null },
    };
  }
}
