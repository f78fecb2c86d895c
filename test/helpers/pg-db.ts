import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { migratePg } from '../../worker/store/pg/pg-migrations.js';
import { openPgStore, type OpenPgStoreOptions, type PgStore } from '../../worker/store/pg/pg-store.js';

/**
 * A PostgreSQL database of the test's own: created here, dropped by `drop()`. Only a database this
 * helper created is ever dropped: by its kept name, or at the end of the run by the run's own
 * prefix (global-pg.ts).
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
  /**
   * SQL_ASCII instead of UTF8 (with the C locale, as PostgreSQL requires), as an old cluster's
   * default may be: the store refuses it.
   */
  encoding?: 'SQL_ASCII';
}

/** The names this run's databases start with (CS_TEST_RUN is set by global-pg.ts). */
export function runPrefix(): string {
  const run = process.env.CS_TEST_RUN ?? '0';
  if (!/^\d+$/.test(run)) throw new Error(`CS_TEST_RUN: ${run}`);
  return `cs_t_${run}_`;
}

/** Drop every database this run created and left (a test file killed before its afterAll). */
export async function dropRunDatabases(): Promise<string[]> {
  return admin(async (c) => {
    const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [runPrefix()]);
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`);
    return rows.map((r) => r.datname);
  });
}

export async function pgTestDatabase(opts: PgTestDatabaseOptions = {}): Promise<PgTestDatabase> {
  // cs_t_<run>_<pid>_<random>: the run's own prefix lets its teardown (global-pg.ts) drop what a
  // killed test file left, and nothing of another run.
  const name = `${runPrefix()}${process.pid}_${randomBytes(4).toString('hex')}`;
  if (opts.icuLocale !== undefined && !/^[A-Za-z0-9-]+$/.test(opts.icuLocale)) throw new Error(`icuLocale: ${opts.icuLocale}`);
  const locale = opts.icuLocale === undefined ? '' : ` LOCALE_PROVIDER icu ICU_LOCALE '${opts.icuLocale}'`;
  const encoding = opts.encoding === 'SQL_ASCII' ? `'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'` : `'UTF8'`;
  if (opts.encoding !== undefined && opts.icuLocale !== undefined) throw new Error('icuLocale needs UTF8');
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING ${encoding}${locale}`));
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

/** A test database with the PostgreSQL store open on it (its open migrates it); `close()` closes the store and drops the database. */
export async function pgTestStore(opts: OpenPgStoreOptions = {}): Promise<{ db: PgTestDatabase; store: PgStore; close(): Promise<void> }> {
  const db = await pgTestDatabase();
  let store: PgStore;
  try {
    store = await openPgStore(db.url, { max: 4, applicationName: 'carrier-screen-test', ...opts });
  } catch (err) {
    await db.drop();
    throw err;
  }
  return {
    db,
    store,
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}
