import type { Review } from '../../shared/screening.js';

/**
 * Errors the store raises, whichever backend: callers see a short code and a plain message naming
 * the database; the driver's error (and its stack) stays inside the store. No backend code here:
 * SQLite's errors are turned into these in sqlite-errors.ts.
 */
export type StoreErrorCode =
  | 'sqlite_readonly'
  | 'sqlite_full'
  | 'sqlite_corrupt'
  | 'sqlite_busy'
  | 'sqlite_cantopen'
  | 'sqlite_ioerr'
  | 'sqlite_constraint'
  | 'sqlite_error'
  /** PostgreSQL (worker/store/pg/): the server is down or unreachable, busy (a lock or statement time-out), full, read-only (a standby), failing I/O, a constraint, anything else. */
  | 'db_unavailable'
  | 'db_busy'
  | 'db_full'
  | 'db_readonly'
  | 'db_ioerr'
  | 'db_constraint'
  | 'db_error'
  | 'schema_too_new'
  | 'schema_outdated'
  | 'store_closed'
  /** A reader thread (reader-pool.ts) ended while it had the read: the read failed, the thread is replaced. */
  | 'reader_failed'
  /** A call on a unit of work (`Tx`) after it committed or rolled back: a missing `await`. */
  | 'tx_finished'
  /** A unit of work over SQLite awaited real I/O while holding the transaction (tests; production logs it). */
  | 'tx_awaited_io';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** The SQLite or file-system code behind it (e.g. SQLITE_READONLY_DBMOVED), for logs. */
    readonly detail: string | null = null,
  ) {
    super(message);
  }
}

/** A review that is no longer pending cannot be resolved again. */
export class ReviewConflictError extends Error {
  override readonly name = 'ReviewConflictError';
  constructor(
    message: string,
    /** The review (or decision) already in that state. */
    readonly resourceId?: string,
  ) {
    super(message);
  }
}

/**
 * A decision on facts its maker did not see (docs/decisions.md): the carrier's facts changed
 * since the review version named. `review`: the review as it is now, with the newest facts.
 */
export class ReviewStaleError extends Error {
  override readonly name = 'ReviewStaleError';
  constructor(
    message: string,
    readonly review: Review,
  ) {
    super(message);
  }
}

/** No screening or review with that id. */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/** A bad argument from the caller; `param` names it. */
export class StoreArgumentError extends RangeError {
  override readonly name = 'StoreArgumentError';
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/** Already acknowledged, or already blocked: the HTTP layer answers 409. */
export class WatchConflictError extends Error {
  override readonly name = 'WatchConflictError';
  constructor(
    readonly code: 'change_conflict' | 'block_conflict',
    message: string,
    /** The block or change that is already in that state. */
    readonly resourceId: string,
  ) {
    super(message);
  }
}
