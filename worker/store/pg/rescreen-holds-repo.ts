import type { DueHold, RescreenHoldsRepo } from '../rescreen-holds-repo.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { statement } from './sql.js';

// ms between two ISO texts: SQLite's (julianday(a) - julianday(b)) * 86400000.
const msBetween = (a: string, b: string) => `(EXTRACT(EPOCH FROM (${a}::timestamptz - ${b}::timestamptz)) * 1000)`;

// Reads screenings_held_for_rescreen (SQLite names it with INDEXED BY; here the planner picks it).
// SQLite's scalar MAX returns NULL when an argument is NULL, GREATEST skips it: here neither
// argument can be NULL (rescreened_at is not NULL in this branch, created_at never is), so the
// two agree. seq breaks ties in created_at as SQLite's index (ending in rowid) does.
const due = statement<{ since: string; now: string; retry_ms: number; lim: number }>(
  'rescreen_holds_due',
  `SELECT s.id, s.priority FROM screenings s
   LEFT JOIN reviews r ON r.screening_id = s.id
   WHERE s.action = 'hold' AND s.settled_by IS NULL
     AND s.hold_reason IN ('scoring_unavailable', 'quota_exhausted', 'quota_reserved')
     AND s.created_at >= @since AND s.status = 'done'
     AND (r.id IS NULL OR r.state = 'pending')
     AND (s.rescreened_at IS NULL
       OR ${msBetween('@now', 's.rescreened_at')} >= GREATEST(@retry_ms::bigint, ${msBetween('s.rescreened_at', 's.created_at')}))
   ORDER BY s.created_at ASC, s.seq ASC LIMIT @lim::bigint`,
);

/** The holds an outage left, on PostgreSQL: the twin of rescreen-holds-repo.ts (`retryMs`, `limit` fixed per process). */
export function pgRescreenHoldsOf(retryMs: number, limit: number): (x: PgExecutor) => AsyncRepo<RescreenHoldsRepo> {
  return (x) => ({
    due: (since, now) => due.all<DueHold>(x, { since, now, retry_ms: retryMs, lim: limit }),
  });
}
