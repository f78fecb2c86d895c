import { StoreArgumentError } from './store-error.js';
import type { KeysetList } from './keyset.js';
import type { ReviewListState } from './types.js';

/** What a backend spells its own way in GET /reviews' list. */
export interface ReviewListDialect {
  select: string;
  /** The tie-break after the key: SQLite's rowid, PostgreSQL's seq. */
  tie: string;
  /** The `decided` page's select, when the backend must be told its index (SQLite's INDEXED BY). */
  decidedPageSelect?: string;
}

/**
 * GET /reviews as a keyset list (keyset.ts), each state on its own index (list-indexes-schema.ts):
 * pending oldest first; approved, rejected, closed, superseded and `decided` (approved or
 * rejected) last decided first; all newest first. Carrier reviews only (a tender's own item is
 * read through its carrier's review). One definition for both backends.
 */
export function reviewListOf(state: ReviewListState | undefined, d: ReviewListDialect): KeysetList {
  const base = { select: d.select, tie: d.tie, cursor: 'r.id = @cursor_id' };
  if (state === undefined) return { ...base, where: ['r.parent_id IS NULL'], params: {}, key: 'r.created_at', direction: 'DESC' };
  if (state === 'pending')
    return { ...base, where: ["r.state = 'pending'", 'r.parent_id IS NULL'], params: {}, key: 'r.created_at', direction: 'ASC' };
  if (state === 'decided')
    return {
      ...base,
      ...(d.decidedPageSelect === undefined ? {} : { pageSelect: d.decidedPageSelect }),
      where: ["r.state IN ('approved', 'rejected')", 'r.parent_id IS NULL'],
      params: {},
      key: 'r.decided_at',
      direction: 'DESC',
    };
  if (state === 'approved' || state === 'rejected' || state === 'closed' || state === 'superseded')
    return {
      ...base,
      where: ['r.state = @state', 'r.parent_id IS NULL'],
      params: { state },
      key: 'COALESCE(r.decided_at, r.created_at)',
      direction: 'DESC',
    };
  throw new StoreArgumentError(
    `state must be "pending", "approved", "rejected", "decided", "closed" or "superseded", got ${JSON.stringify(state)}`,
    'state',
  );
}
