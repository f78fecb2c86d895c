import { defineConfig } from 'vitest/config';

/**
 * The reliability and security fault suite (`npm run faults`): every scenario, against real
 * worker/intake processes built from dist/, on the record SCREEN_TEST_DB names (test-db.ts):
 * SQLite, or PostgreSQL in `npm run faults:pg`. The fast scenarios (*.fast.test.ts) also run in
 * `npm test` and `npm run test:pg`; the slow ones (*.slow.ftest.ts) only here.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.fast.test.ts', 'test/faults/**/*.slow.ftest.ts'],
    globalSetup: ['test/helpers/global-redis.ts', 'test/helpers/global-pg.ts', 'test/faults/support/global-build.ts'],
    // Each scenario bounds its own waits; these are the outer limits.
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A worker thread runs the sources too (the reader pool's): test/helpers/ts-threads.mjs.
    execArgv: ['--import', new URL('./test/helpers/ts-threads.mjs', import.meta.url).href],
    // The scenarios kill processes and load the machine: one file at a time keeps the figures honest.
    fileParallelism: false,
    reporters: ['default'],
  },
});
