import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, it } from 'vitest';
import { pgTestDatabase } from './pg-db.js';
import { tempDbPath } from './temp-db.js';

/**
 * The test matrix (issue 34): SCREEN_TEST_DB=postgres runs the stack-built tests against a
 * PostgreSQL test database of their own (pg-db.ts) instead of a temp SQLite file. Default sqlite.
 */
export type TestDbKind = 'sqlite' | 'postgres';

function kindFromEnv(): TestDbKind {
  const v = process.env.SCREEN_TEST_DB?.trim() || 'sqlite';
  if (v !== 'sqlite' && v !== 'postgres') throw new Error(`SCREEN_TEST_DB must be sqlite or postgres, not ${v}`);
  return v;
}

export const TEST_DB: TestDbKind = kindFromEnv();
export const onPostgres = TEST_DB === 'postgres';

/** A record for one stack or screener: what SCREEN_DB (and SCREEN_DATA_DIR) say, and how to remove it. */
export interface TestRecord {
  kind: TestDbKind;
  /** SCREEN_DB: the SQLite file's path, or the test database's URL. */
  screenDb: string;
  /** Environment for loadConfig: SCREEN_DB, and on PostgreSQL a temp SCREEN_DATA_DIR (else ./data in the repo). */
  env: Record<string, string>;
  /** The SQLite file; undefined on PostgreSQL. */
  sqlitePath: string | undefined;
  /** Drops the database (only the one made here) or removes the temp directory. */
  cleanup(): Promise<void>;
}

/** A fresh record on the backend SCREEN_TEST_DB names. */
export async function testRecord(): Promise<TestRecord> {
  if (TEST_DB === 'sqlite') {
    const db = tempDbPath();
    return {
      kind: 'sqlite',
      screenDb: db.path,
      env: { SCREEN_DB: db.path },
      sqlitePath: db.path,
      cleanup: () => Promise.resolve(db.cleanup()),
    };
  }
  const db = await pgTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'cs-data-'));
  return {
    kind: 'postgres',
    screenDb: db.url,
    env: { SCREEN_DB: db.url, SCREEN_DATA_DIR: dataDir },
    sqlitePath: undefined,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    },
  };
}

/** Why a case is skipped under SCREEN_TEST_DB=postgres: the one place this reason is written. */
export const SQLITE_ONLY_REASON = 'SQLite only: reads or writes the SQLite file itself';

type Named<T> = (name: string, ...rest: never[]) => T;

/**
 * For a case (`sqliteOnly(it)`) or a group (`sqliteOnly(describe)`) that by nature works on the
 * SQLite file (its connection, integrity, WAL, backup, a file an older version wrote): skipped on
 * PostgreSQL, its name saying why.
 */
export function sqliteOnly<T extends typeof it | typeof describe>(t: T): T {
  if (!onPostgres) return t;
  const skip = t.skip as unknown as Named<unknown>;
  return ((name: string, ...rest: never[]) => skip(`${name} [${SQLITE_ONLY_REASON}]`, ...rest)) as unknown as T;
}

/** The `it` and `describe` of a SQLite-only case or group (see sqliteOnly). */
export const itSqlite = sqliteOnly(it);
export const describeSqlite = sqliteOnly(describe);

/**
 * How many rows a table of the record holds, read on a connection of its own (SCREEN_DB: a SQLite
 * file or a PostgreSQL URL): for a case that checks a request kept nothing, on either backend.
 */
export async function countRows(screenDb: string, table: string): Promise<number> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`countRows: ${table}`);
  return (await selectRows<{ n: number }>(screenDb, `SELECT count(*) AS n FROM ${table}`))[0]!.n;
}

/**
 * The rows of one SELECT that both backends understand, read on a connection of its own (SCREEN_DB:
 * a SQLite file, read-only; or a PostgreSQL URL; bigint counts come back as numbers on both).
 */
export async function selectRows<T extends object>(screenDb: string, sql: string): Promise<T[]> {
  if (/^postgres(ql)?:\/\//.test(screenDb)) {
    const c = new pg.Client({
      connectionString: screenDb,
      types: { getTypeParser: (oid, format) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) },
    });
    await c.connect();
    try {
      return (await c.query(sql)).rows as T[];
    } finally {
      await c.end();
    }
  }
  const db = new Database(screenDb, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}
