import type Database from 'better-sqlite3';
import type { CarrierSnapshot, ChangeFindings, ChangeReason, ChangeTender, WatchEntry } from '../../shared/screening.js';
/** A day (the watch window is counted in days; worker/watch/rescreen-schedule.ts has the same). */
const DAY_MS = 86_400_000;
import { newScreeningId } from './ids.js';
import { checkLimit } from './arg-checks.js';
import { connectionOf, guardMethods } from './sqlite-store.js';
import type { ListPage, Store } from './types.js';
import { keysetPage } from './keyset.js';
import { NotFoundError, StoreArgumentError, StoreError, WatchConflictError } from './store-error.js';
import { toStoreError } from './sqlite-errors.js';
import {
  changesListOf,
  checkKeys,
  mcStateIsNewer,
  mergedEntry,
  toChange,
  toEntry,
  type ChangeRow,
  type StoredChange,
  type WatchEntryRow,
} from './watch-rows.js';

export { WatchConflictError };

/**
 * The watch list and carrier changes (migration 2), kept apart from the Store interface (the
 * local do-not-use list of that migration: local-blocks-repo.ts); the worker opens it on the store's connection. Callers pass
 * carrier keys (worker/watch/carrier-key.ts); every read-compare-write runs in an IMMEDIATE
 * transaction, so several processes finishing screenings of one carrier record one change.
 */

const WATCH_SCHEMA_VERSION = 2;

export type { StoredChange };

export interface TenderUse {
  carrierKey: string;
  dot_number: string | null;
  mc_number: string | null;
  screeningId: string;
  /** The screening's insert already named the carrier (screenings.carrier_key). */
  tagged?: boolean;
  at: string;
  /** When a carrier new on the list (or back on it) is first re-screened. */
  nextCheckAt: () => string;
}

export interface Observation {
  /** Keys the carrier may be stored under, DOT key first. */
  keys: string[];
  dot_number: string | null;
  mc_number: string | null;
  legal_name: string | null;
  snapshot: CarrierSnapshot;
  at: string;
  /** Tenders screened at or after this time are named in a change. */
  tendersSince: string;
  detect(before: CarrierSnapshot, after: CarrierSnapshot): ChangeReason[];
  /** The findings added and removed since `before`, asked only when a change is found; undefined when not known. */
  findings?(before: CarrierSnapshot, after: CarrierSnapshot): ChangeFindings | undefined;
}

export interface DueCarrier {
  carrierKey: string;
  dot_number: string | null;
  mc_number: string | null;
}

export interface WatchStore {
  /**
   * A tender screening used this carrier: the screening names it (the carrier's tenders and its
   * window are read from those), and the carrier is on the list, its re-screen counted afresh
   * when its window had ended.
   */
  recordTender(t: TenderUse): void;
  /** POST /watchlist: watched until removed. `created` is false when it was already on the list. */
  addManual(e: {
    carrierKey: string;
    dot_number: string | null;
    mc_number: string | null;
    note: string | null;
    at: string;
    nextCheckAt: string;
  }): {
    entry: WatchEntry;
    created: boolean;
  };
  /** Off the list (any of the keys); false when it was not on it. */
  removeEntry(keys: string[], now: string): boolean;
  getEntry(keys: string[], now: string): WatchEntry | undefined;
  /** One page of GET /watchlist by keyset on watch_entries_due (the cursor: the entry's DOT, else its MC). */
  pageActive(now: string, page: ListPage): { data: WatchEntry[]; has_more: boolean };
  /** Drop entries whose watch window ended (and that were not added by hand). */
  pruneExpired(now: string): number;
  /**
   * Take up to `limit` due carriers (active, not locally blocked), moving each one's next check
   * on with `next(key)` in the same transaction, so two ticks never take the same carrier.
   */
  claimDue(now: string, limit: number, next: (carrierKey: string) => string): DueCarrier[];
  /** Put a claimed carrier back to due (its re-screen could not be queued). */
  releaseDue(carrierKey: string, at: string): void;

  markWatchScreening(screeningId: string, carrierKey: string, at: string): void;
  isWatchScreening(screeningId: string): boolean;
  /** The latest scored state of a watched carrier. */
  lastState(keys: string[]): CarrierSnapshot | undefined;

  /**
   * A scored screening of a carrier: update its watch entry and return the change it shows,
   * if any. Older scores than the one on record and the same screening twice are ignored.
   */
  observe(o: Observation): StoredChange | undefined;
  getChange(id: string): StoredChange | undefined;
  /** One page of GET /changes by keyset, newest first: carrier_changes_by_state or _by_detected. */
  /** `since`: changed (detected or acknowledged) at or after it; `dot`: of that carrier (canonical). */
  pageChanges(
    state: 'new' | 'acknowledged' | undefined,
    page: ListPage,
    filter?: { since?: string; dot?: string },
  ): { data: StoredChange[]; has_more: boolean };
  acknowledgeChange(id: string, by: string, at: string, note?: string | null): StoredChange;
}

/** A watch_entries row as read here: toEntry's columns and what observe compares. */
interface EntryRow extends WatchEntryRow {
  carrier_key: string;
  /** Of last_state, read by SQLite: a hit of a fetch already seen is passed over without parsing it. */
  last_fetched_at: string | null;
  last_screening_id: string | null;
}

/** A new change id with the store's random part: `chg_…`. */
const newId = (prefix: 'chg'): string => `${prefix}_${newScreeningId().slice(4)}`;

/**
 * Open the watch tables on a store's own connection (already migrated by openStore): watch
 * writes join the store's transactions, and the store closes the connection.
 * Failures leave as StoreError, like the Store's.
 */
export function openWatchStore(store: Store, o: { watchDays: number }): WatchStore {
  // 0: tenders put nobody on the list (hand-added entries still are).
  if (!(typeof o?.watchDays === 'number' && o.watchDays >= 0)) throw new StoreArgumentError('watchDays must be 0 or more', 'watchDays');
  const db = connectionOf(store);
  const path = store.path;
  try {
    const v = db.pragma('user_version', { simple: true }) as number;
    if (v < WATCH_SCHEMA_VERSION)
      throw new StoreError(
        'schema_outdated',
        `SQLite store ${path}: schema version ${v}, the watch list needs ${WATCH_SCHEMA_VERSION}; open the store first`,
      );
  } catch (e) {
    throw toStoreError(e, path);
  }
  return Object.freeze(guardMethods(build(db, o.watchDays * DAY_MS), db, path)) as unknown as WatchStore;
}

/**
 * An entry with its latest tender read from the screenings (screenings_by_carrier). Only tenders
 * since the entry was added count: an entry taken off the list takes its window with it. The
 * column holds the latest tender from before migration 13, and serves recordTender as a floor.
 */
const ENTRY = `
  SELECT e.carrier_key, e.dot_number, e.mc_number, e.note, e.manual, e.added_at, e.last_checked_at, e.next_check_at, e.last_state,
    NULLIF(MAX(COALESCE(e.last_tender_at, ''), COALESCE((SELECT s.created_at FROM screenings s
      WHERE s.carrier_key = e.carrier_key AND s.created_at >= e.added_at ORDER BY s.created_at DESC LIMIT 1), '')), '') AS last_tender_at,
    json_extract(e.last_state, '$.fetched_at') AS last_fetched_at, json_extract(e.last_state, '$.screening_id') AS last_screening_id
  FROM watch_entries e`;

/** Watched at @now (@since = @now - SCREEN_WATCH_DAYS): added by hand, or tendered since. */
const ACTIVE = `(e.manual = 1 OR e.last_tender_at > @since OR EXISTS (
  SELECT 1 FROM screenings s WHERE s.carrier_key = e.carrier_key AND s.created_at > @since AND s.created_at >= e.added_at))`;

function build(db: Database.Database, watchMs: number): WatchStore {
  const since = (now: string): string => new Date(Date.parse(now) - watchMs).toISOString();
  const st = {
    entryByKey: db.prepare<[string], EntryRow>(`${ENTRY} WHERE e.carrier_key = ?`),
    // What a tender needs of the carrier's entry: no derived columns, no last_state.
    entryHead: db.prepare<[string], Pick<EntryRow, 'manual' | 'dot_number' | 'mc_number' | 'last_tender_at' | 'added_at'>>(
      'SELECT manual, dot_number, mc_number, last_tender_at, added_at FROM watch_entries WHERE carrier_key = ?',
    ),
    // The fast path of observe, in one read: is the fetch already on record, and does an entry
    // under the carrier's other key (its MC) wait to be merged?
    stateHead: db.prepare<
      { key: string; other: string | null },
      { last_fetched_at: string | null; last_screening_id: string | null; other_waiting: number }
    >(
      `SELECT json_extract(last_state, '$.fetched_at') AS last_fetched_at, json_extract(last_state, '$.screening_id') AS last_screening_id,
         EXISTS (SELECT 1 FROM watch_entries WHERE carrier_key = @other) AS other_waiting
       FROM watch_entries WHERE carrier_key = @key`,
    ),
    latestTenderBut: db.prepare<{ key: string; self: string; added: string }, { created_at: string }>(
      'SELECT created_at FROM screenings WHERE carrier_key = @key AND created_at >= @added AND id != @self ORDER BY created_at DESC LIMIT 1',
    ),
    tagTender: db.prepare<{ id: string; key: string }>(
      'UPDATE screenings SET carrier_key = @key WHERE id = @id AND carrier_key IS NOT @key',
    ),
    insertEntry: db.prepare(`
      INSERT INTO watch_entries (carrier_key, dot_number, mc_number, manual, added_at, last_tender_at, next_check_at)
      VALUES (@key, @dot, @mc, 0, @at, @at, @next)
      ON CONFLICT (carrier_key) DO NOTHING`),
    setIds: db.prepare(`
      UPDATE watch_entries SET dot_number = COALESCE(@dot, dot_number), mc_number = COALESCE(@mc, mc_number) WHERE carrier_key = @key`),
    // Back on the list after its window ended: count the re-screen from now.
    restartWindow: db.prepare<{ key: string; next: string; at: string }>(
      'UPDATE watch_entries SET next_check_at = @next, last_tender_at = @at WHERE carrier_key = @key',
    ),
    // The column as a floor of the latest tender, moved on at most once a window: while it says
    // the window is open, a tender reads no more.
    moveFloor: db.prepare<{ key: string; at: string }>('UPDATE watch_entries SET last_tender_at = @at WHERE carrier_key = @key'),
    upsertManual: db.prepare(`
      INSERT INTO watch_entries (carrier_key, dot_number, mc_number, note, manual, added_at, next_check_at)
      VALUES (@key, @dot, @mc, @note, 1, @at, @next)
      ON CONFLICT (carrier_key) DO UPDATE SET manual = 1, note = COALESCE(excluded.note, note),
        dot_number = COALESCE(excluded.dot_number, dot_number), mc_number = COALESCE(excluded.mc_number, mc_number)`),
    deleteEntry: db.prepare<[string]>('DELETE FROM watch_entries WHERE carrier_key = ?'),
    pruneExpired: db.prepare<{ since: string }>(`DELETE FROM watch_entries AS e WHERE NOT ${ACTIVE}`),
    due: db.prepare<{ now: string; since: string; limit: number }, DueCarrier & { carrierKey: string }>(`
      SELECT e.carrier_key AS carrierKey, e.dot_number, e.mc_number FROM watch_entries e
      WHERE e.next_check_at <= @now AND ${ACTIVE}
        AND NOT EXISTS (SELECT 1 FROM local_blocks b WHERE b.lifted_at IS NULL AND (
          b.carrier_key = e.carrier_key OR b.dot_number = e.dot_number OR b.mc_number = e.mc_number))
      ORDER BY e.next_check_at ASC LIMIT @limit`),
    setNext: db.prepare<[string, string]>('UPDATE watch_entries SET next_check_at = ? WHERE carrier_key = ?'),
    markWatch: db.prepare<[string, string, string]>(
      'INSERT INTO watch_screenings (screening_id, carrier_key, created_at) VALUES (?, ?, ?) ON CONFLICT (screening_id) DO NOTHING',
    ),
    isWatch: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM watch_screenings WHERE screening_id = ?'),
    setState: db.prepare(`
      UPDATE watch_entries SET last_state = @state, last_checked_at = @at,
        dot_number = COALESCE(@dot, dot_number), mc_number = COALESCE(@mc, mc_number)
      WHERE carrier_key = @key`),
    renameEntry: db.prepare<[string, string]>('UPDATE watch_entries SET carrier_key = ? WHERE carrier_key = ?'),
    renameTenders: db.prepare<[string, string]>('UPDATE screenings SET carrier_key = ? WHERE carrier_key = ?'),
    mergeInto: db.prepare(`
      UPDATE watch_entries SET manual = MAX(manual, @manual), note = COALESCE(note, @note),
        added_at = MIN(added_at, @added_at),
        last_tender_at = NULLIF(MAX(COALESCE(last_tender_at, ''), COALESCE(@last_tender_at, '')), ''),
        next_check_at = MIN(next_check_at, @next_check_at)
      WHERE carrier_key = @key`),
    tendersOf: db.prepare<
      { k1: string; k2: string; since: string; self: string },
      {
        tender_id: string;
        screening_id: string;
        created_at: string;
        callback_url: string | null;
        action: ChangeTender['action'];
        hold_reason: ChangeTender['hold_reason'];
        settled_by: ChangeTender['settled_by'];
      }
    >(`
      SELECT tender_id, id AS screening_id, created_at, callback_url, action, hold_reason, settled_by FROM screenings
      WHERE carrier_key IN (@k1, @k2) AND created_at >= @since AND id != @self AND tender_id IS NOT NULL
      ORDER BY created_at ASC, rowid ASC`),
    insertChange: db.prepare(`
      INSERT INTO carrier_changes (id, carrier_key, dot_number, mc_number, legal_name, screening_id, reasons, before_state, after_state,
        tenders, findings, state, detected_at)
      VALUES (@id, @key, @dot, @mc, @name, @screening, @reasons, @before, @after, @tenders, @findings, 'new', @at)
      ON CONFLICT (screening_id) DO NOTHING`),
    changeById: db.prepare<[string], ChangeRow>('SELECT * FROM carrier_changes WHERE id = ?'),
    acknowledge: db.prepare<[string, string, string | null, string]>(
      "UPDATE carrier_changes SET state = 'acknowledged', acknowledged_by = ?, acknowledged_at = ?, ack_note = ? WHERE id = ? AND state = 'new'",
    ),
  };

  const findEntry = (keys: string[]): EntryRow | undefined => {
    for (const k of keys) {
      const row = st.entryByKey.get(k);
      if (row) return row;
    }
    return undefined;
  };

  /** The carrier's entry under its DOT key: an MC-keyed entry is renamed or merged into it. */
  const settleKeys = (keys: string[]): EntryRow | undefined => {
    const [first, second] = keys;
    if (first === undefined) return undefined;
    if (second === undefined || !first.startsWith('dot:')) return findEntry(keys);
    const byDot = st.entryByKey.get(first);
    const byMc = st.entryByKey.get(second);
    if (byMc && !byDot) {
      st.renameEntry.run(first, second);
      st.renameTenders.run(first, second);
    } else if (byMc && byDot) {
      st.mergeInto.run(mergedEntry(first, byMc));
      if (mcStateIsNewer(byMc, byDot))
        st.setState.run({ key: first, state: byMc.last_state, at: byMc.last_checked_at, dot: null, mc: null });
      st.deleteEntry.run(second);
      st.renameTenders.run(first, second);
    }
    return st.entryByKey.get(first);
  };

  /** The snapshot is of a fetch already on record for the entry (or the same screening again): nothing new. */
  const seen = (e: Pick<EntryRow, 'last_fetched_at' | 'last_screening_id'>, s: CarrierSnapshot): boolean =>
    e.last_fetched_at !== null && (e.last_screening_id === s.screening_id || s.fetched_at <= e.last_fetched_at);

  const isActive = (r: EntryRow, now: string): boolean => r.manual === 1 || (r.last_tender_at !== null && r.last_tender_at > since(now));
  const entryOf = (r: EntryRow): WatchEntry => toEntry(r, watchMs);

  /**
   * `body` as one transaction of its own, or, inside a caller's (the pipeline's savepoint per
   * watch record), as part of it: no savepoint of its own.
   */
  const ownOrCallers = <A, R>(body: (a: A) => R): ((a: A) => R) => {
    const own = db.transaction(body);
    return (a) => (db.inTransaction ? body(a) : own.immediate(a));
  };

  // Reads first, and a write only when something changes: for a carrier already on the list
  // (almost every tender) the tender's one write is its screening's carrier_key.
  const recordTenderBody = (t: TenderUse): void => {
    if (!t.tagged) st.tagTender.run({ id: t.screeningId, key: t.carrierKey });
    const row = st.entryHead.get(t.carrierKey);
    if (!row) {
      st.insertEntry.run({ key: t.carrierKey, dot: t.dot_number, mc: t.mc_number, at: t.at, next: t.nextCheckAt() });
      return;
    }
    const windowStart = since(t.at);
    if (row.manual === 0 && (row.last_tender_at === null || row.last_tender_at <= windowStart)) {
      const before = st.latestTenderBut.get({ key: t.carrierKey, self: t.screeningId, added: row.added_at })?.created_at ?? null;
      if (before === null || before <= windowStart) st.restartWindow.run({ key: t.carrierKey, next: t.nextCheckAt(), at: t.at });
      else st.moveFloor.run({ key: t.carrierKey, at: before });
    }
    if ((t.dot_number !== null && t.dot_number !== row.dot_number) || (t.mc_number !== null && t.mc_number !== row.mc_number))
      st.setIds.run({ key: t.carrierKey, dot: t.dot_number, mc: t.mc_number });
  };

  const observeBody = (o: Observation): StoredChange | undefined => {
    // A cache hit: the fetch is on record already and no MC-keyed entry waits to be merged.
    const head = st.stateHead.get({ key: o.keys[0]!, other: o.keys[1] ?? null });
    if (head && seen(head, o.snapshot) && head.other_waiting === 0) return undefined;
    const entry = settleKeys(o.keys);
    if (!entry || !isActive(entry, o.at)) return undefined;
    const after = o.snapshot;
    // The same screening twice, an older score, or the same fetch again (a cache hit: nothing
    // new was checked, and the row is not rewritten per hit).
    if (seen(entry, after)) return undefined;
    const before = entry.last_state === null ? undefined : (JSON.parse(entry.last_state) as CarrierSnapshot);
    st.setState.run({ key: entry.carrier_key, state: JSON.stringify(after), at: o.at, dot: o.dot_number, mc: o.mc_number });
    if (!before) return undefined;
    const reasons = o.detect(before, after);
    if (reasons.length === 0) return undefined;
    const tenders = st.tendersOf
      .all({ k1: o.keys[0]!, k2: o.keys[1] ?? o.keys[0]!, since: o.tendersSince, self: after.screening_id })
      .map((t) => ({
        tender_id: t.tender_id,
        screening_id: t.screening_id,
        screened_at: t.created_at,
        callback_url: t.callback_url,
        // What each load got (a standing decision's tender reads as one), as it stands now.
        action: t.action,
        hold_reason: t.hold_reason,
        settled_by: t.settled_by,
      }));
    const findings = o.findings?.(before, after);
    const id = newId('chg');
    const inserted = st.insertChange.run({
      id,
      key: entry.carrier_key,
      dot: o.dot_number ?? entry.dot_number,
      mc: o.mc_number ?? entry.mc_number,
      name: o.legal_name,
      screening: after.screening_id,
      reasons: JSON.stringify(reasons),
      before: JSON.stringify(before),
      after: JSON.stringify(after),
      tenders: JSON.stringify(tenders),
      findings: findings ? JSON.stringify(findings) : null,
      at: o.at,
    });
    return inserted.changes > 0 ? toChange(st.changeById.get(id)!) : undefined;
  };

  const observeInTx = ownOrCallers(observeBody);

  const claimTx = db.transaction((now: string, limit: number, next: (k: string) => string): DueCarrier[] => {
    const due = st.due.all({ now, since: since(now), limit });
    for (const d of due) st.setNext.run(next(d.carrierKey), d.carrierKey);
    return due;
  });

  const ackTx = db.transaction((id: string, by: string, at: string, note: string | null): StoredChange => {
    const row = st.changeById.get(id);
    if (!row) throw new NotFoundError(`no change ${id}`);
    if (row.state !== 'new')
      throw new WatchConflictError('change_conflict', `change ${id} is already acknowledged by ${row.acknowledged_by ?? 'someone'}`, id);
    st.acknowledge.run(by, at, note, id);
    return toChange(st.changeById.get(id)!);
  });

  return {
    recordTender: ownOrCallers(recordTenderBody),

    addManual(e) {
      return db
        .transaction(() => {
          const row = st.entryByKey.get(e.carrierKey);
          const created = !row || !isActive(row, e.at);
          // A window that ended: start afresh (new note, next re-screen counted from now).
          if (row && created) st.deleteEntry.run(e.carrierKey);
          st.upsertManual.run({ key: e.carrierKey, dot: e.dot_number, mc: e.mc_number, note: e.note, at: e.at, next: e.nextCheckAt });
          return { entry: entryOf(st.entryByKey.get(e.carrierKey)!), created };
        })
        .immediate();
    },

    removeEntry(keys, now) {
      checkKeys(keys);
      return db
        .transaction(() => {
          let removed = false;
          for (const k of keys) {
            const row = st.entryByKey.get(k);
            if (row && isActive(row, now)) removed = true;
            st.deleteEntry.run(k);
          }
          return removed;
        })
        .immediate();
    },

    getEntry(keys, now) {
      checkKeys(keys);
      const row = findEntry(keys);
      return row && isActive(row, now) ? entryOf(row) : undefined;
    },

    pageActive(now, p) {
      const { rows, has_more } = keysetPage<EntryRow>(
        db,
        {
          select: ENTRY,
          where: [ACTIVE],
          params: { since: since(now) },
          key: 'e.next_check_at',
          tie: 'e.carrier_key',
          direction: 'ASC',
          // The cursor is the entry's DOT (else its MC): its key is dot:<DOT> or mc:<MC>, found by
          // the primary key; an MC-keyed entry that learnt its DOT is looked for the slow way.
          cursor: "e.carrier_key IN ('dot:' || @cursor_id, 'mc:' || @cursor_id) AND COALESCE(e.dot_number, e.mc_number) = @cursor_id",
          cursorFallback: 'COALESCE(e.dot_number, e.mc_number) = @cursor_id',
        },
        p,
      );
      return { data: rows.map(entryOf), has_more };
    },
    pruneExpired: (now) => st.pruneExpired.run({ since: since(now) }).changes,
    claimDue: (now, limit, next) => claimTx.immediate(now, checkLimit(limit), next),
    releaseDue: (key, at) => void st.setNext.run(at, key),

    markWatchScreening: (id, key, at) => void st.markWatch.run(id, key, at),
    isWatchScreening: (id) => st.isWatch.get(id) !== undefined,
    lastState(keys) {
      checkKeys(keys);
      const row = findEntry(keys);
      return row?.last_state ? (JSON.parse(row.last_state) as CarrierSnapshot) : undefined;
    },

    observe(o) {
      checkKeys(o.keys);
      return observeInTx(o);
    },
    getChange(id) {
      const row = st.changeById.get(id);
      return row ? toChange(row) : undefined;
    },
    pageChanges(state, p, filter = {}) {
      const { rows, has_more } = keysetPage<ChangeRow>(
        db,
        changesListOf(state, filter, { select: 'SELECT * FROM carrier_changes', tie: 'rowid', later: 'MAX' }),
        p,
      );
      return { data: rows.map(toChange), has_more };
    },
    acknowledgeChange: (id, by, at, note = null) => ackTx.immediate(id, by, at, note),
  };
}
