/**
 * The bench's PostgreSQL database: created here, migrated to the newest PostgreSQL schema, and
 * dropped by its kept name when the scenario ends. Only a database this run created is ever
 * dropped: `cs_bench_<pid>_<random>`, as test/helpers/pg-db.ts names the tests' (which the bench
 * may not import). The driver is reached through worker/store/pg only (pg-pool.ts).
 */
import { randomBytes } from 'node:crypto';
import { openPgPool } from '../worker/store/pg/pg-pool.js';
import { migratePg } from '../worker/store/pg/pg-migrations.js';

/** The server's admin database; the bench creates its own database beside it. */
export const BENCH_PG_URL = process.env.SCREEN_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL with any password hidden, for a log line. */
export function shownUrl(url: string): string {
  return url.replace(/:[^:@/]*@/, ':***@');
}

async function admin<T>(adminUrl: string, fn: (q: (sql: string) => Promise<unknown>) => Promise<T>): Promise<T> {
  const pool = openPgPool(adminUrl, { max: 1, connectionTimeoutMs: 3_000, applicationName: 'carrier-screen-bench' });
  try {
    return await fn((sql) => pool.query(sql));
  } finally {
    await pool.end();
  }
}

/** Why no PostgreSQL answers at `adminUrl`, or undefined when one does. */
export async function pgUnavailable(adminUrl = BENCH_PG_URL): Promise<string | undefined> {
  try {
    await admin(adminUrl, (q) => q('SELECT 1'));
    return undefined;
  } catch (err) {
    return (err as Error).message || String(err);
  }
}

export interface BenchPgDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A database of this run's own at the newest PostgreSQL schema; drop() removes it (once). */
export async function benchPgDatabase(adminUrl = BENCH_PG_URL, prefix = `cs_bench_${process.pid}_`): Promise<BenchPgDatabase> {
  // A test passes its run's prefix, so the test run's teardown drops what a killed test left.
  if (!/^[a-z0-9_]{1,40}$/.test(prefix)) throw new Error(`database prefix: ${prefix}`);
  const name = `${prefix}${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, (q) => q(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`));
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  let dropped = false;
  const db: BenchPgDatabase = {
    name,
    url: u.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await admin(adminUrl, (q) => q(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
  const pool = openPgPool(db.url, { max: 1, applicationName: 'carrier-screen-bench' });
  try {
    await migratePg(pool);
  } catch (err) {
    await pool.end();
    await db.drop();
    throw err;
  }
  await pool.end();
  return db;
}
