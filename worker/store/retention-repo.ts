import type Database from 'better-sqlite3';
import { repositoryOf } from './repo.js';

/**
 * The retention's SQL (worker/retention/pruner.ts has the policy and the pacing): which rows of
 * each table are old enough to go, deleted in small batches.
 */

/** One kind of row to prune: `sql` deletes at most @limit rows older than @cutoff (ISO text). */
export interface PruneTask {
  name: string;
  /** Which retention applies (a key of worker/retention/pruner.ts's RetentionPolicy). */
  keep: 'eventsMs' | 'recordsMs' | 'notFoundMs';
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

/** What the pruner asks of the store. */
export interface RetentionRepo {
  /** False once the store is closed (a pass in progress stops). */
  isOpen(): boolean;
  /** One batch of `task`, in its own short IMMEDIATE transaction: rows deleted (at most `limit`). */
  pruneBatch(task: PruneTask, cutoff: string, limit: number): number;
  /** Pages on the free list. */
  freePages(): number;
  /** Give up to `pages` free pages back to the file system (incremental vacuum). */
  vacuum(pages: number): void;
}

export const retentionOf = repositoryOf<RetentionRepo>((db) => {
  const stmts = new Map<string, Database.Statement>();
  return {
    isOpen: () => db.open,
    pruneBatch: (task, cutoff, limit) => {
      let stmt = stmts.get(task.sql);
      if (!stmt) {
        stmt = db.prepare(task.sql);
        stmts.set(task.sql, stmt);
      }
      const s = stmt;
      return db.transaction(() => s.run({ cutoff, limit }).changes).immediate();
    },
    freePages: () => db.pragma('freelist_count', { simple: true }) as number,
    vacuum: (pages) => void db.pragma(`incremental_vacuum(${pages})`),
  };
});
