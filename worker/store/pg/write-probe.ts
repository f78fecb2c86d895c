import pg from 'pg';
import type { PgExecutor } from './executor.js';
import { statement } from './sql.js';

/**
 * /healthz's write probe on PostgreSQL: the twin of write-probe.ts. One real committed write, and
 * the last store write the server refused. The codes are the database's, not SQLite's: a health
 * check on this backend treats `db_busy` as the SQLite one treats `sqlite_busy` (a lock held by
 * other work is load, not a broken disk).
 */
export type PgProbeCode = 'db_busy' | 'db_full' | 'db_readonly' | 'db_ioerr' | 'db_unavailable' | 'db_error';

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
  if (err instanceof pg.DatabaseError && typeof err.code === 'string') {
    const c = err.code;
    // lock_not_available (lock_timeout), query_canceled (statement_timeout), deadlock.
    if (c === '55P03' || c === '57014' || c === '40P01') return 'db_busy';
    if (c === '53100') return 'db_full';
    // read_only_sql_transaction: a standby, or default_transaction_read_only.
    if (c === '25006') return 'db_readonly';
    if (c === '58030' || c === '58P01' || c === 'XX001' || c === 'XX002') return 'db_ioerr';
    // connection exceptions, admin shutdown / crash recovery / cannot connect now, too many connections.
    if (c.startsWith('08') || c.startsWith('57P') || c === '53300') return 'db_unavailable';
    return 'db_error';
  }
  const sys = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof sys === 'string' && /^(ECONN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EPIPE|EAI_)/.test(sys)) return 'db_unavailable';
  if (err instanceof Error) {
    // pg-pool: every client busy for connectionTimeoutMillis (load, as SQLite's busy), unlike a
    // new connection that timed out or ended (the server is not there).
    if (err.message === 'timeout exceeded when trying to connect') return 'db_busy';
    if (/^Connection terminated|Client has encountered a connection error/.test(err.message)) return 'db_unavailable';
  }
  return 'db_error';
}

/**
 * The last write the server refused, per store (the PG store's root executor, which notes each
 * store call here as SQLite's guardCall does), until a store write succeeds again. The probe's
 * own commit never ends a refusal: its row can fit where real work does not.
 */
const refusals = new WeakMap<PgExecutor, { at: number; code: PgProbeCode }>();

/** A store call failed with `err`: remembered when it is a refused write. */
export function notePgStoreFailure(store: PgExecutor, err: unknown, now = Date.now()): void {
  const code = pgProbeCodeOf(err);
  if (WRITE_REFUSALS.has(code)) refusals.set(store, { at: now, code });
}

/** A store call wrote rows: the server takes work again. */
export function notePgStoreWrite(store: PgExecutor): void {
  refusals.delete(store);
}

/** The last store write the server refused (time, code), until a store write succeeds again. */
export function lastRefusalOf(store: PgExecutor): { at: number; code: PgProbeCode } | undefined {
  return refusals.get(store);
}
