import { inject } from 'vitest';
import { pino } from 'pino';
import { loadConfig, type Config } from '../../shared/config.js';
import { startEmulator, DEMO_KEYS, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.js';
import { createScreener, type ScreenerOptions } from '../../worker/screener.js';
import { uniquePrefix } from './redis-prefix.js';
import { tempDbPath } from './temp-db.js';

export type TestScreener = Awaited<ReturnType<typeof createScreener>>;

/** A config for tests: our Redis with a unique prefix, a temp SQLite file, env overrides. */
export function testConfig(env: Record<string, string> = {}): Config & { cleanup(): void } {
  const db = tempDbPath();
  const config = loadConfig({
    REDIS_URL: inject('redisUrl'),
    SCREEN_DB: db.path,
    SCREEN_REDIS_PREFIX: uniquePrefix(),
    ...env,
  });
  return { ...config, cleanup: db.cleanup };
}

/** The real emulator plus a screening core pointed at it; close() stops both. */
export async function withScreener(
  o: { emulator?: EmulatorOptions; env?: Record<string, string>; screener?: ScreenerOptions } = {},
): Promise<{ emulator: RunningEmulator; screener: TestScreener; config: Config; close(): Promise<void> }> {
  const emulator = await startEmulator({ port: 0, ...o.emulator });
  const mode = o.emulator?.mode ?? 'sandbox';
  const config = testConfig(o.env);
  const screener = await createScreener(config, {
    svc: { baseUrl: emulator.baseUrl, apiKey: mode === 'live' ? DEMO_KEYS.live : DEMO_KEYS.sandbox },
    logger: pino({ level: 'silent' }),
    // Short waits between /v1 retries keep the tests quick; the schedule itself is unit-tested.
    svcBackoff: { baseMs: 20, capMs: 200, jitterMs: 10 },
    ...o.screener,
  });
  return {
    emulator,
    screener,
    config,
    async close() {
      await screener.close();
      await emulator.close();
      config.cleanup();
    },
  };
}
