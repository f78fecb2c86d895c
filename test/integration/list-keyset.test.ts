/**
 * Every list the API pages reads one page in SQL by keyset on an index (issue 35,
 * worker/store/keyset.ts): reviews (each state, `decided`, all), decisions, changes, blocks,
 * callbacks and the watch list. On the record of the pass (SCREEN_TEST_DB): each list's order
 * (ties broken by insertion), every row once across pages while rows are added between pages,
 * the walk back by ending_before, a cursor outside the list refused. On SQLite, each query's plan
 * reads an index in the list's order (no SCAN of the table, no sort of its rows); PostgreSQL's
 * plans are the "postgres only" cases of the pg-*-contract files. The event log is read after an
 * id on its primary key already (eventsSince).
 *
 * The pages of reviews, decisions and blocks are contract cases on both backends (each list's
 * `contract` names its case), so here they have their plans only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pageCallbacks } from '../../worker/callbacks/outbox.js';
import { pageDecisions } from '../../worker/decisions/carrier-decisions.js';
import { StoreArgumentError, type ListPage, type RecordStore } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { describeSqlite } from '../helpers/test-db.js';
import { openTestRecord, type OpenedTestRecord } from '../helpers/test-record-sql.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** Minute m of a fixed day; a few rows share a minute, so the tie-break is exercised. */
const t = (m: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0) + m * 60_000).toISOString();
const NOW = new Date(Date.UTC(2026, 10, 1, 12, 0));

interface Fixture {
  opened: OpenedTestRecord;
  record: RecordStore;
  sql: OpenedTestRecord['sql'];
  seq: number;
}

async function fixture(): Promise<Fixture> {
  const opened = await openTestRecord({ now: () => NOW });
  cleanups.push(() => opened.close());
  return { opened, record: opened.record, sql: opened.sql, seq: 0 };
}

type Page<T> = { data: T[]; has_more: boolean };
interface ListCase {
  name: string;
  /** Add the i-th row at minute m; its id. */
  add(f: Fixture, m: number): Promise<string>;
  /** Add a row that is not in this list (another state, a tender's own review…). */
  other?(f: Fixture, m: number): Promise<void>;
  page(f: Fixture, p: ListPage): Promise<Page<{ id: string }>>;
  /** Newest first (DESC) or oldest first (ASC) by the minute given to add. */
  direction: 'ASC' | 'DESC';
  /** The table a plan must never scan. */
  table: RegExp;
  /** The contract case that pages this list on both backends (then only its plan is here). */
  contract?: string;
}

async function screening(f: Fixture, id: string, m: number): Promise<void> {
  await f.sql(
    `INSERT INTO screenings (id, status, query_kind, query_value, priority, action, created_at, completed_at)
      VALUES (@id, 'done', 'dot_number', '1000001', 'tender', 'hold', @at, @at)`,
    { id, at: t(m) },
  );
}

async function review(f: Fixture, state: string, m: number, parent: string | null = null): Promise<string> {
  const n = ++f.seq;
  await screening(f, `scr_r${n}`, m);
  const decided = state === 'pending' ? null : t(m);
  await f.sql(
    `INSERT INTO reviews (id, screening_id, state, hold_reason, decided_by, decided_at, created_at, parent_id)
      VALUES (@id, @sid, @state, 'manual_review', @by, @decided, @at, @parent)`,
    { id: `rev_${n}`, sid: `scr_r${n}`, state, by: decided ? 'Dana' : null, decided, at: t(m), parent },
  );
  return `rev_${n}`;
}

const REVIEWS_CONTRACT = 'pg-screenings-contract.test.ts "GET /reviews pages (keyset)"';
const reviewCase = (state: 'pending' | 'approved' | 'rejected' | 'closed' | 'superseded' | 'decided' | undefined): ListCase => ({
  name: `GET /reviews?state=${state ?? 'all'}`,
  add: (f, m) => review(f, state === undefined || state === 'decided' ? (f.seq % 2 ? 'approved' : 'rejected') : state, m),
  async other(f, m) {
    // A review in another state (for `all` there is none), and a tender's own item waiting on
    // its carrier's review in this list's state: neither is listed.
    if (state === undefined) return void (await review(f, 'pending', m, 'rev_carrier'));
    await review(f, state === 'pending' ? 'approved' : state === 'decided' ? 'closed' : 'pending', m);
    await review(f, state === 'decided' ? 'approved' : state, m, 'rev_carrier');
  },
  page: (f, p) => f.record.reviews.pageReviews(state, p),
  direction: state === 'pending' ? 'ASC' : 'DESC',
  table: /^SCAN (r|s|reviews|screenings)\b/,
  contract: REVIEWS_CONTRACT,
});

async function decision(f: Fixture, state: string, m: number, dot = '1000001'): Promise<string> {
  const id = `dec_${++f.seq}`;
  await f.sql(
    `INSERT INTO decisions (id, carrier_key, dot_number, review_id, decision, basis, decided_by, decided_at, expires_at, state)
      VALUES (@id, @key, @dot, 'rev_x', 'approved', '{}', 'Dana', @at, @expires, @state)`,
    { id, key: `dot:${dot}-${f.seq}`, dot, at: t(m), expires: t(m + 100_000), state },
  );
  return id;
}

/** An ended decision: decided long before, ended at `m` (the list's order is the end). */
async function endedDecision(f: Fixture, state: 'lapsed' | 'revoked', m: number): Promise<string> {
  const id = await decision(f, state, m - 50_000);
  await f.sql('UPDATE decisions SET ended_at = @at, ended_by = @by WHERE id = @id', { at: t(m), by: 'Dana', id });
  return id;
}

async function change(f: Fixture, state: string, m: number): Promise<string> {
  const id = `chg_${++f.seq}`;
  await f.sql(
    `INSERT INTO carrier_changes (id, carrier_key, screening_id, reasons, before_state, after_state, tenders, state, detected_at)
      VALUES (@id, 'dot:1', @sid, '[]', '{}', '{}', '[]', @state, @at)`,
    { id, sid: `scr_c${f.seq}`, state, at: t(m) },
  );
  return id;
}

async function block(f: Fixture, lifted: boolean, m: number, dot: string | null = null): Promise<string> {
  const id = `blk_${++f.seq}`;
  await f.sql(
    `INSERT INTO local_blocks (id, carrier_key, dot_number, reason, blocked_by, blocked_at, lifted_by, lifted_at)
      VALUES (@id, @key, @dot, 'r', 'Dana', @at, @by, @lifted)`,
    { id, key: `dot:${f.seq}`, dot, at: lifted ? t(m - 1000) : t(m), by: lifted ? 'Dana' : null, lifted: lifted ? t(m) : null },
  );
  return id;
}

async function callback(f: Fixture, state: string, m: number): Promise<string> {
  const id = `cb_${++f.seq}`;
  await f.sql(
    `INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, body, state, next_attempt_at, retry_since, created_at, updated_at)
      VALUES (@id, @dlv, 'screening.completed', 'http://127.0.0.1:9/cb', 'http://127.0.0.1:9', '{}', @state, 0, 0, @at, @at)`,
    { id, dlv: `dlv_${f.seq}`, state, at: t(m) },
  );
  return id;
}

async function watchEntry(f: Fixture, m: number): Promise<string> {
  const dot = String(2_000_000 + ++f.seq);
  await f.sql(
    `INSERT INTO watch_entries (carrier_key, dot_number, manual, added_at, next_check_at) VALUES (@key, @dot, 1, @added, @next)`,
    { key: `dot:${dot}`, dot, added: t(0), next: t(m) },
  );
  return dot;
}

const DECISIONS_CONTRACT = (list: string) => `pg-decisions-contract.test.ts "${list}, by keyset (as list-keyset.test.ts)"`;

const CASES: ListCase[] = [
  reviewCase('pending'),
  reviewCase('approved'),
  reviewCase('rejected'),
  reviewCase('closed'),
  reviewCase('superseded'),
  reviewCase('decided'),
  reviewCase(undefined),
  {
    name: 'GET /decisions',
    add: (f, m) => decision(f, f.seq % 2 ? 'standing' : 'revoked', m),
    page: (f, p) => pageDecisions(f.record, {}, p),
    direction: 'DESC',
    table: /^SCAN decisions\b/,
    contract: DECISIONS_CONTRACT('GET /decisions'),
  },
  {
    name: 'GET /decisions?state=standing',
    add: (f, m) => decision(f, 'standing', m),
    other: async (f, m) => void (await decision(f, 'lapsed', m)),
    page: (f, p) => pageDecisions(f.record, { state: 'standing' }, p),
    direction: 'DESC',
    table: /^SCAN decisions\b/,
    contract: DECISIONS_CONTRACT('GET /decisions?state=standing'),
  },
  {
    name: 'GET /decisions?state=ended',
    add: (f, m) => endedDecision(f, f.seq % 2 ? 'lapsed' : 'revoked', m),
    other: async (f, m) => void (await decision(f, 'standing', m)),
    page: (f, p) => pageDecisions(f.record, { state: 'ended' }, p),
    direction: 'DESC',
    table: /^SCAN decisions\b/,
    contract: DECISIONS_CONTRACT('GET /decisions?state=ended (by its end)'),
  },
  {
    name: 'GET /decisions?dot_number=',
    add: (f, m) => decision(f, 'lapsed', m, '1000007'),
    other: async (f, m) => void (await decision(f, 'lapsed', m, '1000008')),
    page: (f, p) => pageDecisions(f.record, { dot_number: '01000007' }, p),
    direction: 'DESC',
    table: /^SCAN decisions\b/,
    contract: DECISIONS_CONTRACT('GET /decisions?dot_number='),
  },
  {
    name: 'GET /changes?state=all',
    add: (f, m) => change(f, f.seq % 2 ? 'new' : 'acknowledged', m),
    page: (f, p) => f.record.watch(30).pageChanges(undefined, p),
    direction: 'DESC',
    table: /^SCAN carrier_changes\b/,
  },
  {
    name: 'GET /changes?state=new',
    add: (f, m) => change(f, 'new', m),
    other: async (f, m) => void (await change(f, 'acknowledged', m)),
    page: (f, p) => f.record.watch(30).pageChanges('new', p),
    direction: 'DESC',
    table: /^SCAN carrier_changes\b/,
  },
  {
    name: 'GET /blocks?state=active',
    add: (f, m) => block(f, false, m),
    other: async (f, m) => void (await block(f, true, m)),
    page: (f, p) => f.record.blocks.pageBlocks('active', p),
    direction: 'DESC',
    table: /^SCAN local_blocks\b/,
    contract: DECISIONS_CONTRACT('GET /blocks?state=active'),
  },
  {
    name: 'GET /blocks?state=lifted',
    add: (f, m) => block(f, true, m),
    other: async (f, m) => void (await block(f, false, m)),
    page: (f, p) => f.record.blocks.pageBlocks('lifted', p),
    direction: 'DESC',
    table: /^SCAN local_blocks\b/,
    contract: DECISIONS_CONTRACT('GET /blocks?state=lifted (by its lift)'),
  },
  {
    name: 'GET /blocks?state=all&dot_number=',
    // One carrier's blocks (by block time), newest first; other carriers' are not listed.
    add: (f, m) => block(f, false, m, '1000007'),
    other: async (f, m) => void (await block(f, true, m, '1000008')),
    page: (f, p) => f.record.blocks.pageBlocks(undefined, p, '1000007'),
    direction: 'DESC',
    table: /^SCAN local_blocks\b/,
    contract: DECISIONS_CONTRACT('GET /blocks?state=all&dot_number='),
  },
  {
    name: 'GET /blocks?state=all',
    add: (f, m) => block(f, false, m),
    page: (f, p) => f.record.blocks.pageBlocks(undefined, p),
    direction: 'DESC',
    table: /^SCAN local_blocks\b/,
    contract: DECISIONS_CONTRACT('GET /blocks?state=all'),
  },
  {
    name: 'GET /callbacks?state=dead',
    add: (f, m) => callback(f, 'dead', m),
    other: async (f, m) => void (await callback(f, 'delivered', m)),
    page: (f, p) => pageCallbacks(f.record, 'dead', p),
    direction: 'DESC',
    table: /^SCAN callback_outbox\b/,
  },
  {
    name: 'GET /callbacks?state=all',
    add: (f, m) => callback(f, ['pending', 'delivered', 'dead', 'cancelled'][f.seq % 4]!, m),
    page: (f, p) => pageCallbacks(f.record, 'all', p),
    direction: 'DESC',
    table: /^SCAN callback_outbox\b/,
  },
  {
    name: 'GET /watchlist',
    add: (f, m) => watchEntry(f, m),
    page: async (f, p) => {
      const r = await f.record.watch(30).pageActive(NOW.toISOString(), p);
      return { data: r.data.map((e) => ({ id: e.dot_number ?? e.mc_number! })), has_more: r.has_more };
    },
    direction: 'ASC',
    table: /^SCAN (e|watch_entries)\b/,
  },
];

/** Every page forwards from the start; `between` runs after each page. */
async function walk(f: Fixture, c: ListCase, limit: number, between: () => Promise<void> = async () => {}): Promise<string[]> {
  const seen: string[] = [];
  let p: Page<{ id: string }> = await c.page(f, { limit });
  for (;;) {
    seen.push(...p.data.map((x) => x.id));
    await between();
    if (!p.has_more) return seen;
    p = await c.page(f, { limit, starting_after: seen[seen.length - 1]! });
  }
}

/** Every page backwards from just after the last id. */
async function walkBack(f: Fixture, c: ListCase, limit: number, last: string): Promise<string[]> {
  const seen: string[] = [last];
  for (;;) {
    const p = await c.page(f, { limit, ending_before: seen[0]! });
    seen.unshift(...p.data.map((x) => x.id));
    if (!p.has_more) return seen;
  }
}

/** Rows at minutes with ties (three rows share every third minute), and others not in the list. */
async function filled(f: Fixture, c: ListCase, n: number): Promise<string[]> {
  const made: Array<{ id: string; m: number; i: number }> = [];
  for (let i = 0; i < n; i++) {
    const m = 10 + Math.floor(i / 3) * 2;
    made.push({ id: await c.add(f, m), m, i });
    if (c.other && i % 4 === 0) await c.other(f, m);
  }
  // The list's order: by minute, ties by insertion (the rowid).
  made.sort((a, b) => (c.direction === 'DESC' ? b.m - a.m || b.i - a.i : a.m - b.m || a.i - b.i));
  return made.map((x) => x.id);
}

describe.each(CASES.filter((c) => !c.contract))('$name', (c) => {
  it('pages in the list order, every row once, while rows are added between pages; back by ending_before', async () => {
    const f = await fixture();
    const expected = await filled(f, c, 17);
    // First page alone, then whole walks at several page sizes.
    expect((await c.page(f, { limit: 5 })).data.map((x) => x.id)).toEqual(expected.slice(0, 5));
    for (const limit of [1, 4, 17, 100]) expect(await walk(f, c, limit)).toEqual(expected);

    // Rows added between pages: at the head of a newest-first list (never seen by a walk that
    // started before them), at the tail of an oldest-first one (seen once, at the end).
    const added: string[] = [];
    let k = 0;
    const seen = await walk(f, c, 4, async () => {
      added.push(await c.add(f, 500 + k));
      k++;
    });
    expect(new Set(seen).size).toBe(seen.length);
    if (c.direction === 'DESC') expect(seen).toEqual(expected);
    else {
      expect(seen.slice(0, expected.length)).toEqual(expected);
      expect(added.slice(0, seen.length - expected.length)).toEqual(seen.slice(expected.length));
    }

    // Back from the last row, in pages: the same list.
    const all = await walk(f, c, 100);
    expect(await walkBack(f, c, 3, all[all.length - 1]!)).toEqual(all);
  });

  it('a cursor that is not in the list (with these filters) is refused, naming the parameter', async () => {
    const f = await fixture();
    await filled(f, c, 3);
    for (const param of ['starting_after', 'ending_before'] as const) {
      const err = await (async () => {
        try {
          await c.page(f, { limit: 2, [param]: 'nope_1' });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(StoreArgumentError);
      expect(err).toMatchObject({ param, message: expect.stringMatching(/is not in this list/) });
    }
  });
});

// SQLite's plans, for every list (PostgreSQL's: the "postgres only" cases of the contract files).
for (const c of CASES)
  describeSqlite(`${c.name} on SQLite`, () => {
    it('reads an index in the list order: no scan of the table, no sort of its rows', async () => {
      const f = await fixture();
      const ids = await filled(f, c, 6);
      const db = connectionOf(f.opened.sqlite!);
      // Each list's repository made first: what it prepares when it is made is not a page's query.
      void [f.record.reviews, f.record.decisionLists, f.record.blocks, f.record.outbox, f.record.watch(30)];
      const plans: Array<{ sql: string; plan: string }> = [];
      const prepare = db.prepare.bind(db);
      (db as { prepare: typeof db.prepare }).prepare = ((sql: string) => {
        const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((x) => x[1]!))];
        const values = Object.fromEntries(names.map((n) => [n, n === 'page_limit' ? 10 : t(0)]));
        const rows = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(values) as Array<{ detail: string }>;
        plans.push({ sql, plan: rows.map((r) => r.detail).join('\n') });
        return prepare(sql);
      }) as typeof db.prepare;
      try {
        await c.page(f, { limit: 2 });
        await c.page(f, { limit: 2, starting_after: ids[2]! });
        await c.page(f, { limit: 2, ending_before: ids[3]! });
      } finally {
        (db as { prepare: typeof db.prepare }).prepare = prepare;
      }
      // The three pages and the cursor's own lookup (prepared once per shape and connection).
      expect(plans.length).toBeGreaterThanOrEqual(4);
      for (const p of plans) {
        // "SCAN t USING INDEX i" is the first page: the index read in order from its end, up to
        // the LIMIT. A bare "SCAN t" reads the whole table.
        const bare = p.plan.split('\n').filter((line) => c.table.test(line) && !/USING (COVERING )?INDEX/.test(line));
        expect(bare, `${p.sql}\n${p.plan}`).toEqual([]);
        expect(p.plan, `${p.sql}\n${p.plan}`).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
        expect(p.plan, `${p.sql}\n${p.plan}`).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|USING PRIMARY KEY/);
        // A page after a cursor starts at the cursor's place in the index: a range, not a walk from the end.
        if (p.sql.includes('@cursor_key')) expect(p.plan.split('\n')[0], `${p.sql}\n${p.plan}`).toMatch(/[<>]=?\?\)$/);
      }
    });
  });
