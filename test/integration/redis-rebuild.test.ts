import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuePaused } from '../../worker/recovery/operator-state.js';
import { WATCH_QUEUE, WATCH_SCHEDULER_ID } from '../../worker/watch/watch-scheduler.js';
import { until } from '../helpers/processes.js';
import { startRedis, type OwnRedis } from '../helpers/redis-server.js';
import { startStack, type Stack } from '../helpers/stack.js';

/** Redis loses its data (FLUSHALL on a Redis this test started): the worker's state comes back. */

let redis: OwnRedis;
let stack: Stack;
beforeAll(async () => {
  redis = await startRedis();
  stack = await startStack({ redisUrl: redis.url, mode: 'live' });
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

describe('Redis rebuilt from SQLite', () => {
  it("the operator's pause (kept in SQLite), the watch clock and the quota gate come back after FLUSHALL", async () => {
    const { screener } = stack;
    expect(await queuePaused(screener.store)).toBeUndefined(); // nobody said yet: Redis is left as it is
    await screener.pause();
    expect(await queuePaused(screener.store)).toBe(true);
    const before = await screener.status();
    expect(before.queue.paused).toBe(true);
    expect(before.quota.monthly_quota).not.toBeNull();

    const r = new Redis(redis.url);
    const watch = new Queue(WATCH_QUEUE, { connection: r, prefix: stack.prefix });
    try {
      await r.flushall();
      const after = await until(
        'the pause and the quota gate back',
        30_000,
        async () => {
          const s = await screener.status();
          return s.queue.paused && s.quota.monthly_quota !== null && s;
        },
        100,
      );
      expect(after.quota).toMatchObject({ monthly_quota: before.quota.monthly_quota, gate: 'open' });
      await until('the watch clock back', 30_000, async () => (await watch.getJobScheduler(WATCH_SCHEDULER_ID)) || undefined, 100);

      // Resumed: SQLite says so, and a second flush leaves the queue running.
      await screener.resume();
      expect(await queuePaused(screener.store)).toBe(false);
      await r.flushall();
      await until(
        'the rebuild after the second flush',
        30_000,
        async () => (await r.exists(`${stack.prefix}:live:redis-state`)) === 1 || undefined,
        100,
      );
      expect((await screener.status()).queue.paused).toBe(false);
    } finally {
      await watch.close();
      r.disconnect();
    }
  });
});
