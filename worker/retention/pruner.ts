import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { connectionOf } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';

/**
 * Retention (docs/operations.md → Retention): what the worker keeps and for how long.
 * - the event log (SSE replay) and delivered callbacks: SCREEN_EVENTS_RETENTION (7 days);
 * - screenings with their reviews, carrier changes, watch history, lifted blocks, dead and
 *   cancelled callbacks: SCREEN_RETENTION (3 years: the due-diligence record);
 * - not-found answers once past their cache time.
 * Rows go in small batches, each its own short transaction with a pause between, so no
 * pruning pass holds the write lock long enough to delay a screening. Freed pages are given
 * back to the file system with an incremental vacuum (new databases; see openStore).
 * Other modules add their own tables with `extraTasks` (e.g. decisions, audit, idempotency keys).
 */

export interface RetentionPolicy {
  /** Event log and delivered callbacks. */
  eventsMs: number;
  /** Screenings, reviews, changes, audit: the record. */
  recordsMs: number;
  /** Not-found answers are cached this long (then useless). */
  notFoundMs: number;
}

/** One kind of row to prune: `sql` deletes at most @limit rows older than @cutoff (ISO text). */
export interface PruneTask {
  name: string;
  /** Which retention applies. */
  keep: keyof RetentionPolicy;
  sql: string;
}

export const PRUNE_TASKS: readonly PruneTask[] = [
  {
    // Oldest ids first; ids grow with time, so this never scans past the first kept event.
    name: 'events',
    keep: 'eventsMs',
    sql: `DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT @limit) AND created_at < @cutoff`,
  },
  {
    name: 'delivered callbacks',
    keep: 'eventsMs',
    sql: `DELETE FROM callback_outbox WHERE id IN (
            SELECT id FROM callback_outbox WHERE state = 'delivered' AND updated_at < @cutoff ORDER BY updated_at LIMIT @limit)`,
  },
  {
    name: 'dead and cancelled callbacks',
    keep: 'recordsMs',
    sql: `DELETE FROM callback_outbox WHERE id IN (
            SELECT id FROM callback_outbox WHERE state IN ('dead', 'cancelled') AND updated_at < @cutoff ORDER BY updated_at LIMIT @limit)`,
  },
  {
    // Their reviews go with them (ON DELETE CASCADE); a review still pending keeps its screening.
    name: 'screenings',
    keep: 'recordsMs',
    sql: `DELETE FROM screenings WHERE id IN (
            SELECT s.id FROM screenings s WHERE s.created_at < @cutoff AND s.status = 'done'
              AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.screening_id = s.id AND r.state = 'pending')
            ORDER BY s.created_at LIMIT @limit)`,
  },
  {
    // A fetched score lives as long as a screening or the cache refers to it (worker/store/score-refs.ts).
    name: 'unreferenced score fetches',
    keep: 'eventsMs',
    sql: `DELETE FROM score_fetches WHERE id IN (
            SELECT f.id FROM score_fetches f WHERE f.fetched_at < @cutoff
              AND NOT EXISTS (SELECT 1 FROM screenings s WHERE s.score_fetch_id = f.id)
              AND NOT EXISTS (SELECT 1 FROM score_cache c WHERE c.fetch_id = f.id)
            ORDER BY f.id LIMIT @limit)`,
  },
  {
    name: 'watch screenings',
    keep: 'recordsMs',
    sql: `DELETE FROM watch_screenings WHERE screening_id IN (SELECT screening_id FROM watch_screenings WHERE created_at < @cutoff LIMIT @limit)`,
  },
  {
    name: 'carrier changes',
    keep: 'recordsMs',
    sql: `DELETE FROM carrier_changes WHERE id IN (SELECT id FROM carrier_changes WHERE detected_at < @cutoff ORDER BY detected_at LIMIT @limit)`,
  },
  {
    name: 'lifted blocks',
    keep: 'recordsMs',
    sql: `DELETE FROM local_blocks WHERE id IN (SELECT id FROM local_blocks WHERE lifted_at IS NOT NULL AND lifted_at < @cutoff LIMIT @limit)`,
  },
  {
    // A standing decision is kept whatever its age: it is in force (its TTL ends it first).
    name: 'ended decisions',
    keep: 'recordsMs',
    sql: `DELETE FROM decisions WHERE id IN (
            SELECT id FROM decisions WHERE state != 'standing' AND decided_at < @cutoff ORDER BY decided_at LIMIT @limit)`,
  },
  {
    // Honoured 24 h (worker/decisions/idempotency.ts); gone with the event log.
    name: 'idempotency keys',
    keep: 'eventsMs',
    sql: `DELETE FROM idempotency_keys WHERE (scope, key) IN (SELECT scope, key FROM idempotency_keys WHERE created_at < @cutoff ORDER BY created_at LIMIT @limit)`,
  },
  {
    name: 'expired not-found answers',
    keep: 'notFoundMs',
    sql: `DELETE FROM not_found_cache WHERE (env, query_key) IN (SELECT env, query_key FROM not_found_cache WHERE fetched_at < @cutoff LIMIT @limit)`,
  },
];

export interface PrunerOptions {
  store: Store;
  policy: RetentionPolicy;
  logger: Logger;
  now?: () => Date;
  /** Rows per transaction (default 500). */
  batch?: number;
  /** Pages given back per pass (default 2,000 = 8 MB at 4 KiB pages). */
  vacuumPages?: number;
  extraTasks?: readonly PruneTask[];
}

export type PruneReport = Record<string, number>;

const pause = (): Promise<void> => new Promise((r) => setImmediate(r));

export class Pruner {
  readonly #db: Database.Database;
  readonly #tasks: Array<PruneTask & { stmt: Database.Statement | undefined }>;
  #running: Promise<PruneReport> | undefined;

  constructor(private readonly o: PrunerOptions) {
    this.#db = connectionOf(o.store);
    this.#tasks = [...PRUNE_TASKS, ...(o.extraTasks ?? [])].map((t) => ({ ...t, stmt: undefined }));
  }

  /** One pass over every task; returns rows deleted per task. One pass at a time per process. */
  run(): Promise<PruneReport> {
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run(): Promise<PruneReport> {
    const now = (this.o.now ?? (() => new Date()))().getTime();
    const limit = this.o.batch ?? 500;
    const report: PruneReport = {};
    for (const t of this.#tasks) {
      const cutoff = new Date(now - this.o.policy[t.keep]).toISOString();
      t.stmt ??= this.#db.prepare(t.sql);
      let total = 0;
      for (;;) {
        if (!this.#db.open) return report;
        const n = this.#db.transaction(() => t.stmt!.run({ cutoff, limit }).changes).immediate();
        total += n;
        if (n < limit) break;
        await pause(); // let screenings take the write lock between batches
      }
      if (total > 0) report[t.name] = total;
    }
    if (Object.keys(report).length > 0) {
      const free = (): number => this.#db.pragma('freelist_count', { simple: true }) as number;
      const before = free();
      this.#db.pragma(`incremental_vacuum(${this.o.vacuumPages ?? 2_000})`);
      this.o.logger.info({ pruned: report, pages_returned: before - free() }, 'retention: old rows pruned');
    }
    return report;
  }
}
