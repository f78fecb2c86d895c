import type { IdempotencyRepo, IdempotencyRow } from '../idempotency-repo.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { statement } from './sql.js';

type Decide<T> = (row: IdempotencyRow | undefined) => { result: T; take?: { hash: string; at: string } };

/**
 * AsyncRepo<IdempotencyRepo> with `claim` still generic (the mapped type reads a generic method
 * as `unknown`); assignable to AsyncRepo<IdempotencyRepo>.
 */
export type PgIdempotencyRepo = Omit<AsyncRepo<IdempotencyRepo>, 'claim'> & {
  claim<T>(scope: string, key: string, decide: Decide<T>): Promise<T>;
};

type Key = { scope: string; key: string };

const st = {
  // FOR UPDATE: a second host's claim of this key waits here until the first one's commits.
  lock: statement<Key>(
    'idempotency_lock',
    'SELECT request_hash, resource_id, created_at FROM idempotency_keys WHERE scope = @scope AND key = @key FOR UPDATE',
  ),
  // A key no host has: whoever inserts first takes it; the other's insert waits for that
  // transaction, then does nothing (0 rows) and reads the row again.
  insert: statement<Key & { hash: string; at: string }>(
    'idempotency_insert',
    `INSERT INTO idempotency_keys (scope, key, request_hash, created_at) VALUES (@scope, @key, @hash, @at)
     ON CONFLICT (scope, key) DO NOTHING`,
  ),
  retake: statement<Key & { hash: string; at: string }>(
    'idempotency_retake',
    'UPDATE idempotency_keys SET request_hash = @hash, resource_id = NULL, created_at = @at WHERE scope = @scope AND key = @key',
  ),
  done: statement<Key & { resource_id: string }>(
    'idempotency_done',
    'UPDATE idempotency_keys SET resource_id = @resource_id WHERE scope = @scope AND key = @key',
  ),
  drop: statement<Key>('idempotency_drop', 'DELETE FROM idempotency_keys WHERE scope = @scope AND key = @key AND resource_id IS NULL'),
};

/** Rounds of "no row, then another host's insert won" before giving up: each one means another host made progress. */
const MAX_ROUNDS = 5;

/**
 * idempotency_keys on PostgreSQL: the twin of idempotency-repo.ts. SQLite's claim is read,
 * `decide`, upsert under its one writer; here (READ COMMITTED, several hosts) an existing row is
 * read FOR UPDATE, and a missing one is inserted with ON CONFLICT DO NOTHING: when another host
 * inserted it first, the row is read again (locked) and `decide` asked again, so exactly one
 * claim of a new key is told "no row". `decide` stays synchronous and may run more than once.
 */
export function pgIdempotencyOf(x: PgExecutor): PgIdempotencyRepo {
  return {
    claim: <T>(scope: string, key: string, decide: Decide<T>) =>
      x.transaction(async (tx) => {
        for (let round = 0; round < MAX_ROUNDS; round++) {
          const row = await st.lock.get<IdempotencyRow>(tx, { scope, key });
          const { result, take } = decide(row);
          if (!take) return result;
          if (row) {
            await st.retake.run(tx, { scope, key, hash: take.hash, at: take.at });
            return result;
          }
          if ((await st.insert.run(tx, { scope, key, hash: take.hash, at: take.at })) === 1) return result;
        }
        throw new Error(`idempotency key ${scope} ${key}: taken and freed by other hosts ${MAX_ROUNDS} times during one claim`);
      }),
    complete: async (scope, key, resourceId) => void (await st.done.run(x, { scope, key, resource_id: resourceId })),
    release: async (scope, key) => void (await st.drop.run(x, { scope, key })),
  };
}
