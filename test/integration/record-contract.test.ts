/**
 * The record (worker/store/record.ts) on both backends, through the RecordStore/RecordTx
 * interface only: SQLite's `recordOf(openStore(file))` (sqlite-record.ts) and PostgreSQL's
 * `openPgStore(url)` (pg/pg-store.ts). The same cases on each: a unit's writes through its handle
 * commit together or not at all, afterCommit, savepoints, a store-level read beside an open unit,
 * the event log's batch append, the hit facts read, the sender's batch claim, the prune lock, the watch store's
 * observe with findings that answer a Promise, and the unit without savepoints.
 *
 * Where the backends differ by design, a case says so through the Backend's flags, not by name:
 * SQLite has one connection, so a store-level read waits for the open unit (it never sees the
 * unit's rows because it runs after it), where PostgreSQL's pool reads beside the unit; SQLite's
 * file has one writer at a time, so its prune lock keeps nobody out.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_CARRIERS, scoreBody } from '../../emulator/index.js';
import type { CarrierSnapshot, ChangeFindings, ChangeReason } from '../../shared/screening.js';
import { openStore, recordOf, type RecordStore, type RecordTx } from '../../worker/store/index.js';
import type { NewCallbackRow } from '../../worker/store/outbox-repo.js';
import type { RecordObservation, RecordRepos } from '../../worker/store/record.js';
import type { NewScreening } from '../../worker/store/types.js';
import { openPgStore } from '../../worker/store/pg/pg-store.js';
import { pgTestStore } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

interface Backend {
  store: RecordStore;
  /** A second store on the same record: another process (SQLite) or host (PostgreSQL). */
  another(): Promise<RecordStore>;
  /**
   * A store-level read made while a unit is open waits for the unit to end (SQLite: one
   * connection, one mutex) instead of reading beside it (PostgreSQL: a pooled client).
   */
  readsWaitForUnits: boolean;
  /** A second store's tryPruneLock answers undefined while the first holds the lock (PostgreSQL's advisory lock). */
  pruneLockIsExclusive: boolean;
  close(): Promise<void>;
}

async function sqliteBackend(): Promise<Backend> {
  const file = tempDbPath();
  const s = openStore(file.path);
  const others: Array<{ close(): void }> = [];
  return {
    store: recordOf(s),
    another: async () => {
      const o = openStore(file.path);
      others.push(o);
      return recordOf(o);
    },
    readsWaitForUnits: true,
    pruneLockIsExclusive: false,
    close: async () => {
      for (const o of others) o.close();
      s.close();
      file.cleanup();
    },
  };
}

async function pgBackend(): Promise<Backend> {
  const { db, store, close } = await pgTestStore();
  const others: RecordStore[] = [];
  return {
    store,
    another: async () => {
      const o = await openPgStore(db.url, { max: 2, applicationName: 'carrier-screen-test' });
      others.push(o);
      return o;
    },
    readsWaitForUnits: false,
    pruneLockIsExclusive: true,
    close: async () => {
      for (const o of others) await o.close();
      await close();
    },
  };
}

const T0 = Date.parse('2026-05-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;
const WATCH_DAYS = 14;

let n = 0;
/** A new queued screening of its own carrier. */
function newScreening(): NewScreening {
  n++;
  return { query: { dot_number: String(1_000_000 + n) }, tender_id: `T-${n}`, priority: 'tender', refresh: false, callback_url: null };
}

/** Lets every job already queued run (a store call's worth of microtasks), and no macrotask. */
async function microtasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** A promise the test settles. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const A = 'http://127.0.0.1:9001';
const B = 'http://127.0.0.1:9002';
const C = 'http://127.0.0.1:9003';
function newRow(id: string, o: { at?: number; dest?: string } = {}): NewCallbackRow {
  const at = o.at ?? T0;
  const dest = o.dest ?? A;
  return {
    id,
    delivery_id: `dlv_${id}`,
    kind: 'screening.completed',
    url: `${dest}/hook`,
    destination: dest,
    subject: null,
    version: null,
    body: `{"delivery_id":"dlv_${id}"}`,
    atMs: at,
    at: iso(at),
  };
}

function snap(screeningId: string, fetchedAt: string, action: 'tender' | 'block'): CarrierSnapshot {
  return {
    action,
    hold_reason: null,
    decision: action === 'tender' ? 'approved' : 'rejected',
    score: action === 'tender' ? 88 : 30,
    grade: action === 'tender' ? 'B' : 'F',
    knockout_codes: action === 'block' ? ['AUTHORITY_INACTIVE'] : [],
    model_version: 'crs-3.5',
    screening_id: screeningId,
    fetched_at: fetchedAt,
  };
}
const detect = (a: CarrierSnapshot, b: CarrierSnapshot): ChangeReason[] => (a.action === b.action ? [] : ['action_changed']);
const FINDINGS: ChangeFindings = {
  added: [{ kind: 'knockout', code: 'AUTHORITY_INACTIVE', severity: 'critical', area: null, detail: 'Authority inactive' }],
  removed: [],
};
function observation(dot: string, snapshot: CarrierSnapshot, findings?: RecordObservation['findings']): RecordObservation {
  return {
    keys: [`dot:${dot}`],
    dot_number: dot,
    mc_number: null,
    legal_name: `Carrier ${dot} LLC`,
    snapshot,
    at: snapshot.fetched_at,
    tendersSince: iso(Date.parse(snapshot.fetched_at) - WATCH_DAYS * DAY),
    detect,
    findings,
  };
}

describe.each([
  ['SQLite', sqliteBackend],
  ['PostgreSQL', pgBackend],
] as const)('the record on %s', (_name, make) => {
  let b: Backend;
  let s: RecordStore;
  beforeEach(async () => {
    b = await make();
    s = b.store;
  });
  afterEach(async () => {
    await b?.close();
  });

  describe('a unit of work', () => {
    it("commits its handle's writes together, answers its value, then runs its afterCommit callbacks", async () => {
      const said: string[] = [];
      let readInCallback: ReturnType<RecordStore['screenings']['getScreening']> | undefined;
      const [a, c] = await s.unitOfWork(async (tx) => {
        const a = await tx.screenings.insertScreening(newScreening());
        const c = await tx.screenings.insertScreening(newScreening());
        await tx.screenings.markActive(a.id);
        // Its own writes are visible to the unit.
        expect((await tx.screenings.getScreening(a.id))?.status).toBe('active');
        tx.afterCommit(() => {
          said.push('after commit');
          // After the COMMIT: a store-level read started here sees the unit's rows.
          readInCallback = s.screenings.getScreening(a.id);
        });
        said.push('body');
        return [a, c];
      });
      expect(said).toEqual(['body', 'after commit']);
      expect(await readInCallback).toMatchObject({ id: a.id, status: 'active' });
      expect((await s.screenings.getScreening(c.id))?.status).toBe('queued');
    });

    it('a throw rolls back all of it, reaches the caller as it was, and runs no afterCommit', async () => {
      const boom = new Error('boom');
      const ids: string[] = [];
      let called = 0;
      await expect(
        s.unitOfWork(async (tx) => {
          ids.push((await tx.screenings.insertScreening(newScreening())).id);
          await tx.outbox.insert(newRow('cb_rolled'));
          ids.push((await tx.screenings.insertScreening(newScreening())).id);
          tx.afterCommit(() => called++);
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(ids).toHaveLength(2);
      for (const id of ids) expect(await s.screenings.getScreening(id)).toBeUndefined();
      expect(await s.outbox.byId('cb_rolled')).toBeUndefined();
      expect(called).toBe(0);
      // The store works on.
      const kept = await s.unitOfWork((tx) => tx.screenings.insertScreening(newScreening()));
      expect(await s.screenings.getScreening(kept.id)).toBeDefined();
    });

    it("a savepoint that throws is rolled back alone, its afterCommit callbacks with it; the unit's other writes commit", async () => {
      const said: string[] = [];
      const { outer, undone, kept, deeper } = await s.unitOfWork(async (tx) => {
        const outer = await tx.screenings.insertScreening(newScreening());
        tx.afterCommit(() => said.push('outer'));
        let undone = '';
        await expect(
          tx.savepoint(async (sp) => {
            undone = (await sp.screenings.insertScreening(newScreening())).id;
            await sp.screenings.markActive(outer.id);
            sp.afterCommit(() => said.push('undone'));
            throw new Error('nested fails');
          }),
        ).rejects.toThrow('nested fails');
        // The outer write is as it was before the savepoint.
        expect((await tx.screenings.getScreening(outer.id))?.status).toBe('queued');
        expect(await tx.screenings.getScreening(undone)).toBeUndefined();
        const { kept, deeper } = await tx.savepoint(async (sp) => {
          const kept = await sp.screenings.insertScreening(newScreening());
          sp.afterCommit(() => said.push('kept'));
          const deeper = await sp.savepoint(async (inner) => {
            inner.afterCommit(() => said.push('deeper'));
            return inner.screenings.insertScreening(newScreening());
          });
          return { kept, deeper };
        });
        return { outer, undone, kept, deeper };
      });
      expect(said).toEqual(['outer', 'kept', 'deeper']);
      expect(await s.screenings.getScreening(outer.id)).toMatchObject({ status: 'queued' });
      expect(await s.screenings.getScreening(undone)).toBeUndefined();
      expect(await s.screenings.getScreening(kept.id)).toBeDefined();
      expect(await s.screenings.getScreening(deeper.id)).toBeDefined();
    });

    it('a savepoint that commits inside a unit that then throws: nothing kept, no afterCommit', async () => {
      let called = 0;
      let id = '';
      await expect(
        s.unitOfWork(async (tx) => {
          await tx.savepoint(async (sp) => {
            id = (await sp.screenings.insertScreening(newScreening())).id;
            sp.afterCommit(() => called++);
          });
          throw new Error('after the savepoint');
        }),
      ).rejects.toThrow('after the savepoint');
      expect(await s.screenings.getScreening(id)).toBeUndefined();
      expect(called).toBe(0);
    });

    it('its handle, once the unit has ended, fails with tx_finished (a missing await)', async () => {
      let kept: RecordTx | undefined;
      let keptSavepoint: RecordTx | undefined;
      await s.unitOfWork(async (tx) => {
        kept = tx;
        await tx.savepoint(async (sp) => void (keptSavepoint = sp));
        // The savepoint's handle ended with it; the unit's goes on.
        await expect(keptSavepoint!.screenings.insertScreening(newScreening())).rejects.toMatchObject({ code: 'tx_finished' });
        await tx.screenings.insertScreening(newScreening());
      });
      await expect(kept!.screenings.insertScreening(newScreening())).rejects.toMatchObject({ name: 'StoreError', code: 'tx_finished' });
      await expect(kept!.events.appendEvents([{ event: 'screening.queued', data: null }])).rejects.toMatchObject({ code: 'tx_finished' });
      // Not even inside another unit: it would write into that unit.
      await s.unitOfWork(async () => {
        await expect(kept!.screenings.getScreening('scr_x')).rejects.toMatchObject({ code: 'tx_finished' });
      });
      expect(() => kept!.afterCommit(() => undefined)).toThrow(expect.objectContaining({ code: 'tx_finished' }));
    });

    it('a unit, a savepoint or a unit without savepoints of something not a function: StoreArgumentError', async () => {
      const notFn = 'not a function' as unknown as (tx: RecordTx) => Promise<void>;
      const refused = { name: 'StoreArgumentError', param: 'fn' };
      await expect(s.unitOfWork(notFn)).rejects.toMatchObject(refused);
      await expect(s.unitOfWorkWithoutSavepoints(notFn)).rejects.toMatchObject(refused);
      await s.unitOfWork(async (tx) => {
        await expect(tx.savepoint(notFn)).rejects.toMatchObject(refused);
      });
    });

    it('a store-level write made while a unit is open is its own: kept when the unit rolls back', async () => {
      const inserted = gate();
      const release = gate();
      const unit = s.unitOfWork(async (tx) => {
        await tx.outbox.insert(newRow('cb_inside'));
        inserted.open();
        await release.promise; // only microtasks meanwhile (SQLite's I/O guard)
        throw new Error('rolled back');
      });
      await inserted.promise;
      const outside = s.outbox.insert(newRow('cb_outside'));
      // Not awaited before the unit ends: on PostgreSQL the insert may wait for it, when the
      // callback counts' row it adds to (sharded by backend pid % 8) is the unit's (1 run in 8).
      release.open();
      await expect(unit).rejects.toThrow('rolled back');
      expect(await outside).toBe(true);
      expect(await s.outbox.byId('cb_outside')).toMatchObject({ state: 'pending' });
      expect(await s.outbox.byId('cb_inside')).toBeUndefined();
    });

    it('once the store is closed, its calls and units reject with store_closed', async () => {
      await s.close();
      await expect(s.screenings.getScreening('scr_x')).rejects.toMatchObject({ name: 'StoreError', code: 'store_closed' });
      await expect(s.unitOfWork(async () => undefined)).rejects.toMatchObject({ name: 'StoreError', code: 'store_closed' });
    });

    it('isOpen of the sender and of retention answers true, then false once the store is closed (their passes stop quietly)', async () => {
      expect([await s.callbackSends.isOpen(), await s.retention.isOpen()]).toEqual([true, true]);
      await s.close();
      expect([await s.callbackSends.isOpen(), await s.retention.isOpen()]).toEqual([false, false]);
    });

    for (const ending of ['commits', 'rolls back'] as const) {
      it(`a store-level read started while a unit is open never sees its uncommitted row (the unit ${ending})`, async () => {
        const inserted = gate();
        const release = gate();
        let id = '';
        const unit = s.unitOfWork(async (tx) => {
          id = (await tx.screenings.insertScreening(newScreening())).id;
          inserted.open();
          // Held open until the test lets it go: on SQLite only microtasks pass meanwhile (its
          // I/O guard fails a unit that awaits real I/O), so the test below awaits none either.
          await release.promise;
          if (ending === 'rolls back') throw new Error('rolled back');
          return id;
        });
        await inserted.promise;
        const read = s.screenings.getScreening(id);
        if (b.readsWaitForUnits) {
          // SQLite: the read waits for the unit (its one connection is in the unit's transaction).
          let settled = false;
          void read.then(
            () => (settled = true),
            () => (settled = true),
          );
          await microtasks();
          expect(settled).toBe(false);
        } else {
          // PostgreSQL: the read runs beside the open unit and does not see its row.
          expect(await read).toBeUndefined();
        }
        release.open();
        if (ending === 'commits') {
          expect(await unit).toBe(id);
          // SQLite's read ran after the COMMIT: the committed row. PostgreSQL's ran before it.
          expect(await read).toEqual(b.readsWaitForUnits ? expect.objectContaining({ id, status: 'queued' }) : undefined);
          expect(await s.screenings.getScreening(id)).toMatchObject({ id, status: 'queued' });
        } else {
          await expect(unit).rejects.toThrow('rolled back');
          expect(await read).toBeUndefined();
          expect(await s.screenings.getScreening(id)).toBeUndefined();
        }
      });
    }
  });

  describe('the event log', () => {
    it('appendEvents gives consecutive ids in the batch order; an empty batch writes nothing', async () => {
      const before = await s.events.lastEventId();
      const batch = [
        { event: 'screening.queued', data: { n: 1 } },
        { event: 'screening.completed', data: { n: 2 }, at: new Date(T0) },
        { event: 'screening.queued', data: null },
      ];
      const written = await s.events.appendEvents(batch);
      expect(written).toEqual([
        { id: before + 1, event: 'screening.queued', data: { n: 1 } },
        { id: before + 2, event: 'screening.completed', data: { n: 2 } },
        { id: before + 3, event: 'screening.queued', data: null },
      ]);
      expect(await s.events.eventsSince(before)).toEqual(written);
      expect(await s.events.lastEventId()).toBe(before + 3);
      // `at`: when it happened.
      const page = await s.events.pageEvents({}, { limit: 10 });
      expect(page.data.find((e) => e.id === before + 2)?.created_at).toBe(iso(T0));
      expect(await s.events.appendEvents([])).toEqual([]);
      await expect(s.events.appendEvents([{ event: 'screening.queued', data: null, at: new Date(NaN) }])).rejects.toMatchObject({
        name: 'StoreArgumentError',
        param: 'at',
      });
      expect(await s.events.lastEventId()).toBe(before + 3);
    });

    it("batches appended at once each get consecutive ids; a unit's batch goes with its rollback", async () => {
      const before = await s.events.lastEventId();
      const batchOf = (tag: string) => Array.from({ length: 5 }, (_, i) => ({ event: 'screening.queued', data: { tag, i } }));
      const [x, y] = await Promise.all([s.events.appendEvents(batchOf('x')), s.unitOfWork((tx) => tx.events.appendEvents(batchOf('y')))]);
      for (const got of [x, y]) {
        expect(got.map((e) => e.id)).toEqual(got.map((_, i) => got[0]!.id + i));
        expect(got.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4]);
      }
      expect([...x, ...y].map((e) => e.id).sort((p, q) => p - q)).toEqual(Array.from({ length: 10 }, (_, i) => before + 1 + i));
      await expect(
        s.unitOfWork(async (tx) => {
          await tx.events.appendEvents(batchOf('z'));
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect((await s.events.eventsSince(before)).map((e) => (e.data as { tag: string }).tag).filter((t) => t === 'z')).toEqual([]);
    });
  });

  describe('the hit facts read', () => {
    it('answers getScore and hasActiveBlocks as one read, by DOT or MC, on the store and through a unit (its own rows seen)', async () => {
      const profile = SANDBOX_CARRIERS.find((c) => c.carrier.mc_number)!;
      const dot = profile.carrier.dot_number;
      const mc = profile.carrier.mc_number!;
      const other = SANDBOX_CARRIERS.find((c) => c.carrier.dot_number !== dot)!.carrier.dot_number;
      const asGetScore = async (repos: RecordRepos, q: { dot_number: string } | { mc_number: string }) => ({
        score: await repos.scores.getScore('sandbox', q),
        anyActiveBlock: await repos.blocks.hasActiveBlocks(),
      });
      expect(await s.scores.hitFacts('sandbox', { dot_number: dot })).toEqual({ score: undefined, anyActiveBlock: false });
      expect(await s.scores.hitFacts('sandbox', { mc_number: mc })).toEqual({ score: undefined, anyActiveBlock: false });
      await s.scores.putScore('sandbox', scoreBody(profile, 'sandbox', new Date(T0)), new Date(T0));
      for (const q of [{ dot_number: dot }, { mc_number: mc }]) {
        const facts = await s.scores.hitFacts('sandbox', q);
        expect(facts.score?.score.carrier.dot_number).toBe(dot);
        expect(facts).toEqual(await asGetScore(s, q));
      }
      // A block of another carrier, added in a unit: the unit's read sees it, the store's only after the commit.
      await s.unitOfWork(async (tx) => {
        await tx.blocks.addBlock({
          carrierKey: `dot:${other}`,
          dot_number: other,
          mc_number: null,
          reason: 'test',
          by: 'Dana',
          at: iso(T0),
          token_id: null,
        });
        const facts = await tx.scores.hitFacts('sandbox', { dot_number: dot });
        expect(facts.anyActiveBlock).toBe(true);
        expect(facts).toEqual(await asGetScore(tx, { dot_number: dot }));
      });
      expect((await s.scores.hitFacts('sandbox', { mc_number: mc })).anyActiveBlock).toBe(true);
      expect(await s.scores.hitFacts('live', { dot_number: dot })).toEqual({ score: undefined, anyActiveBlock: true });
    });
  });

  describe("the callback sender's batch claim", () => {
    const now = T0 + 10;
    const claim = (r: RecordRepos, skip: readonly string[], limit: number, room?: { of: Record<string, number>; others: number }) =>
      r.callbackSends.claimDue(now, iso(now), now + 30_000, skip, limit, room);
    const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

    it('claims at most `limit`, earliest due first, leaving out `skip`; a claimed row is not claimed again', async () => {
      await s.outbox.insert(newRow('b1', { at: T0 + 1, dest: B }));
      for (let i = 2; i <= 6; i++) await s.outbox.insert(newRow(`a${i}`, { at: T0 + i }));
      await s.outbox.insert(newRow('later', { at: T0 + 60_000 }));
      // B's row is earliest but skipped: it takes no place in the batch.
      const first = await claim(s, [B], 2);
      expect(ids(first)).toEqual(['a2', 'a3']);
      expect(first[0]).toMatchObject({ attempts: 1, next_attempt_at: now + 30_000, state: 'pending' });
      expect(first[0]).toEqual(await s.outbox.byId('a2'));
      expect(ids(await claim(s, [], 2))).toEqual(['b1', 'a4']);
      expect(ids(await claim(s, [], 10))).toEqual(['a5', 'a6']);
      expect(await claim(s, [], 10)).toEqual([]);
    });

    it('with room per destination: at most that many of each destination', async () => {
      for (let i = 1; i <= 4; i++) await s.outbox.insert(newRow(`a${i}`, { at: T0 + i }));
      for (let i = 5; i <= 7; i++) await s.outbox.insert(newRow(`b${i}`, { at: T0 + i, dest: B }));
      await s.outbox.insert(newRow('c8', { at: T0 + 8, dest: C }));
      expect(ids(await claim(s, [], 10, { of: { [A]: 1 }, others: 2 }))).toEqual(['a1', 'b5', 'b6', 'c8']);
      expect(ids(await claim(s, [], 10, { of: { [A]: 0 }, others: 5 }))).toEqual(['b7']);
      expect(ids(await claim(s, [], 10, { of: {}, others: 1 }))).toEqual(['a2']);
      expect(ids(await claim(s, [], 10))).toEqual(['a3', 'a4']);
    });

    it('two claims at once (and from another store) never return one row twice', async () => {
      for (let i = 1; i <= 12; i++) await s.outbox.insert(newRow(`r${i}`, { at: T0 - 100 + i, dest: [A, B, C][i % 3] }));
      const other = await b.another();
      const got = await Promise.all([claim(s, [], 4), claim(s, [], 4), claim(other, [], 4)]);
      const all = got.flatMap(ids);
      expect(new Set(all).size).toBe(all.length);
      // Nobody waits on another's claim, so a claim may come back short; what is left is still due.
      const rest = ids(await claim(s, [], 20));
      expect([...all, ...rest].sort()).toEqual(Array.from({ length: 12 }, (_, i) => `r${i + 1}`).sort());
    });

    it("inside a unit: the unit's claims go with its rollback", async () => {
      for (let i = 1; i <= 3; i++) await s.outbox.insert(newRow(`a${i}`, { at: T0 + i }));
      await expect(
        s.unitOfWork(async (tx) => {
          expect(ids(await claim(tx, [], 2))).toEqual(['a1', 'a2']);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await s.outbox.byId('a1')).toMatchObject({ attempts: 0 });
      expect(ids(await s.unitOfWork((tx) => claim(tx, [], 10)))).toEqual(['a1', 'a2', 'a3']);
    });
  });

  describe('the prune lock', () => {
    it('tryPruneLock gives a lock whose release works; on PostgreSQL another store gets none while it is held', async () => {
      const other = await b.another();
      const lock = await s.retention.tryPruneLock();
      expect(lock).toBeDefined();
      const theirs = await other.retention.tryPruneLock();
      if (b.pruneLockIsExclusive) expect(theirs).toBeUndefined();
      else await theirs!.release();
      await lock!.release();
      const after = await other.retention.tryPruneLock();
      expect(after).toBeDefined();
      await after!.release();
      // Taken and given back again by the first.
      const again = await s.retention.tryPruneLock();
      expect(again).toBeDefined();
      await again!.release();
    });
  });

  describe("the watch store's observe", () => {
    const dot = '1000001';
    const t = (days: number) => iso(T0 + days * DAY);

    /** A carrier on the list by hand, its first state observed; `changed`: its next snapshot, a change. */
    async function watched(r: RecordRepos): Promise<{ changed: CarrierSnapshot }> {
      const w = r.watch(WATCH_DAYS);
      await w.addManual({ carrierKey: `dot:${dot}`, dot_number: dot, mc_number: null, note: null, at: t(0), nextCheckAt: t(1) });
      expect(await w.observe(observation(dot, snap('scr_1', t(0), 'tender'), () => FINDINGS))).toBeUndefined();
      return { changed: snap('scr_2', t(1), 'block') };
    }

    const findingsKinds: Array<[string, (asked: string[]) => RecordObservation['findings']]> = [
      ['answer at once', (asked) => (before) => (asked.push(before.screening_id), FINDINGS)],
      ['answer a Promise', (asked) => async (before) => (asked.push(before.screening_id), FINDINGS)],
    ];

    for (const [kind, findingsOf] of findingsKinds) {
      it(`records a change with the findings, which ${kind}: on the store`, async () => {
        const { changed } = await watched(s);
        const asked: string[] = [];
        const change = await s.watch(WATCH_DAYS).observe(observation(dot, changed, findingsOf(asked)));
        expect(change).toMatchObject({ reasons: ['action_changed'], screening_id: 'scr_2', findings: FINDINGS });
        expect(asked.every((id) => id === 'scr_1')).toBe(true);
        expect(asked.length).toBeGreaterThan(0);
        expect(await s.watch(WATCH_DAYS).getChange(change!.id)).toMatchObject({ findings: FINDINGS });
        expect(await s.watch(WATCH_DAYS).lastState([`dot:${dot}`])).toEqual(changed);
        // The same again: nothing new.
        expect(await s.watch(WATCH_DAYS).observe(observation(dot, changed, findingsOf(asked)))).toBeUndefined();
      });

      it(`records a change with the findings, which ${kind}: in a unit, through its handle`, async () => {
        const { changed } = await watched(s);
        const asked: string[] = [];
        const change = await s.unitOfWork(async (tx) => {
          const c = await tx.watch(WATCH_DAYS).observe(observation(dot, changed, findingsOf(asked)));
          expect(await tx.watch(WATCH_DAYS).lastState([`dot:${dot}`])).toEqual(changed);
          return c;
        });
        expect(change).toMatchObject({ reasons: ['action_changed'], screening_id: 'scr_2', findings: FINDINGS });
        expect(await s.watch(WATCH_DAYS).getChange(change!.id)).toMatchObject({ findings: FINDINGS });
        expect(await s.watch(WATCH_DAYS).lastState([`dot:${dot}`])).toEqual(changed);
      });
    }

    it('tenderAndObserve: recordTender then observe in one call (a new carrier listed, its first state kept; later a change)', async () => {
      const tenderOf = (id: string, at: string) => ({
        carrierKey: `dot:${dot}`,
        dot_number: dot,
        mc_number: null,
        screeningId: id,
        tagged: true,
        at,
        nextCheckAt: () => t(1),
      });
      const both = (r: RecordRepos, id: string, at: string, action: 'tender' | 'block') =>
        r.watch(WATCH_DAYS).tenderAndObserve(
          tenderOf(id, at),
          observation(dot, snap(id, at, action), () => FINDINGS),
        );
      // Not on the list yet: the tender lists it, and observe (which must see that) keeps its first state.
      expect(await s.unitOfWork((tx) => both(tx, 'scr_1', t(0), 'tender'))).toBeUndefined();
      expect(await s.watch(WATCH_DAYS).getEntry([`dot:${dot}`], t(0))).toMatchObject({
        manual: false,
        last_tender_at: t(0),
        last_checked_at: t(0),
        last: snap('scr_1', t(0), 'tender'),
      });
      // Already on the list (the tender writes nothing but its window): a changed state is a change.
      const change = await s.unitOfWork((tx) => both(tx, 'scr_2', t(2), 'block'));
      expect(change).toMatchObject({ reasons: ['action_changed'], screening_id: 'scr_2', findings: FINDINGS });
      expect(await s.watch(WATCH_DAYS).getEntry([`dot:${dot}`], t(2))).toMatchObject({ last_checked_at: t(2) });
      // The same fetch again (a cache hit), on the store: nothing new. Either half alone, or neither.
      expect(await both(s, 'scr_2', t(2), 'block')).toBeUndefined();
      expect(await s.watch(WATCH_DAYS).tenderAndObserve(tenderOf('scr_3', t(3)), undefined)).toBeUndefined();
      expect(await s.watch(WATCH_DAYS).tenderAndObserve(undefined, observation(dot, snap('scr_4', t(4), 'tender')))).toMatchObject({
        reasons: ['action_changed'],
      });
      expect(await s.watch(WATCH_DAYS).tenderAndObserve(undefined, undefined)).toBeUndefined();
    });

    // What is read ahead is compared with the reads it stands for in pg-watch-heads.test.ts; here, the outcome.
    it("tenders and observations after a batch's read-ahead of their heads: an MC-keyed entry waiting is merged, a carrier not listed is listed", async () => {
      const mc = '700001';
      const other = '1000002';
      await watched(s);
      await s
        .watch(WATCH_DAYS)
        .addManual({ carrierKey: `mc:${mc}`, dot_number: null, mc_number: mc, note: null, at: t(0), nextCheckAt: t(1) });
      const tender = (d: string, id: string) => ({
        carrierKey: `dot:${d}`,
        dot_number: d,
        mc_number: d === dot ? mc : null,
        screeningId: id,
        tagged: true,
        at: t(2),
        nextCheckAt: () => t(3),
      });
      // The state it has (seen): only the MC-keyed entry waiting sends observe on, to merge it.
      const seenAgain = { ...observation(dot, snap('scr_1', t(0), 'tender')), keys: [`dot:${dot}`, `mc:${mc}`], mc_number: mc };
      await s.unitOfWork(async (tx) => {
        const w = tx.watch(WATCH_DAYS);
        await w.readAheadTenders?.([
          { carrierKey: `dot:${dot}`, keys: [`dot:${dot}`, `mc:${mc}`] },
          { carrierKey: `dot:${other}`, keys: [`dot:${other}`] },
        ]);
        expect(await w.tenderAndObserve(tender(dot, 'scr_5'), seenAgain)).toBeUndefined();
        expect(await w.tenderAndObserve(tender(other, 'scr_6'), observation(other, snap('scr_6', t(2), 'tender')))).toBeUndefined();
      });
      const merged = await s.watch(WATCH_DAYS).getEntry([`dot:${dot}`, `mc:${mc}`], t(2));
      expect(merged).toMatchObject({ dot_number: dot, mc_number: mc, manual: true });
      expect(await s.watch(WATCH_DAYS).getEntry([`mc:${mc}`], t(2))).toBeUndefined();
      expect(await s.watch(WATCH_DAYS).getEntry([`dot:${other}`], t(2))).toMatchObject({ manual: false, last_tender_at: t(2) });
    });

    it('in a unit, findings that read through the unit (a Promise) see its rows', async () => {
      const { changed } = await watched(s);
      const change = await s.unitOfWork(async (tx) => {
        const mine = await tx.screenings.insertScreening(newScreening());
        return tx.watch(WATCH_DAYS).observe(
          observation(dot, changed, async () => {
            const seen = await tx.screenings.getScreening(mine.id);
            return seen ? FINDINGS : undefined;
          }),
        );
      });
      expect(change).toMatchObject({ findings: FINDINGS });
    });

    it('in a unit without savepoints (group commit), findings that answer a Promise: kept, not undone', async () => {
      const { changed } = await watched(s);
      const out = await s.unitOfWorkWithoutSavepoints((tx) =>
        tx.watch(WATCH_DAYS).observe(observation(dot, changed, () => Promise.resolve(FINDINGS))),
      );
      expect(out?.value).toMatchObject({ reasons: ['action_changed'], findings: FINDINGS });
      expect(await s.watch(WATCH_DAYS).getChange(out!.value!.id)).toMatchObject({ findings: FINDINGS });
    });

    for (const where of ['on the store', 'in a unit'] as const) {
      it(`findings that reject: observe rejects and records nothing (${where})`, async () => {
        const { changed } = await watched(s);
        const boom = new Error('findings failed');
        const o = observation(dot, changed, () => Promise.reject(boom));
        if (where === 'on the store') await expect(s.watch(WATCH_DAYS).observe(o)).rejects.toBe(boom);
        else {
          // The unit goes on after the failed observe, and commits what else it wrote.
          const other = await s.unitOfWork(async (tx) => {
            await expect(tx.savepoint((sp) => sp.watch(WATCH_DAYS).observe(o))).rejects.toBe(boom);
            return tx.screenings.insertScreening(newScreening());
          });
          expect(await s.screenings.getScreening(other.id)).toBeDefined();
        }
        expect(await s.watch(WATCH_DAYS).lastState([`dot:${dot}`])).toEqual(snap('scr_1', t(0), 'tender'));
        expect((await s.watch(WATCH_DAYS).pageChanges(undefined, { limit: 10 })).data).toEqual([]);
      });
    }
  });

  describe('a unit without savepoints', () => {
    it('answers { value } and keeps its writes when nothing threw', async () => {
      let called = 0;
      const out = await s.unitOfWorkWithoutSavepoints(async (tx) => {
        const a = await tx.screenings.insertScreening(newScreening());
        const c = await tx.savepoint((sp) => sp.screenings.insertScreening(newScreening()));
        tx.afterCommit(() => called++);
        return [a.id, c.id];
      });
      expect(out).toBeDefined();
      for (const id of out!.value) expect(await s.screenings.getScreening(id)).toBeDefined();
      expect(called).toBe(1);
    });

    it('a nested throw, caught by its caller: undefined, nothing kept, no afterCommit', async () => {
      let called = 0;
      const ids: string[] = [];
      const out = await s.unitOfWorkWithoutSavepoints(async (tx: RecordTx) => {
        ids.push((await tx.screenings.insertScreening(newScreening())).id);
        tx.afterCommit(() => called++);
        await tx
          .savepoint(async (sp) => {
            ids.push((await sp.screenings.insertScreening(newScreening())).id);
            throw new Error('nested fails');
          })
          .catch(() => undefined);
        ids.push((await tx.screenings.insertScreening(newScreening())).id);
        return 'done';
      });
      expect(out).toBeUndefined();
      expect(ids).toHaveLength(3);
      for (const id of ids) expect(await s.screenings.getScreening(id)).toBeUndefined();
      expect(called).toBe(0);
    });

    it('a throw of its own: undefined, nothing kept', async () => {
      let id = '';
      const out = await s.unitOfWorkWithoutSavepoints(async (tx) => {
        id = (await tx.screenings.insertScreening(newScreening())).id;
        throw new Error('fails');
      });
      expect(out).toBeUndefined();
      expect(await s.screenings.getScreening(id)).toBeUndefined();
    });
  });
});
