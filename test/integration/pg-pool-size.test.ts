/**
 * SCREEN_DB_POOL_MAX (docs/operations.md, "Two hosts"): the connections one process holds to a
 * PostgreSQL record, what a DBA sizes max_connections by. `carrier-screen start`, the real process,
 * at the smallest size it takes, under a burst of screenings (misses, hits, holds) and reads at once:
 * every request answered, and never more sessions than the setting, as PostgreSQL counts them.
 */
import { rmSync } from 'node:fs';
import pg from 'pg';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { MIN_PG_POOL_MAX } from '../../shared/config.js';
import { keyOf, withEmulator } from '../helpers/emulator.js';
import { pgTestDatabase, type PgTestDatabase } from '../helpers/pg-db.js';
import { ensureBuilt, mkdirTemp, spawnCli, startIntakeProcess, type StartedIntake, type WorkerEnv } from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { startRedis, type OwnRedis } from '../helpers/redis-server.js';

const TOKEN = 'pg-pool-size-test-admin-token-0123456789';

describe('SCREEN_DB_POOL_MAX', () => {
  let db: PgTestDatabase;
  let redis: OwnRedis;
  let emulator: RunningEmulator;
  let dataDir: string;
  let env: WorkerEnv;
  let svc: StartedIntake | undefined;

  beforeAll(async () => {
    await ensureBuilt();
    db = await pgTestDatabase();
    redis = await startRedis();
    emulator = await withEmulator({ mode: 'sandbox' });
    dataDir = mkdirTemp('cs-pg-pool-');
    env = {
      SVC_API_KEY: keyOf(emulator),
      SVC_BASE_URL: emulator.baseUrl,
      REDIS_URL: redis.url,
      SCREEN_DB: db.url,
      SCREEN_DB_POOL_MAX: String(MIN_PG_POOL_MAX),
      SCREEN_DATA_DIR: dataDir,
      SCREEN_REDIS_PREFIX: uniquePrefix('pgpool'),
      INTAKE_TOKEN: TOKEN,
    };
  }, 180_000);

  afterAll(async () => {
    await svc?.stop();
    await emulator?.close();
    await redis?.stop();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`start at ${MIN_PG_POOL_MAX} connections answers a burst of screenings and reads, and never holds more`, async () => {
    svc = await startIntakeProcess(env);
    const watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await watcher.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'carrier-screen'",
        );
        most = Math.max(most, rows[0]!.n);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<number> => {
      const res = await request(svc!.url + path, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      await res.body.text();
      return res.statusCode;
    };
    try {
      // Three rounds: the first misses (a /v1 lookup each), the rest hits; 1000003 is held for a person.
      const statuses: number[] = [];
      for (let round = 0; round < 3; round++) {
        statuses.push(
          ...(await Promise.all([
            ...Array.from({ length: 30 }, (_, i) =>
              call('POST', '/screenings?wait=20', { dot_number: String(1000001 + (i % 6)), tender_id: `POOL-${round}-${i}` }),
            ),
            ...Array.from({ length: 5 }, () => call('GET', '/screenings?limit=20')),
            ...Array.from({ length: 5 }, () => call('GET', '/reviews')),
            call('GET', '/healthz'),
          ])),
        );
      }
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    } finally {
      sampling = false;
      await sampler;
      await watcher.end();
    }
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(MIN_PG_POOL_MAX);
  }, 120_000);

  it.each([
    [{ SCREEN_DB_POOL_MAX: String(MIN_PG_POOL_MAX - 1) }, new RegExp(`^carrier-screen: SCREEN_DB_POOL_MAX: .*${MIN_PG_POOL_MAX}`)],
    [{ SCREEN_DB_POOL_MAX: 'ten' }, /^carrier-screen: SCREEN_DB_POOL_MAX: /],
    [{ SCREEN_DB: 'x.db', SCREEN_DB_POOL_MAX: '10' }, /^carrier-screen: SCREEN_DB_POOL_MAX: is set but SCREEN_DB is a SQLite file/],
  ])(
    'refuses %o in one line naming it (exit 2)',
    async (extra, line) => {
      const p = spawnCli(['token', 'list'], { name: 'token-list', env: { ...env, ...extra } });
      const { code } = await p.exited;
      expect(code).toBe(2);
      expect(p.stderr().trim().split('\n')).toEqual([expect.stringMatching(line)]);
    },
    60_000,
  );
});
