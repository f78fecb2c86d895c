import { Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../shared/config.js';

/** Where Redis is: REDIS_URL, or the master a group of sentinels names (REDIS_SENTINELS). */
export type RedisTarget = Pick<Config, 'redisUrl' | 'redisSentinel'>;

/**
 * A new connection to the target. Through Sentinel, ioredis asks the sentinels for the group's
 * master and, after a failover, for the new one; REDIS_URL gives only the credentials and database.
 */
export function newRedis(target: RedisTarget, opts: RedisOptions): Redis {
  const s = target.redisSentinel;
  if (!s) return new Redis(target.redisUrl, opts);
  const u = new URL(target.redisUrl);
  return new Redis({
    ...opts,
    sentinels: s.sentinels,
    name: s.name,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    db: Number(u.pathname.replace(/^\//, '') || 0),
    // Sentinels all unreachable: ask again with the same backoff as a lost master (none: give up).
    sentinelRetryStrategy: opts.retryStrategy ?? (() => null),
  });
}

/**
 * Two kinds of Redis connection:
 * - blocking: for BullMQ workers, which must wait out a Redis outage (maxRetriesPerRequest null);
 * - failFast: for producers (the intake) and reads, which must answer "unavailable" at once
 *   instead of hanging while Redis is down.
 */
export function redisConnection(target: RedisTarget, kind: 'blocking' | 'failFast'): Redis {
  const common: RedisOptions = {
    lazyConnect: false,
    connectTimeout: 2_000,
    // Reconnect forever with a capped backoff: the worker heals by itself after a restart.
    retryStrategy: (times) => Math.min(200 * times, 2_000),
  };
  const opts: RedisOptions =
    kind === 'blocking'
      ? { ...common, maxRetriesPerRequest: null, enableReadyCheck: true }
      : { ...common, maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 2_000 };
  const redis = newRedis(target, opts);
  // Errors surface on commands; an unhandled 'error' event would crash the process.
  redis.on('error', () => {});
  return redis;
}

/** Resolve once the connection is ready, or reject after `ms`. */
export async function waitReady(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not reachable within ${ms} ms`));
    }, ms);
    const onReady = (): void => {
      cleanup();
      resolve();
    };
    const cleanup = (): void => {
      clearTimeout(t);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

/** host:port (and /db when not 0) of a Redis URL, or the sentinels' group: never a user or password. */
export function redisWhere(target: RedisTarget): string {
  const s = target.redisSentinel;
  if (s) return `sentinel group ${s.name} via ${s.sentinels.map((x) => `${x.host}:${x.port}`).join(',')}`;
  try {
    const u = new URL(target.redisUrl);
    const db = u.pathname.replace(/^\//, '');
    return `${u.hostname}:${u.port || '6379'}${db && db !== '0' ? `/${db}` : ''}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Prefixes of other carrier-screen screening queues in this Redis (BullMQ's `<prefix>:screenings:meta`). */
export async function otherInstalls(redis: Redis, prefix: string): Promise<string[]> {
  const found = new Set<string>();
  let cursor = '0';
  // A bounded look: a large shared Redis must not slow the start.
  for (let i = 0; i < 20; i++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', '*:screenings:meta', 'COUNT', 1000);
    for (const k of keys) {
      const p = k.slice(0, -':screenings:meta'.length);
      if (p !== prefix) found.add(p);
    }
    cursor = next;
    if (cursor === '0') break;
  }
  return [...found].sort();
}
