import type Database from 'better-sqlite3';
import { StoreError, type StoreErrorCode } from './store-error.js';

/**
 * The last time a write on a connection was refused by the disk (full, I/O error, read-only).
 * A health probe's own small write can fit in pages SQLite already has while real writes
 * fail, so /healthz also asks whether the store itself saw a refusal lately.
 */

const WRITE_REFUSALS: ReadonlySet<StoreErrorCode> = new Set(['sqlite_full', 'sqlite_ioerr', 'sqlite_readonly']);
const last = new WeakMap<Database.Database, { at: number; code: StoreErrorCode }>();

export function noteStoreFailure(db: Database.Database, err: unknown): void {
  if (err instanceof StoreError && WRITE_REFUSALS.has(err.code)) last.set(db, { at: Date.now(), code: err.code });
}

export function lastWriteRefusal(db: Database.Database): { at: number; code: StoreErrorCode } | undefined {
  return last.get(db);
}
