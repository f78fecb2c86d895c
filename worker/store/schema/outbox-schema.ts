import { destinationOf, normalizedUrl } from '../destination-of.js';

/**
 * The callback outbox (worker/callbacks/outbox.ts): one row per delivery owed to a TMS,
 * written in the same transaction as the change it reports. The row is the record; nothing
 * about a delivery lives only in Redis.
 */
export const OUTBOX_MIGRATION_SQL = `
  CREATE TABLE callback_outbox (
    id              TEXT PRIMARY KEY,                 -- cb_…: the handle of POST /callbacks/:id/retry
    delivery_id     TEXT NOT NULL UNIQUE,             -- X-Carrier-Screen-Delivery, stable per event
    kind            TEXT NOT NULL,                    -- X-Carrier-Screen-Event (open set)
    url             TEXT NOT NULL,
    body            TEXT NOT NULL,                    -- sent as is on every attempt
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,                 -- ms; also the lease of a claimed row
    retry_since     INTEGER NOT NULL,                 -- ms; start of the retry window (reset by a manual retry)
    last_status     INTEGER,
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    delivered_at    TEXT
  );
  CREATE INDEX callback_outbox_due ON callback_outbox (next_attempt_at) WHERE state = 'pending';
  CREATE INDEX callback_outbox_by_state ON callback_outbox (state, updated_at);
`;

/**
 * Migration 18: each row knows its destination (the origin its own queue and breaker key on),
 * the screening whose state it carries and that state's version (rows of one screening go out
 * in version order), and may be `cancelled`. last_error becomes a category (unreachable,
 * timeout, http_status, refused_by_policy): raw network errors told callers which ports were open.
 */
export const OUTBOX_DESTINATIONS_MIGRATION_SQL = `
  CREATE TABLE callback_outbox_v18 (
    id              TEXT PRIMARY KEY,
    delivery_id     TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL,
    url             TEXT NOT NULL,
    destination     TEXT NOT NULL,                    -- the url's origin: one queue and breaker each
    subject         TEXT,                             -- the screening whose state the body carries
    version         INTEGER,                          -- that state's screening version
    body            TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead', 'cancelled')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    retry_since     INTEGER NOT NULL,
    last_status     INTEGER,
    last_error      TEXT CHECK (last_error IN ('unreachable', 'timeout', 'http_status', 'refused_by_policy')),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    delivered_at    TEXT,
    cancelled_at    TEXT
  );
  INSERT INTO callback_outbox_v18 (id, delivery_id, kind, url, destination, subject, version, body, state, attempts,
      next_attempt_at, retry_since, last_status, last_error, created_at, updated_at, delivered_at)
    SELECT id, delivery_id, kind, url,
      lower(substr(url, 1, instr(substr(url, instr(url, '://') + 3) || '/', '/') + instr(url, '://') + 1)),
      CASE WHEN kind IN ('screening.completed', 'review.resolved') THEN substr(delivery_id, 1, instr(delivery_id, ':') - 1) END,
      CASE kind WHEN 'screening.completed' THEN 3 WHEN 'review.resolved' THEN 5 END,
      body, state, attempts, next_attempt_at, retry_since, last_status,
      CASE WHEN last_error IS NULL THEN NULL
           WHEN last_status IS NOT NULL THEN 'http_status'
           WHEN last_error LIKE 'callback_url%' THEN 'refused_by_policy'
           WHEN lower(last_error) LIKE '%timeout%' OR lower(last_error) LIKE '%timed out%' OR lower(last_error) LIKE '%abort%' THEN 'timeout'
           ELSE 'unreachable' END,
      created_at, updated_at, delivered_at
    FROM callback_outbox;
  DROP TABLE callback_outbox;
  ALTER TABLE callback_outbox_v18 RENAME TO callback_outbox;
  CREATE INDEX callback_outbox_due ON callback_outbox (next_attempt_at) WHERE state = 'pending';
  CREATE INDEX callback_outbox_by_state ON callback_outbox (state, updated_at);
  CREATE INDEX callback_outbox_by_subject ON callback_outbox (subject, version) WHERE subject IS NOT NULL;
  CREATE INDEX callback_outbox_by_url ON callback_outbox (url) WHERE state IN ('pending', 'dead');
`;

/** What the step needs of the migration's connection (the store passes its own; no SQLite import here). */
interface MigrationDb {
  prepare(sql: string): { all(...params: never[]): unknown[]; run(...params: string[]): unknown };
}

/**
 * Migration 19: rows owed before migration 18 got their destination from SQL string slicing,
 * which does not parse a URL as the sender does (`http://tms:80/x` kept its default port,
 * `http://tms?k=1` its query, `http://0x7f000001/` its hex form), so they formed queues and
 * breakers of their own beside the same receiver's new rows. Every row that may still be sent
 * (not delivered) gets the URL and destination the intake and writeCallback give a new row.
 */
export function normalizeOutboxDestinations(db: MigrationDb): void {
  const rows = db.prepare("SELECT id, url, destination FROM callback_outbox WHERE state != 'delivered'").all() as Array<{
    id: string;
    url: string;
    destination: string;
  }>;
  const update = db.prepare('UPDATE callback_outbox SET url = ?, destination = ? WHERE id = ?');
  for (const r of rows) {
    const url = /^https?:/i.test(r.url) ? normalizedUrl(r.url) : r.url;
    const destination = destinationOf(url);
    if (url !== r.url || destination !== r.destination) update.run(url, destination, r.id);
  }
}

/**
 * Migration 23: the outbox's rows per state kept as counts beside it (issue 35). /status and
 * /metrics read them on every call; a COUNT over the outbox grew with every delivery kept
 * (SCREEN_EVENTS_RETENTION) and every dead or cancelled one (the record's retention). Triggers
 * keep them exact with each insert, change of state and delete, in the same transaction.
 */
export const CALLBACK_COUNTS_MIGRATION_SQL = `
  CREATE TABLE callback_counts (state TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO callback_counts (state, n) VALUES ('pending', 0), ('delivered', 0), ('dead', 0), ('cancelled', 0);
  UPDATE callback_counts SET n = (SELECT COUNT(*) FROM callback_outbox o WHERE o.state = callback_counts.state);
  CREATE TRIGGER callback_counts_insert AFTER INSERT ON callback_outbox
  BEGIN
    UPDATE callback_counts SET n = n + 1 WHERE state = NEW.state;
  END;
  CREATE TRIGGER callback_counts_delete AFTER DELETE ON callback_outbox
  BEGIN
    UPDATE callback_counts SET n = n - 1 WHERE state = OLD.state;
  END;
  CREATE TRIGGER callback_counts_state AFTER UPDATE OF state ON callback_outbox WHEN OLD.state IS NOT NEW.state
  BEGIN
    UPDATE callback_counts SET n = n - 1 WHERE state = OLD.state;
    UPDATE callback_counts SET n = n + 1 WHERE state = NEW.state;
  END;
`;
