/**
 * Migration 21: an index under the order of every list the API pages (issue 35), so a page is
 * read by keyset from the index and stops at its end (worker/store/keyset.ts). Each names the
 * sort column(s) as the list's query spells them; the rowid (or primary key) is the tie-break
 * every index carries. Lists whose index already existed: pending reviews (reviews_by_state),
 * changes by state, decisions by state or DOT, callbacks by state, the watch list
 * (watch_entries_due), events (their id).
 */
export const LIST_INDEXES_MIGRATION_SQL = `
  -- GET /reviews (all): carrier reviews, newest first.
  CREATE INDEX reviews_top_by_created ON reviews (created_at) WHERE parent_id IS NULL;
  -- GET /reviews?state=approved|rejected|closed|superseded: last decided first.
  CREATE INDEX reviews_by_state_decided ON reviews (state, COALESCE(decided_at, created_at)) WHERE parent_id IS NULL;
  -- GET /reviews?state=decided (the desk's recent decisions): approved or rejected, last decided first.
  CREATE INDEX reviews_decided_recent ON reviews (decided_at) WHERE state IN ('approved', 'rejected') AND parent_id IS NULL;
  -- GET /decisions (all).
  CREATE INDEX decisions_by_decided ON decisions (decided_at);
  -- GET /changes (all).
  CREATE INDEX carrier_changes_by_detected ON carrier_changes (detected_at);
  -- GET /blocks: all, active, lifted.
  CREATE INDEX local_blocks_by_blocked ON local_blocks (blocked_at);
  CREATE INDEX local_blocks_active_by_blocked ON local_blocks (blocked_at) WHERE lifted_at IS NULL;
  CREATE INDEX local_blocks_by_lifted ON local_blocks (lifted_at) WHERE lifted_at IS NOT NULL;
  -- GET /callbacks?state=all.
  CREATE INDEX callback_outbox_by_updated ON callback_outbox (updated_at);
`;
