/**
 * The rate gate (worker/queue/rate-gate.ts) on a real Redis: requests are counted in the
 * service's fixed windows, and none is sent in a window's last moments, where it could reach the
 * service after the next window has begun and be counted there over the limit.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RateGate, rateGuardMs } from '../../worker/queue/rate-gate.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import type { LimitsSnapshot } from '../../worker/svc/limits.js';

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

/** An answer's rate headers: the window ending at `resetMs`, with `remaining` of `limit` left. */
function answer(limit: number, remaining: number, resetMs: number): LimitsSnapshot {
  const at = new Date().toISOString();
  return {
    environment: 'live',
    apiVersion: null,
    requestId: null,
    rateLimit: limit,
    rateRemaining: remaining,
    rateResetAt: new Date(resetMs).toISOString(),
    quotaLimit: null,
    quotaRemaining: null,
    at,
  };
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

  it("an answer with room left raises its window's shared count to the service's own; a 429 (remaining 0) does not fill the window", async () => {
    const prefix = uniquePrefix();
    const gate = new RateGate(redis, prefix, WINDOW, 10);
    const end = (Math.floor(Date.now() / WINDOW) + 1) * WINDOW; // the current window's end
    const window = String(end / WINDOW - 1);
    gate.observe(answer(10, 6, end)); // the service counted 4 (some before we knew its phase)
    expect(await counts(prefix)).toEqual({ [window]: '4' });
    gate.observe(answer(10, 8, end)); // an older answer read late never lowers it
    expect(await counts(prefix)).toEqual({ [window]: '4' });
    // A 429 says remaining 0: its Retry-After governs, the window is not parked full.
    gate.observe(answer(10, 0, end));
    expect(await counts(prefix)).toEqual({ [window]: '4' });
    // Each answer raises the window it names, not the one it was read in.
    gate.observe(answer(10, 9, end + WINDOW));
    expect(await counts(prefix)).toEqual({ [window]: '4', [String(end / WINDOW)]: '1' });
  });

  it('after a 429 (remaining 0) the next request is let through in the same window', async () => {
    const prefix = uniquePrefix();
    const clock = clockAt(100);
    const gate = new RateGate(redis, prefix, WINDOW, 5, clock);
    const window = Math.floor(clock() / WINDOW);
    await gate.acquire();
    gate.observe(answer(5, 0, (window + 1) * WINDOW));
    await gate.acquire();
    // Counted in the same window: the 429 did not fill it (else the second would wait for the next).
    expect(await counts(prefix)).toEqual({ [String(window)]: '2' });
  });
});
