import type { TestProject } from 'vitest/node';
import type {} from 'vitest';
import { startRedis, type OwnRedis } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    /** True when the tests started this Redis themselves (and so may flush it). */
    redisOwned: boolean;
  }
}

let own: OwnRedis | undefined;

/** One real Redis for the whole run: REDIS_URL when set (never flushed), else our own. */
export async function setup(project: TestProject): Promise<void> {
  if (process.env.REDIS_URL) {
    project.provide('redisUrl', process.env.REDIS_URL);
    project.provide('redisOwned', false);
    return;
  }
  own = await startRedis();
  project.provide('redisUrl', own.url);
  project.provide('redisOwned', true);
}

export async function teardown(): Promise<void> {
  await own?.stop();
}
