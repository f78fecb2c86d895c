import { UnavailableError } from './screener-types.js';

/**
 * Refuse at once while Redis is down: a command on the worker's connection would wait until it
 * is back. `what` says what did not happen ("the review was not changed").
 */
export type RedisUp = (what: string) => Promise<void>;

export function redisUpCheck(producer: { ping(): Promise<unknown> }): RedisUp {
  return async (what) => {
    try {
      await producer.ping();
    } catch {
      throw new UnavailableError(`the queue (Redis) is unavailable: ${what}, try again`);
    }
  };
}
