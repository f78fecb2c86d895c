import type { CallbackRow, NewCallbackRow, OutboxRepo } from '../outbox-repo.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { pgKeysetPage } from './keyset-page.js';
import { statement } from './sql.js';

/**
 * The callback_outbox table's SQL on PostgreSQL: the twin of ../outbox-repo.ts (`outboxOf`,
 * `callbackSendsOf`), method by method. What differs is what several hosts need on READ
 * COMMITTED (docs/design/postgres.md, section 4, "outbox claims" and "callback counts"):
 * - a claim locks its rows with FOR UPDATE SKIP LOCKED, so a host never waits on a row another
 *   is claiming, and `claimDue` claims a batch in one statement;
 * - the counts are sharded rows `(state, shard)` kept by triggers, summed here.
 */

/** The row as the SQLite twin returns it: every column but `seq` (PostgreSQL's rowid). */
const COLUMNS = [
  'id',
  'delivery_id',
  'kind',
  'url',
  'destination',
  'subject',
  'version',
  'body',
  'state',
  'attempts',
  'next_attempt_at',
  'retry_since',
  'last_status',
  'last_error',
  'created_at',
  'updated_at',
  'delivered_at',
  'cancelled_at',
] as const;
const cols = (alias?: string) => COLUMNS.map((c) => (alias ? `${alias}.${c}` : c)).join(', ');

// Not ordered after an older state of the same screening still owed: `pending` whether due,
// backing off, leased to an attempt on the wire or to a destination left out (`skip` chooses
// among candidates, never among the rows that hold them back). A plain read, never a lock: a row
// another host is claiming still holds its newer states back.
const inOrder = (c: string) => `(${c}.subject IS NULL OR NOT EXISTS (
    SELECT 1 FROM callback_outbox o WHERE o.subject = ${c}.subject AND o.version < ${c}.version AND o.state = 'pending'))`;

/** A row `claim` may take at `@now_ms`. */
const claimable = (c: string) => `${c}.state = 'pending' AND ${c}.next_attempt_at <= @now_ms AND ${inOrder(c)}`;

// The retry window starts at a row's first attempt (attempts 0 before this one), as on SQLite.
// The UPDATE joins `picked` by id only: FOR UPDATE checked `claimable` again on the newest
// version of a row changed since the statement began, and the lock keeps it so; asking again
// here made PostgreSQL scan every pending row (a hash join) instead of looking up the picked ones.
const claimSet = `attempts = c.attempts + 1, next_attempt_at = @lease_ms, updated_at = @now_iso,
    retry_since = CASE WHEN c.attempts = 0 THEN @now_ms ELSE c.retry_since END`;

const st = {
  insert: statement<NewCallbackRow>(
    'outbox_insert',
    `INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, subject, version, body, state, attempts, next_attempt_at, retry_since, created_at, updated_at)
    VALUES (@id, @delivery_id, @kind, @url, @destination, @subject, @version, @body, 'pending', 0, @atMs, @atMs, @at, @at)
    ON CONFLICT (delivery_id) DO NOTHING`,
  ),
  byId: statement<{ id: string }>('outbox_by_id', `SELECT ${cols()} FROM callback_outbox WHERE id = @id`),
  byDelivery: statement<{ delivery_id: string }>(
    'outbox_by_delivery',
    `SELECT ${cols()} FROM callback_outbox WHERE delivery_id = @delivery_id`,
  ),
  // Sharded by the triggers (a row per state and shard, so hosts owing callbacks at once do not
  // queue on one row; every state seeded, as SQLite's four rows): summed, in SQLite's order.
  counts: statement('outbox_counts', 'SELECT state, SUM(n)::bigint AS n FROM callback_counts GROUP BY state ORDER BY state'),
  oldestPending: statement('outbox_oldest_pending', "SELECT MIN(created_at) AS at FROM callback_outbox WHERE state = 'pending'"),
  retry: statement<{ id: string; now_ms: number; now_iso: string }>(
    'outbox_retry',
    `UPDATE callback_outbox SET state = 'pending', attempts = 0, next_attempt_at = @now_ms, retry_since = @now_ms, updated_at = @now_iso, cancelled_at = NULL
    WHERE id = @id AND state <> 'delivered'`,
  ),
  // A newer state of the same screening delivered or on its way. The nearest newer one, as
  // SQLite's read of callback_outbox_by_subject finds it first.
  newerOwed: statement<{ id: string }>(
    'outbox_newer_owed',
    `SELECT n.id FROM callback_outbox o JOIN callback_outbox n ON n.subject = o.subject AND n.version > o.version
    WHERE o.id = @id AND n.state IN ('pending', 'delivered') ORDER BY n.version, n.seq LIMIT 1`,
  ),
  cancel: statement<{ id: string; at: string }>(
    'outbox_cancel',
    `UPDATE callback_outbox SET state = 'cancelled', cancelled_at = @at, updated_at = @at WHERE id = @id AND state IN ('pending', 'dead')`,
  ),
  cancelTo: statement<{ url: string; at: string }>(
    'outbox_cancel_to',
    `UPDATE callback_outbox SET state = 'cancelled', cancelled_at = @at, updated_at = @at WHERE url = @url AND state IN ('pending', 'dead')`,
  ),

  due: statement<{ now_ms: number; skip: string[]; limit: number }>(
    'outbox_sends_due',
    `SELECT c.id, c.destination FROM callback_outbox c
    WHERE ${claimable('c')} AND c.destination <> ALL(@skip::text[])
    ORDER BY c.next_attempt_at, c.seq LIMIT @limit`,
  ),
  // One row: skipped (undefined, "another process took it") while another host holds it, never
  // waited on.
  claim: statement<{ id: string; now_ms: number; now_iso: string; lease_ms: number }>(
    'outbox_sends_claim',
    `WITH picked AS MATERIALIZED (
      SELECT p.id FROM callback_outbox p WHERE p.id = @id AND ${claimable('p')} FOR UPDATE OF p SKIP LOCKED
    )
    UPDATE callback_outbox AS c SET ${claimSet}
    FROM picked WHERE c.id = picked.id
    RETURNING ${cols('c')}`,
  ),
  // The batch: chosen and locked in `picked` (rows locked by another host skipped; its LIMIT
  // counts only rows it locked), then leased, each destination's first `room` of them only (the
  // others' locks end with the statement, or the caller's transaction). MATERIALIZED: run once,
  // whatever the plan; a sub-select the UPDATE's join scanned again would lock further rows past
  // the ones it has just leased (found with a nested loop: 3 rows claimed of a LIMIT 2).
  // RETURNING has no order: the last SELECT gives them earliest due first, as `due` lists them.
  claimDue: statement<{
    now_ms: number;
    now_iso: string;
    lease_ms: number;
    skip: string[];
    limit: number;
    room: string;
    room_others: number;
  }>(
    'outbox_sends_claim_due',
    `WITH picked AS MATERIALIZED (
      SELECT p.id, p.destination, p.next_attempt_at AS due_at, p.seq FROM callback_outbox p
      WHERE ${claimable('p')} AND p.destination <> ALL(@skip::text[])
      ORDER BY p.next_attempt_at, p.seq LIMIT @limit
      FOR UPDATE OF p SKIP LOCKED
    ), kept AS (
      SELECT r.id, r.due_at, r.seq FROM (
        SELECT picked.*, row_number() OVER (PARTITION BY picked.destination ORDER BY picked.due_at, picked.seq) AS k FROM picked
      ) AS r
      WHERE r.k <= COALESCE((@room::json ->> r.destination)::bigint, @room_others)
    ), claimed AS (
      UPDATE callback_outbox AS c SET ${claimSet}
      FROM kept WHERE c.id = kept.id
      RETURNING ${cols('c')}, kept.due_at AS claim_due_at, kept.seq AS claim_seq
    )
    SELECT ${cols()} FROM claimed ORDER BY claim_due_at, claim_seq`,
  ),
  delivered: statement<{ id: string; status: number; at: string }>(
    'outbox_sends_delivered',
    `UPDATE callback_outbox SET state = 'delivered', last_status = @status, last_error = NULL, delivered_at = @at, updated_at = @at
    WHERE id = @id AND state = 'pending'`,
  ),
  failed: statement<{ id: string; status: number | null; failure: string; next_ms: number; at: string }>(
    'outbox_sends_failed',
    `UPDATE callback_outbox SET last_status = @status, last_error = @failure, next_attempt_at = @next_ms, updated_at = @at
    WHERE id = @id AND state = 'pending'`,
  ),
  dead: statement<{ id: string; status: number | null; failure: string; at: string }>(
    'outbox_sends_dead',
    `UPDATE callback_outbox SET state = 'dead', last_status = @status, last_error = @failure, updated_at = @at
    WHERE id = @id AND state = 'pending'`,
  ),
};

/** callback_outbox on PostgreSQL for the outbox (callbacks/outbox.ts): the twin of `outboxOf`. */
export function pgOutboxOf(x: PgExecutor): AsyncRepo<OutboxRepo> {
  return {
    insert: async (r) => (await st.insert.run(x, r)) > 0,
    byId: (id) => st.byId.get<CallbackRow>(x, { id }),
    byDelivery: (deliveryId) => st.byDelivery.get<CallbackRow>(x, { delivery_id: deliveryId }),
    counts: () => st.counts.all<{ state: string; n: number }>(x, {}),
    oldestPendingAt: async () => (await st.oldestPending.get<{ at: string | null }>(x, {}))?.at ?? null,
    page: (state, p) =>
      pgKeysetPage<CallbackRow & Record<string, unknown>>(
        x,
        'outbox_page',
        {
          select: `SELECT ${cols()} FROM callback_outbox`,
          where: state === undefined ? [] : ['state = @state'],
          params: state === undefined ? {} : { state },
          key: 'updated_at',
          tie: 'seq',
          direction: 'DESC',
          cursor: 'id = @cursor_id',
        },
        p,
      ),
    newerOwed: async (id) => (await st.newerOwed.get<{ id: string }>(x, { id }))?.id,
    retry: async (id, nowMs, nowIso) => void (await st.retry.run(x, { id, now_ms: nowMs, now_iso: nowIso })),
    cancel: async (id, at) => void (await st.cancel.run(x, { id, at })),
    cancelTo: (url, at) => st.cancelTo.run(x, { url, at }),
  };
}

/** The sender's repository on PostgreSQL: record.ts's, with its batch claim one statement. */
export type { RecordCallbackSends as PgCallbackSendsRepo } from '../record.js';
import type { RecordCallbackSends as PgCallbackSendsRepo } from '../record.js';

/**
 * callback_outbox on PostgreSQL for the sender (callbacks/sender.ts): the twin of
 * `callbackSendsOf`, and `claimDue`. `isOpen`: false once the store that owns `x` is closed (the
 * pool has no such flag of its own).
 */
export function pgCallbackSendsOf(x: PgExecutor, isOpen: () => boolean = () => true): PgCallbackSendsRepo {
  return {
    isOpen: async () => isOpen(),
    due: (nowMs, skip, limit) => st.due.all<{ id: string; destination: string }>(x, { now_ms: nowMs, skip: [...skip], limit }),
    claim: (id, nowMs, nowIso, leaseMs) => st.claim.get<CallbackRow>(x, { id, now_ms: nowMs, now_iso: nowIso, lease_ms: leaseMs }),
    claimDue: (nowMs, nowIso, leaseMs, skip, limit, room) =>
      st.claimDue.all<CallbackRow>(x, {
        now_ms: nowMs,
        now_iso: nowIso,
        lease_ms: leaseMs,
        skip: [...skip],
        limit,
        room: JSON.stringify(room?.of ?? {}),
        room_others: room?.others ?? limit,
      }),
    delivered: async (id, status, at) => void (await st.delivered.run(x, { id, status, at })),
    failed: async (id, status, failure, nextMs, at) => void (await st.failed.run(x, { id, status, failure, next_ms: nextMs, at })),
    dead: async (id, status, failure, at) => void (await st.dead.run(x, { id, status, failure, at })),
  };
}
