import type Database from 'better-sqlite3';
import { connectionOf } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';

/**
 * Operator settings kept in SQLite, the record; Redis only mirrors them (redis-rebuild.ts puts
 * them back after Redis loses its data). Today: whether the operator paused the queue.
 * updated_at is when the value last changed (a second pause keeps the first one's time).
 */

const stmts = new WeakMap<Database.Database, { get: Database.Statement<[string], { value: string; updated_at: string }>; put: Database.Statement<[string, string, string]> }>();

function st(store: Store) {
  const db = connectionOf(store);
  let s = stmts.get(db);
  if (!s) {
    s = {
      get: db.prepare<[string], { value: string; updated_at: string }>('SELECT value, updated_at FROM operator_state WHERE key = ?'),
      put: db.prepare<[string, string, string]>(`
        INSERT INTO operator_state (key, value, updated_at) VALUES (?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value,
          updated_at = CASE WHEN operator_state.value = excluded.value THEN operator_state.updated_at ELSE excluded.updated_at END`),
    };
    stmts.set(db, s);
  }
  return s;
}

/** Whether the operator paused the queue; undefined when no operator ever said (leave Redis as it is). */
export function queuePaused(store: Store): boolean | undefined {
  const v = st(store).get.get('queue_paused')?.value;
  return v === undefined ? undefined : v === 'true';
}

/** Since when the operator's pause has held (ISO), or null while the queue runs. */
export function queuePausedSince(store: Store): string | null {
  const row = st(store).get.get('queue_paused');
  return row?.value === 'true' ? (row.updated_at ?? null) : null;
}

export function setQueuePaused(store: Store, paused: boolean, at = new Date()): void {
  st(store).put.run('queue_paused', String(paused), at.toISOString());
}
