import type Database from 'better-sqlite3';
import { StoreError, type StoreErrorCode } from './store-error.js';

/**
 * The last time a write on a connection was refused by the disk (full, I/O error, read-only).
 * A health probe's own small write can fit in pages SQLite already has while real writes
 * fail, so /healthz also asks whether the store itself saw a refusal lately.
 */

const WRITE_REFUSALS: ReadonlySet<StoreErrorCode> = new Set(['sqlite_full', 'sqlite_ioerr', 'sqlite_readonly']);
const last = new WeakMap<Database.Database, { at: number; code: StoreErrorCode }>();
/** Who counts refusals (worker/metrics): the store must not know about metrics. */
const listeners = new Set<(code: StoreErrorCode) => void>();

export function onWriteRefused(listener: (code: StoreErrorCode) => void): void {
  listeners.add(listener);
}

/** A write the disk refused, wherever it was seen; true when `err` is one. */
export function noteWriteRefused(err: unknown): err is StoreError {
  if (!(err instanceof StoreError && WRITE_REFUSALS.has(err.code))) return false;
  for (const l of listeners) l(err.code);
  return true;
}

export function noteStoreFailure(db: Database.Database, err: unknown): void {
  if (noteWriteRefused(err)) last.set(db, { at: Date.now(), code: err.code });
}

export function lastWriteRefusal(db: Database.Database): { at: number; code: StoreErrorCode } | undefined {
  return last.get(db);
}
