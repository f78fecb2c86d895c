import type pg from 'pg';
import type { QueryConfig, QueryResultRow } from 'pg';
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
}

export function poolExecutor(pool: pg.Pool): PgExecutor {
  return {
    inTransaction: false,
    query: <R extends QueryResultRow>(config: QueryConfig) => pool.query<R>(config),
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
