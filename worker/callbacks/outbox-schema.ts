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
