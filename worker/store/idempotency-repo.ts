import { guardCall } from './sqlite-store.js';
import { repositoryOf } from './repo.js';

/** An Idempotency-Key as kept: the request it was taken for, what it made (null while working), when. */
export interface IdempotencyRow {
  request_hash: string;
  resource_id: string | null;
  created_at: string;
}

/** The idempotency_keys table (worker/decisions/idempotency.ts has the rules). */
export interface IdempotencyRepo {
  /**
   * In one IMMEDIATE transaction: read the key's row, let `decide` say what it means; when it
   * returns `take`, the key is (re)taken for that request, made nothing yet.
   */
  claim<T>(scope: string, key: string, decide: (row: IdempotencyRow | undefined) => { result: T; take?: { hash: string; at: string } }): T;
  /** The request made `resourceId`. */
  complete(scope: string, key: string, resourceId: string): void;
  /** Free a key that made nothing. */
  release(scope: string, key: string): void;
}

export const idempotencyOf = repositoryOf<IdempotencyRepo>((db) => {
  const st = {
    get: db.prepare<[string, string], IdempotencyRow>(
      'SELECT request_hash, resource_id, created_at FROM idempotency_keys WHERE scope = ? AND key = ?',
    ),
    put: db.prepare<[string, string, string, string]>(
      `INSERT INTO idempotency_keys (scope, key, request_hash, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, resource_id = NULL, created_at = excluded.created_at`,
    ),
    done: db.prepare<[string, string, string]>('UPDATE idempotency_keys SET resource_id = ? WHERE scope = ? AND key = ?'),
    drop: db.prepare<[string, string]>('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND resource_id IS NULL'),
  };
  return {
    // guardCall: a full disk is a StoreError (503 storage_unavailable), not a raw SQLite error (500).
    claim: (scope, key, decide) =>
      guardCall(db, () =>
        db
          .transaction(() => {
            const { result, take } = decide(st.get.get(scope, key));
            if (take) st.put.run(scope, key, take.hash, take.at);
            return result;
          })
          .immediate(),
      ),
    complete: (scope, key, resourceId) => void guardCall(db, () => st.done.run(resourceId, scope, key)),
    release: (scope, key) => void guardCall(db, () => st.drop.run(scope, key)),
  };
});
