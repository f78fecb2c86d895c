import { keysetPage } from './keyset.js';
import { repositoryOf } from './repo.js';
import type { ListPage } from './types.js';

/**
 * The callback_outbox table's SQL, its one home: what the outbox (worker/callbacks/outbox.ts)
 * asks of it (`outboxOf`: owe, read, retry, cancel) and what the sender (worker/callbacks/sender.ts)
 * asks (`callbackSendsOf`: due rows, claims, outcomes). The rules are the callbacks': what a row
 * means, when a callback is owed, who is woken after it was written. The store keeps `state` and
 * `last_error` as text; the callbacks give them their vocabularies (OutboxRow in outbox.ts).
 */

/** A callback_outbox row as stored. */
export interface CallbackRow {
  id: string;
  delivery_id: string;
  kind: string;
  url: string;
  destination: string;
  subject: string | null;
  version: number | null;
  body: string;
  state: string;
  attempts: number;
  next_attempt_at: number;
  retry_since: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  cancelled_at: string | null;
}

/** A new pending row: due at once (`atMs`), its retry window starting then. */
export type NewCallbackRow = Pick<CallbackRow, 'id' | 'delivery_id' | 'kind' | 'url' | 'destination' | 'subject' | 'version' | 'body'> & {
  /** When it was owed, as ms and as ISO text. */
  atMs: number;
  at: string;
};

/** What the outbox (worker/callbacks/outbox.ts) asks of the callback_outbox table. */
export interface OutboxRepo {
  /** Insert a pending row unless its delivery id is owed already: true when it was new. */
  insert(r: NewCallbackRow): boolean;
  byId(id: string): CallbackRow | undefined;
  byDelivery(deliveryId: string): CallbackRow | undefined;
  /** Rows per state, from the counts the triggers keep (never a count of the outbox). */
  counts(): Array<{ state: string; n: number }>;
  /** created_at of the oldest pending row, or null. */
  oldestPendingAt(): string | null;
  /**
   * One page by keyset, most recently changed first: rows in `state` on callback_outbox_by_state,
   * every row (`state` undefined) on callback_outbox_by_updated.
   */
  page(state: string | undefined, p: ListPage): { rows: CallbackRow[]; has_more: boolean };
  /** The id of a row carrying a newer state of row `id`'s screening, pending or delivered; undefined when none. */
  newerOwed(id: string): string | undefined;
  /** Row `id`, unless delivered, back to pending: no attempts, due at `nowMs`, its retry window starting then. */
  retry(id: string, nowMs: number, nowIso: string): void;
  /** Row `id`, if pending or dead, cancelled at `at`. */
  cancel(id: string, at: string): void;
  /** Every pending or dead row to exactly `url` cancelled at `at`: how many. */
  cancelTo(url: string, at: string): number;
}

/** `make` run on the first call only. */
function once<S>(make: () => S): () => S {
  let made: S | undefined;
  return () => (made ??= make());
}

export const outboxOf = repositoryOf<OutboxRepo>((db) => {
  // Prepared on the first call that needs them, as before the repository: a reader thread that
  // only pages (GET /callbacks, through keyset.ts) prepares no write on its read-only connection.
  const statements = once(() => ({
    insert: db.prepare<[NewCallbackRow]>(`
      INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, subject, version, body, state, attempts, next_attempt_at, retry_since, created_at, updated_at)
      VALUES (@id, @delivery_id, @kind, @url, @destination, @subject, @version, @body, 'pending', 0, @atMs, @atMs, @at, @at)
      ON CONFLICT (delivery_id) DO NOTHING`),
    byId: db.prepare<[string], CallbackRow>('SELECT * FROM callback_outbox WHERE id = ?'),
    byDelivery: db.prepare<[string], CallbackRow>('SELECT * FROM callback_outbox WHERE delivery_id = ?'),
    // Kept by triggers (outbox-schema.ts, migration 23): four rows, never a count of the outbox.
    counts: db.prepare<[], { state: string; n: number }>('SELECT state, n FROM callback_counts'),
    oldestPending: db.prepare<[], { at: string | null }>("SELECT MIN(created_at) AS at FROM callback_outbox WHERE state = 'pending'"),
    retry: db.prepare<[number, number, string, string]>(`
      UPDATE callback_outbox SET state = 'pending', attempts = 0, next_attempt_at = ?, retry_since = ?, updated_at = ?, cancelled_at = NULL
      WHERE id = ? AND state != 'delivered'`),
    // A newer state of the same screening delivered or on its way: this older one must not follow it.
    newerOwed: db.prepare<[string], { id: string }>(`
      SELECT n.id FROM callback_outbox o JOIN callback_outbox n ON n.subject = o.subject AND n.version > o.version
      WHERE o.id = ? AND n.state IN ('pending', 'delivered') LIMIT 1`),
    cancel: db.prepare<[string, string, string]>(`
      UPDATE callback_outbox SET state = 'cancelled', cancelled_at = ?, updated_at = ? WHERE id = ? AND state IN ('pending', 'dead')`),
    cancelTo: db.prepare<[string, string, string]>(`
      UPDATE callback_outbox SET state = 'cancelled', cancelled_at = ?, updated_at = ? WHERE url = ? AND state IN ('pending', 'dead')`),
  }));
  return {
    insert: (r) => statements().insert.run(r).changes > 0,
    byId: (id) => statements().byId.get(id),
    byDelivery: (deliveryId) => statements().byDelivery.get(deliveryId),
    counts: () => statements().counts.all(),
    oldestPendingAt: () => statements().oldestPending.get()?.at ?? null,
    page: (state, p) =>
      keysetPage<CallbackRow>(
        db,
        {
          select: 'SELECT * FROM callback_outbox',
          where: state === undefined ? [] : ['state = @state'],
          params: state === undefined ? {} : { state },
          key: 'updated_at',
          tie: 'rowid',
          direction: 'DESC',
          cursor: 'id = @cursor_id',
        },
        p,
      ),
    newerOwed: (id) => statements().newerOwed.get(id)?.id,
    retry: (id, nowMs, nowIso) => void statements().retry.run(nowMs, nowMs, nowIso, id),
    cancel: (id, at) => void statements().cancel.run(at, at, id),
    cancelTo: (url, at) => statements().cancelTo.run(at, at, url).changes,
  };
});

/** What the callback sender (worker/callbacks/sender.ts) asks of the outbox table. */
export interface CallbackSendsRepo {
  /** False once the store is closed. */
  isOpen(): boolean;
  /**
   * Pending rows due by `nowMs`, not to a destination in `skip`, not behind an older state of
   * their screening still owed; earliest due first, at most `limit`.
   */
  due(nowMs: number, skip: readonly string[], limit: number): Array<{ id: string; destination: string }>;
  /**
   * Claim row `id` if still pending, due and in order: one more attempt, leased until `leaseMs`
   * (the retry window starts at the first attempt); undefined when another process took it.
   */
  claim(id: string, nowMs: number, nowIso: string, leaseMs: number): CallbackRow | undefined;
  delivered(id: string, status: number, at: string): void;
  /** A failed attempt: due again at `nextMs`. */
  failed(id: string, status: number | null, failure: string, nextMs: number, at: string): void;
  dead(id: string, status: number | null, failure: string, at: string): void;
}

export const callbackSendsOf = repositoryOf<CallbackSendsRepo>((db) => {
  // Not yet ordered after an older state of the same screening still owed.
  const inOrder = `(c.subject IS NULL OR NOT EXISTS (
      SELECT 1 FROM callback_outbox o WHERE o.subject = c.subject AND o.version < c.version AND o.state = 'pending'))`;
  const st = {
    due: db.prepare<[number, string, number], { id: string; destination: string }>(`
      SELECT c.id, c.destination FROM callback_outbox c
      WHERE c.state = 'pending' AND c.next_attempt_at <= ? AND c.destination NOT IN (SELECT value FROM json_each(?)) AND ${inOrder}
      ORDER BY c.next_attempt_at LIMIT ?`),
    // The retry window starts at a row's first attempt (attempts 0 before this one): a row that
    // waited behind an older state of its screening, or an open breaker, gets its whole window.
    claim: db.prepare<[number, string, number, string, number], CallbackRow>(`
      UPDATE callback_outbox AS c SET attempts = attempts + 1, next_attempt_at = ?, updated_at = ?,
        retry_since = CASE WHEN attempts = 0 THEN ? ELSE retry_since END
      WHERE c.id = ? AND c.state = 'pending' AND c.next_attempt_at <= ? AND ${inOrder}
      RETURNING *`),
    delivered: db.prepare<[number, string, string, string]>(`
      UPDATE callback_outbox SET state = 'delivered', last_status = ?, last_error = NULL, delivered_at = ?, updated_at = ?
      WHERE id = ? AND state = 'pending'`),
    failed: db.prepare<[number | null, string, number, string, string]>(`
      UPDATE callback_outbox SET last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ?
      WHERE id = ? AND state = 'pending'`),
    dead: db.prepare<[number | null, string, string, string]>(`
      UPDATE callback_outbox SET state = 'dead', last_status = ?, last_error = ?, updated_at = ?
      WHERE id = ? AND state = 'pending'`),
  };
  return {
    isOpen: () => db.open,
    due: (nowMs, skip, limit) => st.due.all(nowMs, JSON.stringify(skip), limit),
    claim: (id, nowMs, nowIso, leaseMs) => st.claim.get(leaseMs, nowIso, nowMs, id, nowMs),
    delivered: (id, status, at) => void st.delivered.run(status, at, at, id),
    failed: (id, status, failure, nextMs, at) => void st.failed.run(status, failure, nextMs, at, id),
    dead: (id, status, failure, at) => void st.dead.run(status, failure, at, id),
  };
});
