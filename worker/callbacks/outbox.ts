import { LATEST_API_VERSION } from '../../shared/api-versions.js';
import { newCallbackId } from '../store/ids.js';
import type { CallbackRow, NewCallbackRow } from '../store/outbox-repo.js';
import { StoreArgumentError } from '../store/store-error.js';
import type { ListPage } from '../store/types.js';
import type { RecordStore, RecordTx } from '../store/index.js';
import type { RecordRepos } from '../store/record.js';
import { listJob } from '../store/list-reads.js';
import type { DeliveryFailure } from './callback-transport.js';
import { destinationOf } from './destination-of.js';

export { destinationOf };

/**
 * The callback outbox: every callback owed to a TMS is a row, written in the SAME unit of work
 * as the change it reports, so a commit and its callback stand or fall together
 * (a crash, a Redis flush or a down receiver loses nothing). The sender (sender.ts) drains it.
 *
 * To owe a callback, call inside your unit of work:
 *
 *   await store.unitOfWork(async (tx) => {
 *     ...your writes...
 *     await writeCallback(store, { kind: 'decision.changed', url, deliveryId: `${decisionId}:decision.changed`,
 *                            payload: { decision } }, tx);
 *   });
 *
 * The body sent is `{"event": kind, "delivery_id": deliveryId, ...payload}`, fixed at write time
 * (every attempt sends the same bytes). `deliveryId` must be stable per event: writing the same
 * id again is a no-op, so a re-run never owes a second delivery. Senders in this process wake
 * right after the unit of work commits (`tx.afterCommit`); senders in other processes find the
 * row on their next poll.
 * A row that carries a state of a screening names it (`order`): rows of one screening are sent
 * in version order, never an older state after a newer one.
 *
 * The SQL is the store's (the record's `outbox`: worker/store/outbox-repo.ts, its PostgreSQL twin
 * pg/outbox-repo.ts); the rules are here.
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

/** A callback_outbox row: the store's columns (CallbackRow), with `state` and `last_error` in the callbacks' vocabularies. */
export type OutboxRow = Omit<CallbackRow, 'state' | 'last_error'> & { state: CallbackState; last_error: DeliveryFailure | null };

/** The store keeps state and last_error as text; only the outbox and the sender write them, in these words. */
const asOutboxRow = (r: CallbackRow): OutboxRow => r as OutboxRow;

// ---- wake-up: senders of this process, per store (the record: recordOf gives one per SQLite store) ----

const listeners = new WeakMap<RecordStore, Set<() => void>>();
const wakeScheduled = new WeakSet<RecordStore>();

/** Call `fn` after each transaction that wrote a callback row on this store. */
export function onCallbackWritten(store: RecordStore, fn: () => void): () => void {
  let set = listeners.get(store);
  if (!set) listeners.set(store, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

/**
 * Wake this process's senders on a later turn (one wake for many rows). Inside a unit of work
 * only through `tx.afterCommit`: it must not run before the COMMIT. Outside one (a single
 * statement, committed as it ran) directly.
 */
function scheduleWake(store: RecordStore): void {
  if (wakeScheduled.has(store) || !listeners.get(store)?.size) return;
  wakeScheduled.add(store);
  setImmediate(() => {
    wakeScheduled.delete(store);
    for (const fn of listeners.get(store) ?? []) fn();
  });
}

/**
 * Owe one callback: insert its outbox row, through `tx`, the unit of work of the change it
 * reports. Answers the row's id and whether it is new (false: this delivery id was owed before).
 * Without `tx` the row is written by itself (tests, tools), and the senders are woken at once.
 * A bad argument throws at the call, before anything is written.
 */
export function writeCallback(store: RecordStore, c: NewCallback, tx?: RecordTx): Promise<{ id: string; created: boolean }> {
  if (!c || typeof c.kind !== 'string' || c.kind === '') throw new StoreArgumentError('kind must be a non-empty string', 'kind');
  if (typeof c.url !== 'string' || c.url === '') throw new StoreArgumentError('url must be a non-empty string', 'url');
  if (typeof c.deliveryId !== 'string' || c.deliveryId === '')
    throw new StoreArgumentError('deliveryId must be a non-empty string', 'deliveryId');
  if (!c.payload || typeof c.payload !== 'object') throw new StoreArgumentError('payload must be an object', 'payload');
  if (c.order !== undefined && (typeof c.order.subject !== 'string' || !Number.isSafeInteger(c.order.version)))
    throw new StoreArgumentError('order must be { subject: string, version: integer }', 'order');
  const at = c.at ?? new Date();
  const body = JSON.stringify({ event: c.kind, delivery_id: c.deliveryId, api_version: LATEST_API_VERSION, ...c.payload });
  return insertCallback(store, tx, {
    id: newCallbackId(),
    delivery_id: c.deliveryId,
    kind: c.kind,
    url: c.url,
    destination: destinationOf(c.url),
    subject: c.order?.subject ?? null,
    version: c.order?.version ?? null,
    body,
    atMs: at.getTime(),
    at: at.toISOString(),
  });
}

async function insertCallback(
  store: RecordStore,
  tx: RecordTx | undefined,
  row: NewCallbackRow,
): Promise<{ id: string; created: boolean }> {
  const outbox = (tx ?? store).outbox;
  const created = await outbox.insert(row);
  if (created) {
    wakeAfter(store, tx);
    return { id: row.id, created };
  }
  // Owed before: the row that was (one more read only then, not on every new callback).
  return { id: (await outbox.byDelivery(row.delivery_id))!.id, created };
}

function wakeAfter(store: RecordStore, tx: RecordTx | undefined): void {
  if (tx) tx.afterCommit(() => scheduleWake(store));
  else scheduleWake(store);
}

/** How many outbox rows are in each state (the metrics and /status read this), through `repos` (the store, or a unit's handle). */
export async function callbackCounts(repos: Pick<RecordRepos, 'outbox'>): Promise<Record<CallbackState, number>> {
  const counts: Record<CallbackState, number> = { pending: 0, delivered: 0, dead: 0, cancelled: 0 };
  for (const { state, n } of await repos.outbox.counts()) counts[state as CallbackState] = n;
  return counts;
}

/** When the oldest callback still owed (pending) was owed, or null: how long TMSs have gone without (the metrics). */
export function oldestPendingCallbackAt(repos: Pick<RecordRepos, 'outbox'>): Promise<string | null> {
  return repos.outbox.oldestPendingAt();
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

export async function getCallback(repos: Pick<RecordRepos, 'outbox'>, id: string): Promise<CallbackRecord | undefined> {
  const r = await repos.outbox.byId(id);
  return r ? toCallbackRecord(asOutboxRow(r)) : undefined;
}

export async function getCallbackByDelivery(repos: Pick<RecordRepos, 'outbox'>, deliveryId: string): Promise<CallbackRecord | undefined> {
  const r = await repos.outbox.byDelivery(deliveryId);
  return r ? toCallbackRecord(asOutboxRow(r)) : undefined;
}

/**
 * One page of GET /callbacks by keyset, most recently changed first: one state on
 * callback_outbox_by_state, `all` on callback_outbox_by_updated; read through the record's
 * `outbox` (committed rows).
 */
export async function pageCallbacks(
  repos: Pick<RecordRepos, 'outbox'>,
  state: CallbackState | 'all',
  p: ListPage,
): Promise<{ data: CallbackRecord[]; has_more: boolean }> {
  if (state !== 'all' && !CALLBACK_STATES.includes(state))
    throw new StoreArgumentError(`state must be one of ${CALLBACK_STATES.join(', ')} or all`, 'state');
  const { rows, has_more } = await repos.outbox.page(state === 'all' ? undefined : state, p);
  return { data: rows.map((r) => toCallbackRecord(asOutboxRow(r))), has_more };
}

/** pageCallbacks as a reader job (GET /callbacks): on SQLite run on a read-only connection in a thread. */
export const callbacksPage = listJob(import.meta.url, 'callbacksPage', (record, a: { state: CallbackState | 'all'; page: ListPage }) =>
  pageCallbacks(record, a.state, a.page),
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
export function retryCallback(store: RecordStore, id: string, now = new Date()): Promise<CallbackRecord> {
  return store.unitOfWork(async (tx) => {
    const before = await tx.outbox.byId(id);
    if (!before) throw new CallbackNotFoundError(`no callback with id ${id}`);
    if (before.state === 'delivered')
      throw new CallbackDeliveredError(`callback ${id} was delivered at ${before.delivered_at}; it is not sent again`);
    const newer = await tx.outbox.newerOwed(id);
    if (newer !== undefined && before.state !== 'pending')
      throw new CallbackSupersededError(
        `callback ${id} carries an older state of screening ${before.subject} than callback ${newer}; it is not sent after it`,
        newer,
      );
    await tx.outbox.retry(id, now.getTime(), now.toISOString());
    wakeAfter(store, tx);
    return toCallbackRecord(asOutboxRow((await tx.outbox.byId(id))!));
  });
}

/**
 * Stop a delivery: a pending or dead row becomes `cancelled` and is never sent (an attempt
 * already on the wire may still arrive). Cancelling a cancelled row returns it as it is; a
 * delivered one is a 409. POST /callbacks/:id/retry sends a cancelled row after all.
 */
export function cancelCallback(store: RecordStore, id: string, now = new Date()): Promise<CallbackRecord> {
  // A unit of its own: never part of (and rolled back with) another that is open.
  return store.unitOfWork(async (tx) => {
    await tx.outbox.cancel(id, now.toISOString());
    const row = await tx.outbox.byId(id);
    if (!row) throw new CallbackNotFoundError(`no callback with id ${id}`);
    if (row.state === 'delivered')
      throw new CallbackDeliveredError(`callback ${id} was delivered at ${row.delivered_at}; there is nothing to cancel`);
    wakeAfter(store, tx); // a later state of its screening may have waited on it
    return toCallbackRecord(asOutboxRow(row));
  });
}

/** Stop every delivery still owed to `url` (exactly that URL, as stored): how many were cancelled. */
export function cancelCallbacksTo(store: RecordStore, url: string, now = new Date()): Promise<number> {
  return store.unitOfWork(async (tx) => {
    const n = await tx.outbox.cancelTo(url, now.toISOString());
    if (n > 0) wakeAfter(store, tx);
    return n;
  });
}
