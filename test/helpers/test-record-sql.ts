import { openStore, recordOf, type RecordStore, type Store } from '../../worker/store/index.js';
import { executorOf, openPgStore } from '../../worker/store/pg/pg-store.js';
import { positional } from '../../worker/store/pg/sql.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { pgTestDatabase } from './pg-db.js';
import { tempDbPath } from './temp-db.js';
import { onPostgres } from './test-db.js';

export type SqlRow = Record<string, unknown>;

/** A record on the backend of this pass (SCREEN_TEST_DB), with what a fixture needs beside it. */
export interface OpenedTestRecord {
  record: RecordStore;
  /**
   * One statement with `@name` parameters (the same text on either backend), outside any unit:
   * rows as another version or another process wrote them (a chosen time, a chosen state).
   */
  sql(text: string, params?: SqlRow): Promise<SqlRow[]>;
  /** The same database opened again, as another process would. */
  another(): Promise<{ record: RecordStore; close(): Promise<void> }>;
  /** The SQLite store under the record; undefined on PostgreSQL (for itSqlite cases only). */
  sqlite: Store | undefined;
  close(): Promise<void>;
}

export interface OpenTestRecordOptions {
  /** The store's clock (tests pin it). */
  now?: () => Date;
}

/** A fresh record on the backend SCREEN_TEST_DB names: a temp SQLite file or a PostgreSQL test database of its own. */
export async function openTestRecord(opts: OpenTestRecordOptions = {}): Promise<OpenedTestRecord> {
  const storeOpts = opts.now ? { now: opts.now } : {};
  if (!onPostgres) {
    const file = tempDbPath();
    const store = openStore(file.path, storeOpts);
    const db = connectionOf(store);
    return {
      record: recordOf(store),
      sql: async (text, params = {}) => {
        const s = db.prepare(text);
        return s.reader ? (s.all(params) as SqlRow[]) : (s.run(params), []);
      },
      another: async () => {
        const other = openStore(file.path, storeOpts);
        return { record: recordOf(other), close: async () => other.close() };
      },
      sqlite: store,
      close: async () => {
        store.close();
        file.cleanup();
      },
    };
  }
  const db = await pgTestDatabase();
  const open = () => openPgStore(db.url, { max: 4, applicationName: 'carrier-screen-test', ...storeOpts });
  let store;
  try {
    store = await open();
  } catch (err) {
    await db.drop();
    throw err;
  }
  const pool = executorOf(store);
  return {
    record: store,
    sql: async (sql, params = {}) => {
      const { text, names } = positional(sql);
      return (await pool.query<SqlRow>({ text, values: names.map((n) => params[n]) })).rows;
    },
    another: async () => {
      const other = await open();
      return { record: other, close: () => other.close() };
    },
    sqlite: undefined,
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}
