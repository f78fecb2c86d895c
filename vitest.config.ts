import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-redis.ts', 'test/helpers/global-pg.ts'],
    // Integration tests start real servers; a slow CI machine needs room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Browser tests poll what the live feed may redraw; a loaded CI machine redraws late.
    expect: { poll: { timeout: 5_000 } },
    pool: 'forks',
    // A worker thread runs the sources too (the reader pool's): test/helpers/ts-threads.mjs.
    execArgv: ['--import', new URL('./test/helpers/ts-threads.mjs', import.meta.url).href],
    reporters: ['default'],
  },
});
