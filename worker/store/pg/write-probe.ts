import { countWriteRefused } from '../write-failures.js';
import type { PgExecutor } from './executor.js';
import { pgErrorCode, type PgStoreErrorCode } from './pg-errors.js';
import { statement } from './sql.js';

/**
 * /healthz's write probe on PostgreSQL: the twin of write-probe.ts. One real committed write, and
 * the last store write the server refused. The codes are the database's, not SQLite's: a health
 * check on this backend treats `db_busy` as the SQLite one treats `sqlite_busy` (a lock held by
 * other work is load, not a broken disk).
 */
export type PgProbeCode = Exclude<PgStoreErrorCode, 'db_constraint'>;

/** Codes that mean the server refused a write (a full disk, a read-only server): remembered for /healthz. */
const WRITE_REFUSALS: ReadonlySet<PgProbeCode> = new Set(['db_full', 'db_readonly', 'db_ioerr']);

const probe = statement<{ at: string }>(
  'write_probe_commit',
  `INSERT INTO operator_state (key, value, updated_at) VALUES ('health_probe', @at, @at)
   ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
);

/**
 * Commit one small write (operator_state 'health_probe' = `at`) in its own transaction, waiting
 * 250 ms at most for another session's lock or for the statement (SQLite's busy_timeout of the
 * probe). Undefined when it committed, else its code. On the pool only: SET LOCAL inside a
 * caller's transaction would outlive the probe. It waits for a free client of the pool first:
 * without the pool's connectionTimeoutMillis, a pool busy with long work holds /healthz as long.
 */
export async function probeCommit(x: PgExecutor, at: string): Promise<PgProbeCode | undefined> {
  if (x.inTransaction) throw new Error('probeCommit runs its own transaction: call it on the pool, not inside a unit of work');
  try {
    await x.transaction(async (tx) => {
      await tx.query({ text: "SET LOCAL lock_timeout = '250ms'; SET LOCAL statement_timeout = '250ms'" });
      await probe.run(tx, { at });
    });
    return undefined;
  } catch (err) {
    return pgProbeCodeOf(err);
  }
}

/** What a failed statement or connection says about writing, as the probe reports it. */
export function pgProbeCodeOf(err: unknown): PgProbeCode {
  const code = pgErrorCode(err);
  // A constraint cannot fail the probe's upsert; anything unexpected is the database's error.
  return code === 'db_constraint' ? 'db_error' : code;
}

/**
 * The last write the server refused, per store (the PG store's root executor, which notes each
 * store call here as SQLite's guardCall does), until a store write succeeds again. The probe's
 * own commit never ends a refusal: its row can fit where real work does not.
 */
const refusals = new WeakMap<PgExecutor, { at: number; code: PgProbeCode }>();

/** A store call failed with `err`: remembered when it is a refused write, and counted (/metrics). */
export function notePgStoreFailure(store: PgExecutor, err: unknown, now = Date.now()): void {
  const code = pgProbeCodeOf(err);
  if (!WRITE_REFUSALS.has(code)) return;
  refusals.set(store, { at: now, code });
  countWriteRefused(code);
}

/** A store call wrote rows: the server takes work again. */
export function notePgStoreWrite(store: PgExecutor): void {
  refusals.delete(store);
}

/** The last store write the server refused (time, code), until a store write succeeds again. */
export function lastRefusalOf(store: PgExecutor): { at: number; code: PgProbeCode } | undefined {
  return refusals.get(store);
}
