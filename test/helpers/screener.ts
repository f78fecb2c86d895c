import { inject } from 'vitest';
import { pino } from 'pino';
import { loadConfig, type Config } from '../../shared/config.js';
import { startEmulator, DEMO_KEYS, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.js';
import { createScreener, type ScreenerOptions } from '../../worker/screener.js';
import { uniquePrefix } from './redis-prefix.js';
import { testRecord } from './test-db.js';

export type TestScreener = Awaited<ReturnType<typeof createScreener>>;

/**
 * A config for tests: our Redis with a unique prefix, a temp SQLite file (a PostgreSQL test
 * database under SCREEN_TEST_DB=postgres, test-db.ts), env overrides. cleanup() removes the record.
 */
export async function testConfig(env: Record<string, string> = {}): Promise<Config & { cleanup(): Promise<void> }> {
  const db = await testRecord();
  try {
    const config = loadConfig({
      REDIS_URL: inject('redisUrl'),
      ...db.env,
      SCREEN_REDIS_PREFIX: uniquePrefix(),
      ...env,
    });
    return { ...config, cleanup: db.cleanup };
  } catch (e) {
    await db.cleanup();
    throw e;
  }
}

/** The real emulator plus a screening core pointed at it; close() stops both. */
export async function withScreener(
  o: { emulator?: EmulatorOptions; env?: Record<string, string>; screener?: ScreenerOptions } = {},
): Promise<{ emulator: RunningEmulator; screener: TestScreener; config: Config; close(): Promise<void> }> {
  const emulator = await startEmulator({ port: 0, ...o.emulator });
  const mode = o.emulator?.mode ?? 'sandbox';
  let config: Awaited<ReturnType<typeof testConfig>>;
  let screener: TestScreener;
  try {
    config = await testConfig(o.env);
  } catch (e) {
    await emulator.close();
    throw e;
  }
  try {
    screener = await createScreener(config, {
      svc: { baseUrl: emulator.baseUrl, apiKey: mode === 'live' ? DEMO_KEYS.live : DEMO_KEYS.sandbox },
      logger: pino({ level: 'silent' }),
      // Short waits between /v1 retries keep the tests quick; the schedule itself is unit-tested.
      svcBackoff: { baseMs: 20, capMs: 200, jitterMs: 10 },
      ...o.screener,
    });
  } catch (e) {
    await emulator.close();
    await config.cleanup();
    throw e;
  }
  return {
    emulator,
    screener,
    config,
    async close() {
      await screener.close();
      await emulator.close();
      await config.cleanup();
    },
  };
}
