import type Database from 'better-sqlite3';
import { StoreArgumentError, StoreError, type StoreErrorCode } from './store-error.js';
import { toStoreError } from './sqlite-errors.js';
import type { Tx } from './types.js';
import { runAfterCommit, txFinished } from './unit-of-work-common.js';
import { noteStoreFailure, noteStoreSuccess } from './write-failures.js';

/**
 * The asynchronous unit of work over SQLite (docs/design/postgres.md, 3.1): `store.unitOfWork`.
 *
 * better-sqlite3 has one connection per store, so two units interleaving at an `await` would
 * share one transaction. One mutex per store serializes them: a unit holds it from BEGIN to
 * COMMIT, and `store.readCommitted` waits for it. Inside, the store's methods are still
 * synchronous, so a unit finishes within the macrotask that began it; the I/O guard checks that
 * (a `setImmediate` queued at BEGIN that runs before the COMMIT means the unit awaited real I/O
 * while holding SQLite's write lock). Its blind spot: a unit begun in the check phase itself (group
 * commit's flush) whose I/O completes in the very next poll phase ends before the guard's turn;
 * the same pieces run in `finish` from a queue job (the poll phase), where it sees them.
 */

/** A FIFO lock whose free path costs no promise (a cache hit takes it once per batch). */
export class UnitMutex {
  #held = false;
  #waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];

  get held(): boolean {
    return this.#held;
  }

  get waiting(): number {
    return this.#waiters.length;
  }

  /** Taken at once when free (true); false when another holds it. */
  tryLock(): boolean {
    if (this.#held) return false;
    this.#held = true;
    return true;
  }

  /** Resolves once this caller holds it (in arrival order). */
  lock(): Promise<void> {
    if (this.tryLock()) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** Hand it to the next waiter, or free it. */
  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next.resolve();
    else this.#held = false;
  }

  /** Fail everyone waiting (the holder is stuck: see the I/O guard). */
  rejectWaiters(error: unknown): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w.reject(error);
  }
}

/** What a unit of work needs of the store's transaction machinery (shared with the synchronous `transaction`). */
export interface SqliteTxCore {
  readonly db: Database.Database;
  readonly path: string;
  readonly sql: {
    begin: Database.Statement;
    commit: Database.Statement;
    rollback: Database.Statement;
    savepoint: Database.Statement;
    release: Database.Statement;
    rollbackTo: Database.Statement;
  };
  /** Shared with the synchronous transaction: nested work inline (group commit's fast path), a lost transaction. */
  readonly state: { inline: boolean; inlineThrew: boolean; lost: boolean; lostCode: StoreErrorCode };
  /** SQLite rolled the whole transaction back inside a nested one: begin again, and fail the outermost. */
  holdLostTransaction(cause: unknown): void;
}

/**
 * The I/O guard's mode. Strict (tests): a unit that awaited I/O is rolled back, and whoever waits
 * for it fails at once. Otherwise (production) it is logged and commits; whoever still waits for
 * it after `stuckAfterMs` fails, so a nested unit begun through the store instead of its tx (it
 * waits for the unit it is part of) ends in an error, not in every write waiting for ever.
 * Mutable for the tests of production mode only.
 */
export const unitGuard = {
  strict: process.env.NODE_ENV === 'test' || process.env.VITEST !== undefined,
  stuckAfterMs: 5_000,
};
const WARN_EVERY_MS = 60_000;

/** A rolled-back fast batch, to be done again with savepoints. */
const UNDONE = Symbol('rolled back, to be done again with savepoints');

class SqliteTx implements Tx {
  #finished = false;
  #busy = false;
  /** afterCommit callbacks of this level: handed to the parent on RELEASE, dropped on a rollback. */
  callbacks: Array<() => void> | undefined;

  constructor(
    private readonly units: SqliteUnits,
    readonly depth: number,
  ) {}

  get finished(): boolean {
    return this.#finished;
  }

  finish(): void {
    this.#finished = true;
  }

  check(what: string): void {
    if (this.#finished) throw txFinished(what);
  }

  afterCommit(fn: () => void): void {
    this.check('afterCommit');
    if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
    (this.callbacks ??= []).push(fn);
  }

  async savepoint<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.check('savepoint');
    if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
    // Two savepoints of one unit at once would interleave their statements.
    if (this.#busy) throw new StoreArgumentError('a unit of work runs one nested unit at a time: await it first', 'fn');
    this.#busy = true;
    try {
      return await this.units.nested(this, fn);
    } finally {
      this.#busy = false;
    }
  }
}

export class SqliteUnits {
  readonly mutex = new UnitMutex();
  #lastWarning = 0;

  constructor(private readonly core: SqliteTxCore) {}

  /** One unit of work: waits for the store's mutex, BEGIN IMMEDIATE, `fn`, COMMIT; then the afterCommit callbacks. */
  async run<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
    this.#notInsideSyncTransaction();
    if (!this.mutex.tryLock()) await this.mutex.lock();
    let done: { value: T; tx: SqliteTx };
    try {
      done = await this.#outermost(fn);
    } finally {
      this.mutex.unlock();
    }
    runAfterCommit(done.tx.callbacks);
    return done.value;
  }

  /**
   * One unit of work whose nested units take no savepoints: when anything inside threw (a nested
   * unit's throw too, even one its caller caught), all of it is rolled back and the answer is
   * undefined, for the caller to do it again with savepoints. A failed COMMIT is thrown.
   */
  async runWithoutSavepoints<T>(fn: (tx: Tx) => Promise<T>): Promise<{ value: T } | undefined> {
    if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
    this.#notInsideSyncTransaction();
    if (!this.mutex.tryLock()) await this.mutex.lock();
    const { state } = this.core;
    let done: { value: { value: T }; tx: SqliteTx };
    try {
      state.inline = true;
      state.inlineThrew = false;
      done = await this.#outermost(async (tx) => {
        let value: T;
        try {
          value = await fn(tx);
        } catch {
          throw UNDONE;
        }
        if (state.inlineThrew) throw UNDONE;
        return { value };
      });
    } catch (e) {
      if (e === UNDONE) return undefined;
      throw e;
    } finally {
      state.inline = false;
      this.mutex.unlock();
    }
    runAfterCommit(done.tx.callbacks);
    return done.value;
  }

  /** Run `fn` once no unit of work is open: it sees committed rows only. */
  readCommitted<T>(fn: () => T): Promise<T> {
    if (!this.mutex.held) {
      try {
        return Promise.resolve(fn());
      } catch (e) {
        return Promise.reject(e as Error);
      }
    }
    return this.mutex.lock().then(() => {
      try {
        return fn();
      } finally {
        this.mutex.unlock();
      }
    });
  }

  #notInsideSyncTransaction(): void {
    // The mutex is free but the connection is in a transaction: a synchronous store.transaction
    // is running (its fn called this). BEGIN would fail, and a savepoint would outlive it.
    if (!this.mutex.held && this.core.db.inTransaction)
      throw new StoreArgumentError('a unit of work cannot begin inside a synchronous store.transaction', 'fn');
  }

  async #outermost<T>(fn: (tx: Tx) => Promise<T>): Promise<{ value: T; tx: SqliteTx }> {
    const { db, path, sql, state } = this.core;
    // Closed while this unit waited for the mutex (a shutdown): as any store call on a closed store.
    if (!db.open) throw new StoreError('store_closed', `SQLite store ${path}: the store is closed`);
    this.#sql(sql.begin);
    state.lost = false;
    state.lostCode = 'sqlite_error';
    const tx = new SqliteTx(this, 0);
    const watch = { awaitedIo: false, open: true };
    const guard = setImmediate(() => this.#awaitedIo(watch));
    try {
      const value = await fn(tx);
      if (watch.awaitedIo && unitGuard.strict)
        throw new StoreError(
          'tx_awaited_io',
          `SQLite store ${path}: a unit of work awaited I/O while holding the transaction; it was rolled back`,
        );
      if (state.lost)
        throw new StoreError(
          state.lostCode,
          `SQLite store ${path}: the transaction was rolled back after an error inside it (${state.lostCode}); nothing of it was kept`,
        );
      this.#sql(sql.commit);
      tx.finish();
      return { value, tx };
    } catch (e) {
      tx.finish();
      // SQLite may already have rolled back the whole transaction (e.g. SQLITE_FULL).
      if (db.inTransaction) this.#sql(sql.rollback);
      if (e === UNDONE) throw e;
      const err = toStoreError(e, path);
      noteStoreFailure(db, err);
      throw err;
    } finally {
      watch.open = false;
      clearImmediate(guard);
    }
  }

  /** A nested unit: a savepoint, or inline in a unit without savepoints. */
  async nested<T>(parent: SqliteTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const { db, sql, state } = this.core;
    const tx = new SqliteTx(this, parent.depth + 1);
    if (state.inline) {
      try {
        const value = await fn(tx);
        tx.finish();
        if (tx.callbacks) (parent.callbacks ??= []).push(...tx.callbacks);
        return value;
      } catch (e) {
        tx.finish();
        state.inlineThrew = true;
        this.core.holdLostTransaction(e);
        throw e;
      }
    }
    this.#sql(sql.savepoint);
    try {
      const value = await fn(tx);
      tx.finish();
      this.#sql(sql.release);
      if (tx.callbacks) (parent.callbacks ??= []).push(...tx.callbacks);
      return value;
    } catch (e) {
      tx.finish();
      if (db.inTransaction) {
        this.#sql(sql.rollbackTo);
        this.#sql(sql.release);
      } else this.core.holdLostTransaction(e);
      throw e;
    }
  }

  /** One transaction-control statement, its SQLite error as a StoreError (noted for /healthz). */
  #sql(st: Database.Statement): void {
    const { db, path } = this.core;
    try {
      st.run();
      noteStoreSuccess(db);
    } catch (err) {
      const e = toStoreError(err, path);
      noteStoreFailure(db, e);
      throw e;
    }
  }

  #awaitedIo(watch: { awaitedIo: boolean; open: boolean }): void {
    watch.awaitedIo = true;
    if (unitGuard.strict) {
      // Whoever waits for this unit would wait for its I/O, or for ever (a nested call that did
      // not pass its tx waits for the unit it is part of): fail them now, loudly.
      this.mutex.rejectWaiters(
        new StoreError(
          'tx_awaited_io',
          `SQLite store ${this.core.path}: a unit of work awaited I/O while another waited for it (a nested unit must be tx.savepoint)`,
        ),
      );
      return;
    }
    setTimeout(() => {
      if (watch.open)
        this.mutex.rejectWaiters(
          new StoreError(
            'tx_awaited_io',
            `SQLite store ${this.core.path}: a unit of work has held the store for over ${unitGuard.stuckAfterMs} ms across I/O (a nested unit must be tx.savepoint)`,
          ),
        );
    }, unitGuard.stuckAfterMs).unref();
    const now = Date.now();
    if (now - this.#lastWarning < WARN_EVERY_MS) return;
    this.#lastWarning = now;
    process.emitWarning(
      `SQLite store ${this.core.path}: a unit of work awaited I/O while holding the transaction; every other write waits for it`,
      { code: 'CARRIER_SCREEN_TX_AWAITED_IO' },
    );
  }
}
