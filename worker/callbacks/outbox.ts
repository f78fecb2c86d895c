import type Database from 'better-sqlite3';
import { LATEST_API_VERSION } from '../../shared/api-versions.js';
import { newCallbackId } from '../store/ids.js';
import { connectionOf } from '../store/sqlite-store.js';
import type { ClaimedCallback } from '../store/callback-sends-repo.js';
import { StoreArgumentError } from '../store/store-error.js';
import type { ListPage, Store } from '../store/types.js';
import { keysetPage } from '../store/keyset.js';
import { listJob } from '../store/list-reads.js';
import type { DeliveryFailure } from './callback-transport.js';
import { destinationOf } from './destination-of.js';

export { destinationOf };

/**
 * The callback outbox: every callback owed to a TMS is a row, written in the SAME SQLite
 * transaction as the change it reports, so a commit and its callback stand or fall together
 * (a crash, a Redis flush or a down receiver loses nothing). The sender (sender.ts) drains it.
 *
 * To owe a callback, call inside your transaction:
 *
 *   store.transaction(() => {
 *     ...your writes...
 *     writeCallback(store, { kind: 'decision.changed', url, deliveryId: `${decisionId}:decision.changed`,
 *                            payload: { decision } });
 *   });
 *
 * The body sent is `{"event": kind, "delivery_id": deliveryId, ...payload}`, fixed at write time
 * (every attempt sends the same bytes). `deliveryId` must be stable per event: writing the same
 * id again is a no-op, so a re-run never owes a second delivery. Senders in this process wake
 * right after the transaction ends; senders in other processes find the row on their next poll.
 * A row that carries a state of a screening names it (`order`): rows of one screening are sent
 * in version order, never an older state after a newer one.
 */

/** The one list of a callback's states: the type, the API's enum (intake/components.ts) and the checks below read it. */
export const CALLBACK_STATES = ['pending', 'delivered', 'dead', 'cancelled'] as const;
export type CallbackState = (typeof CALLBACK_STATES)[number];

export interface NewCallback {
  /** X-Carrier-Screen-Event, e.g. 'screening.completed', 'review.resolved', 'carrier.changed'. */
  kind: string;
  /** The receiver (http or https); a URL that can never be sent to ends `dead` at its first attempt. */
  url: string;
  /** X-Carrier-Screen-Delivery: stable per event, unique across kinds. */
  deliveryId: string;
  /** Merged into the body after `event` and `delivery_id` (e.g. `{ screening }`). */
  payload: Record<string, unknown>;
  /** When it was owed (default: now). */
  at?: Date;
  /** The screening whose state the body carries, and that state's version (Screening.version). */
  order?: { subject: string; version: number };
}

/** A row as the API shows it (GET /callbacks, /status). */
export interface CallbackRecord {
  object: 'callback';
  id: string;
  delivery_id: string;
  event: string;
  url: string;
  state: CallbackState;
  /** The screening whose state it carries, and that state's version; null for other events (carrier.changed). */
  screening_id: string | null;
  version: number | null;
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  /** What the last failed attempt met, as a category (never the raw network error); last_status with http_status. */
  last_error: DeliveryFailure | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  cancelled_at: string | null;
}

/** A callback_outbox row: the store's columns (ClaimedCallback), with `state` and `last_error` in the callbacks' vocabularies. */
export type OutboxRow = Omit<ClaimedCallback, 'state' | 'last_error'> & { state: CallbackState; last_error: DeliveryFailure | null };

type Db = Database.Database;

function dbOf(target: Db | Store): Db {
  return typeof (target as Db).prepare === 'function' ? (target as Db) : connectionOf(target as Store);
}

// ---- wake-up: senders of this process, per connection ----

const listeners = new WeakMap<Db, Set<() => void>>();
const wakeScheduled = new WeakSet<Db>();

/** Call `fn` after each transaction that wrote a callback row on this connection. */
export function onCallbackWritten(target: Db | Store, fn: () => void): () => void {
  const db = dbOf(target);
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

function scheduleWake(db: Db): void {
  if (wakeScheduled.has(db) || !listeners.get(db)?.size) return;
  wakeScheduled.add(db);
  // better-sqlite3 transactions are synchronous: by the time this runs the caller's
  // transaction has committed (or rolled back, and the sender just finds nothing new).
  setImmediate(() => {
    wakeScheduled.delete(db);
    for (const fn of listeners.get(db) ?? []) fn();
  });
}

// ---- prepared statements, once per connection ----

function statements(db: Db) {
  return {
    insert: db.prepare(`
      INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, subject, version, body, state, attempts, next_attempt_at, retry_since, created_at, updated_at)
      VALUES (@id, @delivery_id, @kind, @url, @destination, @subject, @version, @body, 'pending', 0, @at_ms, @at_ms, @at, @at)
      ON CONFLICT (delivery_id) DO NOTHING`),
    byId: db.prepare<[string], OutboxRow>('SELECT * FROM callback_outbox WHERE id = ?'),
    byDelivery: db.prepare<[string], OutboxRow>('SELECT * FROM callback_outbox WHERE delivery_id = ?'),
    // Kept by triggers (outbox-schema.ts, migration 23): four rows, never a count of the outbox.
    counts: db.prepare<[], { state: CallbackState; n: number }>('SELECT state, n FROM callback_counts'),
    oldestPending: db.prepare<[], { at: string | null }>("SELECT MIN(created_at) AS at FROM callback_outbox WHERE state = 'pending'"),
    list: db.prepare<[string, number], OutboxRow>(
      'SELECT * FROM callback_outbox WHERE state = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?',
    ),
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
  };
}
const cache = new WeakMap<Db, ReturnType<typeof statements>>();
function st(db: Db): ReturnType<typeof statements> {
  let s = cache.get(db);
  if (!s) cache.set(db, (s = statements(db)));
  return s;
}

/**
 * Owe one callback: insert its outbox row (call inside the transaction of the change it
 * reports). Returns the row's id and whether it is new (false: this delivery id was owed before).
 */
export function writeCallback(target: Db | Store, c: NewCallback): { id: string; created: boolean } {
  const db = dbOf(target);
  if (!c || typeof c.kind !== 'string' || c.kind === '') throw new StoreArgumentError('kind must be a non-empty string', 'kind');
  if (typeof c.url !== 'string' || c.url === '') throw new StoreArgumentError('url must be a non-empty string', 'url');
  if (typeof c.deliveryId !== 'string' || c.deliveryId === '')
    throw new StoreArgumentError('deliveryId must be a non-empty string', 'deliveryId');
  if (!c.payload || typeof c.payload !== 'object') throw new StoreArgumentError('payload must be an object', 'payload');
  if (c.order !== undefined && (typeof c.order.subject !== 'string' || !Number.isSafeInteger(c.order.version)))
    throw new StoreArgumentError('order must be { subject: string, version: integer }', 'order');
  const at = c.at ?? new Date();
  const body = JSON.stringify({ event: c.kind, delivery_id: c.deliveryId, api_version: LATEST_API_VERSION, ...c.payload });
  const s = st(db);
  const created =
    s.insert.run({
      id: newCallbackId(),
      delivery_id: c.deliveryId,
      kind: c.kind,
      url: c.url,
      destination: destinationOf(c.url),
      subject: c.order?.subject ?? null,
      version: c.order?.version ?? null,
      body,
      at_ms: at.getTime(),
      at: at.toISOString(),
    }).changes > 0;
  if (created) scheduleWake(db);
  return { id: s.byDelivery.get(c.deliveryId)!.id, created };
}

/** How many outbox rows are in each state (the metrics and /status read this). */
export function callbackCounts(target: Db | Store): Record<CallbackState, number> {
  const counts: Record<CallbackState, number> = { pending: 0, delivered: 0, dead: 0, cancelled: 0 };
  for (const { state, n } of st(dbOf(target)).counts.all()) counts[state] = n;
  return counts;
}

/** When the oldest callback still owed (pending) was owed, or null: how long TMSs have gone without (the metrics). */
export function oldestPendingCallbackAt(target: Db | Store): string | null {
  return st(dbOf(target)).oldestPending.get()?.at ?? null;
}

export function toCallbackRecord(r: OutboxRow): CallbackRecord {
  return {
    object: 'callback',
    id: r.id,
    delivery_id: r.delivery_id,
    event: r.kind,
    url: r.url,
    state: r.state,
    screening_id: r.subject,
    version: r.version,
    attempts: r.attempts,
    next_attempt_at: r.state === 'pending' ? new Date(r.next_attempt_at).toISOString() : null,
    last_status: r.last_status,
    last_error: r.last_error,
    created_at: r.created_at,
    updated_at: r.updated_at,
    delivered_at: r.delivered_at,
    cancelled_at: r.cancelled_at,
  };
}

export function getCallback(target: Db | Store, id: string): CallbackRecord | undefined {
  const r = st(dbOf(target)).byId.get(id);
  return r ? toCallbackRecord(r) : undefined;
}

export function getCallbackByDelivery(target: Db | Store, deliveryId: string): CallbackRecord | undefined {
  const r = st(dbOf(target)).byDelivery.get(deliveryId);
  return r ? toCallbackRecord(r) : undefined;
}

/** Newest first within one state. */
export function listCallbacks(target: Db | Store, state: CallbackState, limit = 50): CallbackRecord[] {
  if (!CALLBACK_STATES.includes(state)) throw new StoreArgumentError(`state must be one of ${CALLBACK_STATES.join(', ')}`, 'state');
  return st(dbOf(target)).list.all(state, limit).map(toCallbackRecord);
}

/**
 * One page of GET /callbacks by keyset, most recently changed first: one state on
 * callback_outbox_by_state, `all` on callback_outbox_by_updated.
 */
export function pageCallbacks(
  target: Db | Store,
  state: CallbackState | 'all',
  p: ListPage,
): { data: CallbackRecord[]; has_more: boolean } {
  if (state !== 'all' && !CALLBACK_STATES.includes(state))
    throw new StoreArgumentError(`state must be one of ${CALLBACK_STATES.join(', ')} or all`, 'state');
  const { rows, has_more } = keysetPage<OutboxRow>(
    dbOf(target),
    {
      select: 'SELECT * FROM callback_outbox',
      where: state === 'all' ? [] : ['state = @state'],
      params: state === 'all' ? {} : { state },
      key: 'updated_at',
      tie: 'rowid',
      direction: 'DESC',
      cursor: 'id = @cursor_id',
    },
    p,
  );
  return { data: rows.map(toCallbackRecord), has_more };
}

/** pageCallbacks as a reader-pool job (GET /callbacks): run on a read-only connection in a thread. */
export const callbacksPage = listJob(import.meta.url, 'callbacksPage', (store, a: { state: CallbackState | 'all'; page: ListPage }) =>
  pageCallbacks(store, a.state, a.page),
);

export class CallbackNotFoundError extends Error {
  override readonly name = 'CallbackNotFoundError';
  readonly code = 'resource_missing';
}

export class CallbackDeliveredError extends Error {
  override readonly name = 'CallbackDeliveredError';
  readonly code = 'callback_delivered';
}

/** Retrying it would send an older state of its screening after a newer one. */
export class CallbackSupersededError extends Error {
  override readonly name = 'CallbackSupersededError';
  readonly code = 'callback_superseded';
  constructor(
    message: string,
    /** The newer delivery of the same screening. */
    readonly newer: string,
  ) {
    super(message);
  }
}

/**
 * Send again now, with a fresh retry window: a `dead` or `cancelled` row goes back to
 * `pending`; a pending row's next attempt is brought forward. A delivered row is not sent again
 * (409), nor one whose screening has a newer state delivered or owed (409: it would arrive after it).
 */
export function retryCallback(target: Db | Store, id: string, now = new Date()): CallbackRecord {
  const db = dbOf(target);
  const s = st(db);
  return db.transaction(() => {
    const before = s.byId.get(id);
    if (!before) throw new CallbackNotFoundError(`no callback with id ${id}`);
    if (before.state === 'delivered')
      throw new CallbackDeliveredError(`callback ${id} was delivered at ${before.delivered_at}; it is not sent again`);
    const newer = s.newerOwed.get(id);
    if (newer && before.state !== 'pending')
      throw new CallbackSupersededError(
        `callback ${id} carries an older state of screening ${before.subject} than callback ${newer.id}; it is not sent after it`,
        newer.id,
      );
    s.retry.run(now.getTime(), now.getTime(), now.toISOString(), id);
    scheduleWake(db);
    return toCallbackRecord(s.byId.get(id)!);
  })();
}

/**
 * Stop a delivery: a pending or dead row becomes `cancelled` and is never sent (an attempt
 * already on the wire may still arrive). Cancelling a cancelled row returns it as it is; a
 * delivered one is a 409. POST /callbacks/:id/retry sends a cancelled row after all.
 */
export function cancelCallback(target: Db | Store, id: string, now = new Date()): CallbackRecord {
  const db = dbOf(target);
  const s = st(db);
  s.cancel.run(now.toISOString(), now.toISOString(), id);
  const row = s.byId.get(id);
  if (!row) throw new CallbackNotFoundError(`no callback with id ${id}`);
  if (row.state === 'delivered')
    throw new CallbackDeliveredError(`callback ${id} was delivered at ${row.delivered_at}; there is nothing to cancel`);
  scheduleWake(db); // a later state of its screening may have waited on it
  return toCallbackRecord(row);
}

/** Stop every delivery still owed to `url` (exactly that URL, as stored): how many were cancelled. */
export function cancelCallbacksTo(target: Db | Store, url: string, now = new Date()): number {
  const db = dbOf(target);
  const n = st(db).cancelTo.run(now.toISOString(), now.toISOString(), url).changes;
  if (n > 0) scheduleWake(db);
  return n;
}
