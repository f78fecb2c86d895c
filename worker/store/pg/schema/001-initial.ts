/**
 * PostgreSQL step 1: SQLite's schema at its version 30 (worker/store/migrations.ts and the
 * `*-schema.ts` modules it runs), written for PostgreSQL (docs/design/postgres.md, decision 6).
 * Same tables, columns (in SQLite's order), CHECKs, foreign key, unique and partial indexes, and
 * triggers of the same names. Where PostgreSQL differs, a one-line comment says why:
 * - TEXT is `text COLLATE "C"`: text compares byte by byte as SQLite's BINARY does, whatever the
 *   database's own collation (ISO times, ids and keyset keys are compared as text);
 * - INTEGER is `bigint` (0/1 flags too, so rows map unchanged);
 * - every rowid table ends with `seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE`, the tie-break
 *   SQL took from `rowid`; an index SQLite read for `ORDER BY k, rowid` is `(k, seq)` here, since
 *   a SQLite index entry ends with the rowid and a PostgreSQL one does not;
 * - `events.id` comes from the one-row `event_head` (ids commit in id order across hosts);
 * - `callback_counts` is sharded by backend, summed on read (one hot row per state otherwise);
 * - not ported: `migration_progress` (SQLite's batched steps) and `sqlite_sequence` (event_head);
 *   `schema_migrations` (same columns) is made by the runner, pg-migrations.ts.
 * test/integration/pg-schema.test.ts compares this with a SQLite store at version 30.
 */

// The score cache: one entry per environment and DOT number; the body lives in its fetch.
const SCORES = `
CREATE TABLE score_cache (
  env           text COLLATE "C" NOT NULL CHECK (env IN ('sandbox', 'live')),
  dot_number    text COLLATE "C" NOT NULL,
  body          text COLLATE "C" NOT NULL,
  model_version text COLLATE "C" NOT NULL,
  fetched_at    text COLLATE "C" NOT NULL,
  fetch_id      bigint,
  PRIMARY KEY (env, dot_number)
);
CREATE INDEX score_cache_by_fetch ON score_cache (fetch_id) WHERE fetch_id IS NOT NULL;

CREATE TABLE mc_alias (
  env        text COLLATE "C" NOT NULL,
  mc_number  text COLLATE "C" NOT NULL,
  dot_number text COLLATE "C" NOT NULL,
  PRIMARY KEY (env, mc_number)
);
CREATE INDEX mc_alias_by_dot ON mc_alias (env, dot_number);

CREATE TABLE not_found_cache (
  env        text COLLATE "C" NOT NULL,
  query_key  text COLLATE "C" NOT NULL,
  error      text COLLATE "C" NOT NULL,
  fetched_at text COLLATE "C" NOT NULL,
  PRIMARY KEY (env, query_key)
);

-- SQLite's INTEGER PRIMARY KEY (its rowid): an identity here, read back with INSERT … RETURNING id.
-- Never reused (the parsed-score memo is keyed by it), where SQLite may reuse a deleted highest id.
CREATE TABLE score_fetches (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  env        text COLLATE "C" NOT NULL,
  dot_number text COLLATE "C" NOT NULL,
  body       text COLLATE "C" NOT NULL,
  fetched_at text COLLATE "C" NOT NULL
);
`;

// Screenings: one per tender (or re-screen), with the result as the API shows it.
const SCREENINGS = `
CREATE TABLE screenings (
  id                text COLLATE "C" PRIMARY KEY,
  tender_id         text COLLATE "C",
  status            text COLLATE "C" NOT NULL CHECK (status IN ('queued', 'active', 'done')),
  query_kind        text COLLATE "C" NOT NULL CHECK (query_kind IN ('dot_number', 'mc_number')),
  query_value       text COLLATE "C" NOT NULL,
  priority          text COLLATE "C" NOT NULL,
  refresh           bigint NOT NULL DEFAULT 0,
  callback_url      text COLLATE "C",
  action            text COLLATE "C",
  hold_reason       text COLLATE "C",
  source            text COLLATE "C",
  score             text COLLATE "C",
  score_fetched_at  text COLLATE "C",
  model_version     text COLLATE "C",
  error             text COLLATE "C",
  created_at        text COLLATE "C" NOT NULL,
  completed_at      text COLLATE "C",
  settled_by        text COLLATE "C",
  standing_decision text COLLATE "C",
  score_fetch_id    bigint,
  carrier_key       text COLLATE "C",
  rescreened_at     text COLLATE "C",
  version           bigint NOT NULL DEFAULT 1,
  carrier_dot       text COLLATE "C",
  carrier_mc        text COLLATE "C",
  load              text COLLATE "C",
  -- SQLite's rowid: the tie-break of every list by time.
  seq               bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
-- (k, seq): lists read newest first by (created_at, rowid) in SQLite (screening-search.ts, audit-rows.ts, watch-store.ts).
CREATE INDEX screenings_by_created ON screenings (created_at, seq);
CREATE INDEX screenings_by_tender ON screenings (tender_id, created_at, seq) WHERE tender_id IS NOT NULL;
CREATE INDEX screenings_by_carrier ON screenings (carrier_key, created_at, seq) WHERE carrier_key IS NOT NULL;
CREATE INDEX screenings_by_carrier_dot ON screenings (carrier_dot, created_at, seq) WHERE carrier_dot IS NOT NULL;
CREATE INDEX screenings_by_carrier_mc ON screenings (carrier_mc, created_at, seq) WHERE carrier_mc IS NOT NULL;
CREATE INDEX screenings_by_action ON screenings (action, created_at, seq) WHERE action <> 'tender';
CREATE INDEX screenings_unfinished ON screenings (created_at, seq) WHERE status IN ('queued', 'active');
-- Read by range or ordered by their key alone: as SQLite has them.
CREATE INDEX screenings_by_score_fetch ON screenings (score_fetch_id) WHERE score_fetch_id IS NOT NULL;
CREATE INDEX screenings_completed_later ON screenings (completed_at) WHERE completed_at <> created_at;
CREATE INDEX screenings_held_for_rescreen ON screenings (created_at)
  WHERE action = 'hold' AND settled_by IS NULL AND hold_reason IN ('scoring_unavailable', 'quota_exhausted', 'quota_reserved');
`;

// Reviews: a carrier's open review, and the held tenders waiting on it (parent_id).
const REVIEWS = `
CREATE TABLE reviews (
  id                 text COLLATE "C" PRIMARY KEY,
  screening_id       text COLLATE "C" NOT NULL UNIQUE REFERENCES screenings (id) ON DELETE CASCADE,
  state              text COLLATE "C" NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'closed', 'superseded')),
  hold_reason        text COLLATE "C" NOT NULL,
  decided_by         text COLLATE "C",
  decided_at         text COLLATE "C",
  note               text COLLATE "C",
  created_at         text COLLATE "C" NOT NULL,
  carrier_key        text COLLATE "C",
  parent_id          text COLLATE "C",
  previous_decision  text COLLATE "C",
  version            bigint NOT NULL DEFAULT 1,
  basis_since        bigint NOT NULL DEFAULT 1,
  facts_screening_id text COLLATE "C",
  closed_by          text COLLATE "C" CHECK (closed_by IN ('blocking_score', 'local_block')),
  closed_reason      text COLLATE "C",
  token_id           text COLLATE "C",
  seq                bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
-- (k, seq): GET /reviews by state and the carrier's open review were read by (k, rowid) in SQLite.
CREATE INDEX reviews_by_state ON reviews (state, created_at, seq) WHERE parent_id IS NULL;
CREATE INDEX reviews_by_state_decided ON reviews (state, COALESCE(decided_at, created_at), seq) WHERE parent_id IS NULL;
CREATE INDEX reviews_decided_recent ON reviews (decided_at, seq) WHERE state IN ('approved', 'rejected') AND parent_id IS NULL;
CREATE INDEX reviews_top_by_created ON reviews (created_at, seq) WHERE parent_id IS NULL;
CREATE INDEX reviews_open_by_carrier ON reviews (carrier_key, created_at, seq) WHERE state = 'pending' AND parent_id IS NULL;
CREATE INDEX reviews_by_parent ON reviews (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX reviews_by_decided ON reviews (decided_at) WHERE decided_at IS NOT NULL;
-- New on PostgreSQL: one open review per carrier, kept by the database across hosts (SQLite had one writer).
CREATE UNIQUE INDEX reviews_one_open ON reviews (carrier_key) WHERE state = 'pending' AND parent_id IS NULL;
`;

// Standing carrier decisions and Idempotency-Key records.
const DECISIONS = `
CREATE TABLE decisions (
  id             text COLLATE "C" PRIMARY KEY,
  carrier_key    text COLLATE "C" NOT NULL,
  dot_number     text COLLATE "C",
  review_id      text COLLATE "C" NOT NULL,
  decision       text COLLATE "C" NOT NULL CHECK (decision IN ('approved', 'rejected')),
  basis          text COLLATE "C" NOT NULL,
  model_version  text COLLATE "C",
  decided_by     text COLLATE "C" NOT NULL,
  decided_at     text COLLATE "C" NOT NULL,
  expires_at     text COLLATE "C" NOT NULL,
  state          text COLLATE "C" NOT NULL CHECK (state IN ('standing', 'lapsed', 'revoked')),
  ended_at       text COLLATE "C",
  ended_by       text COLLATE "C",
  end_reason     text COLLATE "C",
  mc_number      text COLLATE "C",
  legal_name     text COLLATE "C",
  token_id       text COLLATE "C",
  ended_token_id text COLLATE "C",
  seq            bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
CREATE UNIQUE INDEX decisions_one_standing ON decisions (carrier_key) WHERE state = 'standing';
-- (k, seq): GET /decisions pages by (decided_at or ended_at, rowid) in SQLite (decisions-repo.ts).
CREATE INDEX decisions_by_decided ON decisions (decided_at, seq);
CREATE INDEX decisions_by_dot ON decisions (dot_number, decided_at, seq);
CREATE INDEX decisions_by_state ON decisions (state, decided_at, seq);
CREATE INDEX decisions_ended_by_ended ON decisions (ended_at, seq) WHERE state IN ('lapsed', 'revoked');

CREATE TABLE idempotency_keys (
  scope        text COLLATE "C" NOT NULL,
  key          text COLLATE "C" NOT NULL,
  request_hash text COLLATE "C" NOT NULL,
  resource_id  text COLLATE "C",
  created_at   text COLLATE "C" NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
`;

// The local do-not-use list: lifting is recorded, never deleted; one active block per carrier.
const BLOCKS = `
CREATE TABLE local_blocks (
  id              text COLLATE "C" PRIMARY KEY,
  carrier_key     text COLLATE "C" NOT NULL,
  dot_number      text COLLATE "C",
  mc_number       text COLLATE "C",
  reason          text COLLATE "C" NOT NULL,
  blocked_by      text COLLATE "C" NOT NULL,
  blocked_at      text COLLATE "C" NOT NULL,
  lifted_by       text COLLATE "C",
  lifted_at       text COLLATE "C",
  token_id        text COLLATE "C",
  lifted_token_id text COLLATE "C",
  lift_note       text COLLATE "C",
  seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
CREATE UNIQUE INDEX local_blocks_one_active ON local_blocks (carrier_key) WHERE lifted_at IS NULL;
CREATE INDEX local_blocks_active_dot ON local_blocks (dot_number) WHERE lifted_at IS NULL;
CREATE INDEX local_blocks_active_mc ON local_blocks (mc_number) WHERE lifted_at IS NULL;
-- (k, seq): GET /blocks pages by (blocked_at or lifted_at, rowid) in SQLite (local-blocks-repo.ts).
CREATE INDEX local_blocks_by_blocked ON local_blocks (blocked_at, seq);
CREATE INDEX local_blocks_active_by_blocked ON local_blocks (blocked_at, seq) WHERE lifted_at IS NULL;
CREATE INDEX local_blocks_by_lifted ON local_blocks (lifted_at, seq) WHERE lifted_at IS NOT NULL;
CREATE INDEX local_blocks_by_dot ON local_blocks (dot_number, blocked_at, seq);
`;

// The watch list, the screenings it started, and the carrier changes it saw.
const WATCH = `
CREATE TABLE watch_entries (
  carrier_key     text COLLATE "C" PRIMARY KEY,
  dot_number      text COLLATE "C",
  mc_number       text COLLATE "C",
  note            text COLLATE "C",
  manual          bigint NOT NULL DEFAULT 0,
  added_at        text COLLATE "C" NOT NULL,
  last_tender_at  text COLLATE "C",
  last_checked_at text COLLATE "C",
  next_check_at   text COLLATE "C" NOT NULL,
  last_state      text COLLATE "C"
);
-- (k, carrier_key): the watch list pages by (next_check_at, carrier_key), the key a WITHOUT ROWID index entry ends with in SQLite.
CREATE INDEX watch_entries_due ON watch_entries (next_check_at, carrier_key);

CREATE TABLE watch_screenings (
  screening_id text COLLATE "C" PRIMARY KEY,
  carrier_key  text COLLATE "C" NOT NULL,
  created_at   text COLLATE "C" NOT NULL
);

CREATE TABLE carrier_changes (
  id              text COLLATE "C" PRIMARY KEY,
  carrier_key     text COLLATE "C" NOT NULL,
  dot_number      text COLLATE "C",
  mc_number       text COLLATE "C",
  legal_name      text COLLATE "C",
  screening_id    text COLLATE "C" NOT NULL UNIQUE,
  reasons         text COLLATE "C" NOT NULL,
  before_state    text COLLATE "C" NOT NULL,
  after_state     text COLLATE "C" NOT NULL,
  tenders         text COLLATE "C" NOT NULL,
  state           text COLLATE "C" NOT NULL CHECK (state IN ('new', 'acknowledged')),
  acknowledged_by text COLLATE "C",
  acknowledged_at text COLLATE "C",
  detected_at     text COLLATE "C" NOT NULL,
  findings        text COLLATE "C",
  ack_note        text COLLATE "C",
  seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
-- (k, seq): GET /changes pages by (detected_at, rowid) in SQLite (watch-store.ts).
CREATE INDEX carrier_changes_by_detected ON carrier_changes (detected_at, seq);
CREATE INDEX carrier_changes_by_state ON carrier_changes (state, detected_at, seq);
`;

// The callback outbox: one row per delivery owed to a TMS.
const OUTBOX = `
CREATE TABLE callback_outbox (
  id              text COLLATE "C" PRIMARY KEY,
  delivery_id     text COLLATE "C" NOT NULL UNIQUE,
  kind            text COLLATE "C" NOT NULL,
  url             text COLLATE "C" NOT NULL,
  destination     text COLLATE "C" NOT NULL,
  subject         text COLLATE "C",
  version         bigint,
  body            text COLLATE "C" NOT NULL,
  state           text COLLATE "C" NOT NULL CHECK (state IN ('pending', 'delivered', 'dead', 'cancelled')),
  attempts        bigint NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  retry_since     bigint NOT NULL,
  last_status     bigint,
  last_error      text COLLATE "C" CHECK (last_error IN ('unreachable', 'timeout', 'http_status', 'refused_by_policy')),
  created_at      text COLLATE "C" NOT NULL,
  updated_at      text COLLATE "C" NOT NULL,
  delivered_at    text COLLATE "C",
  cancelled_at    text COLLATE "C",
  seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
CREATE INDEX callback_outbox_due ON callback_outbox (next_attempt_at) WHERE state = 'pending';
CREATE INDEX callback_outbox_by_subject ON callback_outbox (subject, version) WHERE subject IS NOT NULL;
CREATE INDEX callback_outbox_by_url ON callback_outbox (url) WHERE state IN ('pending', 'dead');
-- (k, seq): GET /callbacks pages by (updated_at, rowid) in SQLite (outbox-repo.ts).
CREATE INDEX callback_outbox_by_state ON callback_outbox (state, updated_at, seq);
CREATE INDEX callback_outbox_by_updated ON callback_outbox (updated_at, seq);

-- Rows per state, kept by triggers. Sharded by backend: one row per state would be a hot row every
-- host's transaction that owes a callback queues on. Read as SUM(n) GROUP BY state.
CREATE TABLE callback_counts (
  state text COLLATE "C" NOT NULL,
  shard integer NOT NULL CHECK (shard >= 0 AND shard < 8),
  n     bigint NOT NULL,
  PRIMARY KEY (state, shard)
);
-- Every state reads 0 before its first row, as SQLite's four seeded rows did.
INSERT INTO callback_counts (state, shard, n)
  SELECT s.state, g.shard, 0
  FROM unnest(ARRAY['pending', 'delivered', 'dead', 'cancelled']) AS s (state) CROSS JOIN generate_series(0, 7) AS g (shard);

-- An upsert, not SQLite's plain UPDATE: a shard row that is missing is made, never a count lost.
CREATE FUNCTION callback_counts_add(st text, delta bigint) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO callback_counts (state, shard, n) VALUES (st, pg_backend_pid() % 8, delta)
  ON CONFLICT (state, shard) DO UPDATE SET n = callback_counts.n + excluded.n;
$fn$;

CREATE FUNCTION callback_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM callback_counts_add(NEW.state, 1);
  RETURN NULL;
END
$fn$;
CREATE TRIGGER callback_counts_insert AFTER INSERT ON callback_outbox
  FOR EACH ROW EXECUTE FUNCTION callback_counts_insert();

CREATE FUNCTION callback_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM callback_counts_add(OLD.state, -1);
  RETURN NULL;
END
$fn$;
CREATE TRIGGER callback_counts_delete AFTER DELETE ON callback_outbox
  FOR EACH ROW EXECUTE FUNCTION callback_counts_delete();

CREATE FUNCTION callback_counts_state() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- The two rows in state order, so two such changes on one shard take them in the same order. (Two
  -- transactions on one shard that take two states' rows in opposite orders across statements can
  -- still deadlock; PostgreSQL aborts one, 40P01.)
  IF OLD.state < NEW.state THEN
    PERFORM callback_counts_add(OLD.state, -1);
    PERFORM callback_counts_add(NEW.state, 1);
  ELSE
    PERFORM callback_counts_add(NEW.state, 1);
    PERFORM callback_counts_add(OLD.state, -1);
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER callback_counts_state AFTER UPDATE OF state ON callback_outbox
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION callback_counts_state();
`;

// The event log (SSE, GET /events/log) and the head its ids are taken from.
const EVENTS = `
-- Not an identity: a sequence hands out ids that commit out of order across hosts. The id is
-- taken from event_head, whose row lock is held to COMMIT (design doc section 4).
CREATE TABLE events (
  id         bigint PRIMARY KEY,
  event      text COLLATE "C" NOT NULL,
  data       text COLLATE "C" NOT NULL,
  created_at text COLLATE "C" NOT NULL
);
-- One row: the last id handed out (SQLite's sqlite_sequence row for events); never goes back.
CREATE TABLE event_head (
  id      integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  last_id bigint NOT NULL CHECK (last_id >= 0)
);
INSERT INTO event_head (id, last_id) VALUES (1, 0);
`;

// Usage figures, tokens and operator settings.
const OPERATIONS = `
CREATE TABLE daily_lookups (
  env     text COLLATE "C" NOT NULL,
  day     text COLLATE "C" NOT NULL,
  lookups bigint NOT NULL,
  PRIMARY KEY (env, day)
);

CREATE TABLE usage_snapshots (
  env                   text COLLATE "C" PRIMARY KEY,
  monthly_quota         bigint,
  used                  bigint,
  remaining             bigint,
  rate_limit_per_minute bigint,
  at                    text COLLATE "C" NOT NULL
);

CREATE TABLE intake_tokens (
  id           text COLLATE "C" PRIMARY KEY,
  name         text COLLATE "C" NOT NULL,
  role         text COLLATE "C" NOT NULL CHECK (role IN ('metrics', 'tms', 'desk', 'admin')),
  hash         text COLLATE "C" NOT NULL UNIQUE,
  prefix       text COLLATE "C" NOT NULL,
  created_at   text COLLATE "C" NOT NULL,
  revoked_at   text COLLATE "C",
  last_used_at text COLLATE "C",
  api_version  text COLLATE "C" NOT NULL DEFAULT '2026-11-25',
  -- Tokens are listed by (created_at, rowid) in SQLite (tokens-repo.ts); few rows, no index there either.
  seq          bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);

CREATE TABLE operator_state (
  key        text COLLATE "C" PRIMARY KEY,
  value      text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL
);
`;

// screenings.version grows with every change of a screening as the API shows it (docs/callbacks.md "Ordering").
const VERSIONS = `
-- BEFORE UPDATE: the new version is set on the row being written, not by a second UPDATE of it as
-- SQLite's AFTER trigger does. NEW.version + 1, as SQLite's "version = version + 1" after the write.
CREATE FUNCTION screenings_version() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.version := NEW.version + 1;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER screenings_version BEFORE UPDATE OF
    status, action, hold_reason, source, score, score_fetch_id, score_fetched_at, model_version, error, completed_at, settled_by, standing_decision
  ON screenings
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.action IS DISTINCT FROM NEW.action OR OLD.hold_reason IS DISTINCT FROM NEW.hold_reason
    OR OLD.source IS DISTINCT FROM NEW.source OR OLD.score IS DISTINCT FROM NEW.score OR OLD.score_fetch_id IS DISTINCT FROM NEW.score_fetch_id
    OR OLD.score_fetched_at IS DISTINCT FROM NEW.score_fetched_at OR OLD.model_version IS DISTINCT FROM NEW.model_version
    OR OLD.error IS DISTINCT FROM NEW.error OR OLD.completed_at IS DISTINCT FROM NEW.completed_at
    OR OLD.settled_by IS DISTINCT FROM NEW.settled_by OR OLD.standing_decision IS DISTINCT FROM NEW.standing_decision)
  EXECUTE FUNCTION screenings_version();

CREATE FUNCTION screenings_version_review_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE screenings SET version = version + 1 WHERE id = NEW.screening_id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER screenings_version_review_changed AFTER UPDATE OF state, decided_by, decided_at, note ON reviews
  FOR EACH ROW
  WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.decided_by IS DISTINCT FROM NEW.decided_by
    OR OLD.decided_at IS DISTINCT FROM NEW.decided_at OR OLD.note IS DISTINCT FROM NEW.note)
  EXECUTE FUNCTION screenings_version_review_changed();
`;

export const INITIAL_SQL: string = [SCORES, SCREENINGS, REVIEWS, DECISIONS, BLOCKS, WATCH, OUTBOX, EVENTS, OPERATIONS, VERSIONS].join('\n');
