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
  -- carrier is their score's DOT, and one without an entry gets one (as recording them would
  -- have done). Only those: a carrier whose recorded tenders have no entry was taken off the list.
  CREATE TEMP TABLE unrecorded_hits AS
    SELECT s.rowid AS rid, 'dot:' || f.dot_number AS carrier_key, f.dot_number AS dot_number, s.created_at AS created_at
    FROM screenings s JOIN score_fetches f ON f.id = s.score_fetch_id
    WHERE s.rowid > (SELECT after_rowid FROM watch_backlog WHERE id = 1) AND s.status = 'done' AND s.source = 'cache'
      AND s.priority = 'tender' AND s.carrier_key IS NULL AND s.id NOT IN (SELECT screening_id FROM watch_screenings);
  UPDATE screenings SET carrier_key = (SELECT u.carrier_key FROM unrecorded_hits u WHERE u.rid = screenings.rowid)
    WHERE rowid IN (SELECT rid FROM unrecorded_hits);
  INSERT INTO watch_entries (carrier_key, dot_number, manual, added_at, last_tender_at, next_check_at)
    SELECT carrier_key, dot_number, 0, MIN(created_at), MAX(created_at), strftime('%Y-%m-%dT%H:%M:%fZ', MAX(created_at), '+1 day')
    FROM unrecorded_hits WHERE true GROUP BY carrier_key
    ON CONFLICT (carrier_key) DO NOTHING;
  DROP TABLE unrecorded_hits;
  CREATE INDEX screenings_by_carrier ON screenings (carrier_key, created_at) WHERE carrier_key IS NOT NULL;
  DROP TABLE watch_tenders;
  DROP TABLE watch_backlog;
  -- Read from the tenders: last_tender_at + SCREEN_WATCH_DAYS.
  ALTER TABLE watch_entries DROP COLUMN watch_until;
`;
