import type pg from 'pg';
import type { QueryConfig, QueryResultRow } from 'pg';
import { retryCause } from './pg-errors.js';
import type { Queryable } from './sql.js';

/**
 * Where a PostgreSQL repository runs: the pool, or one unit of work's client. `transaction` opens
 * a transaction on a client of the pool, or, inside one, a savepoint, so a repository method that
 * must be whole by itself (SQLite's own `db.transaction`) is whole inside a caller's too.
 */
export interface PgExecutor extends Queryable {
  transaction<T>(fn: (tx: PgExecutor) => Promise<T>): Promise<T>;
  /** True inside a transaction (a client), false on the pool. */
  readonly inTransaction: boolean;
  /**
   * Keep `row` for `write` to send later in this unit of work, with the other rows kept for it:
   * true when kept, false when the caller must write it now (on the pool, in a unit with
   * savepoints). Kept rows are sent before any statement that might see them (one naming
   * screenings, writing a table tied to them, or SQL not ours: sql.ts `seesLateWrites`) and
   * before the COMMIT.
   */
  defer?<R>(write: DeferredWrite<R>, row: R): boolean;
  /**
   * The advisory locks this unit of work holds (namespace, key), noted by whoever took them: a
   * repository that would lock a carrier again skips the round trip. Undefined on the pool.
   */
  readonly locks?: HeldLocks;
  /** The rows kept for `write`, taken back: the caller sends them in a statement of its own. */
  takeDeferred?<R>(write: DeferredWrite<R>): R[];
  /**
   * `fn`'s one statement as its unit's last: nothing but the COMMIT follows it. A unit that has
   * sent only plain reads sends it alone, in autocommit: no BEGIN, no COMMIT.
   */
  last?<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * A plain read's answer, read ahead (with many others, in one statement): this unit of work
   * answers `config` from `rows` with no round trip until it writes a table that read reads
   * (sql.ts `tablesRead`, `tablesWritten`). As if the read had been sent when it was read ahead:
   * a plain read may go early (before BEGIN) already. `sentAt`: locksSent() when the read went;
   * not kept when a lock sent since names one of its parameters. Undefined on the pool.
   */
  remember?(config: QueryConfig, rows: QueryResultRow[], sentAt?: number): void;
  /** Whether the unit holds an answer for this plain read (read ahead, not forgotten since). Undefined on the pool. */
  remembers?(config: QueryConfig): boolean;
  /**
   * How many statements taking locks the unit has sent: a read-ahead's answer about a key a lock
   * sent while it was on its way named was read before that lock, not under it, and is not kept
   * (`remember`'s `sentAt`, sql.ts readAheadMany). Undefined on the pool.
   */
  locksSent?(): number;
  /**
   * Send a write that writes its rows or fails, and go on without its answer: in a unit of work
   * without savepoints whose BEGIN went, on a pipelining connection. Its failure aborts the
   * transaction (nothing after it is kept, a pipelined COMMIT answers ROLLBACK), and the unit
   * awaits it before it commits: failed, the unit is undone (a group commit then runs each piece
   * in a savepoint). Elsewhere it is run and awaited. Undefined on the pool.
   */
  sendOnly?(config: QueryConfig): Promise<void>;
}

/**
 * A write a unit of work may send late, many rows in one statement: a group commit's cache hits
 * each insert a screening; their reads go first, and the batch's rows go in one INSERT.
 */
export interface DeferredWrite<R> {
  readonly name: string;
  write(q: Queryable, rows: R[]): Promise<void>;
}

/** A statement on the pool PostgreSQL chose as a deadlock or serialization victim is tried again, up to this many times in all. */
const STATEMENT_TRIES = 3;

/**
 * One statement in autocommit: a victim of a deadlock (40P01) or a serialization failure (40001)
 * was rolled back whole, so it is sent again, as PgStore runs a unit again. Two hosts' multi-row
 * updates meet on a counts shard (callback_counts, a row per backend pid % 8) in either order.
 */
async function statement<R extends QueryResultRow>(pool: pg.Pool, config: QueryConfig): Promise<pg.QueryResult<R>> {
  for (let tries = 1; ; tries++) {
    try {
      return await pool.query<R>(config);
    } catch (err) {
      if (tries >= STATEMENT_TRIES || !retryCause(err)) throw err;
    }
  }
}

export function poolExecutor(pool: pg.Pool): PgExecutor {
  return {
    inTransaction: false,
    query: <R extends QueryResultRow>(config: QueryConfig) => statement<R>(pool, config),
    async transaction<T>(fn: (tx: PgExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const tx = clientExecutor(client);
        try {
          const value = await fn(tx);
          await client.query('COMMIT');
          return value;
        } catch (err) {
          await client.query('ROLLBACK').catch((e: Error) => (broken = e));
          throw err;
        } finally {
          tx.end();
        }
      } finally {
        // A client whose ROLLBACK failed is in an unknown state: the pool closes it, not reuses it.
        client.release(broken);
      }
    },
  };
}

function clientExecutor(client: pg.PoolClient): PgExecutor & { end(): void } {
  let ended = false;
  let savepoints = 0;
  const live = () => {
    // A statement after COMMIT would run outside the unit of work: a forgotten await, found here.
    if (ended) throw new Error('this transaction has ended: a statement after its COMMIT or ROLLBACK (a missing await?)');
  };
  const self: PgExecutor & { end(): void } = {
    inTransaction: true,
    query<R extends QueryResultRow>(config: QueryConfig) {
      live();
      return client.query<R>(config);
    },
    async transaction<T>(fn: (tx: PgExecutor) => Promise<T>): Promise<T> {
      live();
      const name = `sp_${++savepoints}`;
      await client.query(`SAVEPOINT ${name}`);
      try {
        const value = await fn(self);
        await client.query(`RELEASE SAVEPOINT ${name}`);
        return value;
      } catch (err) {
        await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw err;
      }
    },
    end: () => {
      ended = true;
    },
  };
  return self;
}

/** Transaction-level advisory locks a unit holds: they last until its end (or its savepoint's rollback). */
export interface HeldLocks {
  has(ns: number, key: string): boolean;
  note(ns: number, keys: Iterable<string>): void;
}

/** Take `keys`' locks of `ns` that the unit does not hold yet: `take` gets the missing keys (none: no statement). */
export async function lockMissing(
  x: PgExecutor,
  ns: number,
  keys: readonly string[],
  take: (missing: string[]) => Promise<unknown>,
): Promise<void> {
  const missing = x.locks ? keys.filter((k) => !x.locks!.has(ns, k)) : [...keys];
  if (missing.length === 0) return;
  await take(missing);
  x.locks?.note(ns, missing);
}
