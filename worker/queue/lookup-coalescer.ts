import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sleep } from '../svc/retry.js';

/**
 * N concurrent screenings of one carrier make one /v1 lookup, in one process or several.
 *
 * In a process, callers for the same key share one promise. Across processes, a Redis lock
 * (SET NX PX) elects one leader per key; the leader publishes its outcome under the key for
 * a short while, and followers wait for the lock to go and read that outcome. The leader
 * renews its lock while the lookup runs; a follower whose leader died (lock expired, no
 * outcome) becomes a leader itself.
 */

export interface Timestamped {
  /** ms epoch when the outcome was produced. */
  at: number;
}

/**
 * One round trip before the lookup: a fresh shared outcome (KEYS[2]) if there is one, else the
 * lock (KEYS[1]) if it is free. Returns the outcome's JSON, 1 (lock taken) or 0 (someone else
 * holds it). ARGV: token, lock TTL ms, notBefore (ms epoch).
 */
const CLAIM = `
local out = redis.call('GET', KEYS[2])
if out and tonumber(cjson.decode(out).at) >= tonumber(ARGV[3]) then return out end
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 end
return 0`;

/** One round trip after it: share the outcome (unless ARGV[2] is empty), then drop our own lock. ARGV: token, outcome JSON, outcome TTL ms. */
const SETTLE = `
if ARGV[2] ~= '' then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3]) end
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Keep our own lock alive while the lookup runs. ARGV: token, lock TTL ms. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

export class LookupCoalescer<T extends Timestamped> {
  readonly #redis: Redis;
  readonly #inflight = new Map<string, Promise<T>>();

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    private readonly opts: { lockTtlMs: number; outcomeTtlMs: number; pollMs: number } = {
      lockTtlMs: 60_000,
      outcomeTtlMs: 30_000,
      pollMs: 25,
    },
  ) {
    this.#redis = redis;
  }

  /**
   * The outcome for `key` produced at or after `notBefore` (ms epoch): a fresh one shared by
   * another caller, or the result of running `lookup` as the leader. `shareForMs` says how long
   * an outcome may be handed to others (capped by outcomeTtlMs; 0 = never): a rate-limit
   * refusal, say, only while its Retry-After runs, so followers wait instead of each calling.
   */
  run(key: string, notBefore: number, lookup: () => Promise<T>, shareForMs: (t: T) => number): Promise<T> {
    const mine = this.#inflight.get(key);
    if (mine) return mine;
    const p = this.#runShared(key, notBefore, lookup, shareForMs).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, p);
    return p;
  }

  async #runShared(key: string, notBefore: number, lookup: () => Promise<T>, shareForMs: (t: T) => number): Promise<T> {
    const lockKey = `${this.keyPrefix}:lookup-lock:${key}`;
    const outKey = `${this.keyPrefix}:lookup-outcome:${key}`;
    const token = randomUUID();
    for (;;) {
      const claim = (await this.#redis.eval(CLAIM, 2, lockKey, outKey, token, this.opts.lockTtlMs, notBefore)) as string | number;
      if (typeof claim === 'string') return JSON.parse(claim) as T;
      if (claim === 1) {
        let outcome: T | undefined;
        // A lookup may outlast the lock (five attempts with waits): renew it so no other
        // process takes the lead and calls /v1 for the same carrier meanwhile.
        const renew = setInterval(
          () => void this.#redis.eval(RENEW, 1, lockKey, token, this.opts.lockTtlMs).catch(() => {}),
          Math.max(10, Math.floor(this.opts.lockTtlMs / 3)),
        );
        try {
          outcome = await lookup();
          return outcome;
        } finally {
          clearInterval(renew);
          const ttl = outcome === undefined ? 0 : Math.floor(Math.min(this.opts.outcomeTtlMs, shareForMs(outcome)));
          const share = ttl >= 1 ? JSON.stringify(outcome) : '';
          // Not waited for: a later claim from this process goes behind it on the same
          // connection, another process waits for the lock to go, and a settle that fails
          // leaves the lock to expire.
          this.#redis.eval(SETTLE, 2, lockKey, outKey, token, share, Math.max(1, ttl)).catch(() => {});
        }
      }
      while ((await this.#redis.exists(lockKey)) === 1) await sleep(this.opts.pollMs);
    }
  }
}
