import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { request } from 'undici';
import { inject } from 'vitest';
import { DEMO_KEYS, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.js';
import { loadConfig, type IntakeLimits } from '../../shared/config.js';
import { createCallbacks } from '../../worker/callbacks/index.js';
import { startIntake } from '../../worker/intake/server.js';
import { createScreener } from '../../worker/screener.js';
import { uniquePrefix } from './redis-prefix.js';
import { testRecord } from './test-db.js';

export type StackScreener = Awaited<ReturnType<typeof createScreener>>;

export interface Stack {
  /** e.g. http://127.0.0.1:39123 */
  intakeUrl: string;
  token: string;
  callbackSecret: string;
  screener: StackScreener;
  emulator: RunningEmulator;
  /**
   * The SQLite file. Under SCREEN_TEST_DB=postgres there is none: reading it throws (mark such a
   * case sqliteOnly, test-db.ts).
   */
  dbPath: string;
  /** SCREEN_DB: the SQLite file, or the PostgreSQL test database's URL. */
  screenDb: string;
  /** The BullMQ/Redis key prefix of this stack (unique per call). */
  prefix: string;
  /** Stop the intake API only (the worker goes on): for a desk that must show "worker unreachable". */
  stopIntake(): Promise<void>;
  /** Start the intake again on the same address. */
  startIntakeAgain(): Promise<void>;
  close(): Promise<void>;
}

/** One request to the stack's intake API with its token, a body sent as JSON; the answer's status and JSON body. */
export async function callApi(stack: Stack, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

export interface StackOptions {
  mode?: 'sandbox' | 'live';
  emulator?: EmulatorOptions;
  /** Serve the intake over https with this PEM certificate and key (test/helpers/test-ca.ts). */
  tls?: { cert: Buffer; key: Buffer };
  /** Extra environment for loadConfig (e.g. SCREEN_CACHE_TTL). */
  env?: Record<string, string>;
  now?: () => Date;
  /** Where /ui/* is served from (default: the intake's default). */
  uiDir?: string;
  /** First callback retry delay (default 200 ms so retry tests stay short). */
  callbackBackoffMs?: number;
  /** How long a failing callback is retried before it is dead (default 24 h). */
  callbackDeadAfterMs?: number;
  heartbeatMs?: number;
  /** Where logs go (default: silent unless TEST_LOG_LEVEL is set). */
  logger?: Logger;
  /** A Redis of the test's own (e.g. one it stops); default the shared test Redis. */
  redisUrl?: string;
  /** The intake's door limits; by default no rate limit (property tests send thousands a minute). */
  limits?: Partial<IntakeLimits>;
  /**
   * Open this SQLite file (e.g. one written as an older version wrote it) instead of a new one; the
   * test removes it. On SQLite whatever SCREEN_TEST_DB says.
   */
  dbPath?: string;
}

/**
 * The whole worker for tests, all real: the emulator on a free port, our Redis with a unique
 * key prefix, a SQLite file in a temp dir (a PostgreSQL test database under SCREEN_TEST_DB=postgres), the screening core with its queue worker and the
 * callback sender, and the intake API on a free port. close() stops it all and removes the file.
 */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const mode = opts.mode ?? opts.emulator?.mode ?? 'sandbox';
  const emulator = await startEmulator({ ...opts.emulator, mode, port: 0, ...(opts.now ? { now: opts.now } : {}) });
  let db;
  try {
    db = opts.dbPath
      ? { screenDb: opts.dbPath, env: { SCREEN_DB: opts.dbPath }, sqlitePath: opts.dbPath, cleanup: () => Promise.resolve() }
      : await testRecord();
  } catch (e) {
    await emulator.close();
    throw e;
  }
  const prefix = uniquePrefix('stack');
  const token = randomBytes(24).toString('base64url');
  const callbackSecret = randomBytes(24).toString('base64url');
  const logger = opts.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  let screener: StackScreener | undefined;
  try {
    const config = loadConfig({
      REDIS_URL: opts.redisUrl ?? inject('redisUrl'),
      ...db.env,
      SCREEN_REDIS_PREFIX: prefix,
      INTAKE_TOKEN: token,
      CALLBACK_SECRET: callbackSecret,
      ...opts.env,
    });
    screener = await createScreener(config, {
      svc: { baseUrl: emulator.baseUrl, apiKey: mode === 'live' ? DEMO_KEYS.live : DEMO_KEYS.sandbox },
      runWorker: true,
      logger,
      svcBackoff: { baseMs: 20, capMs: 200, jitterMs: 10 },
      ...(opts.now ? { now: opts.now } : {}),
      callbacks: (deps) =>
        createCallbacks({
          ...deps,
          secret: callbackSecret,
          backoffMs: opts.callbackBackoffMs ?? 200,
          pollMs: 200,
          ...(opts.callbackDeadAfterMs ? { deadAfterMs: opts.callbackDeadAfterMs } : {}),
          ...(opts.now ? { now: opts.now } : {}),
        }),
    });
    const s = screener;
    const sqlitePath = db.sqlitePath;
    const intakeAt = (port: number) =>
      startIntake({
        screener: s,
        token,
        logger,
        host: '127.0.0.1',
        port,
        ...(opts.uiDir ? { uiDir: opts.uiDir } : {}),
        ...(opts.heartbeatMs ? { heartbeatMs: opts.heartbeatMs } : {}),
        ...(opts.tls ? { tls: opts.tls } : {}),
        limits: { ratePerMinute: 0, ...opts.limits },
      });
    let intake: Awaited<ReturnType<typeof startIntake>> | null = await intakeAt(0);
    const url = intake.url;
    return {
      intakeUrl: url,
      token,
      callbackSecret,
      screener: s,
      emulator,
      get dbPath(): string {
        if (sqlitePath === undefined) throw new Error('stack.dbPath: there is no SQLite file under SCREEN_TEST_DB=postgres (sqliteOnly)');
        return sqlitePath;
      },
      screenDb: db.screenDb,
      prefix,
      async stopIntake() {
        await intake?.close();
        intake = null;
      },
      async startIntakeAgain() {
        if (intake) return;
        intake = await intakeAt(Number(new URL(url).port));
      },
      async close() {
        await intake?.close();
        await s.close();
        await emulator.close();
        await db.cleanup();
      },
    };
  } catch (e) {
    await screener?.close().catch(() => {});
    await emulator.close();
    await db.cleanup();
    throw e;
  }
}
