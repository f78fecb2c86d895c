/**
 * The rate gate (worker/queue/rate-gate.ts) on a real Redis: requests are counted in the
 * service's fixed windows, and none is sent in a window's last moments, where it could reach the
 * service after the next window has begun and be counted there over the limit.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RateGate, rateGuardMs } from '../../worker/queue/rate-gate.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';

const redis = new Redis(inject('redisUrl'));
afterAll(() => redis.quit());

const WINDOW = 1_000;

/** A clock that reads `at` ms into a window now and runs on with real time. */
function clockAt(at: number): () => number {
  const now = Date.now();
  const offset = Math.ceil(now / WINDOW) * WINDOW + at - now;
  return () => Date.now() + offset;
}

async function counts(prefix: string): Promise<Record<string, string>> {
  const keys = await redis.keys(`${prefix}:rate-window:*`);
  const out: Record<string, string> = {};
  for (const k of keys) out[k.split(':').at(-1)!] = (await redis.get(k))!;
  return out;
}

describe('rate gate', () => {
  it('holds a request made in the last moments of a window for the next one, and counts it there', async () => {
    expect(rateGuardMs(WINDOW)).toBe(50);
    expect(rateGuardMs(60_000)).toBe(250);
    const prefix = uniquePrefix();
    const clock = clockAt(WINDOW - 20); // 20 ms before the window ends: inside the 50 ms guard
    const gate = new RateGate(redis, prefix, WINDOW, 10, clock);
    const window = Math.floor(clock() / WINDOW);
    await gate.acquire();
    expect(Math.floor(clock() / WINDOW)).toBe(window + 1);
    expect(await counts(prefix)).toEqual({ [String(window + 1)]: '1' });
  });

  it('counts up to the limit in a window and holds the next request for the one after', async () => {
    const prefix = uniquePrefix();
    const clock = clockAt(100);
    const gate = new RateGate(redis, prefix, WINDOW, 3, clock);
    const window = Math.floor(clock() / WINDOW);
    for (let i = 0; i < 3; i++) await gate.acquire();
    expect(await counts(prefix)).toEqual({ [String(window)]: '3' });
    await gate.acquire();
    expect(Math.floor(clock() / WINDOW)).toBe(window + 1);
    // The full window's counter also counts the refused try; the request is counted where it went.
    expect((await counts(prefix))[String(window + 1)]).toBe('1');
  });
});
