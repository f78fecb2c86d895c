import { operatorStateOf } from '../store/operator-state-repo.js';
import type { Store } from '../store/types.js';

/**
 * Operator settings kept in SQLite, the record; Redis only mirrors them (redis-rebuild.ts puts
 * them back after Redis loses its data). Today: whether the operator paused the queue.
 * updated_at is when the value last changed (a second pause keeps the first one's time).
 */

/** Whether the operator paused the queue; undefined when no operator ever said (leave Redis as it is). */
export function queuePaused(store: Store): boolean | undefined {
  const v = operatorStateOf(store).get('queue_paused')?.value;
  return v === undefined ? undefined : v === 'true';
}

/** Since when the operator's pause has held (ISO), or null while the queue runs. */
export function queuePausedSince(store: Store): string | null {
  const row = operatorStateOf(store).get('queue_paused');
  return row?.value === 'true' ? (row.updated_at ?? null) : null;
}

export function setQueuePaused(store: Store, paused: boolean, at = new Date()): void {
  operatorStateOf(store).put('queue_paused', String(paused), at.toISOString());
}
