import type Database from 'better-sqlite3';
import type { Screening } from '../../shared/screening.js';
import type { Store } from '../store/index.js';
import { connectionOf } from '../store/sqlite-store.js';

/**
 * The watch list's backlog of cache hits. A tender answered from the cache is recorded on the
 * watch list (its tender row, the carrier's window) here, a batch at a time, instead of inside
 * the hit's own commit: the watch list's pages are then written once per batch, not once per
 * hit (bench/README.md). The screenings table is the outbox — a hit is a done row with source
 * "cache" — and the only state is how far the record has got (one rowid, in SQLite), so nothing
 * is lost to a crash and nothing depends on Redis. Its table: watch-backlog-schema.ts.
 *
 * Whoever reads or changes the watch list catches up first (WatchService), and so does every
 * screening that may detect a change: nobody sees the list without the hits committed before.
 */

/** Rows per transaction: a catch-up never holds the event loop (and the write lock) for long. */
export const BACKLOG_BATCH = 50;

export class WatchBacklog {
  readonly #cursor: Database.Statement<[], { after_rowid: number }>;
  readonly #advance: Database.Statement<[number]>;

  constructor(private readonly store: Store) {
    const db = connectionOf(store);
    this.#cursor = db.prepare('SELECT after_rowid FROM watch_backlog WHERE id = 1');
    this.#advance = db.prepare('UPDATE watch_backlog SET after_rowid = MAX(after_rowid, ?) WHERE id = 1');
  }

  /** Whether any cache hit waits (a read: no write lock while there is nothing to do). */
  pending(): boolean {
    return this.store.cacheAnswersAfter(this.#cursor.get()?.after_rowid ?? 0, 1).length > 0;
  }

  /**
   * Record up to `limit` waiting hits with `record` (the batch, oldest first), in the caller's
   * transaction (or one of its own), and move the cursor past them. Returns how many there were
   * and what `record` returned.
   */
  take<T>(record: (batch: Screening[]) => T[], limit = BACKLOG_BATCH): { count: number; results: T[] } {
    return this.store.transaction(() => {
      const after = this.#cursor.get()?.after_rowid ?? 0;
      const rows = this.store.cacheAnswersAfter(after, limit);
      const results = rows.length === 0 ? [] : record(rows.map((r) => r.screening));
      const last = rows.at(-1);
      if (last) this.#advance.run(last.rowid);
      return { count: rows.length, results };
    });
  }
}
