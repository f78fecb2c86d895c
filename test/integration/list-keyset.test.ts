/**
 * Every list the API pages reads one page in SQL by keyset on an index (issue 35,
 * worker/store/keyset.ts): reviews (each state, `decided`, all), decisions, changes, blocks,
 * callbacks and the watch list. On a real SQLite file: each list's order (ties broken by
 * insertion), every row once across pages while rows are added between pages, the walk back by
 * ending_before, a cursor outside the list refused; and each query's plan reads an index in the
 * list's order (no SCAN of the table, no sort of its rows). The event log is read after an id on
 * its primary key already (eventsSince).
 */
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { pageCallbacks } from '../../worker/callbacks/outbox.js';
import { CarrierDecisions, pageDecisions } from '../../worker/decisions/carrier-decisions.js';
import { openStore, recordOf, StoreArgumentError, type ListPage, type Store } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { localBlocksOf, type LocalBlocksRepo } from '../../worker/store/local-blocks-repo.js';
import { openWatchStore, type WatchStore } from '../../worker/store/watch-store.js';
import { tempDbPath } from '../helpers/temp-db.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Minute m of a fixed day; a few rows share a minute, so the tie-break is exercised. */
const t = (m: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0) + m * 60_000).toISOString();
const NOW = new Date(Date.UTC(2026, 10, 1, 12, 0));

interface Fixture {
  store: Store;
  db: Database.Database;
  watch: WatchStore;
  blocks: LocalBlocksRepo;
  decisions: CarrierDecisions;
  seq: number;
}

function fixture(): Fixture {
  const file = tempDbPath();
  const store = openStore(file.path, { now: () => NOW });
  const watch = openWatchStore(store, { watchDays: 30 });
  const decisions = new CarrierDecisions({ store: recordOf(store), env: 'sandbox', ttlMs: 86_400_000, now: () => NOW });
  cleanups.push(() => {
    store.close();
    file.cleanup();
  });
  return { store, db: connectionOf(store), watch, blocks: localBlocksOf(store), decisions, seq: 0 };
}

type Page<T> = { data: T[]; has_more: boolean };
interface ListCase {
  name: string;
  /** Add the i-th row at minute m; its id. */
  add(f: Fixture, m: number): string;
  /** Add a row that is not in this list (another state, a tender's own review…). */
  other?(f: Fixture, m: number): void;
  page(f: Fixture, p: ListPage): Page<{ id: string }> | Promise<Page<{ id: string }>>;
  /** Newest first (DESC) or oldest first (ASC) by the minute given to add. */
  direction: 'ASC' | 'DESC';
  /** The table a plan must never scan. */
  table: RegExp;
}

function screening(f: Fixture, id: string, m: number): void {
  f.db
    .prepare(
      `INSERT INTO screenings (id, status, query_kind, query_value, priority, action, created_at, completed_at)
      VALUES (?, 'done', 'dot_number', '1000001', 'tender', 'hold', ?, ?)`,
    )
    .run(id, t(m), t(m));
}

function review(f: Fixture, state: string, m: number, parent: string | null = null): string {
  const n = ++f.seq;
  screening(f, `scr_r${n}`, m);
  const decided = state === 'pending' ? null : t(m);
  f.db
    .prepare(
      `INSERT INTO reviews (id, screening_id, state, hold_reason, decided_by, decided_at, created_at, parent_id)
      VALUES (?, ?, ?, 'manual_review', ?, ?, ?, ?)`,
    )
    .run(`rev_${n}`, `scr_r${n}`, state, decided ? 'Dana' : null, decided, t(m), parent);
  return `rev_${n}`;
}

const reviewCase = (state: 'pending' | 'approved' | 'rejected' | 'closed' | 'superseded' | 'decided' | undefined): ListCase => ({
  name: `GET /reviews?state=${state ?? 'all'}`,
  add: (f, m) => review(f, state === undefined || state === 'decided' ? (f.seq % 2 ? 'approved' : 'rejected') : state, m),
  other(f, m) {
    // A review in another state (for `all` there is none), and a tender's own item waiting on
    // its carrier's review in this list's state: neither is listed.
    if (state === undefined) return void review(f, 'pending', m, 'rev_carrier');
    review(f, state === 'pending' ? 'approved' : state === 'decided' ? 'closed' : 'pending', m);
    review(f, state === 'decided' ? 'approved' : state, m, 'rev_carrier');
  },
  page: (f, p) => f.store.pageReviews(state, p),
  direction: state === 'pending' ? 'ASC' : 'DESC',
  table: /^SCAN (r|s|reviews|screenings)\b/,
});

function decision(f: Fixture, state: string, m: number, dot = '1000001'): string {
  const id = `dec_${++f.seq}`;
  f.db
    .prepare(
      `INSERT INTO decisions (id, carrier_key, dot_number, review_id, decision, basis, decided_by, decided_at, expires_at, state)
      VALUES (?, ?, ?, 'rev_x', 'approved', '{}', 'Dana', ?, ?, ?)`,
    )
    .run(id, `dot:${dot}-${f.seq}`, dot, t(m), t(m + 100_000), state);
  return id;
}

/** An ended decision: decided long before, ended at `m` (the list's order is the end). */
function endedDecision(f: Fixture, state: 'lapsed' | 'revoked', m: number): string {
  const id = decision(f, state, m - 50_000);
  f.db.prepare('UPDATE decisions SET ended_at = ?, ended_by = ? WHERE id = ?').run(t(m), 'Dana', id);
  return id;
}

function change(f: Fixture, state: string, m: number): string {
  const id = `chg_${++f.seq}`;
  f.db
    .prepare(
      `INSERT INTO carrier_changes (id, carrier_key, screening_id, reasons, before_state, after_state, tenders, state, detected_at)
      VALUES (?, 'dot:1', ?, '[]', '{}', '{}', '[]', ?, ?)`,
    )
    .run(id, `scr_c${f.seq}`, state, t(m));
  return id;
}

function block(f: Fixture, lifted: boolean, m: number, dot: string | null = null): string {
  const id = `blk_${++f.seq}`;
  f.db
    .prepare(
      `INSERT INTO local_blocks (id, carrier_key, dot_number, reason, blocked_by, blocked_at, lifted_by, lifted_at) VALUES (?, ?, ?, 'r', 'Dana', ?, ?, ?)`,
    )
    .run(id, `dot:${f.seq}`, dot, lifted ? t(m - 1000) : t(m), lifted ? 'Dana' : null, lifted ? t(m) : null);
  return id;
}

function callback(f: Fixture, state: string, m: number): string {
  const id = `cb_${++f.seq}`;
  f.db
    .prepare(
      `INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, body, state, next_attempt_at, retry_since, created_at, updated_at)
      VALUES (?, ?, 'screening.completed', 'http://127.0.0.1:9/cb', 'http://127.0.0.1:9', '{}', ?, 0, 0, ?, ?)`,
    )
    .run(id, `dlv_${f.seq}`, state, t(m), t(m));
  return id;
}

function watchEntry(f: Fixture, m: number): string {
  const dot = String(2_000_000 + ++f.seq);
  f.db
    .prepare(`INSERT INTO watch_entries (carrier_key, dot_number, manual, added_at, next_check_at) VALUES (?, ?, 1, ?, ?)`)
    .run(`dot:${dot}`, dot, t(0), t(m));
  return dot;
}

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
    page: (f, p) => pageDecisions(recordOf(f.store), {}, p),
    direction: 'DESC',
    table: /^SCAN decisions\b/,
  },
  {
    name: 'GET /decisions?state=standing',
    add: (f, m) => decision(f, 'standing', m),
    other: (f, m) => void decision(f, 'lapsed', m),
    page: (f, p) => pageDecisions(recordOf(f.store), { state: 'standing' }, p),
    direction: 'DESC',
    table: /^SCAN decisions\b/,
  },
  {
    name: 'GET /decisions?state=ended',
    add: (f, m) => endedDecision(f, f.seq % 2 ? 'lapsed' : 'revoked', m),
    other: (f, m) => void decision(f, 'standing', m),
    page: (f, p) => pageDecisions(recordOf(f.store), { state: 'ended' }, p),
    direction: 'DESC',
    table: /^SCAN decisions\b/,
  },
  {
    name: 'GET /decisions?dot_number=',
    add: (f, m) => decision(f, 'lapsed', m, '1000007'),
    other: (f, m) => void decision(f, 'lapsed', m, '1000008'),
    page: (f, p) => pageDecisions(recordOf(f.store), { dot_number: '01000007' }, p),
    direction: 'DESC',
    table: /^SCAN decisions\b/,
  },
  {
    name: 'GET /changes?state=all',
    add: (f, m) => change(f, f.seq % 2 ? 'new' : 'acknowledged', m),
    page: (f, p) => f.watch.pageChanges(undefined, p),
    direction: 'DESC',
    table: /^SCAN carrier_changes\b/,
  },
  {
    name: 'GET /changes?state=new',
    add: (f, m) => change(f, 'new', m),
    other: (f, m) => void change(f, 'acknowledged', m),
    page: (f, p) => f.watch.pageChanges('new', p),
    direction: 'DESC',
    table: /^SCAN carrier_changes\b/,
  },
  {
    name: 'GET /blocks?state=active',
    add: (f, m) => block(f, false, m),
    other: (f, m) => void block(f, true, m),
    page: (f, p) => f.blocks.pageBlocks('active', p),
    direction: 'DESC',
    table: /^SCAN local_blocks\b/,
  },
  {
    name: 'GET /blocks?state=lifted',
    add: (f, m) => block(f, true, m),
    other: (f, m) => void block(f, false, m),
    page: (f, p) => f.blocks.pageBlocks('lifted', p),
    direction: 'DESC',
    table: /^SCAN local_blocks\b/,
  },
  {
    name: 'GET /blocks?state=all&dot_number=',
    // One carrier's blocks (by block time), newest first; other carriers' are not listed.
    add: (f, m) => block(f, false, m, '1000007'),
    other: (f, m) => void block(f, true, m, '1000008'),
    page: (f, p) => f.blocks.pageBlocks(undefined, p, '1000007'),
    direction: 'DESC',
    table: /^SCAN local_blocks\b/,
  },
  {
    name: 'GET /blocks?state=all',
    add: (f, m) => block(f, false, m),
    page: (f, p) => f.blocks.pageBlocks(undefined, p),
    direction: 'DESC',
    table: /^SCAN local_blocks\b/,
  },
  {
    name: 'GET /callbacks?state=dead',
    add: (f, m) => callback(f, 'dead', m),
    other: (f, m) => void callback(f, 'delivered', m),
    page: (f, p) => pageCallbacks(recordOf(f.store), 'dead', p),
    direction: 'DESC',
    table: /^SCAN callback_outbox\b/,
  },
  {
    name: 'GET /callbacks?state=all',
    add: (f, m) => callback(f, ['pending', 'delivered', 'dead', 'cancelled'][f.seq % 4]!, m),
    page: (f, p) => pageCallbacks(recordOf(f.store), 'all', p),
    direction: 'DESC',
    table: /^SCAN callback_outbox\b/,
  },
  {
    name: 'GET /watchlist',
    add: (f, m) => watchEntry(f, m),
    page: (f, p) => {
      const r = f.watch.pageActive(NOW.toISOString(), p);
      return { data: r.data.map((e) => ({ id: e.dot_number ?? e.mc_number! })), has_more: r.has_more };
    },
    direction: 'ASC',
    table: /^SCAN (e|watch_entries)\b/,
  },
];

/** Every page forwards from the start; `between` runs after each page. */
async function walk(f: Fixture, c: ListCase, limit: number, between: () => void = () => {}): Promise<string[]> {
  const seen: string[] = [];
  let p: Page<{ id: string }> = await c.page(f, { limit });
  for (;;) {
    seen.push(...p.data.map((x) => x.id));
    between();
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

describe.each(CASES)('$name', (c) => {
  /** Rows at minutes with ties (three rows share every third minute), and others not in the list. */
  function filled(f: Fixture, n: number): string[] {
    const made: Array<{ id: string; m: number; i: number }> = [];
    for (let i = 0; i < n; i++) {
      const m = 10 + Math.floor(i / 3) * 2;
      made.push({ id: c.add(f, m), m, i });
      if (c.other && i % 4 === 0) c.other(f, m);
    }
    // The list's order: by minute, ties by insertion (the rowid).
    made.sort((a, b) => (c.direction === 'DESC' ? b.m - a.m || b.i - a.i : a.m - b.m || a.i - b.i));
    return made.map((x) => x.id);
  }

  it('pages in the list order, every row once, while rows are added between pages; back by ending_before', async () => {
    const f = fixture();
    const expected = filled(f, 17);
    // First page alone, then whole walks at several page sizes.
    expect((await c.page(f, { limit: 5 })).data.map((x) => x.id)).toEqual(expected.slice(0, 5));
    for (const limit of [1, 4, 17, 100]) expect(await walk(f, c, limit)).toEqual(expected);

    // Rows added between pages: at the head of a newest-first list (never seen by a walk that
    // started before them), at the tail of an oldest-first one (seen once, at the end).
    const added: string[] = [];
    let k = 0;
    const seen = await walk(f, c, 4, () => {
      added.push(c.add(f, c.direction === 'DESC' ? 500 + k : 500 + k));
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
    const f = fixture();
    filled(f, 3);
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

  it('reads an index in the list order: no scan of the table, no sort of its rows', async () => {
    const f = fixture();
    const ids = filled(f, 6);
    const plans: Array<{ sql: string; plan: string }> = [];
    const prepare = f.db.prepare.bind(f.db);
    (f.db as { prepare: typeof f.db.prepare }).prepare = ((sql: string) => {
      const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((x) => x[1]!))];
      const values = Object.fromEntries(names.map((n) => [n, n === 'page_limit' ? 10 : t(0)]));
      const rows = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(values) as Array<{ detail: string }>;
      plans.push({ sql, plan: rows.map((r) => r.detail).join('\n') });
      return prepare(sql);
    }) as typeof f.db.prepare;
    try {
      await c.page(f, { limit: 2 });
      await c.page(f, { limit: 2, starting_after: ids[2]! });
      await c.page(f, { limit: 2, ending_before: ids[3]! });
    } finally {
      (f.db as { prepare: typeof f.db.prepare }).prepare = prepare;
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
