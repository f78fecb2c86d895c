/**
 * The watch store on both backends: the same cases through the WatchStore interface (on SQLite,
 * openWatchStore on the store's connection, its answers awaited; on PostgreSQL,
 * worker/store/pg/watch-store.ts), then what only several hosts on PostgreSQL can do: observe one
 * carrier's changed score at once (one change is recorded), claim due carriers at once (each is
 * claimed once), add one carrier by hand at once (one is "created"), and the lists' plans.
 * Screenings are written through each backend's screenings repository (the Store's on SQLite,
 * store/pg/screenings-repo.ts on PostgreSQL), as the pipeline writes them.
 */
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CarrierSnapshot, ChangeFindings, ChangeReason } from '../../shared/screening.js';
import type { TenderAction } from '../../shared/tender-rules.js';
import { cursorSql, keysetSql } from '../../worker/store/keyset.js';
import { NotFoundError, StoreArgumentError, WatchConflictError } from '../../worker/store/store-error.js';
import { connectionOf, openStore } from '../../worker/store/sqlite-store.js';
import { openWatchStore, type StoredChange, type WatchStore } from '../../worker/store/watch-store.js';
import type { ScreeningsRepo } from '../../worker/store/screening-repos.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { poolExecutor, type PgExecutor } from '../../worker/store/pg/executor.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { pgScreeningsOf } from '../../worker/store/pg/screenings-repo.js';
import { positional } from '../../worker/store/pg/sql.js';
import {
  CLAIM_DUE_SQL,
  ENTRY_BY_KEY_SQL,
  pgChangesList,
  pgWatchEntriesList,
  pgWatchStoreOf,
  type PgWatchStore,
} from '../../worker/store/pg/watch-store.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

const WATCH_DAYS = 14;
const DAY = 86_400_000;
const T0 = '2026-03-02T10:00:00.000Z';
/** T0 plus `ms`, as ISO text. */
const at = (ms: number): string => new Date(Date.parse(T0) + ms).toISOString();
const H = 3_600_000;

// The PG store is an AsyncRepo<WatchStore> (its observe takes an async `findings` as well).
const asRepo = (w: PgWatchStore): AsyncRepo<WatchStore> => w;

interface ScreeningSpec {
  id: string;
  dot: string;
  at: string;
  tender_id?: string | null;
  callback_url?: string | null;
  action?: TenderAction;
  /** Named by its insert (a tender the pipeline tagged); null: not (recordTender tags it). */
  carrier_key?: string | null;
}

/** The Store's insert of a finished screening (the pipeline's for a cache hit): on both backends. */
function finishedScreening(s: ScreeningSpec): Parameters<ScreeningsRepo['insertScreening']> {
  return [
    {
      id: s.id,
      query: { dot_number: s.dot },
      tender_id: s.tender_id === undefined ? `T-${s.id}` : s.tender_id,
      priority: 'tender',
      refresh: false,
      callback_url: s.callback_url ?? null,
      carrier_key: s.carrier_key ?? null,
    },
    {
      action: s.action ?? 'tender',
      hold_reason: s.action === 'hold' ? 'manual_review' : null,
      source: 'cache',
      score: null,
      score_fetched_at: null,
      error: null,
    },
  ];
}

/** A screenings repository on PostgreSQL whose clock a case sets per insert. */
function pgScreeningsAt(x: PgExecutor): (s: ScreeningSpec) => Promise<void> {
  let clock = new Date(T0);
  const repo = pgScreeningsOf(x, { now: () => clock });
  return async (s) => {
    clock = new Date(s.at);
    await repo.insertScreening(...finishedScreening(s));
  };
}

/** One backend as a case sees it: the watch store, and the rows around it. */
interface Backend {
  w: AsyncRepo<WatchStore>;
  /** A finished screening (a tender unless tender_id is null). */
  screening(s: ScreeningSpec): Promise<void>;
  carrierKeyOf(screeningId: string): Promise<string | null>;
  /** An active local block. */
  block(b: { id: string; key: string; dot?: string | null; mc?: string | null }): Promise<void>;
  /** A caller's unit of work around `fn` that then fails: what `fn` wrote must go with it. */
  failingUnitOfWork(fn: (w: AsyncRepo<WatchStore>) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

interface Maker {
  beforeAll(): Promise<void>;
  open(): Promise<Backend>;
  afterAll(): Promise<void>;
}

const METHODS = [
  'recordTender',
  'addManual',
  'removeEntry',
  'getEntry',
  'pageActive',
  'pruneExpired',
  'claimDue',
  'releaseDue',
  'markWatchScreening',
  'isWatchScreening',
  'lastState',
  'observe',
  'getChange',
  'pageChanges',
  'acknowledgeChange',
] as const satisfies ReadonlyArray<keyof WatchStore>;

/** The SQLite watch store's sync answers (and throws) as promises. */
function asyncOf(w: WatchStore): AsyncRepo<WatchStore> {
  const r: Record<string, (...a: unknown[]) => Promise<unknown>> = {};
  for (const m of METHODS) {
    const f = w[m] as (...a: unknown[]) => unknown;
    r[m] = async (...a) => f.apply(w, a);
  }
  return r as unknown as AsyncRepo<WatchStore>;
}

const sqlite: Maker = {
  beforeAll: async () => undefined,
  async open() {
    const file = tempDbPath();
    let clock = new Date(T0);
    const store = openStore(file.path, { now: () => clock });
    const db = connectionOf(store);
    const w = asyncOf(openWatchStore(store, { watchDays: WATCH_DAYS }));
    return {
      w,
      async screening(s) {
        clock = new Date(s.at);
        store.insertScreening(...finishedScreening(s));
      },
      carrierKeyOf: async (id) =>
        (db.prepare('SELECT carrier_key FROM screenings WHERE id = ?').get(id) as { carrier_key: string | null }).carrier_key,
      async block(b) {
        db.prepare(
          "INSERT INTO local_blocks (id, carrier_key, dot_number, mc_number, reason, blocked_by, blocked_at) VALUES (?, ?, ?, ?, 'test', 'dana', ?)",
        ).run(b.id, b.key, b.dot ?? null, b.mc ?? null, T0);
      },
      async failingUnitOfWork(fn) {
        // The watch store's writes join a caller's transaction, as the pipeline's savepoint.
        db.exec('BEGIN IMMEDIATE');
        try {
          await fn(w);
        } finally {
          db.exec('ROLLBACK');
        }
      },
      close: async () => {
        store.close();
        file.cleanup();
      },
    };
  },
  afterAll: async () => undefined,
};

const TABLES = 'watch_entries, watch_screenings, carrier_changes, local_blocks, screenings';

let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>> | undefined;
async function pgDatabase(): Promise<NonNullable<typeof pgDb>> {
  if (!pgDb) pgDb = await migratedPgDatabase();
  return pgDb;
}

const postgres: Maker = {
  beforeAll: async () => void (await pgDatabase()),
  async open() {
    const { pool } = await pgDatabase();
    // One database per file: each case starts from empty tables.
    await pool.query(`TRUNCATE ${TABLES} CASCADE`);
    const x = poolExecutor(pool);
    return {
      w: asRepo(pgWatchStoreOf(x, { watchDays: WATCH_DAYS })),
      screening: pgScreeningsAt(x),
      carrierKeyOf: async (id) =>
        (await pool.query<{ carrier_key: string | null }>('SELECT carrier_key FROM screenings WHERE id = $1', [id])).rows[0]!.carrier_key,
      async block(b) {
        await pool.query(
          "INSERT INTO local_blocks (id, carrier_key, dot_number, mc_number, reason, blocked_by, blocked_at) VALUES ($1, $2, $3, $4, 'test', 'dana', $5)",
          [b.id, b.key, b.dot ?? null, b.mc ?? null, T0],
        );
      },
      async failingUnitOfWork(fn) {
        const failed = new Error('the unit of work fails');
        await x
          .transaction(async (tx) => {
            await fn(asRepo(pgWatchStoreOf(tx, { watchDays: WATCH_DAYS })));
            throw failed;
          })
          .catch((e: unknown) => {
            if (e !== failed) throw e;
          });
      },
      close: async () => undefined,
    };
  },
  afterAll: async () => {
    await pgDb?.close();
    pgDb = undefined;
  },
};

// ---- what the cases observe ----

function snap(
  screeningId: string,
  fetchedAt: string,
  action: TenderAction = 'tender',
  over: Partial<CarrierSnapshot> = {},
): CarrierSnapshot {
  return {
    action,
    hold_reason: action === 'hold' ? 'manual_review' : null,
    decision: action === 'tender' ? 'approved' : action === 'hold' ? 'review' : 'rejected',
    score: action === 'tender' ? 88 : 30,
    grade: action === 'tender' ? 'B' : 'F',
    knockout_codes: action === 'block' ? ['AUTHORITY_INACTIVE'] : [],
    model_version: 'crs-3.5',
    screening_id: screeningId,
    fetched_at: fetchedAt,
    ...over,
  };
}

const detect = (a: CarrierSnapshot, b: CarrierSnapshot): ChangeReason[] => (a.action === b.action ? [] : ['action_changed']);
const FINDINGS: ChangeFindings = {
  added: [{ kind: 'knockout', code: 'AUTHORITY_INACTIVE', severity: 'critical', area: null, detail: 'Authority inactive' }],
  removed: [],
};

function observation(dot: string, snapshot: CarrierSnapshot, now: string, o: { mc?: string | null; findings?: () => ChangeFindings } = {}) {
  const mc = o.mc ?? null;
  return {
    keys: mc === null ? [`dot:${dot}`] : [`dot:${dot}`, `mc:${mc}`],
    dot_number: dot,
    mc_number: mc,
    legal_name: `Carrier ${dot} LLC`,
    snapshot,
    at: now,
    tendersSince: new Date(Date.parse(now) - WATCH_DAYS * DAY).toISOString(),
    detect,
    findings: o.findings ?? (() => FINDINGS),
  };
}

function tenderUse(dot: string, screeningId: string, when: string, o: { next?: () => string; tagged?: boolean; mc?: string | null } = {}) {
  return {
    carrierKey: `dot:${dot}`,
    dot_number: dot,
    mc_number: o.mc ?? null,
    screeningId,
    tagged: o.tagged ?? false,
    at: when,
    nextCheckAt: o.next ?? (() => at(20 * H)),
  };
}

/** A tender screening of `dot` at `when`, recorded as the pipeline does. */
async function tender(b: Backend, dot: string, id: string, when: string, o: { next?: () => string; callback_url?: string } = {}) {
  await b.screening({ id, dot, at: when, callback_url: o.callback_url ?? null });
  await b.w.recordTender(tenderUse(dot, id, when, { next: o.next }));
}

describe.each([
  ['sqlite', sqlite],
  ['postgres', postgres],
])('watch store on %s', (_name, maker) => {
  let b: Backend;
  let w: AsyncRepo<WatchStore>;

  beforeAll(() => maker.beforeAll());
  afterAll(() => maker.afterAll());
  beforeEach(async () => {
    b = await maker.open();
    w = b.w;
  });
  afterEach(() => b.close());

  describe('tenders', () => {
    it('a tender puts its carrier on the list once; later tenders move its window, read from its screenings', async () => {
      let asked = 0;
      const next = () => (asked++, at(20 * H));
      await tender(b, '1000001', 'scr_1', T0, { next });
      expect(await b.carrierKeyOf('scr_1')).toBe('dot:1000001');
      expect(await w.getEntry(['dot:1000001'], T0)).toEqual({
        object: 'watch_entry',
        dot_number: '1000001',
        mc_number: null,
        note: null,
        manual: false,
        added_at: T0,
        last_tender_at: T0,
        watch_until: at(WATCH_DAYS * DAY),
        last_checked_at: null,
        next_check_at: at(20 * H),
        last: null,
        updated_at: T0,
      });
      // Tagged by its insert: recordTender does not write the screening, nor ask for a next check.
      await b.screening({ id: 'scr_2', dot: '1000001', at: at(H), carrier_key: 'dot:1000001' });
      await w.recordTender(tenderUse('1000001', 'scr_2', at(H), { next, tagged: true }));
      // A third learns the carrier's MC.
      await b.screening({ id: 'scr_3', dot: '1000001', at: at(2 * H) });
      await w.recordTender(tenderUse('1000001', 'scr_3', at(2 * H), { next, mc: 'MC55' }));
      expect(asked).toBe(1);
      expect(await w.getEntry(['dot:1000001'], at(2 * H))).toMatchObject({
        mc_number: 'MC55',
        added_at: T0,
        last_tender_at: at(2 * H),
        watch_until: at(2 * H + WATCH_DAYS * DAY),
        next_check_at: at(20 * H),
        updated_at: at(2 * H),
      });
      // Found by either key given.
      expect((await w.getEntry(['mc:MC55', 'dot:1000001'], at(2 * H)))?.dot_number).toBe('1000001');
      expect(await w.getEntry(['dot:1000002'], T0)).toBeUndefined();
    });

    it('a tender after the window ended counts the re-screen afresh; an ended window is off the list and pruned', async () => {
      await tender(b, '1000001', 'scr_1', T0);
      await tender(b, '1000002', 'scr_2', T0);
      const later = at(15 * DAY);
      expect(await w.getEntry(['dot:1000001'], later)).toBeUndefined();
      expect((await w.pageActive(later, { limit: 10 })).data).toEqual([]);
      await tender(b, '1000001', 'scr_3', later, { next: () => at(16 * DAY) });
      expect(await w.getEntry(['dot:1000001'], later)).toMatchObject({ last_tender_at: later, next_check_at: at(16 * DAY), added_at: T0 });
      expect(await w.pruneExpired(later)).toBe(1);
      expect(await w.getEntry(['dot:1000002'], T0)).toBeUndefined();
      expect(await w.pruneExpired(later)).toBe(0);
    });

    it('a tender whose window the screenings still hold open moves the floor, and counts nothing afresh', async () => {
      let asked = 0;
      const next = () => (asked++, at(20 * H));
      await tender(b, '1000001', 'scr_1', T0, { next });
      await tender(b, '1000001', 'scr_2', at(10 * DAY), { next });
      await tender(b, '1000001', 'scr_3', at(20 * DAY), { next });
      expect(asked).toBe(1);
      expect(await w.getEntry(['dot:1000001'], at(20 * DAY))).toMatchObject({ last_tender_at: at(20 * DAY), next_check_at: at(20 * H) });
      // The floor moved to the tender before: after the last one's window the entry is gone.
      expect(await w.pruneExpired(at(34 * DAY + 1))).toBe(1);
    });

    it('a tender answered from the cache is a tender, not a new check: the window moves, the last check and state do not', async () => {
      await tender(b, '1000001', 'scr_1', T0);
      await w.observe(observation('1000001', snap('scr_1', T0), T0));
      const before = (await w.getEntry(['dot:1000001'], T0))!;
      // The hit's screening carries the fetch already on record: observe passes it over.
      await tender(b, '1000001', 'scr_hit', at(3 * DAY));
      expect(await w.observe(observation('1000001', { ...snap('scr_1', T0), screening_id: 'scr_hit' }, at(3 * DAY)))).toBeUndefined();
      const after = (await w.getEntry(['dot:1000001'], at(3 * DAY)))!;
      expect(after.last_tender_at).toBe(at(3 * DAY));
      expect(after.watch_until).toBe(at(3 * DAY + WATCH_DAYS * DAY));
      expect([after.last_checked_at, after.last, after.next_check_at]).toEqual([before.last_checked_at, before.last, before.next_check_at]);
    });

    it("a tender inside a caller's unit of work that fails leaves nothing", async () => {
      await b.screening({ id: 'scr_1', dot: '1000001', at: T0 });
      await b.failingUnitOfWork(async (u) => {
        await u.recordTender(tenderUse('1000001', 'scr_1', T0));
        await u.observe(observation('1000001', snap('scr_1', T0), T0));
        expect(await u.getEntry(['dot:1000001'], T0)).toMatchObject({ last: snap('scr_1', T0) });
      });
      expect(await w.getEntry(['dot:1000001'], T0)).toBeUndefined();
      expect(await b.carrierKeyOf('scr_1')).toBeNull();
    });
  });

  describe('by hand', () => {
    const manual = (key: string, dot: string | null, note: string | null, when: string, next = at(3 * H), mc: string | null = null) => ({
      carrierKey: key,
      dot_number: dot,
      mc_number: mc,
      note,
      at: when,
      nextCheckAt: next,
    });

    it('adds once, keeps the note unless given another, and stays listed until removed', async () => {
      const first = await w.addManual(manual('dot:1000004', '1000004', 'by hand', T0));
      expect(first).toEqual({
        created: true,
        entry: {
          object: 'watch_entry',
          dot_number: '1000004',
          mc_number: null,
          note: 'by hand',
          manual: true,
          added_at: T0,
          last_tender_at: null,
          watch_until: null,
          last_checked_at: null,
          next_check_at: at(3 * H),
          last: null,
          updated_at: T0,
        },
      });
      const again = await w.addManual(manual('dot:1000004', null, null, at(H), at(9 * H), 'MC44'));
      expect([again.created, again.entry.note, again.entry.mc_number, again.entry.added_at, again.entry.next_check_at]).toEqual([
        false,
        'by hand',
        'MC44',
        T0,
        at(3 * H),
      ]);
      expect((await w.addManual(manual('dot:1000004', null, 'other', at(H)))).entry.note).toBe('other');
      expect((await w.getEntry(['dot:1000004'], at(400 * DAY)))?.manual).toBe(true);
      expect(await w.pruneExpired(at(400 * DAY))).toBe(0);
    });

    it('on a tendered carrier it is not new; after its window it starts afresh, its old tenders not counted', async () => {
      await tender(b, '1000001', 'scr_1', T0);
      const onList = await w.addManual(manual('dot:1000001', '1000001', 'watch it', at(H)));
      expect([onList.created, onList.entry.manual, onList.entry.last_tender_at, onList.entry.added_at]).toEqual([false, true, T0, T0]);
      await tender(b, '1000002', 'scr_2', T0);
      const fresh = await w.addManual(manual('dot:1000002', '1000002', 'back', at(20 * DAY), at(21 * DAY)));
      expect(fresh).toMatchObject({
        created: true,
        entry: { manual: true, note: 'back', added_at: at(20 * DAY), last_tender_at: null, watch_until: null, next_check_at: at(21 * DAY) },
      });
    });

    it('removes by any of its keys; false when not on the list or its window ended; the window goes with it', async () => {
      await tender(b, '1000001', 'scr_1', T0);
      expect(await w.removeEntry(['dot:1000001'], T0)).toBe(true);
      expect(await w.getEntry(['dot:1000001'], T0)).toBeUndefined();
      expect(await w.removeEntry(['dot:1000001'], T0)).toBe(false);
      // Back by hand: the tender from before it was removed is not its tender.
      expect((await w.addManual(manual('dot:1000001', '1000001', null, at(H)))).entry.last_tender_at).toBeNull();
      await w.addManual(manual('mc:MC77', null, 'by MC', T0, at(3 * H), 'MC77'));
      expect(await w.removeEntry(['dot:1000077', 'mc:MC77'], T0)).toBe(true);
      expect(await w.getEntry(['mc:MC77'], T0)).toBeUndefined();
      await tender(b, '1000002', 'scr_2', T0);
      expect(await w.removeEntry(['dot:1000002'], at(20 * DAY))).toBe(false);
      expect(await w.pruneExpired(at(20 * DAY))).toBe(0);
    });

    it('refuses keys that are not carrier keys, naming the parameter', async () => {
      for (const keys of [[], ['1000001'], ['dot:1', 'mc:MC1', 'dot:2'], [''], 'dot:1'] as unknown as string[][]) {
        await expect(w.getEntry(keys, T0)).rejects.toMatchObject({ name: 'StoreArgumentError', param: 'keys' });
        await expect(w.removeEntry(keys, T0)).rejects.toBeInstanceOf(StoreArgumentError);
        await expect(w.lastState(keys)).rejects.toBeInstanceOf(StoreArgumentError);
        await expect(w.observe({ ...observation('1', snap('s', T0), T0), keys })).rejects.toBeInstanceOf(StoreArgumentError);
      }
    });
  });

  describe('GET /watchlist', () => {
    it('pages the active entries by next check (ties by key), the cursor a DOT or an MC, forwards and back', async () => {
      const add = (key: string, dot: string | null, mc: string | null, next: string) =>
        w.addManual({ carrierKey: key, dot_number: dot, mc_number: mc, note: null, at: T0, nextCheckAt: next });
      await add('dot:1000003', '1000003', null, at(3 * H));
      await add('dot:1000001', '1000001', null, at(1 * H));
      await add('mc:MC77', null, 'MC77', at(2 * H));
      await add('dot:1000002', '1000002', null, at(2 * H));
      // Added by its MC, then its DOT learnt: the cursor (its DOT) is found the slow way.
      await add('mc:MC88', '1000088', 'MC88', at(4 * H));
      // Its window ended: not listed.
      await tender(b, '1000009', 'scr_9', at(-20 * DAY), { next: () => at(0) });
      const now = at(5 * H);
      const ids = (p: { data: Array<{ dot_number: string | null; mc_number: string | null }> }) =>
        p.data.map((e) => e.dot_number ?? e.mc_number);
      const p1 = await w.pageActive(now, { limit: 2 });
      expect([ids(p1), p1.has_more]).toEqual([['1000001', '1000002'], true]);
      const p2 = await w.pageActive(now, { limit: 2, starting_after: '1000002' });
      expect([ids(p2), p2.has_more]).toEqual([['MC77', '1000003'], true]);
      const p3 = await w.pageActive(now, { limit: 2, starting_after: '1000003' });
      expect([ids(p3), p3.has_more]).toEqual([['1000088'], false]);
      const back = await w.pageActive(now, { limit: 2, ending_before: '1000088' });
      expect([ids(back), back.has_more]).toEqual([['MC77', '1000003'], true]);
      const first = await w.pageActive(now, { limit: 10, ending_before: 'MC77' });
      expect([ids(first), first.has_more]).toEqual([['1000001', '1000002'], false]);
      await expect(w.pageActive(now, { limit: 2, starting_after: '1000009' })).rejects.toMatchObject({
        name: 'StoreArgumentError',
        param: 'starting_after',
      });
      await expect(w.pageActive(now, { limit: 0 })).rejects.toMatchObject({ param: 'limit' });
    });
  });

  describe('the re-screen claim', () => {
    it('takes due, watched, unblocked carriers in due order, moving each on; a released one is due again', async () => {
      const add = (dot: string, next: string) =>
        w.addManual({ carrierKey: `dot:${dot}`, dot_number: dot, mc_number: `MC${dot}`, note: null, at: at(-DAY), nextCheckAt: next });
      await add('1000001', at(-3 * H));
      await add('1000002', at(-2 * H));
      await add('1000003', at(-1 * H));
      await add('1000004', at(1 * H));
      await add('1000005', at(-4 * H));
      await add('1000006', at(-5 * H));
      await tender(b, '1000007', 'scr_7', at(-20 * DAY), { next: () => at(-6 * H) }); // its window ended
      await b.block({ id: 'blk_1', key: 'dot:1000002', dot: '1000002' });
      await b.block({ id: 'blk_2', key: 'mc:MC1000005', mc: 'MC1000005' });
      await b.block({ id: 'blk_3', key: 'dot:1000006' });
      const nexts: string[] = [];
      const next = (key: string) => (nexts.push(key), at(DAY));
      expect(await w.claimDue(T0, 1, next)).toEqual([{ carrierKey: 'dot:1000001', dot_number: '1000001', mc_number: 'MC1000001' }]);
      expect(await w.claimDue(T0, 10, next)).toEqual([{ carrierKey: 'dot:1000003', dot_number: '1000003', mc_number: 'MC1000003' }]);
      expect(nexts).toEqual(['dot:1000001', 'dot:1000003']);
      expect(await w.claimDue(T0, 10, next)).toEqual([]);
      expect((await w.getEntry(['dot:1000003'], T0))?.next_check_at).toBe(at(DAY));
      await w.releaseDue('dot:1000003', at(-H));
      expect((await w.claimDue(T0, 10, next)).map((d) => d.carrierKey)).toEqual(['dot:1000003']);
      await expect(w.claimDue(T0, 0, next)).rejects.toMatchObject({ name: 'StoreArgumentError', param: 'limit' });
    });

    it('knows its own re-screens', async () => {
      await w.markWatchScreening('scr_w1', 'dot:1000001', T0);
      await w.markWatchScreening('scr_w1', 'dot:1000001', T0);
      expect(await w.isWatchScreening('scr_w1')).toBe(true);
      expect(await w.isWatchScreening('scr_w2')).toBe(false);
    });
  });

  describe('observing scores', () => {
    it("records a watched carrier's first state, then one change naming its tenders since the window began", async () => {
      await tender(b, '1000001', 'scr_1', T0, { callback_url: 'https://tms.example/a' });
      await b.screening({ id: 'scr_2', dot: '1000001', at: at(H), action: 'hold', carrier_key: 'dot:1000001' });
      await w.recordTender(tenderUse('1000001', 'scr_2', at(H), { tagged: true }));
      // Not a tender (no tender id), and the re-screen itself: neither is named.
      await b.screening({ id: 'scr_bg', dot: '1000001', at: at(2 * H), tender_id: null, carrier_key: 'dot:1000001' });
      let asked = 0;
      const findings = () => (asked++, FINDINGS);
      const first = snap('scr_1', T0);
      expect(await w.observe(observation('1000001', first, T0, { findings }))).toBeUndefined();
      expect(await w.lastState(['dot:1000001'])).toEqual(first);
      expect(await w.getEntry(['dot:1000001'], T0)).toMatchObject({ last: first, last_checked_at: T0 });
      expect(await w.observe(observation('1000001', first, at(H), { findings }))).toBeUndefined(); // the same again
      expect(asked).toBe(0);

      const now = at(DAY);
      await b.screening({ id: 'scr_re', dot: '1000001', at: now, tender_id: 'T-self', carrier_key: 'dot:1000001' });
      const blocked = snap('scr_re', at(DAY - 60_000), 'block');
      const change = await w.observe(observation('1000001', blocked, now, { findings }));
      expect(asked).toBe(1);
      expect(change).toEqual({
        object: 'carrier_change',
        id: expect.stringMatching(/^chg_[a-z2-7]{26}$/),
        dot_number: '1000001',
        mc_number: null,
        legal_name: 'Carrier 1000001 LLC',
        reasons: ['action_changed'],
        before: first,
        after: blocked,
        screening_id: 'scr_re',
        tenders: [
          { tender_id: 'T-scr_1', screening_id: 'scr_1', screened_at: T0, action: 'tender', hold_reason: null, settled_by: null },
          {
            tender_id: 'T-scr_2',
            screening_id: 'scr_2',
            screened_at: at(H),
            action: 'hold',
            hold_reason: 'manual_review',
            settled_by: null,
          },
        ],
        findings: FINDINGS,
        state: 'new',
        acknowledged_by: null,
        acknowledged_at: null,
        ack_note: null,
        detected_at: now,
        updated_at: now,
        carrier_key: 'dot:1000001',
        tender_callbacks: [
          {
            tender_id: 'T-scr_1',
            screening_id: 'scr_1',
            screened_at: T0,
            callback_url: 'https://tms.example/a',
            action: 'tender',
            hold_reason: null,
            settled_by: null,
          },
          {
            tender_id: 'T-scr_2',
            screening_id: 'scr_2',
            screened_at: at(H),
            callback_url: null,
            action: 'hold',
            hold_reason: 'manual_review',
            settled_by: null,
          },
        ],
      });
      expect(await w.getChange(change!.id)).toEqual(change);
      expect(await w.getChange('chg_nope')).toBeUndefined();
      // The same screening twice, an older fetch, or a newer one with nothing changed: no change.
      expect(await w.observe(observation('1000001', blocked, at(DAY + H)))).toBeUndefined();
      expect(await w.observe(observation('1000001', snap('scr_old', at(12 * H), 'tender'), at(DAY + H)))).toBeUndefined();
      const same = snap('scr_new', at(2 * DAY), 'block', { score: 25 });
      expect(await w.observe(observation('1000001', same, at(2 * DAY)))).toBeUndefined();
      expect(await w.lastState(['dot:1000001'])).toEqual(same);
      expect((await w.pageChanges(undefined, { limit: 10 })).data.map((c) => c.id)).toEqual([change!.id]);
    });

    it('a state holding \\u0000 and half a surrogate pair (as a /v1 string may) is kept, compared and listed like any other', async () => {
      await tender(b, '1000002', 'scr_z1', T0);
      const odd = snap('scr_z1', T0, 'tender', { model_version: 'crs\u0000-\ud800' });
      expect(await w.observe(observation('1000002', odd, T0))).toBeUndefined();
      expect(await w.lastState(['dot:1000002'])).toEqual(odd);
      expect(await w.observe(observation('1000002', odd, at(H)))).toBeUndefined(); // seen: no change
      expect(await w.getEntry(['dot:1000002'], at(H))).toMatchObject({ last: odd });
      await b.screening({ id: 'scr_z2', dot: '1000002', at: at(DAY), tender_id: 'T-z', carrier_key: 'dot:1000002' });
      const change = await w.observe(observation('1000002', snap('scr_z2', at(DAY - 60_000), 'block'), at(DAY)));
      expect(change?.reasons).toEqual(['action_changed']);
    });

    it('a carrier not on the list, or whose window ended, is not observed', async () => {
      expect(await w.observe(observation('1000005', snap('scr_5', T0), T0))).toBeUndefined();
      expect(await w.lastState(['dot:1000005'])).toBeUndefined();
      await tender(b, '1000006', 'scr_6', T0);
      expect(await w.observe(observation('1000006', snap('scr_6b', at(20 * DAY)), at(20 * DAY)))).toBeUndefined();
      expect(await w.lastState(['dot:1000006'])).toBeUndefined();
    });

    it("folds an entry kept under the carrier's MC into its DOT entry: renamed, or merged (even on a cache hit)", async () => {
      // Only under its MC: renamed, its tenders with it.
      await w.addManual({ carrierKey: 'mc:MC77', dot_number: null, mc_number: 'MC77', note: 'by MC', at: T0, nextCheckAt: at(3 * H) });
      await b.screening({ id: 'scr_m', dot: '1000077', at: T0, carrier_key: 'mc:MC77' });
      expect(await w.observe(observation('1000077', snap('scr_m', T0), T0, { mc: 'MC77' }))).toBeUndefined();
      expect(await w.getEntry(['mc:MC77'], T0)).toBeUndefined();
      expect(await w.getEntry(['dot:1000077'], T0)).toMatchObject({
        dot_number: '1000077',
        mc_number: 'MC77',
        manual: true,
        note: 'by MC',
        last_tender_at: T0,
        last: snap('scr_m', T0),
      });
      expect(await b.carrierKeyOf('scr_m')).toBe('dot:1000077');

      // Under both: merged into the DOT entry; a fetch already on record still merges.
      await tender(b, '1000088', 'scr_d', T0, { next: () => at(20 * H) });
      const seen = snap('scr_d', T0);
      await w.observe(observation('1000088', seen, T0));
      await w.addManual({ carrierKey: 'mc:MC88', dot_number: null, mc_number: 'MC88', note: 'by MC', at: at(H), nextCheckAt: at(2 * H) });
      await b.screening({ id: 'scr_mc', dot: '1000088', at: at(2 * H), carrier_key: 'mc:MC88' });
      expect(await w.observe(observation('1000088', seen, at(3 * H), { mc: 'MC88' }))).toBeUndefined();
      expect(await w.getEntry(['mc:MC88'], at(3 * H))).toBeUndefined();
      expect(await w.getEntry(['dot:1000088', 'mc:MC88'], at(3 * H))).toMatchObject({
        manual: true,
        note: 'by MC',
        added_at: T0,
        last_tender_at: at(2 * H),
        next_check_at: at(2 * H),
        last: seen,
      });
      expect(await b.carrierKeyOf('scr_mc')).toBe('dot:1000088');
      const change = await w.observe(observation('1000088', snap('scr_x', at(DAY), 'hold'), at(DAY), { mc: 'MC88' }));
      expect(change?.tenders.map((t) => t.screening_id)).toEqual(['scr_d', 'scr_mc']);
    });

    it('with a newer state under the MC entry, the merged entry keeps the newer one', async () => {
      await tender(b, '1000099', 'scr_d', T0);
      await w.observe(observation('1000099', snap('scr_d', T0), T0));
      await w.addManual({ carrierKey: 'mc:MC99', dot_number: null, mc_number: 'MC99', note: null, at: T0, nextCheckAt: at(3 * H) });
      // A score seen under the MC key alone (the DOT entry not yet known to be this carrier's).
      const mcState = snap('scr_m', at(H), 'hold');
      await w.observe({ ...observation('1000099', mcState, at(H)), keys: ['mc:MC99'], dot_number: null, mc_number: 'MC99' });
      expect(await w.lastState(['mc:MC99'])).toEqual(mcState);
      // The DOT entry's state is older: the MC entry's is kept, and that score again is seen.
      expect(await w.observe(observation('1000099', mcState, at(2 * H), { mc: 'MC99' }))).toBeUndefined();
      expect(await w.lastState(['dot:1000099'])).toEqual(mcState);
      expect(await w.lastState(['mc:MC99'])).toBeUndefined();
    });
  });

  describe('GET /changes and acknowledging', () => {
    /** A change of carrier `dot` detected at `when`. */
    async function changeOf(dot: string, when: string): Promise<StoredChange> {
      await w.addManual({ carrierKey: `dot:${dot}`, dot_number: dot, mc_number: null, note: null, at: T0, nextCheckAt: T0 });
      await w.observe(observation(dot, snap(`scr_a${dot}`, T0), T0));
      return (await w.observe(observation(dot, snap(`scr_b${dot}`, when, 'block'), when)))!;
    }

    it('pages newest first (ties in insertion order), by state, by updated_since and by DOT', async () => {
      const c1 = await changeOf('1000001', at(H));
      const c2 = await changeOf('1000002', at(2 * H));
      const c3 = await changeOf('1000003', at(2 * H));
      const c4 = await changeOf('1000004', at(3 * H));
      const ids = (p: { data: StoredChange[] }) => p.data.map((c) => c.id);
      const p1 = await w.pageChanges(undefined, { limit: 2 });
      expect([ids(p1), p1.has_more]).toEqual([[c4.id, c3.id], true]);
      const p2 = await w.pageChanges(undefined, { limit: 2, starting_after: c3.id });
      expect([ids(p2), p2.has_more]).toEqual([[c2.id, c1.id], false]);
      const back = await w.pageChanges(undefined, { limit: 1, ending_before: c2.id });
      expect([ids(back), back.has_more]).toEqual([[c3.id], true]);

      const acked = await w.acknowledgeChange(c2.id, 'dana', at(5 * H), 'moved the loads');
      expect(acked).toMatchObject({
        id: c2.id,
        state: 'acknowledged',
        acknowledged_by: 'dana',
        acknowledged_at: at(5 * H),
        ack_note: 'moved the loads',
        updated_at: at(5 * H),
      });
      expect(await w.getChange(c2.id)).toEqual(acked);
      expect(ids(await w.pageChanges('new', { limit: 10 }))).toEqual([c4.id, c3.id, c1.id]);
      expect(ids(await w.pageChanges('acknowledged', { limit: 10 }))).toEqual([c2.id]);
      expect(ids(await w.pageChanges(undefined, { limit: 10 }, { since: at(3 * H) }))).toEqual([c4.id, c2.id]);
      expect(ids(await w.pageChanges(undefined, { limit: 10 }, { since: at(4 * H) }))).toEqual([c2.id]);
      expect(ids(await w.pageChanges('new', { limit: 10 }, { since: at(4 * H) }))).toEqual([]);
      expect(ids(await w.pageChanges(undefined, { limit: 10 }, { dot: '1000003' }))).toEqual([c3.id]);
      expect(ids(await w.pageChanges('acknowledged', { limit: 10 }, { dot: '1000003' }))).toEqual([]);
      await expect(w.pageChanges('new', { limit: 10, starting_after: c2.id })).rejects.toMatchObject({ param: 'starting_after' });
      await expect(w.pageChanges('open' as 'new', { limit: 10 })).rejects.toMatchObject({ name: 'StoreArgumentError', param: 'state' });
    });

    it('acknowledges once: a second time is a conflict, an unknown change is not found', async () => {
      const c = await changeOf('1000001', at(H));
      expect((await w.acknowledgeChange(c.id, 'dana', at(2 * H))).ack_note).toBeNull();
      const again = w.acknowledgeChange(c.id, 'eli', at(3 * H), 'late');
      await expect(again).rejects.toBeInstanceOf(WatchConflictError);
      await expect(w.acknowledgeChange(c.id, 'eli', at(3 * H))).rejects.toMatchObject({ code: 'change_conflict', resourceId: c.id });
      expect(await w.getChange(c.id)).toMatchObject({ acknowledged_by: 'dana', acknowledged_at: at(2 * H) });
      await expect(w.acknowledgeChange('chg_nope', 'dana', T0)).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});

// ---- PostgreSQL only: several hosts at once ----

describe('watch store on postgres, several hosts at once', () => {
  let db: Awaited<ReturnType<typeof migratedPgDatabase>>;
  /** A second host: its own pool on the same database. */
  let other: pg.Pool;
  let x1: PgExecutor;
  let x2: PgExecutor;
  const store = (x: PgExecutor) => pgWatchStoreOf(x, { watchDays: WATCH_DAYS });

  beforeAll(async () => {
    db = await migratedPgDatabase();
    other = openPgPool(db.db.url, { max: 4, applicationName: 'carrier-screen-test-b' });
    x1 = poolExecutor(db.pool);
    x2 = poolExecutor(other);
  });
  afterAll(async () => {
    await other?.end();
    await db?.close();
  });
  beforeEach(async () => {
    await db.pool.query(`TRUNCATE ${TABLES} CASCADE`);
  });

  /** Until some backend waits on a lock (another host's transaction holds what it needs). */
  async function someoneWaits(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await db.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (rows[0]!.n > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('nobody waited on a lock');
  }

  async function watched(dot: string): Promise<void> {
    const w = store(x1);
    await pgScreeningsAt(x1)({ id: `scr_${dot}`, dot, at: T0 });
    await w.recordTender(tenderUse(dot, `scr_${dot}`, T0));
    await w.observe(observation(dot, snap(`scr_${dot}`, T0), T0));
  }

  it('two hosts observing a changed score of one carrier at once record one change', async () => {
    await watched('1000001');
    const now = at(DAY);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // Host 1 finds the change and holds its transaction open; host 2's observe waits for it, then
    // reads what host 1 committed: its score is no change from that.
    const first = x1.transaction(async (tx) => {
      const c = await store(tx).observe(observation('1000001', snap('scr_h1', at(DAY - 2000), 'block'), now));
      await held;
      return c;
    });
    await new Promise((r) => setTimeout(r, 50));
    const second = store(x2).observe(observation('1000001', snap('scr_h2', at(DAY - 1000), 'block'), now));
    await someoneWaits();
    release();
    const [c1, c2] = await Promise.all([first, second]);
    expect(c1?.screening_id).toBe('scr_h1');
    expect(c2).toBeUndefined();
    expect((await store(x1).pageChanges(undefined, { limit: 10 })).data.map((c) => c.screening_id)).toEqual(['scr_h1']);
    expect((await store(x2).lastState(['dot:1000001']))?.screening_id).toBe('scr_h2');
  });

  it('many screenings of one carrier finishing on two hosts at once record one change (ten carriers at once)', async () => {
    const dots = Array.from({ length: 10 }, (_, d) => String(1000100 + d));
    for (const dot of dots) await watched(dot);
    const now = at(DAY);
    const results = await Promise.all(
      dots.flatMap((dot) =>
        Array.from({ length: 8 }, (_, i) =>
          store(i % 2 ? x2 : x1).observe(observation(dot, snap(`scr_${dot}_${i}`, at(DAY - 10_000 + i), 'block'), now, { mc: `MC${dot}` })),
        ),
      ),
    );
    expect(results.filter((c) => c !== undefined)).toHaveLength(dots.length);
    const changes = (await store(x1).pageChanges(undefined, { limit: 100 })).data;
    expect(changes.map((c) => c.dot_number).sort()).toEqual(dots);
  });

  it("an async findings callback is awaited, as watch-service's reading the old screening on PostgreSQL", async () => {
    await watched('1000003');
    const screenings = pgScreeningsOf(x1, { now: () => new Date(T0) });
    let read: string | undefined;
    const c = await store(x1).observe({
      ...observation('1000003', snap('scr_f', at(DAY), 'hold'), at(DAY)),
      // On the pool, outside the observe's transaction: the old screening committed long ago.
      findings: async (before) => {
        read = (await screenings.getScreening(before.screening_id))?.id;
        return FINDINGS;
      },
    });
    expect(read).toBe('scr_1000003');
    expect(c?.findings).toEqual(FINDINGS);
  });

  it('two hosts claiming due carriers at once take each once; a claim in flight is passed over, not waited for', async () => {
    const w = store(x1);
    for (let i = 0; i < 30; i++)
      await w.addManual({
        carrierKey: `dot:${2000000 + i}`,
        dot_number: String(2000000 + i),
        mc_number: null,
        note: null,
        at: at(-DAY),
        nextCheckAt: at(-H + i * 1000),
      });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let claimedA: string[] = [];
    const a = x1.transaction(async (tx) => {
      claimedA = (await store(tx).claimDue(T0, 10, () => at(DAY))).map((d) => d.carrierKey);
      await held;
    });
    while (claimedA.length === 0) await new Promise((r) => setTimeout(r, 5));
    // Host A's ten are locked and uncommitted: host B takes the others at once.
    const b = store(x2).claimDue(T0, 30, () => at(DAY));
    let claimedB: string[];
    try {
      claimedB = (
        await Promise.race([
          b,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error("host B waited for host A's claim")), 5000)),
        ])
      ).map((d) => d.carrierKey);
    } finally {
      release();
      await a;
      await b.catch(() => undefined);
    }
    expect(claimedA).toHaveLength(10);
    expect(claimedB).toHaveLength(20);
    expect(new Set([...claimedA, ...claimedB]).size).toBe(30);
    expect(await w.claimDue(T0, 30, () => at(DAY))).toEqual([]);

    // Both hosts ticking at once, several times: every due carrier once.
    await db.pool.query("UPDATE watch_entries SET next_check_at = '2026-03-02T00:00:00.000Z'");
    const ticks = await Promise.all(Array.from({ length: 6 }, (_, i) => store(i % 2 ? x2 : x1).claimDue(T0, 7, () => at(DAY))));
    const all = ticks.flat().map((d) => d.carrierKey);
    expect(all.length).toBeLessThanOrEqual(30);
    expect(new Set(all).size).toBe(all.length);
    const rest = await w.claimDue(T0, 30, () => at(DAY));
    expect(new Set([...all, ...rest.map((d) => d.carrierKey)]).size).toBe(30);
    expect(all.length + rest.length).toBe(30);
  });

  it('two hosts adding one carrier by hand at once: one of them created it', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        store(i % 2 ? x2 : x1).addManual({
          carrierKey: 'dot:1000004',
          dot_number: '1000004',
          mc_number: null,
          note: `host ${i}`,
          at: T0,
          nextCheckAt: at(H),
        }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it('tenders of a new carrier on two hosts at once make one entry, its next check counted once', async () => {
    let asked = 0;
    const screening = pgScreeningsAt(x1);
    for (let i = 0; i < 6; i++) await screening({ id: `scr_t${i}`, dot: '1000005', at: at(i) });
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        store(i % 2 ? x2 : x1).recordTender(tenderUse('1000005', `scr_t${i}`, at(i), { next: () => (asked++, at(20 * H)) })),
      ),
    );
    expect(asked).toBe(1);
    expect(await store(x1).getEntry(['dot:1000005'], at(10))).toMatchObject({ last_tender_at: at(5), next_check_at: at(20 * H) });
  });
});

describe('watch store on postgres: the lists and the claim read an index in their order', () => {
  let db: Awaited<ReturnType<typeof migratedPgDatabase>>;
  const ts = (expr: string) => `to_char(timestamp '2026-03-01' + ${expr}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

  // A record of some size, analysed: on a handful of rows any plan is as good as another.
  beforeAll(async () => {
    db = await migratedPgDatabase();
    await db.pool.query(`
      INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, action, created_at, completed_at, carrier_key)
      SELECT 'scr_p' || i, 'T-' || i, 'done', 'dot_number', (2000000 + i % 4000)::text, 'tender', 'tender',
        ${ts("i * interval '1 minute'")}, ${ts("i * interval '1 minute'")}, 'dot:' || (2000000 + i % 4000)
      FROM generate_series(1, 12000) i`);
    await db.pool.query(`
      INSERT INTO watch_entries (carrier_key, dot_number, manual, added_at, last_tender_at, next_check_at)
      SELECT 'dot:' || (2000000 + i), (2000000 + i)::text, i % 7 / 6, ${ts("'0'::interval")}, ${ts("i * interval '1 minute'")},
        ${ts("(i % 1440) * interval '1 minute'")}
      FROM generate_series(0, 3999) i`);
    await db.pool.query(`
      INSERT INTO carrier_changes (id, carrier_key, dot_number, screening_id, reasons, before_state, after_state, tenders, state,
        acknowledged_by, acknowledged_at, detected_at)
      SELECT 'chg_p' || i, 'dot:' || (2000000 + i % 4000), (2000000 + i % 4000)::text, 'scr_p' || i, '[]', '{}', '{}', '[]',
        CASE WHEN i % 3 = 0 THEN 'acknowledged' ELSE 'new' END, CASE WHEN i % 3 = 0 THEN 'dana' END,
        CASE WHEN i % 3 = 0 THEN ${ts("i * interval '2 minute'")} END, ${ts("(i / 2) * interval '1 minute'")}
      FROM generate_series(1, 4000) i`);
    await db.pool.query(`
      INSERT INTO local_blocks (id, carrier_key, dot_number, reason, blocked_by, blocked_at)
      SELECT 'blk_p' || i, 'dot:' || (2000000 + i * 100), (2000000 + i * 100)::text, 'test', 'dana', ${ts("'0'::interval")}
      FROM generate_series(0, 39) i`);
    await db.pool.query('ANALYZE screenings; ANALYZE watch_entries; ANALYZE carrier_changes; ANALYZE local_blocks');
  });
  afterAll(() => db?.close());

  /** The plan of `sql` (with @names); `ordered`: sorts and table scans priced out, so one left means no index gives the order. */
  async function plan(sql: string, params: Record<string, unknown>, ordered: boolean): Promise<string> {
    const { text, names } = positional(sql);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      if (ordered)
        await client.query('SET LOCAL enable_sort = off; SET LOCAL enable_incremental_sort = off; SET LOCAL enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${text}`, values: names.map((n) => params[n]) });
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  const SHAPES = [
    [false, false],
    [true, false],
    [true, true],
  ] as const;

  it.each([
    ['all', undefined, {}],
    ['new', 'new', {}],
    ['acknowledged', 'acknowledged', {}],
    ['all, updated_since', undefined, { since: '2026-03-03T00:00:00.000Z' }],
    ['new, dot_number', 'new', { dot: '2000017' }],
  ] as const)(
    'GET /changes (%s): every page shape reads an index in its order; the cursor is found by its key',
    async (_l, state, filter) => {
      const list = pgChangesList(state, filter);
      for (const [withCursor, backwards] of SHAPES) {
        const p = await plan(
          keysetSql(list, withCursor, backwards),
          { ...list.params, page_limit: 101, cursor_key: '2026-03-02T06:00:00.000Z', cursor_tie: 2000 },
          true,
        );
        expect(p, p).not.toMatch(/\bSort\b|Seq Scan/);
        expect(p, p).toMatch(/Index Scan( Backward)? using carrier_changes_by_(detected|state) on carrier_changes/);
      }
      const c = await plan(cursorSql(list), { ...list.params, cursor_id: 'chg_p2000' }, false);
      expect(c, c).toMatch(/Index Scan using carrier_changes_pkey on carrier_changes/);
    },
  );

  it('GET /watchlist: every page shape reads watch_entries_due in order, each tender by screenings_by_carrier; the cursor by the key', async () => {
    const list = pgWatchEntriesList('2026-03-02T00:00:00.000Z');
    for (const [withCursor, backwards] of SHAPES) {
      const p = await plan(
        keysetSql(list, withCursor, backwards),
        { ...list.params, page_limit: 101, cursor_key: '2026-03-01T12:00:00.000Z', cursor_tie: 'dot:2000720' },
        true,
      );
      expect(p, p).not.toMatch(/\bSort\b|Seq Scan/);
      expect(p, p).toMatch(/Index Scan( Backward)? using watch_entries_due on watch_entries e/);
      expect(p, p).toMatch(/using screenings_by_carrier on screenings s/);
    }
    const c = await plan(cursorSql(list), { ...list.params, cursor_id: '2000720' }, false);
    expect(c, c).toMatch(/Index Scan using watch_entries_pkey on watch_entries e/);
  });

  it('the claim reads watch_entries_due in due order; an entry read finds its key and its latest tender by index', async () => {
    const p = await plan(CLAIM_DUE_SQL, { now: '2026-03-01T12:00:00.000Z', since: '2026-03-02T00:00:00.000Z', limit: 50 }, true);
    expect(p, p).not.toMatch(/\bSort\b|Seq Scan/);
    expect(p, p).toMatch(/LockRows[\s\S]*Index Scan using watch_entries_due on watch_entries e/);
    const e = await plan(ENTRY_BY_KEY_SQL, { key: 'dot:2000017' }, false);
    expect(e, e).toMatch(/Index Scan using watch_entries_pkey on watch_entries e/);
    expect(e, e).toMatch(/using screenings_by_carrier on screenings s/);
  });
});
