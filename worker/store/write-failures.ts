import type Database from 'better-sqlite3';
import { StoreError, type StoreErrorCode } from './store-error.js';

/**
 * The last time a write on a connection was refused by the disk (full, I/O error, read-only).
 * A health probe's own small write can fit in pages SQLite already has while real writes
 * fail, so /healthz also asks whether the store itself saw a refusal lately.
 */

const WRITE_REFUSALS: ReadonlySet<StoreErrorCode> = new Set(['sqlite_full', 'sqlite_ioerr', 'sqlite_readonly']);
/** `changes`: the connection's total_changes() then; rows written after it show the disk took work again. */
const last = new WeakMap<Database.Database, { at: number; code: StoreErrorCode; changes: number }>();
const totalChanges = new WeakMap<Database.Database, Database.Statement>();
function changesOf(db: Database.Database): number {
  let st = totalChanges.get(db);
  if (!st) totalChanges.set(db, (st = db.prepare('SELECT total_changes()').pluck()));
  return st.get() as number;
}
/** Who counts refusals (worker/metrics): the store must not know about metrics. */
const listeners = new Set<(code: StoreErrorCode) => void>();

export function onWriteRefused(listener: (code: StoreErrorCode) => void): void {
  listeners.add(listener);
}

/** A write the record refused (SQLite's disk, or the PostgreSQL server: store/pg/write-probe.ts), told to the listeners. */
export function countWriteRefused(code: StoreErrorCode): void {
  for (const l of listeners) l(code);
}

/** A write the disk refused, wherever it was seen; true when `err` is one. */
export function noteWriteRefused(err: unknown): err is StoreError {
  if (!(err instanceof StoreError && WRITE_REFUSALS.has(err.code))) return false;
  countWriteRefused(err.code);
  return true;
}

export function noteStoreFailure(db: Database.Database, err: unknown): void {
  if (noteWriteRefused(err)) last.set(db, { at: Date.now(), code: err.code, changes: db.open ? changesOf(db) : 0 });
}

/**
 * A store call succeeded: a remembered refusal is forgotten once rows were written since it,
 * so /healthz recovers when the disk does (not a minute later). Costs nothing while none is
 * remembered. A failing call is noted after its statements ran, so its own rows never count.
 */
export function noteStoreSuccess(db: Database.Database): void {
  const r = last.get(db);
  if (r && db.open && changesOf(db) > r.changes) last.delete(db);
}

/**
 * The /healthz probe's own small write fits where real work may not (pages SQLite already
 * has): run it without letting its rows end a remembered refusal.
 */
export function withoutCounting<T>(db: Database.Database, fn: () => T): T {
  const before = last.has(db) ? changesOf(db) : 0;
  try {
    return fn();
  } finally {
    const r = last.get(db);
    if (r && db.open) r.changes += changesOf(db) - before;
  }
}

export function lastWriteRefusal(db: Database.Database): { at: number; code: StoreErrorCode } | undefined {
  return last.get(db);
}
