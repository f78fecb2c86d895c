import { repositoryOf } from './repo.js';

/** A hold waiting for a re-screen: its screening and the queue priority it was made with. */
export interface DueHold {
  id: string;
  priority: 'tender' | 'background';
}

/** The holds an outage left (worker/recovery/outage-rescreen.ts has the rules). */
export interface RescreenHoldsRepo {
  /**
   * Holds for /v1 or the quota (`scoring_unavailable`, `quota_exhausted`, `quota_reserved`) made
   * since `since`, whose review still waits, and that were never re-screened or whose last try
   * is at least max(`retryMs`, the wait before that try) before `now`; oldest first, at most `limit`.
   */
  due(since: string, now: string): DueHold[];
}

/** `retryMs` and `limit` are fixed per process (they are written into the statement). */
export function rescreenHoldsOf(retryMs: number, limit: number) {
  return repositoryOf<RescreenHoldsRepo>((db) => {
    // Reads screenings_held_for_rescreen; a hold whose review was decided is not waiting.
    const due = db.prepare<[string, string], DueHold>(`
      SELECT s.id, s.priority FROM screenings s INDEXED BY screenings_held_for_rescreen
      LEFT JOIN reviews r ON r.screening_id = s.id
      WHERE s.action = 'hold' AND s.settled_by IS NULL
        AND s.hold_reason IN ('scoring_unavailable', 'quota_exhausted', 'quota_reserved')
        AND s.created_at >= ? AND s.status = 'done'
        AND (r.id IS NULL OR r.state = 'pending')
        AND (s.rescreened_at IS NULL
          OR (julianday(?) - julianday(s.rescreened_at)) * 86400000 >= MAX(${retryMs}, (julianday(s.rescreened_at) - julianday(s.created_at)) * 86400000))
      ORDER BY s.created_at ASC LIMIT ${limit}`);
    return { due: (since, now) => due.all(since, now) };
  });
}
