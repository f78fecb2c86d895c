/**
 * Migration 17: holds made during an outage are screened again when /v1 or the quota returns
 * (worker/recovery/outage-rescreen.ts).
 * - `reviews.state` may be `superseded`: a re-screen gave tender or block, and closed the card
 *   without a person. SQLite cannot change a CHECK in place: the table is rebuilt with migration
 *   16's columns, its indexes made again as migrations 1, 5, 7, 14 and 16 left them.
 * - `screenings.rescreened_at`: the last re-screen of a held screening (a pass leaves one that
 *   is still held alone for a while).
 * - `screenings_held_for_rescreen`: the holds a pass looks for, and only them.
 */
export const OUTAGE_RESCREEN_MIGRATION_SQL = `
  CREATE TABLE reviews_next (
    id                TEXT PRIMARY KEY,
    screening_id      TEXT NOT NULL UNIQUE REFERENCES screenings (id) ON DELETE CASCADE,
    state             TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'closed', 'superseded')),
    hold_reason       TEXT NOT NULL,
    decided_by        TEXT,
    decided_at        TEXT,
    note              TEXT,
    created_at        TEXT NOT NULL,
    carrier_key       TEXT,
    parent_id         TEXT,
    previous_decision TEXT,
    version            INTEGER NOT NULL DEFAULT 1,
    basis_since        INTEGER NOT NULL DEFAULT 1,
    facts_screening_id TEXT,
    closed_by          TEXT CHECK (closed_by IN ('blocking_score', 'local_block')),
    closed_reason      TEXT,
    token_id           TEXT
  );
  INSERT INTO reviews_next (id, screening_id, state, hold_reason, decided_by, decided_at, note, created_at, carrier_key, parent_id, previous_decision,
                            version, basis_since, facts_screening_id, closed_by, closed_reason, token_id)
    SELECT id, screening_id, state, hold_reason, decided_by, decided_at, note, created_at, carrier_key, parent_id, previous_decision,
           version, basis_since, facts_screening_id, closed_by, closed_reason, token_id FROM reviews;
  DROP TABLE reviews;
  ALTER TABLE reviews_next RENAME TO reviews;
  CREATE INDEX reviews_by_state ON reviews (state, created_at) WHERE parent_id IS NULL;
  CREATE INDEX reviews_open_by_carrier ON reviews (carrier_key, created_at) WHERE state = 'pending' AND parent_id IS NULL;
  CREATE INDEX reviews_by_parent ON reviews (parent_id) WHERE parent_id IS NOT NULL;
  CREATE INDEX reviews_by_decided ON reviews (decided_at) WHERE decided_at IS NOT NULL;

  ALTER TABLE screenings ADD COLUMN rescreened_at TEXT;
  CREATE INDEX screenings_held_for_rescreen ON screenings (created_at)
    WHERE action = 'hold' AND settled_by IS NULL AND hold_reason IN ('scoring_unavailable', 'quota_exhausted', 'quota_reserved');
`;
