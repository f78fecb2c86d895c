import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { migratePg } from '../../worker/store/pg/pg-migrations.js';

/**
 * A PostgreSQL database of the test's own: created here, dropped by `drop()`. Only a database this
 * helper created is ever dropped (its name is kept, never matched by a pattern).
 * SCREEN_TEST_PG_URL names the server's admin database (default: this machine's, trust auth).
 */
export const PG_ADMIN_URL = process.env.SCREEN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface PgTestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  try {
    await c.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${PG_ADMIN_URL.replace(/:[^:@/]*@/, ':***@')} (${(err as Error).message}); start it, or set SCREEN_TEST_PG_URL`,
      { cause: err },
    );
  }
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export interface PgTestDatabaseOptions {
  /**
   * The database's default collation from ICU (e.g. 'en-US'), as a DBA's cluster may have it,
   * instead of the server's (this machine's: C.UTF-8). Only letters, digits and '-'.
   */
  icuLocale?: string;
}

export async function pgTestDatabase(opts: PgTestDatabaseOptions = {}): Promise<PgTestDatabase> {
  // cs_t_<pid>_<random>: the pid says which run left it, should a killed run leave one.
  const name = `cs_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (opts.icuLocale !== undefined && !/^[A-Za-z0-9-]+$/.test(opts.icuLocale)) throw new Error(`icuLocale: ${opts.icuLocale}`);
  const locale = opts.icuLocale === undefined ? '' : ` LOCALE_PROVIDER icu ICU_LOCALE '${opts.icuLocale}'`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'${locale}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** A test database at the newest schema, with a pool on it; `close()` ends the pool and drops it. */
export async function migratedPgDatabase(): Promise<{ db: PgTestDatabase; pool: pg.Pool; close(): Promise<void> }> {
  const db = await pgTestDatabase();
  const pool = openPgPool(db.url, { max: 4, applicationName: 'carrier-screen-test' });
  try {
    await migratePg(pool);
  } catch (err) {
    await pool.end();
    await db.drop();
    throw err;
  }
  return {
    db,
    pool,
    close: async () => {
      await pool.end();
      await db.drop();
    },
  };
}
