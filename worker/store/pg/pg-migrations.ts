import type pg from 'pg';
import { StoreError } from '../store-error.js';
import { ADVISORY_KEYS } from './advisory-keys.js';
import { PG_MIGRATIONS, type PgMigration } from './schema/index.js';

export interface PgMigrateOptions {
  /** Told after each step this call applied, with how long it took. */
  onMigration?: (m: { version: number; name: string; ms: number }) => void;
}

export function latestPgVersion(migrations: readonly PgMigration[] = PG_MIGRATIONS): number {
  return migrations.reduce((v, m) => Math.max(v, m.version), 0);
}

/**
 * Bring the database to the newest schema this program knows. Each step commits with its row in
 * schema_migrations, so a step is applied whole or not at all; a database newer than this program
 * is refused (StoreError 'schema_too_new'), as SQLite's is.
 */
export async function migratePg(
  pool: pg.Pool,
  opts: PgMigrateOptions = {},
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
): Promise<number> {
  const latest = latestPgVersion(migrations);
  const client = await pool.connect();
  try {
    for (;;) {
      await client.query('BEGIN');
      try {
        // Several hosts starting at once: one at a time, each step once.
        await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_KEYS.migrate]);
        await client.query(
          'CREATE TABLE IF NOT EXISTS schema_migrations (version bigint PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
        );
        const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
        const current = Number(rows[0]?.v ?? 0);
        if (current > latest) {
          throw new StoreError(
            'schema_too_new',
            `PostgreSQL record: schema version ${current} is newer than this program knows (${latest}); upgrade carrier-screen`,
          );
        }
        const next = migrations.find((m) => m.version === current + 1);
        if (!next) {
          await client.query('COMMIT');
          return current;
        }
        const started = performance.now();
        await client.query(next.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          next.version,
          next.name,
          new Date().toISOString(),
        ]);
        await client.query('COMMIT');
        // Whole ms, as SQLite's steps say it: the worker's line reads "applied in 12 ms", not 12.3456 ms.
        opts.onMigration?.({ version: next.version, name: next.name, ms: Math.round(performance.now() - started) });
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    }
  } finally {
    client.release();
  }
}
