import { inject, it, expect } from 'vitest';
import { Redis } from 'ioredis';

it('the global setup provides a reachable real Redis', async () => {
  const redis = new Redis(inject('redisUrl'));
  try {
    expect(await redis.ping()).toBe('PONG');
  } finally {
    redis.disconnect();
  }
});
