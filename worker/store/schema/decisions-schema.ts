/**
 * Standing carrier decisions (worker/decisions/, docs/decisions.md). A dispatcher decides a
 * carrier, not a tender: one open review per carrier, every held tender of that carrier waits on
 * it (reviews.parent_id), and the decision stands for later screenings while the score's basis
 * is unchanged.
 */
export const DECISIONS_MIGRATION_SQL = `
  -- The carrier a review is about ('<env>:dot:<n>', or 'mc:' while only the MC is known) and,
  -- for a tender that waits on the carrier's open review, that review.
  ALTER TABLE reviews ADD COLUMN carrier_key TEXT;
  -- (no REFERENCES: retention deletes a carrier's oldest items first, their waiting ones after)
  ALTER TABLE reviews ADD COLUMN parent_id TEXT;
  -- A review opened after a decision lapsed: that decision and what changed (JSON).
  ALTER TABLE reviews ADD COLUMN previous_decision TEXT;
  CREATE INDEX reviews_open_by_carrier ON reviews (carrier_key, created_at) WHERE state = 'pending' AND parent_id IS NULL;
  CREATE INDEX reviews_by_parent ON reviews (parent_id) WHERE parent_id IS NOT NULL;

  -- What settled a held screening ('review' | 'standing_decision'), and the standing decision
  -- as it was when it settled it (JSON, kept as the record).
  ALTER TABLE screenings ADD COLUMN settled_by TEXT;
  ALTER TABLE screenings ADD COLUMN standing_decision TEXT;

  CREATE TABLE decisions (
    id            TEXT PRIMARY KEY,
    carrier_key   TEXT NOT NULL,
    dot_number    TEXT,
    review_id     TEXT NOT NULL,
    decision      TEXT NOT NULL CHECK (decision IN ('approved', 'rejected')),
    basis         TEXT NOT NULL,
    model_version TEXT,
    decided_by    TEXT NOT NULL,
    decided_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('standing', 'lapsed', 'revoked')),
    ended_at      TEXT,
    ended_by      TEXT,
    end_reason    TEXT
  );
  CREATE UNIQUE INDEX decisions_one_standing ON decisions (carrier_key) WHERE state = 'standing';
  CREATE INDEX decisions_by_dot ON decisions (dot_number, decided_at);
  CREATE INDEX decisions_by_state ON decisions (state, decided_at);

  -- Idempotency-Key (Stripe's semantics, worker/decisions/idempotency.ts): per route, the
  -- request it came with (a hash) and what it made; honoured 24 h.
  CREATE TABLE idempotency_keys (
    scope        TEXT NOT NULL,   -- 'POST /screenings', 'POST /reviews/:id/approve', …
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    resource_id  TEXT,            -- null while the first request is in progress
    created_at   TEXT NOT NULL,
    PRIMARY KEY (scope, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
`;

/** Migration 6: the carrier's names as the decided score gave them, so a list of decisions reads without a join. */
export const DECISION_NAMES_MIGRATION_SQL = `
  ALTER TABLE decisions ADD COLUMN mc_number TEXT;
  ALTER TABLE decisions ADD COLUMN legal_name TEXT;
`;

/**
 * Migration 16: decisions a broker can defend (docs/decisions.md "What a decision names").
 * - reviews get `version` (+1 whenever the facts the review shows change), `basis_since` (the
 *   version from which the basis shown is unchanged: a decision that saw an older one is stale),
 *   `facts_screening_id` (the screening whose score is the newest fact shown; null: the review's
 *   own), the state `closed` with `closed_by` ('blocking_score' | 'local_block') and
 *   `closed_reason`, and `token_id` (the credential that decided).
 * - decisions and local blocks record the token id of who made and who ended them.
 * SQLite cannot widen a CHECK: the reviews table is rebuilt (nothing refers to it), its indexes
 * made again as migrations 5, 7 and 14 left them.
 */
export const REVIEW_FACTS_MIGRATION_SQL = `
  CREATE TABLE reviews_v16 (
    id                 TEXT PRIMARY KEY,
    screening_id       TEXT NOT NULL UNIQUE REFERENCES screenings (id) ON DELETE CASCADE,
    state              TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'closed')),
    hold_reason        TEXT NOT NULL,
    decided_by         TEXT,
    decided_at         TEXT,
    note               TEXT,
    created_at         TEXT NOT NULL,
    carrier_key        TEXT,
    parent_id          TEXT,
    previous_decision  TEXT,
    version            INTEGER NOT NULL DEFAULT 1,
    basis_since        INTEGER NOT NULL DEFAULT 1,
    facts_screening_id TEXT,
    closed_by          TEXT CHECK (closed_by IN ('blocking_score', 'local_block')),
    closed_reason      TEXT,
    token_id           TEXT
  );
  INSERT INTO reviews_v16 (id, screening_id, state, hold_reason, decided_by, decided_at, note, created_at, carrier_key, parent_id, previous_decision)
    SELECT id, screening_id, state, hold_reason, decided_by, decided_at, note, created_at, carrier_key, parent_id, previous_decision FROM reviews;
  DROP TABLE reviews;
  ALTER TABLE reviews_v16 RENAME TO reviews;
  CREATE INDEX reviews_by_state ON reviews (state, created_at) WHERE parent_id IS NULL;
  CREATE INDEX reviews_open_by_carrier ON reviews (carrier_key, created_at) WHERE state = 'pending' AND parent_id IS NULL;
  CREATE INDEX reviews_by_parent ON reviews (parent_id) WHERE parent_id IS NOT NULL;
  CREATE INDEX reviews_by_decided ON reviews (decided_at) WHERE decided_at IS NOT NULL;

  ALTER TABLE decisions ADD COLUMN token_id TEXT;
  ALTER TABLE decisions ADD COLUMN ended_token_id TEXT;
  ALTER TABLE local_blocks ADD COLUMN token_id TEXT;
  ALTER TABLE local_blocks ADD COLUMN lifted_token_id TEXT;
`;
