/**
 * Migration 13: the watch list reads a carrier's tenders from the screenings themselves.
 * A tender screening names the carrier it put on the list (`screenings.carrier_key`), so a
 * tender costs one index entry instead of a row in watch_tenders, a rewrite of the carrier's
 * entry and a backlog to defer both (docs/watchlist.md). A carrier's latest tender, and so its
 * watch window, is read from that index.
 */
export const TENDER_CARRIER_MIGRATION_SQL = `
  ALTER TABLE screenings ADD COLUMN carrier_key TEXT;
  -- The tenders recorded so far.
  UPDATE screenings SET carrier_key = (SELECT w.carrier_key FROM watch_tenders w WHERE w.screening_id = screenings.id)
    WHERE id IN (SELECT screening_id FROM watch_tenders);
  -- Cache hits the backlog had not recorded yet (a process stopped within a batch): their
  -- carrier is their score's, and one without an entry gets one.
  UPDATE screenings SET carrier_key = 'dot:' || (SELECT f.dot_number FROM score_fetches f WHERE f.id = screenings.score_fetch_id)
    WHERE rowid > (SELECT after_rowid FROM watch_backlog WHERE id = 1) AND status = 'done' AND source = 'cache'
      AND priority = 'tender' AND score_fetch_id IS NOT NULL AND carrier_key IS NULL
      AND id NOT IN (SELECT screening_id FROM watch_screenings);
  INSERT INTO watch_entries (carrier_key, dot_number, manual, added_at, last_tender_at, next_check_at)
    SELECT carrier_key, substr(carrier_key, 5), 0, MIN(created_at), MAX(created_at),
      strftime('%Y-%m-%dT%H:%M:%fZ', MAX(created_at), '+1 day')
    FROM screenings WHERE rowid > (SELECT after_rowid FROM watch_backlog WHERE id = 1) AND carrier_key IS NOT NULL
    GROUP BY carrier_key
    ON CONFLICT (carrier_key) DO NOTHING;
  CREATE INDEX screenings_by_carrier ON screenings (carrier_key, created_at) WHERE carrier_key IS NOT NULL;
  DROP TABLE watch_tenders;
  DROP TABLE watch_backlog;
  -- Read from the tenders: last_tender_at + SCREEN_WATCH_DAYS.
  ALTER TABLE watch_entries DROP COLUMN watch_until;
`;
