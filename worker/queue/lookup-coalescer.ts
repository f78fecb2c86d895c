import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sleep } from '../svc/retry.js';

/**
 * N concurrent screenings of one carrier make one /v1 lookup, in one process or several.
 *
 * In a process, callers for the same key share one promise. Across processes, a Redis lock
 * (SET NX PX) elects one leader per key; the leader publishes its outcome under the key for
 * a short while, and followers wait for the lock to go and read that outcome. A follower
 * whose leader died (lock expired, no outcome) becomes a leader itself.
 */

export interface Timestamped {
  /** ms epoch when the outcome was produced. */
  at: number;
}

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

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
   * another caller, or the result of running `lookup` as the leader. `shareable` says whether
   * an outcome may be handed to others (a rate-limit refusal, say, is not an answer).
   */
  run(key: string, notBefore: number, lookup: () => Promise<T>, shareable: (t: T) => boolean): Promise<T> {
    const mine = this.#inflight.get(key);
    if (mine) return mine;
    const p = this.#runShared(key, notBefore, lookup, shareable).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, p);
    return p;
  }

  async #runShared(key: string, notBefore: number, lookup: () => Promise<T>, shareable: (t: T) => boolean): Promise<T> {
    const lockKey = `${this.keyPrefix}:lookup-lock:${key}`;
    const outKey = `${this.keyPrefix}:lookup-outcome:${key}`;
    const token = randomUUID();
    for (;;) {
      const shared = await this.#readOutcome(outKey, notBefore);
      if (shared) return shared;
      const got = await this.#redis.set(lockKey, token, 'PX', this.opts.lockTtlMs, 'NX');
      if (got === 'OK') {
        try {
          // Another leader may have finished between our read and our lock.
          const late = await this.#readOutcome(outKey, notBefore);
          if (late) return late;
          const outcome = await lookup();
          if (shareable(outcome))
            await this.#redis.set(outKey, JSON.stringify(outcome), 'PX', this.opts.outcomeTtlMs);
          return outcome;
        } finally {
          await this.#redis.eval(RELEASE, 1, lockKey, token);
        }
      }
      // Someone else leads: wait for the lock to go, then read what it left.
      while ((await this.#redis.exists(lockKey)) === 1) await sleep(this.opts.pollMs);
    }
  }

  async #readOutcome(outKey: string, notBefore: number): Promise<T | undefined> {
    const raw = await this.#redis.get(outKey);
    if (raw === null) return undefined;
    const t = JSON.parse(raw) as T;
    return t.at >= notBefore ? t : undefined;
  }
}
