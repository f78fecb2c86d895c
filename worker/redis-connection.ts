import { Redis, type RedisOptions } from 'ioredis';

/**
 * Two kinds of Redis connection:
 * - blocking: for BullMQ workers, which must wait out a Redis outage (maxRetriesPerRequest null);
 * - failFast: for producers (the intake) and reads, which must answer "unavailable" at once
 *   instead of hanging while Redis is down.
 */
export function redisConnection(url: string, kind: 'blocking' | 'failFast'): Redis {
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
  const redis = new Redis(url, opts);
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

/** host:port (and /db when not 0) of a Redis URL: never its user or password. */
export function redisWhere(url: string): string {
  try {
    const u = new URL(url);
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

/** A Redis URL with any password masked, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}
