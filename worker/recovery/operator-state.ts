import type { RecordRepos } from '../store/record.js';

/**
 * Operator settings kept in the record; Redis only mirrors them (redis-rebuild.ts puts them back
 * after Redis loses its data). Today: whether the operator paused the queue. updated_at is when
 * the value last changed (a second pause keeps the first one's time). Each reads and writes
 * through `repos`: the store, or a unit of work's handle.
 */

type Repos = Pick<RecordRepos, 'operatorState'>;

/** Whether the operator paused the queue; undefined when no operator ever said (leave Redis as it is). */
export async function queuePaused(repos: Repos): Promise<boolean | undefined> {
  const v = (await repos.operatorState.get('queue_paused'))?.value;
  return v === undefined ? undefined : v === 'true';
}

/** Since when the operator's pause has held (ISO), or null while the queue runs. */
export async function queuePausedSince(repos: Repos): Promise<string | null> {
  const row = await repos.operatorState.get('queue_paused');
  return row?.value === 'true' ? (row.updated_at ?? null) : null;
}

export function setQueuePaused(repos: Repos, paused: boolean, at = new Date()): Promise<void> {
  return repos.operatorState.put('queue_paused', String(paused), at.toISOString());
}
