/**
 * GET /screenings (its filters and carrier search, worker/store/screening-search.ts) and the list
 * bodies of GET /screenings and GET /reviews (worker/store/list-reads.ts) on both backends. The
 * same data is seeded through SQLite's Store and through pgScreeningsOf / pgReviewsOf with one
 * clock, and every page is asked of both: the answers (a page, or the refusal) must be identical,
 * and a list body's JSON the same bytes. Ported from screening-search.test.ts,
 * screenings-action-index.test.ts, carrier-search.test.ts and list-json.test.ts, plus a
 * differential walk of random filters and cursors over one record.
 * Then PostgreSQL only: each filter's plan on a few thousand rows reads the index SQLite's
 * spelling (and its INDEXED BY) picks, in the list's order, from the cursor.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { openStore, type ListPage, type ReviewListState, type ScreeningResult, type Store } from '../../worker/store/index.js';
import { reviewsPage, screeningsPage } from '../../worker/store/list-reads.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { poolExecutor, type PgExecutor } from '../../worker/store/pg/executor.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { pgReviewsPage, pgScreeningsPage } from '../../worker/store/pg/list-reads.js';
import { pgReviewsOf } from '../../worker/store/pg/reviews-repo.js';
import { parsedFetches } from '../../worker/store/pg/score-refs.js';
import { pgSearchScreenings } from '../../worker/store/pg/screening-search.js';
import { pgScreeningsOf } from '../../worker/store/pg/screenings-repo.js';
import { statement } from '../../worker/store/pg/sql.js';
import type { ReviewsRepo, ScreeningsRepo } from '../../worker/store/screening-repos.js';
import { searchScreenings, type ScreeningFilter, type ScreeningPage } from '../../worker/store/screening-search.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

type Row = Record<string, unknown>;
type Page = { data: Screening[]; has_more: boolean };

interface Side {
  name: 'sqlite' | 'postgres';
  screenings: AsyncRepo<ScreeningsRepo>;
  reviews: AsyncRepo<ReviewsRepo>;
  search(f: ScreeningFilter, p: ScreeningPage): Promise<Page>;
  screeningsBody(a: { filter: ScreeningFilter; page: ScreeningPage }): Promise<unknown>;
  reviewsBody(a: { state: ReviewListState | undefined; page: ListPage }): Promise<unknown>;
  /** A fixture statement (the same SQL text on both backends, `@name` parameters); its rows. */
  sql(text: string, params?: Row): Promise<Row[]>;
}

let clock = new Date(0);
const now = () => clock;
/** Minute m of a fixed day. */
const t = (m: number): Date => new Date(Date.UTC(2026, 10, 1) + m * 60_000);

/** A synchronous repository's methods answering Promises (a throw becomes a rejection, as on PG). */
function awaited<R extends object>(repo: R, names: ReadonlyArray<keyof R>): AsyncRepo<R> {
  const out: Row = {};
  for (const n of names) {
    const f = repo[n] as (...a: unknown[]) => unknown;
    out[n as string] = async (...a: unknown[]) => f(...a);
  }
  return out as AsyncRepo<R>;
}

// One SQLite file and one PostgreSQL database for the file; both emptied before each case.
let lite: { store: Store; cleanup(): void } | undefined;
let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>> | undefined;
let pool: pg.Pool | undefined;
let sides: Side[] = [];

const fixtureStatements = new Map<string, ReturnType<typeof statement<Row>>>();
function pgSql(x: PgExecutor, text: string, params: Row = {}): Promise<Row[]> {
  let s = fixtureStatements.get(text);
  if (!s)
    fixtureStatements.set(
      text,
      (s = statement<Row>(`test_search_fixture_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`, text)),
    );
  return s.all(x, params);
}

beforeAll(async () => {
  const file = tempDbPath();
  const store = openStore(file.path, { now });
  lite = {
    store,
    cleanup: () => {
      store.close();
      file.cleanup();
    },
  };
  pgDb = await migratedPgDatabase();
  // Seeding commits thousands of times: without waiting for the WAL's flush (a test's data).
  const url = new URL(pgDb.db.url);
  url.searchParams.set('options', '-c synchronous_commit=off');
  pool = openPgPool(url.toString(), { max: 4 });
  const db = connectionOf(store);
  const x = poolExecutor(pool);
  // One memo for the record, as the PG store will hold it.
  const scores = parsedFetches();
  sides = [
    {
      name: 'sqlite',
      screenings: awaited<ScreeningsRepo>(store, [
        'insertScreening',
        'markActive',
        'completeScreening',
        'rescreenResult',
        'markRescreened',
        'discardScreening',
        'getScreening',
        'listUnfinished',
        'oldestQueuedAt',
      ]),
      reviews: awaited<ReviewsRepo>(store, ['getReview', 'listReviews', 'pageReviews', 'resolveReview', 'countPendingReviews']),
      search: async (f, p) => searchScreenings(db, f, p),
      // The reader-pool jobs themselves, run on this connection (as SCREEN_READER_THREADS=0 runs them).
      screeningsBody: async (a) => screeningsPage.run(store, a),
      reviewsBody: async (a) => reviewsPage.run(store, a),
      sql: async (text, params = {}) => {
        const s = db.prepare(text);
        return s.reader ? (s.all(params) as Row[]) : (s.run(params), []);
      },
    },
    {
      name: 'postgres',
      screenings: pgScreeningsOf(x, { now, scores }),
      reviews: pgReviewsOf(x, { now, scores }),
      search: (f, p) => pgSearchScreenings(x, f, p, { scores }),
      screeningsBody: (a) => pgScreeningsPage(x, a, { scores }),
      reviewsBody: (a) => pgReviewsPage(x, a, { scores }),
      sql: (text, params) => pgSql(x, text, params),
    },
  ];
});
afterAll(async () => {
  lite?.cleanup();
  await pool?.end();
  await pgDb?.close();
});

/** Both backends emptied of screenings and reviews (score fetches stay: their ids are never reused, so no memo goes stale). */
async function emptied(): Promise<void> {
  connectionOf(lite!.store).exec('DELETE FROM reviews; DELETE FROM screenings');
  // DELETE, not TRUNCATE: ~1 ms against ~100 ms, and a property empties them for every run.
  await pool!.query('DELETE FROM reviews; DELETE FROM screenings');
}

/** `fn` on each backend in turn (SQLite first), each setting the clock it needs. */
async function onBoth(fn: (s: Side) => Promise<unknown>): Promise<void> {
  for (const s of sides) await fn(s);
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: { name: string; message: string; param: unknown } };
async function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    const err = e as Error & { param?: unknown };
    return { ok: false, error: { name: err.name, message: err.message, param: err.param } };
  }
}

/** The same question of both backends: the same answer, or the same refusal. SQLite's answer. */
async function same<T>(what: string, fn: (s: Side) => Promise<T>): Promise<Settled<T>> {
  const [a, b] = [await settle(fn(sides[0]!)), await settle(fn(sides[1]!))];
  expect(b, `${what} (postgres against sqlite)`).toEqual(a);
  return a;
}

/** The same page of both; its value. */
async function samePage(f: ScreeningFilter, p: ScreeningPage): Promise<Page> {
  const r = await same(`search ${JSON.stringify(f)} ${JSON.stringify(p)}`, (s) => s.search(f, p));
  if (!r.ok) throw new Error(`refused: ${r.error.message}`);
  return r.value;
}

/** A list body of both as JSON: the same bytes. SQLite's, parsed. */
async function sameBytes<T>(what: string, fn: (s: Side) => Promise<T>): Promise<T> {
  const [a, b] = [JSON.stringify(await fn(sides[0]!)), JSON.stringify(await fn(sides[1]!))];
  expect(b, `${what}: the JSON body (postgres against sqlite)`).toBe(a);
  return JSON.parse(a) as T;
}

const ids = (p: Page) => p.data.map((s) => s.id);

/** Every page forwards by starting_after, each asked of both. */
async function walk(f: ScreeningFilter, limit: number, between?: () => Promise<void>): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await samePage(f, { limit, ...(cursor === undefined ? {} : { starting_after: cursor }) });
    expect(page.data.length).toBeLessThanOrEqual(limit);
    out.push(...ids(page));
    if (!page.has_more || page.data.length === 0) return out;
    await between?.();
    cursor = page.data.at(-1)!.id;
  }
  throw new Error('walk did not end');
}

// ---- fixtures ----

function score(dot: string, mc: string | null): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: dot, mc_number: mc, legal_name: `Carrier ${dot}`, dba_name: null },
    score: 80,
    grade: 'B',
    decision: 'approve',
    verdict: 'ok',
    needs_manual_review: false,
    knockout: { triggered: false, reasons: [] },
    reasons: [],
    checks: { total: 1, triggered: 0, passed: 1, not_checked: 0 },
    model_version: 'carrier-risk-3.5-sandbox',
    future_field: { nested: [1, 'two', null] },
  } as unknown as SvcScore;
}

const result = (action: 'tender' | 'hold' | 'block', o: Partial<ScreeningResult> = {}): ScreeningResult => ({
  action,
  hold_reason: action === 'hold' ? 'manual_review' : null,
  source: 'service',
  score: null,
  score_fetched_at: null,
  error: null,
  ...o,
});

const screening = (id: string, o: Partial<Parameters<ScreeningsRepo['insertScreening']>[0]> = {}) => ({
  id,
  query: { dot_number: '1000001' },
  tender_id: null,
  priority: 'tender' as const,
  refresh: false,
  callback_url: null,
  ...o,
});

/** A score as putScore stores it (score_fetches); its id on this backend. */
async function fetchRow(s: Side, sc: SvcScore, at: Date): Promise<number> {
  const rows = await s.sql('INSERT INTO score_fetches (env, dot_number, body, fetched_at) VALUES (@env, @dot, @body, @at) RETURNING id', {
    env: 'sandbox',
    dot: sc.carrier.dot_number,
    body: JSON.stringify(sc),
    at: at.toISOString(),
  });
  return Number(rows[0]!.id);
}

/** A pending review as decisions-repo.ts insertReview writes it; its id. */
async function openReview(s: Side, screeningId: string, at: Date, o: { carrier?: string; parent?: string | null } = {}): Promise<string> {
  const id = `rev_${screeningId}`;
  await s.sql(
    `INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id, previous_decision)
     VALUES (@id, @screening_id, 'pending', 'manual_review', @created_at, @carrier_key, @parent_id, NULL)`,
    {
      id,
      screening_id: screeningId,
      created_at: at.toISOString(),
      carrier_key: o.carrier ?? `dot:${screeningId}`,
      parent_id: o.parent ?? null,
    },
  );
  return id;
}

describe('both backends: the same pages', () => {
  beforeEach(async () => {
    clock = t(0);
    await emptied();
  });

  describe('GET /screenings?updated_since (screening-search.test.ts)', () => {
    interface Spec {
      id: string;
      created: number;
      /** Minutes after creation it finished (0: answered at once), or null: still queued. */
      finishedAfter: number | null;
      /** Minutes after creation its review was decided, or null: no decided review. */
      decidedAfter: number | null;
    }

    async function seed(s: Side, r: Spec): Promise<void> {
      clock = t(r.created);
      if (r.finishedAfter === 0) await s.screenings.insertScreening(screening(r.id), result('tender'));
      else {
        await s.screenings.insertScreening(screening(r.id));
        if (r.finishedAfter !== null) {
          clock = t(r.created + r.finishedAfter);
          await s.screenings.completeScreening(r.id, result('tender'));
        }
      }
      if (r.decidedAfter !== null && r.finishedAfter !== null) {
        const review = await openReview(s, r.id, t(r.created));
        clock = t(r.created + r.decidedAfter);
        await s.reviews.resolveReview(review, 'approved', 'Dana', null);
      }
    }

    /** The definition: changed (created, completed or decided) at or after `since`, newest first. */
    function expected(rows: Spec[], since: number): string[] {
      const changed = rows.filter(
        (r) =>
          r.created >= since ||
          (r.finishedAfter !== null && r.created + r.finishedAfter >= since) ||
          (r.finishedAfter !== null && r.decidedAfter !== null && r.created + r.decidedAfter >= since),
      );
      return changed
        .map((r) => ({ r, i: rows.indexOf(r) }))
        .sort((a, b) => b.r.created - a.r.created || b.i - a.i)
        .map((x) => x.r.id);
    }

    const rowsArb = fc
      .array(
        fc.record({
          created: fc.integer({ min: 0, max: 60 }),
          finishedAfter: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 })), { nil: null }),
          decidedAfter: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
        }),
        { maxLength: 30 },
      )
      // Creation order is insertion order, as in the store.
      .map((rs) => rs.sort((a, b) => a.created - b.created).map((r, i): Spec => ({ ...r, id: `scr_${String(i).padStart(4, '0')}` })));

    it('every walk forwards, and back by ending_before in pages, is the definition, page for page the same on both', async () => {
      await fc.assert(
        fc.asyncProperty(rowsArb, fc.integer({ min: 0, max: 110 }), fc.integer({ min: 1, max: 7 }), async (rows, since, limit) => {
          await emptied();
          for (const r of rows) await onBoth((s) => seed(s, r));
          const f = { updated_since: t(since).toISOString() };
          const all = expected(rows, since);
          expect(await walk(f, limit)).toEqual(all);
          if (all.length === 0) return;
          expect(ids(await samePage(f, { limit: all.length, starting_after: all[0]! }))).toEqual(all.slice(1));
          const newer: string[] = [];
          let cursor = all.at(-1)!;
          for (;;) {
            const page = await samePage(f, { limit, ending_before: cursor });
            newer.unshift(...ids(page));
            if (!page.has_more || page.data.length === 0) break;
            cursor = page.data[0]!.id;
          }
          expect(newer).toEqual(all.slice(0, -1));
        }),
        { numRuns: 80 },
      );
    });

    it('a screening answered at once is not a later completion (completed_at = created_at)', async () => {
      for (const r of [
        { id: 'scr_hit', created: 1, finishedAfter: 0, decidedAfter: null },
        { id: 'scr_lookup', created: 2, finishedAfter: 3, decidedAfter: null },
        { id: 'scr_queued', created: 3, finishedAfter: null, decidedAfter: null },
      ])
        await onBoth((s) => seed(s, r));
      const later = await same('later completions', (s) => s.sql('SELECT id FROM screenings WHERE completed_at <> created_at ORDER BY id'));
      expect(later).toEqual({ ok: true, value: [{ id: 'scr_lookup' }] });
      // Changed since minute 4: the lookup (completed at 5), not the hit (at 1) nor the queued one (created at 3).
      expect(ids(await samePage({ updated_since: t(4).toISOString() }, { limit: 10 }))).toEqual(['scr_lookup']);
    });
  });

  describe('GET /screenings?action= (screenings-action-index.test.ts)', () => {
    it('pages of one action: each row once, newest first, the same on both; rows added between pages', async () => {
      const blocks: string[] = [];
      const add = (id: string, action: 'tender' | 'hold' | 'block', m: number) =>
        onBoth(async (s) => {
          clock = t(m);
          await s.screenings.insertScreening(screening(id), result(action));
        });
      // Mostly tenders; a block every 7th minute, a hold every 11th (same minute: insertion breaks the tie).
      for (let m = 0; m < 350; m++) {
        await add(`scr_t${m}`, 'tender', m);
        if (m % 7 === 0) {
          await add(`scr_b${m}`, 'block', m);
          blocks.push(`scr_b${m}`);
        }
        if (m % 11 === 0) await add(`scr_h${m}`, 'hold', m);
      }
      expect(await walk({ action: 'block' }, 9)).toEqual([...blocks].reverse());
      expect(await walk({ action: 'hold' }, 1000)).toHaveLength(32);
      expect(await walk({ action: 'tender' }, 1000)).toHaveLength(350);
      expect(await walk({ action: 'never-taken' }, 10)).toEqual([]);
      // With a carrier too (read by the carrier's index on both).
      expect(await walk({ action: 'block', dot_number: '1000001' }, 13)).toEqual([...blocks].reverse());

      // Rows added between pages: the walk goes on from the cursor, neither skipping nor repeating.
      let k = 0;
      const seen = await walk({ action: 'block' }, 5, () => add(`scr_b_new${k}`, 'block', 10_000 + k++));
      expect(seen).toEqual([...blocks].reverse());
      // Back from the oldest block: the newer ones, the new ones first.
      const back = await samePage({ action: 'block' }, { limit: 100, ending_before: blocks[0]! });
      expect(ids(back).slice(0, k)).toEqual(Array.from({ length: k }, (_, i) => `scr_b_new${k - 1 - i}`));
      expect(ids(back).slice(k)).toEqual([...blocks].reverse().slice(0, -1));
    });
  });

  describe('GET /screenings?dot_number=|mc_number= (carrier-search.test.ts)', () => {
    const T = (i: number): Date => new Date(Date.UTC(2026, 4, 1) + i * 60_000);

    it('finds screenings asked by the number or whose score names it, newest first; a carrier never seen has none', async () => {
      await onBoth(async (s) => {
        // Asked by DOT; the fetch's score names its MC (not in normal form).
        clock = T(1);
        await s.screenings.insertScreening(screening('scr_dot', { query: { dot_number: '1000003' } }));
        const dotScore = score('1000003', 'MC-00555');
        const fid = await fetchRow(s, dotScore, T(1));
        await s.screenings.completeScreening(
          'scr_dot',
          result('tender', { score: dotScore, score_fetched_at: T(1).toISOString(), score_fetch_id: fid }),
        );
        // Asked by MC; the score inline (no fetch), naming a DOT with leading zeros.
        clock = T(2);
        await s.screenings.insertScreening(screening('scr_mc_inline', { query: { mc_number: 'MC777' } }));
        await s.screenings.completeScreening(
          'scr_mc_inline',
          result('tender', { score: score('01000004', 'MC777'), score_fetched_at: T(2).toISOString() }),
        );
        // Asked by MC, the DOT known only from the fetch's score.
        clock = T(3);
        await s.screenings.insertScreening(screening('scr_mc_fetch', { query: { mc_number: 'MC888' } }));
        const mcScore = score('1000006', 'MC888');
        await s.screenings.completeScreening(
          'scr_mc_fetch',
          result('tender', { score: mcScore, score_fetched_at: T(3).toISOString(), score_fetch_id: await fetchRow(s, mcScore, T(3)) }),
        );
        // Still queued: only the number asked by.
        clock = T(4);
        await s.screenings.insertScreening(screening('scr_queued', { query: { mc_number: 'MC999' } }));
        for (let i = 0; i < 5; i++) {
          clock = T(10 + i);
          const dot = String(3_000_000 + (i % 7));
          await s.screenings.insertScreening(
            screening(`scr_f${i}`, { query: { dot_number: dot } }),
            result('tender', { score: score(dot, null), score_fetched_at: T(10).toISOString() }),
          );
        }
      });
      const found = async (f: ScreeningFilter) => ids(await samePage(f, { limit: 50 }));
      expect(await found({ dot_number: '1000003' })).toEqual(['scr_dot']);
      expect(await found({ mc_number: 'MC555' })).toEqual(['scr_dot']);
      expect(await found({ dot_number: '1000004' })).toEqual(['scr_mc_inline']);
      expect(await found({ dot_number: '1000006' })).toEqual(['scr_mc_fetch']);
      expect(await found({ mc_number: 'MC999' })).toEqual(['scr_queued']);
      expect(await found({ dot_number: '9999999' })).toEqual([]);
      expect(await found({ mc_number: 'MC4242' })).toEqual([]);
      expect(await found({ dot_number: '3000002' })).toEqual(['scr_f2']);

      // Written now: a cache hit (finished at once, score by its fetch), and a queued screening by
      // MC whose completion names its DOT.
      await onBoth(async (s) => {
        clock = T(100);
        const sc = score('1000006', 'MC888');
        await s.screenings.insertScreening(
          screening('scr_hit', { query: { dot_number: '1000006' } }),
          result('tender', {
            source: 'cache',
            score: sc,
            score_fetched_at: T(100).toISOString(),
            score_fetch_id: await fetchRow(s, sc, T(100)),
          }),
        );
        await s.screenings.insertScreening(screening('scr_later', { query: { mc_number: 'MC31337' } }));
      });
      expect(await found({ dot_number: '2000001' })).toEqual([]);
      await onBoth(async (s) => {
        clock = T(101);
        await s.screenings.completeScreening(
          'scr_later',
          result('tender', { score: score('02000001', 'MC31337'), score_fetched_at: T(100).toISOString() }),
        );
      });
      expect(await found({ dot_number: '2000001' })).toEqual(['scr_later']);
      expect(await found({ mc_number: 'MC31337' })).toEqual(['scr_later']);
      expect(await found({ dot_number: '1000006' })).toEqual(['scr_hit', 'scr_mc_fetch']);
      expect(await found({ mc_number: 'MC888' })).toEqual(['scr_hit', 'scr_mc_fetch']);
      // Pages of one carrier, both ways, and a carrier with an action.
      expect(ids(await samePage({ dot_number: '1000006' }, { limit: 1, starting_after: 'scr_hit' }))).toEqual(['scr_mc_fetch']);
      expect(ids(await samePage({ mc_number: 'MC888' }, { limit: 1, ending_before: 'scr_mc_fetch' }))).toEqual(['scr_hit']);
      expect(await found({ dot_number: '1000006', action: 'hold' })).toEqual([]);
    });
  });

  describe('GET /screenings?status= and the cursor', () => {
    it('queued, active and done: each of its own, the same on both', async () => {
      await onBoth(async (s) => {
        for (let i = 0; i < 6; i++) {
          clock = t(i);
          await s.screenings.insertScreening(screening(`scr_${i}`), i % 3 === 0 ? undefined : result('tender'));
        }
        await s.screenings.markActive('scr_3');
      });
      expect(ids(await samePage({ status: 'queued' }, { limit: 10 }))).toEqual(['scr_0']);
      expect(ids(await samePage({ status: 'active' }, { limit: 10 }))).toEqual(['scr_3']);
      expect(ids(await samePage({ status: 'done' }, { limit: 10 }))).toEqual(['scr_5', 'scr_4', 'scr_2', 'scr_1']);
      // A cursor outside the filtered list still gives a position in time.
      expect(ids(await samePage({ status: 'done' }, { limit: 10, starting_after: 'scr_3' }))).toEqual(['scr_2', 'scr_1']);
      expect(ids(await samePage({ status: 'queued' }, { limit: 10, ending_before: 'scr_3' }))).toEqual([]);
      expect(ids(await samePage({ status: 'active' }, { limit: 10, ending_before: 'scr_0' }))).toEqual(['scr_3']);
    });

    it('a cursor that is no screening is refused the same way, naming the parameter', async () => {
      await onBoth(async (s) => {
        await s.screenings.insertScreening(screening('scr_1'));
      });
      for (const param of ['starting_after', 'ending_before'] as const) {
        const r = await same(param, (s) => s.search({}, { limit: 2, [param]: 'scr_nope' }));
        expect(r).toEqual({ ok: false, error: { name: 'StoreArgumentError', message: `${param}: no screening scr_nope`, param } });
        const body = await same(`${param} body`, (s) =>
          s.screeningsBody({ filter: { tender_id: 'T-1' }, page: { limit: 2, [param]: 'scr_nope' } }),
        );
        expect(body).toMatchObject({ ok: false, error: { param } });
      }
      // Both cursors (the route refuses this first): the store's answer is the same on both.
      await same('both cursors', (s) => s.search({}, { limit: 2, starting_after: 'scr_1', ending_before: 'scr_1' }));
      await same('limit 0', (s) => s.search({}, { limit: 0 }));
    });
  });

  describe('random filters and cursors over one record (a differential walk)', () => {
    const TENDERS = ['T-1', 'T-2', 'T-3', 'T-4'];
    const DOTS = ['1000001', '1000002', '1000003'];
    const MCS = ['MC11', 'MC22', 'MC33'];
    const ACTIONS = ['tender', 'hold', 'block'] as const;

    /** 90 screenings over 40 minutes (ties on every minute), of every kind the list shows. */
    async function record(): Promise<string[]> {
      const made: string[] = [];
      const rnd = fc.sample(
        fc.record({
          tender: fc.constantFrom(null, ...TENDERS),
          byMc: fc.boolean(),
          dot: fc.constantFrom(...DOTS),
          mc: fc.constantFrom(...MCS),
          // 0: queued, 1: active, 2: answered at once, 3: completed later
          life: fc.integer({ min: 0, max: 3 }),
          action: fc.constantFrom(...ACTIONS),
          later: fc.integer({ min: 1, max: 30 }),
          withScore: fc.boolean(),
          load: fc.boolean(),
          decided: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
        }),
        { numRuns: 90, seed: 34 },
      );
      for (const [i, r] of rnd.entries()) {
        const id = `scr_${String(i).padStart(3, '0')}`;
        const m = Math.floor(i / 2.3);
        made.push(id);
        const sc = score(r.dot, r.mc);
        await onBoth(async (s) => {
          clock = t(m);
          const n = screening(id, {
            query: r.byMc ? { mc_number: r.mc } : { dot_number: r.dot },
            tender_id: r.tender,
            ...(r.load
              ? { load: { origin: 'Reno, NV', destination: 'Boise, ID', pickup_at: '2026-11-02T08:00:00Z', equipment: 'van' } }
              : {}),
            callback_url: i % 5 === 0 ? 'http://tms.example/cb' : null,
          });
          // With a score (by its fetch), or a hold for want of one (with the service's error).
          const res = r.withScore
            ? result(r.action, { score: sc, score_fetched_at: t(m).toISOString(), score_fetch_id: await fetchRow(s, sc, t(m)) })
            : r.action === 'hold'
              ? result('hold', {
                  hold_reason: 'scoring_unavailable',
                  source: 'none',
                  error: { code: 'svc_unavailable', message: 'down', request_id: 'req_1' },
                })
              : result(r.action);
          if (r.life === 2) await s.screenings.insertScreening(n, res);
          else await s.screenings.insertScreening(n);
          if (r.life === 1) await s.screenings.markActive(id);
          if (r.life === 3) {
            clock = t(m + r.later);
            await s.screenings.completeScreening(id, res);
          }
          if (r.action === 'hold' && r.life >= 2) {
            const review = await openReview(s, id, clock);
            if (r.decided !== null) {
              clock = t(m + r.later + r.decided);
              await s.reviews.resolveReview(review, r.decided % 2 ? 'approved' : 'rejected', 'Dana', r.decided % 3 ? null : 'checked');
            }
          }
          // A settled one, as decisions record it (the same fixture text on both).
          if (i % 17 === 16)
            await s.sql(`UPDATE screenings SET settled_by = 'decision', standing_decision = @d WHERE id = @id`, {
              id,
              d: JSON.stringify({ id: `dec_${i}`, decided_by: 'Dana', expires_at: t(9999).toISOString() }),
            });
        });
      }
      return made;
    }

    it('every answer of either backend is the other one, as pages and as JSON bytes', async () => {
      const all = await record();
      // None, one or two filters at a time (more rarely match anything).
      const filterArb = fc
        .tuple(
          fc.record({
            tender_id: fc.constantFrom(...TENDERS, 'T-none'),
            dot_number: fc.constantFrom(...DOTS),
            mc_number: fc.constantFrom(...MCS),
            status: fc.constantFrom('queued' as const, 'active' as const, 'done' as const),
            action: fc.constantFrom(...ACTIONS, 'never-taken'),
            updated_since: fc.integer({ min: 0, max: 80 }).map((m) => t(m).toISOString()),
          }),
          fc.shuffledSubarray(['tender_id', 'dot_number', 'mc_number', 'status', 'action', 'updated_since'] as const, { maxLength: 2 }),
        )
        .map(([all, keys]): ScreeningFilter => Object.fromEntries(keys.map((k) => [k, all[k]])));
      const pageArb = fc.record({
        limit: fc.integer({ min: 1, max: 12 }),
        cursor: fc.option(fc.tuple(fc.constantFrom('starting_after' as const, 'ending_before' as const), fc.constantFrom(...all)), {
          nil: null,
        }),
      });
      let nonEmpty = 0;
      await fc.assert(
        fc.asyncProperty(filterArb, pageArb, async (filter, pg) => {
          const page: ScreeningPage = { limit: pg.limit, ...(pg.cursor ? { [pg.cursor[0]]: pg.cursor[1] } : {}) };
          const body = await sameBytes(`GET /screenings ${JSON.stringify({ filter, page })}`, (s) => s.screeningsBody({ filter, page }));
          if ((body as Page).data.length > 0) nonEmpty++;
          // And the whole walk from there (pages of the same filter), page for page.
          if (!pg.cursor) await walk(filter, pg.limit);
        }),
        { numRuns: 250 },
      );
      // Not vacuous: most answers had rows (about 210 of 250).
      expect(nonEmpty).toBeGreaterThan(125);
    });
  });

  describe('GET /reviews bodies (list-json.test.ts)', () => {
    it('each state, every page both ways: the same JSON bytes on both', async () => {
      // Carriers' reviews in every state, tenders waiting on them, newer facts on some.
      await onBoth(async (s) => {
        for (let i = 0; i < 14; i++) {
          const id = `scr_${String(i).padStart(2, '0')}`;
          const dot = String(1_000_010 + (i % 5));
          const sc = score(dot, `MC${i}`);
          clock = t(Math.floor(i / 2));
          await s.screenings.insertScreening(screening(id, { query: { dot_number: dot }, tender_id: `T-${i}`, load: { origin: `O${i}` } }));
          const review = await openReview(s, id, clock, { carrier: `dot:${dot}:${i}` });
          await s.screenings.completeScreening(
            id,
            result('hold', { score: sc, score_fetched_at: clock.toISOString(), score_fetch_id: await fetchRow(s, sc, clock) }),
          );
          // A tender waiting on this carrier review.
          if (i % 4 === 0) {
            const w = `${id}_w`;
            await s.screenings.insertScreening(screening(w, { query: { dot_number: dot }, tender_id: `T-${i}-w` }), result('hold'));
            await openReview(s, w, clock, { parent: review });
          }
          // Newer facts shown on the review (a later screening of the carrier with another score).
          if (i % 3 === 0) {
            const f = `${id}_f`;
            const newer = { ...sc, score: 40, grade: 'F' } as SvcScore;
            await s.screenings.insertScreening(
              screening(f, { query: { dot_number: dot } }),
              result('hold', { score: newer, score_fetched_at: clock.toISOString(), score_fetch_id: await fetchRow(s, newer, clock) }),
            );
            await s.sql('UPDATE reviews SET version = version + 1, facts_screening_id = @f WHERE id = @id', { f, id: review });
          }
          clock = t(Math.floor(i / 2) + 3);
          if (i % 5 === 1) await s.reviews.resolveReview(review, 'approved', 'Dana', 'fine');
          if (i % 5 === 2) await s.reviews.resolveReview(review, 'rejected', 'Eve', null);
          if (i % 5 === 3)
            await s.sql("UPDATE reviews SET state = 'closed', closed_by = 'local_block', closed_reason = 'blocked' WHERE id = @id", {
              id: review,
            });
          if (i % 5 === 4) await s.sql("UPDATE reviews SET state = 'superseded' WHERE id = @id", { id: review });
        }
      });
      const STATES: Array<ReviewListState | undefined> = ['pending', 'approved', 'rejected', 'decided', 'closed', 'superseded', undefined];
      let rows = 0;
      for (const state of STATES) {
        for (const limit of [1, 2, 5, 50]) {
          const seen: string[] = [];
          let body = await sameBytes(`reviews ${state} ${limit}`, (s) => s.reviewsBody({ state, page: { limit } }));
          for (;;) {
            const p = body as unknown as { data: Array<{ id: string }>; has_more: boolean };
            seen.push(...p.data.map((r) => r.id));
            if (!p.has_more) break;
            body = await sameBytes(`reviews ${state} ${limit} after`, (s) =>
              s.reviewsBody({ state, page: { limit, starting_after: seen.at(-1)! } }),
            );
          }
          rows += seen.length;
          if (seen.length > 1)
            await sameBytes(`reviews ${state} ${limit} before`, (s) =>
              s.reviewsBody({ state, page: { limit, ending_before: seen.at(-1)! } }),
            );
        }
      }
      expect(rows).toBeGreaterThan(40);
      // And the screenings of it, as GET /screenings sends them.
      for (const limit of [2, 7, 50]) await sameBytes(`screenings ${limit}`, (s) => s.screeningsBody({ filter: {}, page: { limit } }));
      await sameBytes('held screenings', (s) => s.screeningsBody({ filter: { action: 'hold' }, page: { limit: 50 } }));
      await sameBytes('blocked screenings', (s) => s.screeningsBody({ filter: { action: 'block' }, page: { limit: 50 } }));
      // A refused review page: the same refusal.
      await same('reviews: a cursor not in the list', (s) =>
        s.reviewsBody({ state: 'pending', page: { limit: 2, starting_after: 'rev_nope' } }),
      );
    });
  });
});

describe('postgres only: each filter reads its index, in the list order, from the cursor', () => {
  // A record of some size (4 000 screenings, analysed; on a handful of rows any plan is as good as
  // another): mostly tenders answered at once, a hold every 25th, a block every 40th, a few
  // unfinished, some completed later, the holds' reviews half decided.
  beforeAll(async () => {
    await emptied();
    const ts = (expr: string) => `to_char(timestamp '2026-11-01' + (${expr}) * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    await pool!.query(`
      INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, action, created_at, completed_at, carrier_dot, carrier_mc)
      SELECT 'scr_p' || i, CASE WHEN i % 10 <> 0 THEN 'T-' || i END, st, 'dot_number', (1000000 + i % 400)::text, 'tender',
        CASE WHEN st = 'done' THEN CASE WHEN i % 40 = 0 THEN 'block' WHEN i % 25 = 0 THEN 'hold' ELSE 'tender' END END,
        ${ts('i')}, CASE WHEN st <> 'done' THEN NULL WHEN i % 20 = 0 THEN ${ts('i + 5')} ELSE ${ts('i')} END,
        (1000000 + i % 400)::text, CASE WHEN i % 3 = 0 THEN 'MC' || (i % 300) END
      FROM generate_series(1, 4000) i,
        LATERAL (SELECT CASE WHEN i % 97 = 0 THEN 'queued' WHEN i % 89 = 0 THEN 'active' ELSE 'done' END AS st) s`);
    await pool!.query(`
      INSERT INTO reviews (id, screening_id, state, hold_reason, decided_by, decided_at, created_at, carrier_key)
      SELECT 'rev_' || s.id, s.id, CASE WHEN s.seq % 2 = 0 THEN 'approved' ELSE 'pending' END, 'manual_review',
        CASE WHEN s.seq % 2 = 0 THEN 'Dana' END, CASE WHEN s.seq % 2 = 0 THEN s.completed_at END, s.created_at, 'dot:' || s.id
      FROM screenings s WHERE s.action = 'hold'`);
    await pool!.query('ANALYZE screenings; ANALYZE reviews');
  });

  /** The statements a search ran on PostgreSQL (their text and values). */
  async function statementsOf(f: ScreeningFilter, p: ScreeningPage): Promise<pg.QueryConfig[]> {
    const seen: pg.QueryConfig[] = [];
    const x = poolExecutor(pool!);
    const recording: PgExecutor = {
      inTransaction: false,
      transaction: (fn) => x.transaction(fn),
      query: (c) => {
        seen.push(c);
        return x.query(c);
      },
    };
    await pgSearchScreenings(recording, f, p, { scores: parsedFetches() });
    return seen.filter((c) => c.name?.startsWith('screening_search'));
  }

  /**
   * The plan of `c`. `ordered`: sorts and table scans priced out, so a Sort or a Seq Scan left
   * means no index gives the list's order (on a few thousand rows PostgreSQL may rightly sort a
   * handful; on a year's record it must not have to). `indexed`: table scans priced out only.
   * `generic`: the plan a prepared statement settles on after five runs, made without the
   * parameters' values (the partial indexes must be provable from the SQL's own literals).
   */
  async function plan(c: pg.QueryConfig, o: { ordered?: boolean; indexed?: boolean; generic?: boolean } = {}): Promise<string> {
    const client = await pool!.connect();
    const values = (c.values ?? []) as unknown[];
    try {
      await client.query('BEGIN');
      if (o.ordered) await client.query('SET LOCAL enable_sort = off; SET LOCAL enable_incremental_sort = off');
      if (o.ordered || o.indexed) await client.query('SET LOCAL enable_seqscan = off');
      let rows: Array<{ 'QUERY PLAN': string }>;
      if (o.generic) {
        await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
        await client.query(`PREPARE search_plan AS ${c.text}`);
        try {
          const args = values.map((v) => (typeof v === 'number' ? String(v) : client.escapeLiteral(String(v))));
          rows = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE search_plan(${args.join(', ')})`)).rows;
        } finally {
          await client.query('DEALLOCATE search_plan');
        }
      } else rows = (await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${c.text}`, values })).rows;
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  const since = (m: number) => t(m).toISOString();
  // [label, filter, page, the index each page read must read s by]
  const CASES: Array<[string, ScreeningFilter, ScreeningPage, string]> = [
    ['all', {}, { limit: 50 }, 'screenings_by_created'],
    ['all, after a cursor', {}, { limit: 50, starting_after: 'scr_p2000' }, 'screenings_by_created'],
    ['all, before a cursor', {}, { limit: 50, ending_before: 'scr_p2000' }, 'screenings_by_created'],
    ['tender_id', { tender_id: 'T-1234' }, { limit: 50 }, 'screenings_by_tender'],
    ['tender_id, after a cursor', { tender_id: 'T-1234' }, { limit: 50, starting_after: 'scr_p2000' }, 'screenings_by_tender'],
    ['dot_number', { dot_number: '1000007' }, { limit: 5 }, 'screenings_by_carrier_dot'],
    ['dot_number, after a cursor', { dot_number: '1000007' }, { limit: 5, starting_after: 'scr_p2007' }, 'screenings_by_carrier_dot'],
    ['mc_number, before a cursor', { mc_number: 'MC21' }, { limit: 5, ending_before: 'scr_p321' }, 'screenings_by_carrier_mc'],
    ['status=queued', { status: 'queued' }, { limit: 50 }, 'screenings_unfinished'],
    ['status=active, after a cursor', { status: 'active' }, { limit: 5, starting_after: 'scr_p2000' }, 'screenings_unfinished'],
    ['status=done', { status: 'done' }, { limit: 50 }, 'screenings_by_created'],
    ['action=block', { action: 'block' }, { limit: 10 }, 'screenings_by_action'],
    ['action=hold, after a cursor', { action: 'hold' }, { limit: 10, starting_after: 'scr_p2000' }, 'screenings_by_action'],
    ['action=block, before a cursor', { action: 'block' }, { limit: 10, ending_before: 'scr_p2000' }, 'screenings_by_action'],
    ['action=tender', { action: 'tender' }, { limit: 50 }, 'screenings_by_created'],
    ['action=block with a carrier', { action: 'block', dot_number: '1000040' }, { limit: 10 }, 'screenings_by_carrier_dot'],
    ['updated_since (the created range)', { updated_since: since(3990) }, { limit: 50 }, 'screenings_by_created'],
  ];

  it.each(CASES)('%s: %j %j reads %s', async (_label, f, p, index) => {
    const statements = await statementsOf(f, p);
    const cursor = statements.filter((c) => c.name!.startsWith('screening_search_cursor'));
    const pages = statements.filter((c) => !c.name!.startsWith('screening_search_cursor'));
    const withCursor = p.starting_after !== undefined || p.ending_before !== undefined;
    // The cursor's row by its id.
    expect(cursor).toHaveLength(withCursor ? 1 : 0);
    for (const c of cursor) expect(await plan(c)).toMatch(/Index Scan using screenings_pkey on screenings\b/);
    // The later changes of updated_since are the next case's.
    const reads = pages.filter((c) => !c.text.includes('s.seq = ANY'));
    expect(reads).toHaveLength(1);
    const read = reads[0]!;
    const scanOfS = new RegExp(`Index Scan(?: Backward)? using ${index} on screenings s\\b`);
    for (const o of [{ ordered: true }, { ordered: true, generic: true }]) {
      const shown = await plan(read, o);
      const why = `${JSON.stringify(o)}\n${shown}`;
      // The index gives the order: no sort, no scan of the table, s read by the index the SQLite spelling picks.
      expect(shown, why).toMatch(scanOfS);
      expect(shown, why).not.toMatch(/\bSort\b|Seq Scan on screenings/);
      // From the cursor: a range of the index, not a walk from its end.
      if (withCursor) expect(shown, why).toMatch(/Index Cond: .*ROW\(created_at, seq\) [<>] ROW\(/);
      if (f.updated_since !== undefined) expect(shown, why).toMatch(/Index Cond: .*created_at >= /);
    }
    // As the planner picks them on this record: that index (a few rows may be sorted), never a scan of screenings.
    for (const o of [{}, { generic: true }]) {
      const shown = await plan(read, o);
      expect(shown, `${JSON.stringify(o)}\n${shown}`).toMatch(
        new RegExp(`(Index Scan(?: Backward)?|Bitmap Index Scan) (using|on) ${index}\\b`),
      );
      expect(shown, `${JSON.stringify(o)}\n${shown}`).not.toMatch(/Seq Scan on screenings/);
    }
  });

  it("inside a unit of work the search reads the unit's own writes; outside it, not (and never: it rolls back)", async () => {
    const x = poolExecutor(pool!);
    const scores = parsedFetches();
    clock = t(9000);
    const outside = () => pgSearchScreenings(x, { tender_id: 'T-unit' }, { limit: 5 }, { scores });
    await expect(
      x.transaction(async (tx) => {
        await pgScreeningsOf(tx, { now, scores }).insertScreening(screening('scr_unit', { tender_id: 'T-unit' }));
        expect(ids(await pgSearchScreenings(tx, { tender_id: 'T-unit' }, { limit: 5 }, { scores }))).toEqual(['scr_unit']);
        expect(ids(await outside())).toEqual([]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(ids(await outside())).toEqual([]);
  });

  it('updated_since: the rows created before T and changed since are found by the two small indexes, then by seq', async () => {
    for (const p of [{ limit: 50 }, { limit: 50, starting_after: 'scr_p3995' }, { limit: 5, ending_before: 'scr_p1000' }]) {
      const statements = await statementsOf({ updated_since: since(3990) }, p);
      const later = statements.filter((c) => c.text.includes('s.seq = ANY'));
      expect(later).toHaveLength(1);
      for (const o of [{}, { generic: true }, { indexed: true }, { indexed: true, generic: true }]) {
        const shown = await plan(later[0]!, o);
        const why = `${JSON.stringify(p)} ${JSON.stringify(o)}\n${shown}`;
        // The set first (the later completions' index), then each of its rows by seq: the rows
        // created before T are never walked, whatever T (the generic plan knows no T).
        expect(shown, why).toMatch(/InitPlan 1/);
        expect(shown, why).toMatch(/Index Scan using screenings_completed_later on screenings\b/);
        expect(shown, why).toMatch(/Index Scan using screenings_seq_key on screenings s\b/);
        expect(shown, why).not.toMatch(/Seq Scan on screenings s\b|screenings_by_created/);
        if (o.indexed) {
          expect(shown, why).toMatch(/reviews_by_decided/);
          expect(shown, why).not.toMatch(/Seq Scan/);
        }
      }
    }
  });
});
