import { StoreError } from './store-error.js';

/** What both backends' units of work say and do alike (SQLite: unit-of-work.ts; PostgreSQL: pg/pg-store.ts). */

/** A call on a unit of work after it ended: a missing `await`, most likely. */
export function txFinished(what: string): StoreError {
  return new StoreError('tx_finished', `${what} on a unit of work that has already committed or rolled back (a missing await?)`);
}

/** After the outermost COMMIT: each callback once; one that throws does not stop the others. */
export function runAfterCommit(callbacks: Array<() => void> | undefined): void {
  if (!callbacks) return;
  for (const fn of callbacks) {
    try {
      fn();
    } catch (e) {
      // Committed already: the caller must not see a failure. Said, not thrown.
      process.emitWarning(`an afterCommit callback threw: ${String(e)}`, { code: 'CARRIER_SCREEN_AFTER_COMMIT' });
    }
  }
}
