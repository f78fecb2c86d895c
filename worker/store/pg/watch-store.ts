import type { CarrierSnapshot, ChangeFindings, ChangeTender, WatchEntry } from '../../../shared/screening.js';
import { checkLimit } from '../arg-checks.js';
import { newScreeningId } from '../ids.js';
import type { KeysetList } from '../keyset.js';
import { NotFoundError, StoreArgumentError, WatchConflictError } from '../store-error.js';
import {
  changesListOf,
  checkKeys,
  mcStateIsNewer,
  mergedEntry,
  toChange,
  toEntry,
  type ChangeRow,
  type WatchEntryRow,
} from '../watch-rows.js';
import type { DueCarrier, Observation, StoredChange, TenderUse, WatchStore } from '../watch-store.js';
import { ADVISORY_NAMESPACES, carrierLockSql } from './advisory-keys.js';
import type { AsyncRepo } from '../async-repo.js';
import { lockMissing, type PgExecutor } from './executor.js';
import { pgKeysetPage } from './keyset-page.js';
import type { QueryResultRow } from 'pg';
import { ahead, readAheadMany, statement } from './sql.js';

/**
 * The watch list and carrier changes on PostgreSQL: watch-store.ts statement for statement. SQLite
 * runs each read-compare-write in one IMMEDIATE transaction (one writer); here the carrier's
 * advisory lock (ADVISORY_NAMESPACES.watch, on every key the call names) is taken before the
 * reads that decide a write, so several hosts finishing screenings of one carrier record one
 * change. Reads that find nothing to write (a cache hit: almost every tender) take no lock. The
 * re-screen claim takes its rows FOR UPDATE SKIP LOCKED: two hosts' ticks never take one carrier.
 */

const DAY_MS = 86_400_000;

/**
 * What observe takes on PostgreSQL: `findings` may answer a Promise (watch-service.ts reads the
 * old screening for it, an await on PostgreSQL). It runs while observe holds a client and the
 * carrier's lock: read through the caller's unit of work where there is one, since a read that
 * waits for another pool client can starve a pool whose clients all wait the same way.
 * `detect` stays synchronous.
 */
export interface PgObservation extends Omit<Observation, 'findings'> {
  findings?(before: CarrierSnapshot, after: CarrierSnapshot): ChangeFindings | undefined | Promise<ChangeFindings | undefined>;
}

/** AsyncRepo<WatchStore>, its observe taking an async `findings` too (still a WatchStore's observe). */
export type PgWatchStore = Omit<AsyncRepo<WatchStore>, 'observe'> & {
  observe(o: PgObservation): Promise<StoredChange | undefined>;
  /** recordTender(t) then observe(o), each when given, as one call: their first reads are one statement. */
  tenderAndObserve(t: TenderUse | undefined, o: PgObservation | undefined): Promise<StoredChange | undefined>;
  /** tenderAndObserve's first read for many tenders at once, answered by the unit of work after (sql.ts `remember`). */
  readAheadTenders?(tenders: Array<{ carrierKey: string; keys: string[] }>): Promise<void>;
};

export interface PgWatchStoreOptions {
  /** SCREEN_WATCH_DAYS: how long after its last tender a carrier stays watched (0: tenders put nobody on the list). */
  watchDays: number;
}

interface EntryRow extends WatchEntryRow {
  carrier_key: string;
}

const newChangeId = (): string => `chg_${newScreeningId().slice(4)}`;

// ---- SQL ----

/**
 * An entry with its latest tender read from the screenings (screenings_by_carrier), as SQLite's
 * ENTRY: GREATEST of two COALESCEd values (never NULL), so SQLite's MAX semantics hold.
 */
const ENTRY = `
  SELECT e.carrier_key, e.dot_number, e.mc_number, e.note, e.manual, e.added_at, e.last_checked_at, e.next_check_at, e.last_state,
    NULLIF(GREATEST(COALESCE(e.last_tender_at, ''), COALESCE((SELECT s.created_at FROM screenings s
      WHERE s.carrier_key = e.carrier_key AND s.created_at >= e.added_at ORDER BY s.created_at DESC LIMIT 1), '')), '') AS last_tender_at
  FROM watch_entries e`;

/** Watched at @now (@since = @now - SCREEN_WATCH_DAYS): added by hand, or tendered since. */
const ACTIVE = `(e.manual = 1 OR e.last_tender_at > @since::text OR EXISTS (
  SELECT 1 FROM screenings s WHERE s.carrier_key = e.carrier_key AND s.created_at > @since::text AND s.created_at >= e.added_at))`;

const CHANGE_COLUMNS = `id, carrier_key, dot_number, mc_number, legal_name, screening_id, reasons, before_state, after_state, tenders,
  state, acknowledged_by, acknowledged_at, detected_at, findings, ack_note`;

type Key = { key: string };

const lockCarrier = statement<{ keys: string[] }>(
  'watch_lock_carrier',
  // One lock per key, taken in the order of their hashes (a volatile select list is computed after
  // the ORDER BY): two hosts locking a carrier's DOT and MC keys take them in one order.
  `SELECT ${carrierLockSql(ADVISORY_NAMESPACES.watch, 'l.k')} FROM (
     SELECT DISTINCT k, hashtext(k) AS h FROM unnest(@keys::text[]) AS k
   ) AS l ORDER BY l.h, l.k`,
);
export const ENTRY_BY_KEY_SQL = `${ENTRY} WHERE e.carrier_key = @key`;
const entryByKey = statement<Key>('watch_entry_by_key', ENTRY_BY_KEY_SQL);
const entryHead = statement<Key>(
  'watch_entry_head',
  'SELECT manual, dot_number, mc_number, last_tender_at, added_at FROM watch_entries WHERE carrier_key = @key',
  { plainRead: true },
);
const stateHead = statement<{ key: string; other: string | null }>(
  'watch_state_head',
  // last_state whole, read in JS: PostgreSQL's json operators refuse a document in which any
  // string holds \u0000 or half a surrogate pair (a legal name from /v1 may), SQLite's do not.
  `SELECT last_state, EXISTS (SELECT 1 FROM watch_entries WHERE carrier_key = @other::text) AS other_waiting
   FROM watch_entries WHERE carrier_key = @key`,
  { plainRead: true },
);
// entryHead for recordTender and stateHead for observe, in one statement (tenderAndObserve).
const heads = statement<{ tkey: string | null; key: string | null; other: string | null }>(
  'watch_heads',
  `SELECT t.carrier_key IS NOT NULL AS has_entry, t.manual, t.dot_number, t.mc_number, t.last_tender_at, t.added_at,
     s.carrier_key IS NOT NULL AS has_state, s.last_state,
     EXISTS (SELECT 1 FROM watch_entries WHERE carrier_key = @other::text) AS other_waiting
   FROM (SELECT 1) AS one
   LEFT JOIN watch_entries t ON t.carrier_key = @tkey::text
   LEFT JOIN watch_entries s ON s.carrier_key = @key::text`,
  { plainRead: true },
);
// The watch rows behind many tenders' `heads` (readAheadTenders), in a statement of one table
// whose rows are put together in JS (headsOf): joined per tender in SQL, PostgreSQL planned it
// again at every bind, 0.1-0.2 ms each time (the batch's costliest bind, bench/README.md).
const rowsMany = statement<{ keys: string[] }>(
  'watch_rows_many',
  `SELECT carrier_key, manual, dot_number, mc_number, last_tender_at, added_at, last_state
   FROM watch_entries WHERE carrier_key = ANY(@keys::text[])`,
  { plainRead: true },
);
type WatchRow = HeadRow & { carrier_key: string; last_state: string | null };
/** The row `heads` reads for `p`, from the watch rows of its keys (those absent have none). */
function headsOf(p: { tkey: string; key: string; other: string | null }, rows: ReadonlyMap<string, WatchRow>): QueryResultRow {
  const t = rows.get(p.tkey);
  const s = rows.get(p.key);
  return {
    has_entry: t !== undefined,
    manual: t?.manual ?? null,
    dot_number: t?.dot_number ?? null,
    mc_number: t?.mc_number ?? null,
    last_tender_at: t?.last_tender_at ?? null,
    added_at: t?.added_at ?? null,
    has_state: s !== undefined,
    last_state: s?.last_state ?? null,
    other_waiting: p.other !== null && rows.has(p.other),
  };
}
/** The parameters of `heads` for a tender and its observation: only when both are of one carrier key (tenderAndObserve's one read). */
const headsParams = (carrierKey: string, keys: readonly string[]): { tkey: string; key: string; other: string | null } | undefined =>
  carrierKey === keys[0] ? { tkey: carrierKey, key: keys[0], other: keys[1] ?? null } : undefined;
const latestTenderBut = statement<{ key: string; self: string; added: string }>(
  'watch_latest_tender_but',
  `SELECT created_at FROM screenings WHERE carrier_key = @key AND created_at >= @added AND id <> @self
   ORDER BY created_at DESC LIMIT 1`,
);
const tagTender = statement<{ id: string; key: string }>(
  'watch_tag_tender',
  'UPDATE screenings SET carrier_key = @key::text WHERE id = @id AND carrier_key IS DISTINCT FROM @key::text',
);
const insertEntry = statement<{ key: string; dot: string | null; mc: string | null; at: string; next: string }>(
  'watch_insert_entry',
  `INSERT INTO watch_entries (carrier_key, dot_number, mc_number, manual, added_at, last_tender_at, next_check_at)
   VALUES (@key, @dot, @mc, 0, @at::text, @at::text, @next)
   ON CONFLICT (carrier_key) DO NOTHING`,
);
const setIds = statement<{ key: string; dot: string | null; mc: string | null }>(
  'watch_set_ids',
  `UPDATE watch_entries SET dot_number = COALESCE(@dot::text, dot_number), mc_number = COALESCE(@mc::text, mc_number)
   WHERE carrier_key = @key`,
);
const restartWindow = statement<{ key: string; next: string; at: string }>(
  'watch_restart_window',
  'UPDATE watch_entries SET next_check_at = @next, last_tender_at = @at WHERE carrier_key = @key',
);
const moveFloor = statement<{ key: string; at: string }>(
  'watch_move_floor',
  'UPDATE watch_entries SET last_tender_at = @at WHERE carrier_key = @key',
);
const upsertManual = statement<{ key: string; dot: string | null; mc: string | null; note: string | null; at: string; next: string }>(
  'watch_upsert_manual',
  `INSERT INTO watch_entries AS w (carrier_key, dot_number, mc_number, note, manual, added_at, next_check_at)
   VALUES (@key, @dot, @mc, @note, 1, @at, @next)
   ON CONFLICT (carrier_key) DO UPDATE SET manual = 1, note = COALESCE(excluded.note, w.note),
     dot_number = COALESCE(excluded.dot_number, w.dot_number), mc_number = COALESCE(excluded.mc_number, w.mc_number)`,
);
const deleteEntry = statement<Key>('watch_delete_entry', 'DELETE FROM watch_entries WHERE carrier_key = @key');
const pruneExpired = statement<{ since: string }>('watch_prune_expired', `DELETE FROM watch_entries AS e WHERE NOT ${ACTIVE}`);
// SQLite's claim is one IMMEDIATE transaction; here the due rows are locked as they are read, and
// rows another host holds are passed over (it is claiming them), not waited for. A row another
// host claimed and committed since this statement began is re-checked (next_check_at moved on).
/** The claim's read (exported for the plan check in the contract test). */
export const CLAIM_DUE_SQL = `SELECT e.carrier_key AS "carrierKey", e.dot_number, e.mc_number FROM watch_entries e
   WHERE e.next_check_at <= @now AND ${ACTIVE}
     AND NOT EXISTS (SELECT 1 FROM local_blocks b WHERE b.lifted_at IS NULL AND (
       b.carrier_key = e.carrier_key OR b.dot_number = e.dot_number OR b.mc_number = e.mc_number))
   ORDER BY e.next_check_at ASC, e.carrier_key ASC LIMIT @limit
   FOR UPDATE OF e SKIP LOCKED`;
const due = statement<{ now: string; since: string; limit: number }>('watch_claim_due', CLAIM_DUE_SQL);
const setNextMany = statement<{ keys: string[]; nexts: string[] }>(
  'watch_set_next_many',
  `UPDATE watch_entries AS w SET next_check_at = v.next
   FROM unnest(@keys::text[], @nexts::text[]) AS v (key, next) WHERE w.carrier_key = v.key`,
);
const setNext = statement<{ key: string; next: string }>(
  'watch_set_next',
  'UPDATE watch_entries SET next_check_at = @next WHERE carrier_key = @key',
);
const markWatch = statement<{ id: string; key: string; at: string }>(
  'watch_mark_screening',
  'INSERT INTO watch_screenings (screening_id, carrier_key, created_at) VALUES (@id, @key, @at) ON CONFLICT (screening_id) DO NOTHING',
);
const isWatch = statement<{ id: string }>('watch_is_screening', 'SELECT 1 AS one FROM watch_screenings WHERE screening_id = @id');
const setState = statement<{ key: string; state: string; at: string | null; dot: string | null; mc: string | null }>(
  'watch_set_state',
  `UPDATE watch_entries SET last_state = @state, last_checked_at = @at,
     dot_number = COALESCE(@dot::text, dot_number), mc_number = COALESCE(@mc::text, mc_number)
   WHERE carrier_key = @key`,
);
const renameEntry = statement<{ to: string; from: string }>(
  'watch_rename_entry',
  'UPDATE watch_entries SET carrier_key = @to WHERE carrier_key = @from',
);
const renameTenders = statement<{ to: string; from: string }>(
  'watch_rename_tenders',
  'UPDATE screenings SET carrier_key = @to WHERE carrier_key = @from',
);
// GREATEST/LEAST for SQLite's scalar MAX/MIN: no argument here can be NULL (manual, added_at and
// next_check_at are NOT NULL on both rows; last_tender_at is COALESCEd), so NULL semantics agree.
const mergeInto = statement<{
  key: string;
  manual: number;
  note: string | null;
  added_at: string;
  last_tender_at: string | null;
  next_check_at: string;
}>(
  'watch_merge_into',
  `UPDATE watch_entries SET manual = GREATEST(manual, @manual::bigint), note = COALESCE(note, @note::text),
     added_at = LEAST(added_at, @added_at::text),
     last_tender_at = NULLIF(GREATEST(COALESCE(last_tender_at, ''), COALESCE(@last_tender_at::text, '')), ''),
     next_check_at = LEAST(next_check_at, @next_check_at::text)
   WHERE carrier_key = @key`,
);
const tendersOf = statement<{ k1: string; k2: string; since: string; self: string }>(
  'watch_tenders_of',
  `SELECT tender_id, id AS screening_id, created_at, callback_url, action, hold_reason, settled_by FROM screenings
   WHERE carrier_key IN (@k1, @k2) AND created_at >= @since AND id <> @self AND tender_id IS NOT NULL
   ORDER BY created_at ASC, seq ASC`,
);
const insertChange = statement<{
  id: string;
  key: string;
  dot: string | null;
  mc: string | null;
  name: string | null;
  screening: string;
  reasons: string;
  before: string;
  after: string;
  tenders: string;
  findings: string | null;
  at: string;
}>(
  'watch_insert_change',
  `INSERT INTO carrier_changes (id, carrier_key, dot_number, mc_number, legal_name, screening_id, reasons, before_state, after_state,
     tenders, findings, state, detected_at)
   VALUES (@id, @key, @dot, @mc, @name, @screening, @reasons, @before, @after, @tenders, @findings, 'new', @at)
   ON CONFLICT (screening_id) DO NOTHING
   RETURNING ${CHANGE_COLUMNS}`,
);
const changeById = statement<{ id: string }>('watch_change_by_id', `SELECT ${CHANGE_COLUMNS} FROM carrier_changes WHERE id = @id`);
const acknowledge = statement<{ id: string; by: string; at: string; note: string | null }>(
  'watch_acknowledge',
  `UPDATE carrier_changes SET state = 'acknowledged', acknowledged_by = @by, acknowledged_at = @at, ack_note = @note
   WHERE id = @id AND state = 'new'
   RETURNING ${CHANGE_COLUMNS}`,
);

/** GET /watchlist as a keyset list (SQLite's, its tie the key a WITHOUT ROWID entry ends with). */
export function pgWatchEntriesList(since: string): KeysetList {
  return {
    select: ENTRY,
    where: [ACTIVE],
    params: { since },
    key: 'e.next_check_at',
    tie: 'e.carrier_key',
    direction: 'ASC',
    cursor: "e.carrier_key IN ('dot:' || @cursor_id::text, 'mc:' || @cursor_id::text) AND COALESCE(e.dot_number, e.mc_number) = @cursor_id",
    cursorFallback: 'COALESCE(e.dot_number, e.mc_number) = @cursor_id',
  };
}

/** GET /changes as a keyset list (watch-rows.ts changesListOf), ties by seq. */
export function pgChangesList(state: 'new' | 'acknowledged' | undefined, filter: { since?: string; dot?: string } = {}): KeysetList {
  return changesListOf(state, filter, { select: `SELECT ${CHANGE_COLUMNS} FROM carrier_changes`, tie: 'seq', later: 'GREATEST' });
}

type TenderRow = {
  tender_id: string;
  screening_id: string;
  created_at: string;
  callback_url: string | null;
  action: ChangeTender['action'];
  hold_reason: ChangeTender['hold_reason'];
  settled_by: ChangeTender['settled_by'];
};
type HeadRow = Pick<EntryRow, 'manual' | 'dot_number' | 'mc_number' | 'last_tender_at' | 'added_at'>;

/**
 * The watch store on `x`: the pool (each read-compare-write its own transaction) or a unit of
 * work's client (recordTender and observe then join it, as on SQLite; the carrier's lock is held to
 * its COMMIT). Two units of work that each lock two carriers in opposite orders can deadlock;
 * PostgreSQL ends one with 40P01, which the PG group commit is to retry (docs/design/postgres.md 3.1).
 */
export function pgWatchStoreOf(x: PgExecutor, o: PgWatchStoreOptions): PgWatchStore {
  if (!(typeof o?.watchDays === 'number' && o.watchDays >= 0)) throw new StoreArgumentError('watchDays must be 0 or more', 'watchDays');
  const watchMs = o.watchDays * DAY_MS;
  const since = (now: string): string => new Date(Date.parse(now) - watchMs).toISOString();

  const lock = (q: PgExecutor, keys: string[]) =>
    lockMissing(q, ADVISORY_NAMESPACES.watch, keys, (missing) => lockCarrier.run(q, { keys: missing }));
  const byKey = (q: PgExecutor, key: string) => entryByKey.get<EntryRow>(q, { key });
  const findEntry = async (q: PgExecutor, keys: string[]): Promise<EntryRow | undefined> => {
    for (const k of keys) {
      const row = await byKey(q, k);
      if (row) return row;
    }
    return undefined;
  };

  /** The carrier's entry under its DOT key: an MC-keyed entry is renamed or merged into it (under the carrier's lock). */
  const settleKeys = async (q: PgExecutor, keys: string[]): Promise<EntryRow | undefined> => {
    const [first, second] = keys;
    if (first === undefined) return undefined;
    if (second === undefined || !first.startsWith('dot:')) return findEntry(q, keys);
    const byDot = await byKey(q, first);
    const byMc = await byKey(q, second);
    if (byMc && !byDot) {
      await renameEntry.run(q, { to: first, from: second });
      await renameTenders.run(q, { to: first, from: second });
    } else if (byMc && byDot) {
      await mergeInto.run(q, mergedEntry(first, byMc));
      if (mcStateIsNewer(byMc, byDot))
        await setState.run(q, { key: first, state: byMc.last_state, at: byMc.last_checked_at, dot: null, mc: null });
      await deleteEntry.run(q, { key: second });
      await renameTenders.run(q, { to: first, from: second });
    } else return byDot;
    return byKey(q, first);
  };

  /** The entry's last state already has this snapshot's fetch (or a newer one): nothing to record. */
  const seen = (e: Pick<EntryRow, 'last_state'>, s: CarrierSnapshot): boolean => {
    if (e.last_state === null) return false;
    const last = JSON.parse(e.last_state) as Partial<CarrierSnapshot>;
    const fetchedAt = typeof last.fetched_at === 'string' ? last.fetched_at : null;
    return fetchedAt !== null && (last.screening_id === s.screening_id || s.fetched_at <= fetchedAt);
  };
  const isActive = (r: EntryRow, now: string): boolean => r.manual === 1 || (r.last_tender_at !== null && r.last_tender_at > since(now));
  const entryOf = (r: EntryRow): WatchEntry => toEntry(r, watchMs);

  /** `body` as a transaction of its own, or inside a caller's as part of it (SQLite's ownOrCallers). */
  const ownOrCallers =
    <A, R>(body: (q: PgExecutor, a: A) => Promise<R>): ((a: A) => Promise<R>) =>
    (a) =>
      x.inTransaction ? body(x, a) : x.transaction((tx) => body(tx, a));

  /** What a tender writes to the entry, from the entry as read; false when nothing (a carrier already on the list). */
  const tenderWrites = (t: TenderUse, row: HeadRow | undefined): boolean => {
    if (!row) return true;
    const windowStart = since(t.at);
    return (
      (row.manual === 0 && (row.last_tender_at === null || row.last_tender_at <= windowStart)) ||
      (t.dot_number !== null && t.dot_number !== row.dot_number) ||
      (t.mc_number !== null && t.mc_number !== row.mc_number)
    );
  };

  // Reads first, and a write only when something changes: for a carrier already on the list the
  // tender's one write is its screening's carrier_key, and no lock is taken.
  // `read`: the entry's head as tenderAndObserve read it, in this unit, before the tag (which writes screenings only).
  const recordTenderBody = async (q: PgExecutor, t: TenderUse, read?: { row: HeadRow | undefined }): Promise<void> => {
    if (!t.tagged) await tagTender.run(q, { id: t.screeningId, key: t.carrierKey });
    let row = read ? read.row : await entryHead.get<HeadRow>(q, { key: t.carrierKey });
    if (!tenderWrites(t, row)) return;
    // Something to write: decide again on what the host before us committed.
    await lock(q, [t.carrierKey]);
    row = await entryHead.get<HeadRow>(q, { key: t.carrierKey });
    if (!row) {
      await insertEntry.run(q, { key: t.carrierKey, dot: t.dot_number, mc: t.mc_number, at: t.at, next: t.nextCheckAt() });
      return;
    }
    const windowStart = since(t.at);
    if (row.manual === 0 && (row.last_tender_at === null || row.last_tender_at <= windowStart)) {
      const before =
        (await latestTenderBut.get<{ created_at: string }>(q, { key: t.carrierKey, self: t.screeningId, added: row.added_at }))
          ?.created_at ?? null;
      if (before === null || before <= windowStart) await restartWindow.run(q, { key: t.carrierKey, next: t.nextCheckAt(), at: t.at });
      else await moveFloor.run(q, { key: t.carrierKey, at: before });
    }
    if ((t.dot_number !== null && t.dot_number !== row.dot_number) || (t.mc_number !== null && t.mc_number !== row.mc_number))
      await setIds.run(q, { key: t.carrierKey, dot: t.dot_number, mc: t.mc_number });
  };

  type StateHead = { last_state: string | null; other_waiting: boolean };
  // `read`: the state head as tenderAndObserve read it (see there why it may be read before recordTender's writes).
  const observeBody = async (
    q: PgExecutor,
    ob: PgObservation,
    read?: { head: StateHead | undefined },
  ): Promise<StoredChange | undefined> => {
    // A cache hit: the fetch is on record already (committed) and no MC-keyed entry waits to be merged.
    const head = read ? read.head : await stateHead.get<StateHead>(q, { key: ob.keys[0]!, other: ob.keys[1] ?? null });
    if (head && seen(head, ob.snapshot) && !head.other_waiting) return undefined;
    // From here on as SQLite's one writer: nobody else reads-then-writes this carrier until we commit.
    await lock(q, ob.keys);
    const entry = await settleKeys(q, ob.keys);
    if (!entry || !isActive(entry, ob.at)) return undefined;
    const after = ob.snapshot;
    if (seen(entry, after)) return undefined;
    const before = entry.last_state === null ? undefined : (JSON.parse(entry.last_state) as CarrierSnapshot);
    await setState.run(q, { key: entry.carrier_key, state: JSON.stringify(after), at: ob.at, dot: ob.dot_number, mc: ob.mc_number });
    if (!before) return undefined;
    const reasons = ob.detect(before, after);
    if (reasons.length === 0) return undefined;
    const tenders = (
      await tendersOf.all<TenderRow>(q, {
        k1: ob.keys[0]!,
        k2: ob.keys[1] ?? ob.keys[0]!,
        since: ob.tendersSince,
        self: after.screening_id,
      })
    ).map((t) => ({
      tender_id: t.tender_id,
      screening_id: t.screening_id,
      screened_at: t.created_at,
      callback_url: t.callback_url,
      action: t.action,
      hold_reason: t.hold_reason,
      settled_by: t.settled_by,
    }));
    const findings = await ob.findings?.(before, after);
    const row = await insertChange.get<ChangeRow>(q, {
      id: newChangeId(),
      key: entry.carrier_key,
      dot: ob.dot_number ?? entry.dot_number,
      mc: ob.mc_number ?? entry.mc_number,
      name: ob.legal_name,
      screening: after.screening_id,
      reasons: JSON.stringify(reasons),
      before: JSON.stringify(before),
      after: JSON.stringify(after),
      tenders: JSON.stringify(tenders),
      findings: findings ? JSON.stringify(findings) : null,
      at: ob.at,
    });
    return row ? toChange(row) : undefined;
  };

  /**
   * recordTender then observe with their first reads folded into one statement (one round trip
   * for a finished screening, a cache hit's every time). The state head is read before
   * recordTender's writes, and that changes nothing observe decides: recordTender never writes
   * last_state, and writes an entry under the tender's key only, which is observe's first key
   * (both are the score's carrier's: keyOf and keysOf of the same ids) and, when it was missing,
   * was read as missing, which sends observe to its locked path, where it reads again. Nor is it
   * weaker under READ COMMITTED than the two statements: observe's fast path already rests on a
   * read taken before its COMMIT, and last_state only moves forward.
   */
  const tenderAndObserveBody = async (
    q: PgExecutor,
    [t, ob]: [TenderUse | undefined, PgObservation | undefined],
  ): Promise<StoredChange | undefined> => {
    if (!t || !ob || !headsParams(t.carrierKey, ob.keys)) {
      if (t) await recordTenderBody(q, t);
      return ob ? observeBody(q, ob) : undefined;
    }
    const r = await heads.get<{ has_entry: boolean; has_state: boolean } & { [K in keyof HeadRow]: HeadRow[K] | null } & StateHead>(
      q,
      headsParams(t.carrierKey, ob.keys)!,
    );
    await recordTenderBody(q, t, { row: r!.has_entry ? (r as unknown as HeadRow) : undefined });
    return observeBody(q, ob, { head: r!.has_state ? r! : undefined });
  };

  const recordTenderTx = ownOrCallers(recordTenderBody);
  const observeTx = ownOrCallers(observeBody);
  const tenderAndObserveTx = ownOrCallers(tenderAndObserveBody);

  return {
    recordTender: (t) => recordTenderTx(t),

    addManual(e) {
      return x.transaction(async (q) => {
        await lock(q, [e.carrierKey]);
        const row = await byKey(q, e.carrierKey);
        const created = !row || !isActive(row, e.at);
        // A window that ended: start afresh (new note, next re-screen counted from now).
        if (row && created) await deleteEntry.run(q, { key: e.carrierKey });
        await upsertManual.run(q, { key: e.carrierKey, dot: e.dot_number, mc: e.mc_number, note: e.note, at: e.at, next: e.nextCheckAt });
        return { entry: entryOf((await byKey(q, e.carrierKey))!), created };
      });
    },

    async removeEntry(keys, now) {
      checkKeys(keys);
      return x.transaction(async (q) => {
        await lock(q, keys);
        let removed = false;
        for (const k of keys) {
          const row = await byKey(q, k);
          if (row && isActive(row, now)) removed = true;
          await deleteEntry.run(q, { key: k });
        }
        return removed;
      });
    },

    async getEntry(keys, now) {
      checkKeys(keys);
      const row = await findEntry(x, keys);
      return row && isActive(row, now) ? entryOf(row) : undefined;
    },

    async pageActive(now, p) {
      const { rows, has_more } = await pgKeysetPage<EntryRow & Record<string, unknown>>(
        x,
        'watch_entries',
        pgWatchEntriesList(since(now)),
        p,
      );
      return { data: rows.map(entryOf), has_more };
    },

    pruneExpired: (now) => pruneExpired.run(x, { since: since(now) }),

    async claimDue(now, limit, next) {
      const n = checkLimit(limit);
      return x.transaction(async (q) => {
        const rows = await due.all<DueCarrier & Record<string, unknown>>(q, { now, since: since(now), limit: n });
        if (rows.length === 0) return [];
        const claimed = rows.map((d) => ({ carrierKey: d.carrierKey, dot_number: d.dot_number, mc_number: d.mc_number }));
        await setNextMany.run(q, { keys: claimed.map((d) => d.carrierKey), nexts: claimed.map((d) => next(d.carrierKey)) });
        return claimed;
      });
    },

    releaseDue: async (key, at) => void (await setNext.run(x, { key, next: at })),

    markWatchScreening: async (id, key, at) => void (await markWatch.run(x, { id, key, at })),
    isWatchScreening: async (id) => (await isWatch.get(x, { id })) !== undefined,

    async lastState(keys) {
      checkKeys(keys);
      const row = await findEntry(x, keys);
      return row?.last_state ? (JSON.parse(row.last_state) as CarrierSnapshot) : undefined;
    },

    async observe(ob) {
      checkKeys(ob.keys);
      return observeTx(ob);
    },

    async tenderAndObserve(t, ob) {
      if (ob) checkKeys(ob.keys);
      return tenderAndObserveTx([t, ob]);
    },

    async readAheadTenders(tenders) {
      const asked = new Map<string, { tkey: string; key: string; other: string | null }>();
      for (const t of tenders) {
        checkKeys(t.keys);
        const p = headsParams(t.carrierKey, t.keys);
        // Not again what the unit holds (a guess read it beside the score, and no lock forgot it since).
        if (p && !heads.known(x, p)) asked.set(JSON.stringify(p), p);
      }
      const list = [...asked.values()];
      const keys = new Set(list.flatMap((p) => [p.tkey, p.key, ...(p.other === null ? [] : [p.other])]));
      await readAheadMany(
        x,
        rowsMany,
        { keys: [...keys] },
        list.map((p) => ahead(heads, p)),
        (got) => {
          const rows = new Map((got as WatchRow[]).map((r) => [r.carrier_key, r]));
          return list.map((p) => [headsOf(p, rows)]);
        },
      );
    },

    async getChange(id) {
      const row = await changeById.get<ChangeRow>(x, { id });
      return row ? toChange(row) : undefined;
    },

    async pageChanges(state, p, filter = {}) {
      const { rows, has_more } = await pgKeysetPage<ChangeRow & Record<string, unknown>>(
        x,
        'watch_changes',
        pgChangesList(state, filter),
        p,
      );
      return { data: rows.map(toChange), has_more };
    },

    async acknowledgeChange(id, by, at, note = null) {
      // One statement: of two hosts acknowledging at once, the second finds the row no longer new.
      const done = await acknowledge.get<ChangeRow>(x, { id, by, at, note });
      if (done) return toChange(done);
      const row = await changeById.get<ChangeRow>(x, { id });
      if (!row) throw new NotFoundError(`no change ${id}`);
      throw new WatchConflictError('change_conflict', `change ${id} is already acknowledged by ${row.acknowledged_by ?? 'someone'}`, id);
    },
  };
}
