/**
 * Each score fetched from /v1 is stored once (score_fetches) and screenings refer to it
 * (screenings.score_fetch_id) instead of copying ~1–3 KB of JSON per screening: a cache hit
 * writes a reference. Rows from before this (screenings.score filled in) read as they did.
 * Reads take COALESCE(s.score, <the fetch's body>): SCORE_SQL for row reads and searches, the
 * audit export the same expression over a join (one join per page, not a subquery per column).
 */

export const SCORE_FETCHES_MIGRATION_SQL = `
  CREATE TABLE score_fetches (
    id         INTEGER PRIMARY KEY,
    env        TEXT NOT NULL,
    dot_number TEXT NOT NULL,
    body       TEXT NOT NULL,
    fetched_at TEXT NOT NULL
  );
  ALTER TABLE score_cache ADD COLUMN fetch_id INTEGER;
  ALTER TABLE screenings ADD COLUMN score_fetch_id INTEGER;
  CREATE INDEX screenings_by_score_fetch ON screenings (score_fetch_id) WHERE score_fetch_id IS NOT NULL;
  CREATE INDEX score_cache_by_fetch ON score_cache (fetch_id) WHERE fetch_id IS NOT NULL;
`;

/** A screening's score JSON (alias `s`): its own copy (older rows) or the fetch it refers to. */
export const SCORE_SQL = '(COALESCE(s.score, (SELECT f.body FROM score_fetches f WHERE f.id = s.score_fetch_id)))';
