/** Migration 12: how far the watch list had recorded cache hits (a backlog that migration 13 replaced). */
export const WATCH_BACKLOG_MIGRATION_SQL = `
  CREATE TABLE watch_backlog (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    after_rowid INTEGER NOT NULL
  );
  -- Screenings so far were recorded as they finished.
  INSERT INTO watch_backlog (id, after_rowid) SELECT 1, COALESCE(MAX(rowid), 0) FROM screenings;
`;
