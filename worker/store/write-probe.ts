import { connectionOf } from './sqlite-store.js';
import type { StoreErrorCode } from './store-error.js';
import { toStoreError } from './sqlite-errors.js';
import type { Store } from './types.js';
import { lastWriteRefusal, withoutCounting } from './write-failures.js';

/**
 * What /healthz's write probe (worker/health/sqlite-write-probe.ts) asks of the store: one real
 * committed write, and the last store write the disk refused.
 */

/**
 * Commit one small write (operator_state 'health_probe' = `at`), not counted as a store write;
 * another process's write lock is waited for 250 ms at most (the store's busy timeout is put
 * back after). Undefined when it committed, else the StoreError code (`sqlite_busy` included)
 * or 'sqlite_error'.
 */
export function probeCommit(store: Store, at: string): string | undefined {
  const db = connectionOf(store);
  const busy = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 250');
  try {
    withoutCounting(db, () =>
      db
        .prepare(
          `INSERT INTO operator_state (key, value, updated_at) VALUES ('health_probe', @at, @at)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        )
        .run({ at }),
    );
    return undefined;
  } catch (e) {
    const err = toStoreError(e, store.path) as { code?: string };
    return typeof err.code === 'string' ? err.code : 'sqlite_error';
  } finally {
    db.pragma(`busy_timeout = ${busy}`);
  }
}

/** The last store write the disk refused (time, code), until a store write succeeds again. */
export function lastRefusalOf(store: Store): { at: number; code: StoreErrorCode } | undefined {
  return lastWriteRefusal(connectionOf(store));
}
