/**
 * The event log's contract (SSE replay with Last-Event-ID, GET /event-log) on both backends: the
 * same cases through the same four methods, on SQLite's store and on PostgreSQL's repository
 * (worker/store/pg/event-log-repo.ts); ported from store-data, retention and event-log tests.
 * Then what only PostgreSQL has to prove, having no single writer: ids commit in id order, so a
 * reader that moves on to the newest id it saw never misses one that committed late.
 */
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore, StoreArgumentError, type Store } from '../../worker/store/index.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { pgEventLogOf } from '../../worker/store/pg/event-log-repo.js';
import { poolExecutor } from '../../worker/store/pg/executor.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

type EventLog = AsyncRepo<Pick<Store, 'appendEvent' | 'eventsSince' | 'pageEvents' | 'lastEventId'>>;

/** One unit of work: the log inside it, and a savepoint inside that. */
interface Unit {
  log: EventLog;
  savepoint<T>(fn: (u: Unit) => Promise<T>): Promise<T>;
}

interface Backend {
  /** Outside any unit of work. */
  log: EventLog;
  unitOfWork<T>(fn: (u: Unit) => Promise<T>): Promise<T>;
  /** The stored text of event `id`'s data, as the table holds it. */
  storedText(id: number): Promise<string | undefined>;
  /** What retention does to old events. */
  deleteThrough(id: number): Promise<void>;
  close(): Promise<void>;
}

interface Maker {
  setup(): Promise<void>;
  fresh(now: () => Date): Promise<Backend>;
  teardown(): Promise<void>;
}

// ---- SQLite: the store as it is, its sync answers awaited; one file, emptied before each case ----

let sqliteFile: { store: Store; cleanup(): void } | undefined;
/** The SQLite store's clock: each case sets it. */
let sqliteNow: () => Date = () => new Date();

const sqlite: Maker = {
  setup: async () => {
    const file = tempDbPath();
    // Opened once: its migrations take a while on a busy machine.
    sqliteFile = { store: openStore(file.path, { now: () => sqliteNow() }), cleanup: file.cleanup };
  },
  teardown: async () => {
    sqliteFile?.store.close();
    sqliteFile?.cleanup();
    sqliteFile = undefined;
  },
  async fresh(now) {
    sqliteNow = now;
    const { store } = sqliteFile!;
    const db = connectionOf(store);
    // Empty, and AUTOINCREMENT's counter back to 0, as a new file has it.
    db.exec("DELETE FROM events; DELETE FROM sqlite_sequence WHERE name = 'events'");
    const log: EventLog = {
      appendEvent: async (event, data) => store.appendEvent(event, data),
      eventsSince: async (lastId, limit) => store.eventsSince(lastId, limit),
      pageEvents: async (filter, page) => store.pageEvents(filter, page),
      lastEventId: async () => store.lastEventId(),
    };
    // store.transaction takes a synchronous function; this test's units of work await, so they
    // are spelt in SQL on the store's connection (one caller at a time here).
    let depth = 0;
    const run = async <T>(fn: (u: Unit) => Promise<T>): Promise<T> => {
      const sp = depth > 0 ? `sp_${depth}` : undefined;
      db.exec(sp ? `SAVEPOINT ${sp}` : 'BEGIN IMMEDIATE');
      depth++;
      try {
        const value = await fn({ log, savepoint: run });
        depth--;
        db.exec(sp ? `RELEASE ${sp}` : 'COMMIT');
        return value;
      } catch (err) {
        depth--;
        db.exec(sp ? `ROLLBACK TO ${sp}; RELEASE ${sp}` : 'ROLLBACK');
        throw err;
      }
    };
    return {
      log,
      unitOfWork: run,
      storedText: async (id) => (db.prepare('SELECT data FROM events WHERE id = ?').get(id) as { data: string } | undefined)?.data,
      deleteThrough: async (id) => void db.prepare('DELETE FROM events WHERE id <= ?').run(id),
      close: async () => {},
    };
  },
};

// ---- PostgreSQL: one database for the file, emptied before each case ----

let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>> | undefined;

async function pgDatabase(): Promise<NonNullable<typeof pgDb>> {
  pgDb ??= await migratedPgDatabase();
  return pgDb;
}

// Dropped once, after every case of the file (the concurrent ones too).
afterAll(async () => {
  await pgDb?.close();
  pgDb = undefined;
});

const postgres: Maker = {
  setup: async () => void (await pgDatabase()),
  teardown: async () => {},
  async fresh(now) {
    const { pool } = await pgDatabase();
    await pool.query('TRUNCATE events; UPDATE event_head SET last_id = 0');
    const x = poolExecutor(pool);
    const unitOn = (tx: typeof x): Unit => ({
      log: pgEventLogOf(tx, { now }),
      savepoint: (fn) => tx.transaction((inner) => fn(unitOn(inner))),
    });
    return {
      log: pgEventLogOf(x, { now }),
      unitOfWork: (fn) => x.transaction((tx) => fn(unitOn(tx))),
      storedText: async (id) => (await pool.query<{ data: string }>('SELECT data FROM events WHERE id = $1', [id])).rows[0]?.data,
      deleteThrough: async (id) => void (await pool.query('DELETE FROM events WHERE id <= $1', [id])),
      close: async () => {},
    };
  },
};

// ---- the contract ----

const T0 = new Date('2026-11-01T00:00:00.000Z');
const at = (minute: number) => new Date(T0.getTime() + minute * 60_000);

/** A refusal, whether the backend throws at once (SQLite) or rejects (PostgreSQL). */
async function refusal(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
}

describe.each([
  ['sqlite', sqlite],
  ['postgres', postgres],
] as const)('the event log on %s', (_name, maker) => {
  let b: Backend;
  let clock: Date;
  beforeAll(() => maker.setup());
  afterAll(() => maker.teardown());
  beforeEach(async () => {
    clock = T0;
    b = await maker.fresh(() => clock);
  });
  afterEach(() => b.close());

  it('appends with increasing ids and replays after an id', async () => {
    const { log } = b;
    expect(await log.lastEventId()).toBe(0);
    expect(await log.eventsSince(0)).toEqual([]);
    const e1 = await log.appendEvent('screening.completed', { id: 'scr_1' });
    const e2 = await log.appendEvent('review.created', { id: 'rev_1', nested: { a: [1, 2] } });
    const e3 = await log.appendEvent('queue.changed', null);
    expect([e1.id, e2.id, e3.id]).toEqual([1, 2, 3]);
    expect(e3).toEqual({ id: 3, event: 'queue.changed', data: null });
    expect(await log.lastEventId()).toBe(3);
    expect(await log.eventsSince(1)).toEqual([e2, e3]);
    expect(await log.eventsSince(0, 1)).toEqual([e1]);
    expect(await log.eventsSince(0, 2)).toEqual([e1, e2]);
    expect(await log.eventsSince(3)).toEqual([]);
    expect(await log.eventsSince(99)).toEqual([]);
    expect(e2.data).toEqual({ id: 'rev_1', nested: { a: [1, 2] } });
  });

  it('reads 1000 after an id unless told otherwise', async () => {
    // In one unit of work: 1001 single appends stay quick on both.
    await b.unitOfWork(async (u) => {
      for (let i = 0; i < 1001; i++) await u.log.appendEvent('queue.changed', { i });
    });
    const first = await b.log.eventsSince(0);
    expect(first).toHaveLength(1000);
    expect(first.at(-1)).toEqual({ id: 1000, event: 'queue.changed', data: { i: 999 } });
    expect(await b.log.eventsSince(1000)).toEqual([{ id: 1001, event: 'queue.changed', data: { i: 1000 } }]);
    expect(await b.log.eventsSince(0, 10_000)).toHaveLength(1001);
  });

  it('stores the JSON text SQLite stores, byte for byte, and hands back the data as given', async () => {
    const values: unknown[] = [
      { id: 'scr_1', reasons: ['a', 'b'], n: 1.5, big: 1e21, neg: -0, small: 5e-324, t: true, f: false, nil: null },
      { z: 1, a: 2, '10': 3, '2': 4 }, // key order as JSON.stringify gives it (integer-like keys first)
      { text: 'Ünïcødé — “quotes” \' " \\ / \n\t\r', emoji: '🚚🛑', cjk: '運送会社', rtl: 'שלום' },
      { nul: 'a\u0000b', ctrl: '\u0001\u001f\u007f', lone: '\ud800x\udfff', bom: '\ufeff', ls: '\u2028\u2029' },
      'a plain string',
      42,
      [1, [2, [3]], { deep: { deeper: {} } }, []],
      { skipped: undefined, kept: 1 },
      null,
      undefined,
    ];
    for (const data of values) {
      const e = await b.log.appendEvent('carrier.changed', data);
      expect(e.data).toBe(data ?? null);
      expect(await b.storedText(e.id)).toBe(JSON.stringify(data) ?? 'null');
    }
    const read = await b.log.eventsSince(0);
    expect(read.map((e) => e.data)).toEqual(values.map((v) => JSON.parse(JSON.stringify(v) ?? 'null') as unknown));
    // An event name outside the known set is kept as it is (an open set).
    const odd = await b.log.appendEvent('Some.Other_Event', 1);
    expect((await b.log.eventsSince(odd.id - 1))[0]).toEqual({ id: odd.id, event: 'Some.Other_Event', data: 1 });
  });

  it('refuses bad arguments, naming them, and writes nothing', async () => {
    const param = async (fn: () => Promise<unknown>) => {
      const err = await refusal(fn);
      expect(err).toBeInstanceOf(StoreArgumentError);
      return (err as StoreArgumentError).param;
    };
    const { log } = b;
    expect(await param(() => log.appendEvent('', {}))).toBe('event');
    expect(await param(() => log.appendEvent(42 as unknown as string, {}))).toBe('event');
    for (const bad of [-1, 1.5, Number.NaN, '1' as unknown as number]) expect(await param(() => log.eventsSince(bad))).toBe('lastId');
    for (const bad of [0, 10_001, 2.5]) expect(await param(() => log.eventsSince(0, bad))).toBe('limit');
    expect(await param(() => log.pageEvents({}, { limit: 0 }))).toBe('limit');
    expect(await param(() => log.pageEvents({}, { limit: 1, starting_after: '1', ending_before: '2' }))).toBe('ending_before');
    expect(await log.lastEventId()).toBe(0);
    expect(await log.eventsSince(0)).toEqual([]);
  });

  it('commits events with their unit of work; a rollback leaves no event and uses no id; a failed savepoint keeps the outer appends', async () => {
    const kept = await b.unitOfWork(async (u) => u.log.appendEvent('screening.completed', { id: 'scr_1' }));
    expect(await b.log.lastEventId()).toBe(1);

    await expect(
      b.unitOfWork(async (u) => {
        await u.log.appendEvent('screening.completed', { id: 'scr_2' });
        await u.log.appendEvent('review.created', { id: 'rev_2' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await b.log.lastEventId()).toBe(1);
    expect(await b.log.eventsSince(0)).toEqual([kept]);

    const outer = await b.unitOfWork(async (u) => {
      const e = await u.log.appendEvent('screening.completed', { id: 'scr_3' });
      await u
        .savepoint(async (inner) => {
          await inner.log.appendEvent('review.created', { id: 'x' });
          throw new Error('inner');
        })
        .catch(() => {
          /* the pipeline's watch record does this: its failure never undoes the screening */
        });
      const after = await u.log.appendEvent('review.created', { id: 'rev_3' });
      return [e, after];
    });
    // Ids run on without a gap: the rolled-back ones were never handed to a reader.
    expect(outer.map((e) => e.id)).toEqual([2, 3]);
    expect(await b.log.eventsSince(0)).toEqual([kept, ...outer]);
    expect(await b.log.lastEventId()).toBe(3);
  });

  it('keeps counting after old events are pruned: the last id never goes backwards', async () => {
    for (let i = 0; i < 5; i++) await b.log.appendEvent('filler', { i });
    await b.log.appendEvent('recent', { ok: true });
    await b.deleteThrough(5);
    expect((await b.log.eventsSince(0)).map((e) => e.id)).toEqual([6]);
    expect(await b.log.lastEventId()).toBe(6);
    await b.deleteThrough(6);
    expect(await b.log.eventsSince(0)).toEqual([]);
    expect(await b.log.lastEventId()).toBe(6);
    expect((await b.log.appendEvent('after', null)).id).toBe(7);
    expect((await b.log.pageEvents({}, { limit: 10 })).data.map((e) => e.id)).toEqual([7]);
  });

  it('pages newest first, without gaps or repeats while events are added, and walks back with ending_before', async () => {
    const { log } = b;
    expect(await log.pageEvents({}, { limit: 10 })).toEqual({ data: [], has_more: false });
    for (let i = 1; i <= 7; i++) {
      clock = at(i);
      await log.appendEvent(i % 2 ? 'screening.completed' : 'review.created', { i });
    }
    const all = await log.pageEvents({}, { limit: 100 });
    expect(all.has_more).toBe(false);
    expect(all.data.map((e) => e.id)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(all.data[0]).toEqual({ id: 7, event: 'screening.completed', data: { i: 7 }, created_at: at(7).toISOString() });

    const seen: number[] = [];
    let after: string | undefined;
    for (let n = 0; n < 10; n++) {
      const page = await log.pageEvents({}, { limit: 2, ...(after === undefined ? {} : { starting_after: after }) });
      seen.push(...page.data.map((e) => e.id));
      if (n === 0) await log.appendEvent('queue.changed', null); // newer than the first page: not in this walk
      if (!page.has_more) break;
      after = String(page.data.at(-1)!.id);
    }
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);

    // ending_before: the page just newer than the cursor, still newest first.
    expect(await log.pageEvents({}, { limit: 2, ending_before: '3' })).toMatchObject({
      data: [{ id: 5 }, { id: 4 }],
      has_more: true,
    });
    expect(await log.pageEvents({}, { limit: 10, ending_before: '3' })).toMatchObject({
      data: [{ id: 8 }, { id: 7 }, { id: 6 }, { id: 5 }, { id: 4 }],
      has_more: false,
    });
    expect(await log.pageEvents({}, { limit: 3, starting_after: '4' })).toMatchObject({
      data: [{ id: 3 }, { id: 2 }, { id: 1 }],
      has_more: false,
    });
    expect(await log.pageEvents({}, { limit: 2, starting_after: '1' })).toEqual({ data: [], has_more: false });
    // A cursor is the stream's id as text; leading zeros name the same id on both.
    expect((await log.pageEvents({}, { limit: 1, starting_after: '007' })).data.map((e) => e.id)).toEqual([6]);
  });

  it('filters by type and time, and refuses a cursor outside the filtered list', async () => {
    const { log } = b;
    const names = ['screening.completed', 'review.created', 'review.updated', 'carrier.changed'];
    for (let i = 0; i < 12; i++) {
      clock = at(i);
      await log.appendEvent(names[i % 4]!, { i });
    }
    const ids = async (filter: Parameters<EventLog['pageEvents']>[0], page: Parameters<EventLog['pageEvents']>[1] = { limit: 100 }) =>
      (await log.pageEvents(filter, page)).data.map((e) => e.id);

    expect(await ids({ types: ['review.created', 'review.updated'] })).toEqual([11, 10, 7, 6, 3, 2]);
    expect(await ids({ types: ['carrier.changed'] })).toEqual([12, 8, 4]);
    expect(await ids({ types: ['nobody.sends.this'] })).toEqual([]);
    expect(await ids({ types: [] })).toHaveLength(12); // empty: any type
    // created_gte inclusive, created_lt exclusive (minute i is event i + 1).
    expect(await ids({ createdGte: at(3).toISOString() })).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4]);
    expect(await ids({ createdLt: at(3).toISOString() })).toEqual([3, 2, 1]);
    expect(
      await ids({ createdGte: at(2).toISOString(), createdLt: at(6).toISOString(), types: ['review.created', 'carrier.changed'] }),
    ).toEqual([6, 4]);
    expect(await ids({ createdGte: '2999-01-01T00:00:00.000Z' })).toEqual([]);
    // Paged inside a filter: the cursor moves through the filtered list only.
    const reviews = { types: ['review.created', 'review.updated'] };
    expect(await log.pageEvents(reviews, { limit: 2, starting_after: '10' })).toMatchObject({
      data: [{ id: 7 }, { id: 6 }],
      has_more: true,
    });
    expect(await log.pageEvents(reviews, { limit: 2, ending_before: '6' })).toMatchObject({
      data: [{ id: 10 }, { id: 7 }],
      has_more: true,
    });

    const refused = async (filter: Parameters<EventLog['pageEvents']>[0], page: Parameters<EventLog['pageEvents']>[1]) => {
      const err = await refusal(() => log.pageEvents(filter, page));
      expect(err).toBeInstanceOf(StoreArgumentError);
      expect((err as Error).message).toMatch(/is not in this list/);
      return (err as StoreArgumentError).param;
    };
    expect(await refused(reviews, { limit: 2, starting_after: '1' })).toBe('starting_after'); // a screening.completed
    expect(await refused(reviews, { limit: 2, ending_before: '4' })).toBe('ending_before');
    expect(await refused({}, { limit: 2, starting_after: '999999999' })).toBe('starting_after');
    expect(await refused({}, { limit: 2, starting_after: 'evt_1' })).toBe('starting_after');
    expect(await refused({ createdGte: at(5).toISOString() }, { limit: 2, starting_after: '2' })).toBe('starting_after');
  });
});

// ---- PostgreSQL only: several writers, no single one ----

describe('the event log on postgres only: batches, and several writers at once', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  beforeAll(() => postgres.setup());
  beforeEach(async () => void (await postgres.fresh(() => T0)));

  it('appends a batch in one statement: consecutive ids in its order, each at its time; an empty one writes nothing', async () => {
    const { pool } = await pgDatabase();
    const log = pgEventLogOf(poolExecutor(pool), { now: () => T0 });
    await log.appendEvent('queue.changed', null);
    expect(await log.appendEvents([])).toEqual([]);
    const data = { id: 'scr_9', nested: [1, { a: 'ü' }] };
    const batch = await log.appendEvents([
      { event: 'screening.completed', data },
      { event: 'review.created', data: undefined, at: at(5) },
      { event: 'decision.revoked', data: 'text' },
    ]);
    expect(batch).toEqual([
      { id: 2, event: 'screening.completed', data },
      { id: 3, event: 'review.created', data: null },
      { id: 4, event: 'decision.revoked', data: 'text' },
    ]);
    expect(batch[0]!.data).toBe(data);
    expect(await log.lastEventId()).toBe(4);
    expect((await log.pageEvents({}, { limit: 10 })).data).toEqual([
      { id: 4, event: 'decision.revoked', data: 'text', created_at: T0.toISOString() },
      { id: 3, event: 'review.created', data: null, created_at: at(5).toISOString() },
      { id: 2, event: 'screening.completed', data, created_at: T0.toISOString() },
      { id: 1, event: 'queue.changed', data: null, created_at: T0.toISOString() },
    ]);
    const text = await pool.query<{ data: string }>('SELECT data FROM events WHERE id = 2');
    expect(text.rows[0]?.data).toBe(JSON.stringify(data));
    // A bad entry refuses the whole batch.
    const err = await refusal(() =>
      log.appendEvents([
        { event: 'queue.changed', data: 1 },
        { event: '', data: 2 },
      ]),
    );
    expect(err).toMatchObject({ name: 'StoreArgumentError', param: 'event' });
    const badTime = await refusal(() => log.appendEvents([{ event: 'queue.changed', data: 1, at: new Date(Number.NaN) }]));
    expect(badTime).toMatchObject({ name: 'StoreArgumentError', param: 'at' });
    expect(await log.lastEventId()).toBe(4);
  });

  it('shows readers committed ids only; a second appender waits for the first to commit and counts on from it', async () => {
    const { pool } = await pgDatabase();
    const x = poolExecutor(pool);
    const log = pgEventLogOf(x, { now: () => T0 });
    await log.appendEvent('queue.changed', null);

    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((r) => (releaseFirst = r));
    let firstAppended!: () => void;
    const appendedByFirst = new Promise<void>((r) => (firstAppended = r));
    const order: string[] = [];
    const first = x.transaction(async (tx) => {
      const e = await pgEventLogOf(tx, { now: () => T0 }).appendEvent('screening.completed', { who: 'first' });
      firstAppended();
      await firstMayCommit;
      order.push('first commits');
      return e;
    });
    // Seen while the first holds its id uncommitted; the first is let go whatever happens here,
    // so a failure cannot leave its transaction open (and the next case waiting on it).
    const meanwhile: { head?: number; visible?: unknown[]; order?: string[] } = {};
    let second: Promise<{ id: number }> | undefined;
    try {
      await appendedByFirst;
      meanwhile.head = await log.lastEventId();
      meanwhile.visible = await log.eventsSince(1);
      second = x.transaction(async (tx) => {
        const e = await pgEventLogOf(tx, { now: () => T0 }).appendEvent('screening.completed', { who: 'second' });
        order.push('second appended');
        return e;
      });
      await sleep(100);
      meanwhile.order = [...order];
    } finally {
      releaseFirst();
    }
    const [a, c] = await Promise.all([first, second]);
    // Not yet committed: neither the head nor a reader showed it, and the second waited on
    // event_head's row until the first committed.
    expect(meanwhile).toEqual({ head: 1, visible: [], order: [] });
    expect(order).toEqual(['first commits', 'second appended']);
    expect([a.id, c!.id]).toEqual([2, 3]);
    expect(await log.lastEventId()).toBe(3);
    expect((await log.eventsSince(1)).map((e) => e.data)).toEqual([{ who: 'first' }, { who: 'second' }]);
  });

  it('lets the head go when a savepoint that appended rolls back (the group commit retries a failed piece so)', async () => {
    const { pool } = await pgDatabase();
    const x = poolExecutor(pool);
    const log = pgEventLogOf(x, { now: () => T0 });
    const ids = await x.transaction(async (tx) => {
      const inTx = pgEventLogOf(tx, { now: () => T0 });
      await tx
        .transaction(async (sp) => {
          await pgEventLogOf(sp, { now: () => T0 }).appendEvent('screening.completed', { piece: 'failed' });
          throw new Error('the piece fails');
        })
        .catch(() => undefined);
      // Another host appends and commits while this unit of work is still open: nothing waits.
      const other = await Promise.race([
        log.appendEvent('screening.completed', { piece: 'other host' }),
        sleep(5_000).then(() => 'still waiting on the head'),
      ]);
      const last = await inTx.appendEvent('screening.completed', { piece: 'retried' });
      return [other, last];
    });
    expect(ids).toEqual([
      { id: 1, event: 'screening.completed', data: { piece: 'other host' } },
      { id: 2, event: 'screening.completed', data: { piece: 'retried' } },
    ]);
    expect((await log.eventsSince(0)).map((e) => e.data)).toEqual([{ piece: 'other host' }, { piece: 'retried' }]);
  });

  it('ids commit in id order: a reader moving on to the newest id it saw gets every event exactly once', async () => {
    // Two "hosts" (pools), two writers each; every unit of work does some work, appends, works on
    // while it holds its ids, then commits; one in seven rolls back. A reader polls eventsSince
    // from the newest id it has seen, as the SSE feed does.
    const { db } = await pgDatabase();
    const hosts = [openPgPool(db.url, { max: 3 }), openPgPool(db.url, { max: 3 })];
    try {
      let seed = 0x2f6e2b1;
      const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
      const committed = new Set<string>();
      const rolledBack = new Set<string>();
      const TX_PER_WRITER = 40;
      let stop = false;

      const writer = async (pool: pg.Pool, w: string) => {
        const x = poolExecutor(pool);
        for (let i = 0; i < TX_PER_WRITER && !stop; i++) {
          const tags = [`${w}.${i}.a`, ...(random() < 0.3 ? [`${w}.${i}.b`, `${w}.${i}.c`] : [])];
          const rollback = random() < 1 / 7;
          try {
            await x.transaction(async (tx) => {
              const log = pgEventLogOf(tx, { now: () => new Date() });
              await sleep(random() * 2);
              if (tags.length === 1) await log.appendEvent('queue.changed', { tag: tags[0] });
              else await log.appendEvents(tags.map((tag) => ({ event: 'queue.changed', data: { tag } })));
              await sleep(random() * 3);
              if (rollback) throw new Error('rolled back on purpose');
            });
            for (const t of tags) committed.add(t);
          } catch (err) {
            if ((err as Error).message !== 'rolled back on purpose') throw err;
            for (const t of tags) rolledBack.add(t);
          }
        }
      };

      const reader = pgEventLogOf(poolExecutor(hosts[0]!), { now: () => new Date() });
      const seen: Array<{ id: number; tag: string }> = [];
      /** Ids at or below lastEventId that a read from lastSeen did not hold (committed ids only: none). */
      const unreadBelowHead: number[] = [];
      let lastSeen = 0;
      const poll = async () => {
        const head = await reader.lastEventId();
        const got = await reader.eventsSince(lastSeen, 10_000);
        const ids = new Set(got.map((e) => e.id));
        for (let id = lastSeen + 1; id <= head; id++) if (!ids.has(id)) unreadBelowHead.push(id);
        for (const e of got) seen.push({ id: e.id, tag: (e.data as { tag: string }).tag });
        lastSeen = got.at(-1)?.id ?? lastSeen;
      };
      let writing = true;
      const writers = Promise.all(hosts.flatMap((pool, h) => [writer(pool, `h${h}w0`), writer(pool, `h${h}w1`)])).finally(() => {
        writing = false;
      });
      let polls = 0;
      try {
        while (writing) {
          await poll();
          polls++;
          await sleep(random());
        }
      } finally {
        stop = true; // a failed read: the writers end before their pools do
        await writers.catch(() => undefined);
      }
      await writers;
      await poll(); // after the last commit: what is left

      expect(polls).toBeGreaterThan(20);
      expect(rolledBack.size).toBeGreaterThan(0);
      const tags = seen.map((s) => s.tag);
      expect(new Set(tags).size).toBe(tags.length); // none twice
      expect([...committed].filter((t) => !tags.includes(t))).toEqual([]); // none missed
      expect(tags.filter((t) => rolledBack.has(t))).toEqual([]);
      expect(unreadBelowHead).toEqual([]);
      expect(seen.map((s) => s.id)).toEqual(seen.map((_, i) => i + 1)); // in order, no gaps
      // A batch (appendEvents) took its ids in one go: consecutive, in its order.
      const idOf = new Map(seen.map((s) => [s.tag, s.id]));
      const batches = [...committed].filter((t) => t.endsWith('.b')).map((t) => t.slice(0, -2));
      expect(batches.length).toBeGreaterThan(0);
      for (const b of batches)
        expect([idOf.get(`${b}.b`)! - idOf.get(`${b}.a`)!, idOf.get(`${b}.c`)! - idOf.get(`${b}.a`)!]).toEqual([1, 2]);
      expect(await reader.lastEventId()).toBe(seen.length);
    } finally {
      await Promise.all(hosts.map((p) => p.end()));
    }
  });
});
