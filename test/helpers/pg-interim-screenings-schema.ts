import type pg from 'pg';

/**
 * INTERIM, until PostgreSQL's migration 1 (branch pgschema) is on main: the three tables the
 * screenings and reviews repositories touch, translated from the SQLite v30 schema by the brief's
 * rules (text COLLATE "C", bigint, seq identity, plpgsql triggers of the same names). Applied only
 * to a test database whose schema has no `screenings`; delete this file once the schema lands.
 */
const C = 'text COLLATE "C"';
const SQL = `
CREATE TABLE score_fetches (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  env ${C} NOT NULL, dot_number ${C} NOT NULL, body ${C} NOT NULL, fetched_at ${C} NOT NULL
);
CREATE TABLE screenings (
  id ${C} PRIMARY KEY, tender_id ${C},
  status ${C} NOT NULL CHECK (status IN ('queued', 'active', 'done')),
  query_kind ${C} NOT NULL CHECK (query_kind IN ('dot_number', 'mc_number')),
  query_value ${C} NOT NULL, priority ${C} NOT NULL, refresh bigint NOT NULL DEFAULT 0, callback_url ${C},
  action ${C}, hold_reason ${C}, source ${C}, score ${C}, score_fetched_at ${C}, model_version ${C}, error ${C},
  created_at ${C} NOT NULL, completed_at ${C}, settled_by ${C}, standing_decision ${C}, score_fetch_id bigint,
  carrier_key ${C}, rescreened_at ${C}, version bigint NOT NULL DEFAULT 1, carrier_dot ${C}, carrier_mc ${C}, load ${C},
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
CREATE INDEX screenings_unfinished ON screenings (created_at, seq) WHERE status IN ('queued', 'active');
CREATE TABLE reviews (
  id ${C} PRIMARY KEY,
  screening_id ${C} NOT NULL UNIQUE REFERENCES screenings (id) ON DELETE CASCADE,
  state ${C} NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'closed', 'superseded')),
  hold_reason ${C} NOT NULL, decided_by ${C}, decided_at ${C}, note ${C}, created_at ${C} NOT NULL,
  carrier_key ${C}, parent_id ${C}, previous_decision ${C},
  version bigint NOT NULL DEFAULT 1, basis_since bigint NOT NULL DEFAULT 1, facts_screening_id ${C},
  closed_by ${C} CHECK (closed_by IN ('blocking_score', 'local_block')), closed_reason ${C}, token_id ${C},
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
CREATE INDEX reviews_by_parent ON reviews (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX reviews_by_state ON reviews (state, created_at, seq) WHERE parent_id IS NULL;
CREATE UNIQUE INDEX reviews_one_open ON reviews (carrier_key) WHERE state = 'pending' AND parent_id IS NULL;
CREATE FUNCTION screenings_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status IS DISTINCT FROM NEW.status OR OLD.action IS DISTINCT FROM NEW.action OR OLD.hold_reason IS DISTINCT FROM NEW.hold_reason
    OR OLD.source IS DISTINCT FROM NEW.source OR OLD.score IS DISTINCT FROM NEW.score OR OLD.score_fetch_id IS DISTINCT FROM NEW.score_fetch_id
    OR OLD.score_fetched_at IS DISTINCT FROM NEW.score_fetched_at OR OLD.model_version IS DISTINCT FROM NEW.model_version
    OR OLD.error IS DISTINCT FROM NEW.error OR OLD.completed_at IS DISTINCT FROM NEW.completed_at
    OR OLD.settled_by IS DISTINCT FROM NEW.settled_by OR OLD.standing_decision IS DISTINCT FROM NEW.standing_decision THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER screenings_version BEFORE UPDATE ON screenings FOR EACH ROW EXECUTE FUNCTION screenings_version();
CREATE FUNCTION screenings_version_review_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.state IS DISTINCT FROM NEW.state OR OLD.decided_by IS DISTINCT FROM NEW.decided_by
    OR OLD.decided_at IS DISTINCT FROM NEW.decided_at OR OLD.note IS DISTINCT FROM NEW.note THEN
    UPDATE screenings SET version = version + 1 WHERE id = NEW.screening_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER screenings_version_review_changed AFTER UPDATE ON reviews FOR EACH ROW EXECUTE FUNCTION screenings_version_review_changed();
`;

/** Create the interim tables unless the migrated schema already has them. */
export async function ensureInterimScreeningsSchema(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ t: string | null }>("SELECT to_regclass('screenings')::text AS t");
  if (rows[0]?.t == null) await pool.query(SQL);
}
