/**
 * The Store's screenings and reviews, the same cases on both backends through the repository
 * interfaces (worker/store/screening-repos.ts): SQLite's Store as it is (its answers awaited),
 * PostgreSQL's pgScreeningsOf / pgReviewsOf. Ported from store-data.test.ts, store-sqlite.test.ts
 * ("a screening written done in one insert") and list-keyset.test.ts (GET /reviews). Reviews are
 * opened in production by CarrierDecisions.onHold (decisions-repo.ts insertReview); here a review
 * row is written by one small SQL fixture, the same text on both backends, with insertReview's
 * columns (or, for the lists, a decided one as list-keyset.test.ts writes it).
 * Then PostgreSQL only: two hosts deciding one review, or completing one screening, at once.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Review, Screening } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { NotFoundError, openStore, ReviewConflictError, StoreArgumentError, type ScreeningResult } from '../../worker/store/index.js';
import { cursorSql, keysetSql } from '../../worker/store/keyset.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { poolExecutor } from '../../worker/store/pg/executor.js';
import { pgReviewList, pgReviewsOf } from '../../worker/store/pg/reviews-repo.js';
import { pgScreeningsOf } from '../../worker/store/pg/screenings-repo.js';
import { positional, statement } from '../../worker/store/pg/sql.js';
import type { ReviewsRepo, ScreeningsRepo } from '../../worker/store/screening-repos.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

type Row = Record<string, unknown>;

interface Backend {
  screenings: AsyncRepo<ScreeningsRepo>;
  reviews: AsyncRepo<ReviewsRepo>;
  /** A fixture statement (the same SQL text on both backends, `@name` parameters); its rows. */
  sql(text: string, params?: Row): Promise<Row[]>;
  /** What a duplicate screening id is refused with on this backend. */
  duplicate: object;
  done(): Promise<void>;
}

/** A synchronous repository's methods answering Promises (a throw becomes a rejection, as on PG). */
function awaited<R extends object>(repo: R, names: ReadonlyArray<keyof R>): AsyncRepo<R> {
  const out: Row = {};
  for (const n of names) {
    const f = repo[n] as (...a: unknown[]) => unknown;
    out[n as string] = async (...a: unknown[]) => f(...a);
  }
  return out as AsyncRepo<R>;
}
const SCREENING_METHODS = [
  'insertScreening',
  'markActive',
  'completeScreening',
  'rescreenResult',
  'markRescreened',
  'discardScreening',
  'getScreening',
  'listUnfinished',
  'oldestQueuedAt',
] as const satisfies ReadonlyArray<keyof ScreeningsRepo>;
const REVIEW_METHODS = ['getReview', 'listReviews', 'pageReviews', 'resolveReview', 'countPendingReviews'] as const satisfies ReadonlyArray<
  keyof ReviewsRepo
>;

let clock: Date;
const now = () => clock;
const T0 = new Date('2025-03-15T12:00:00.000Z');
function later(ms: number): Date {
  clock = new Date(clock.getTime() + ms);
  return clock;
}

async function makeSqlite(): Promise<Backend> {
  const file = tempDbPath();
  const store = openStore(file.path, { now });
  const db = connectionOf(store);
  return {
    screenings: awaited<ScreeningsRepo>(store, SCREENING_METHODS),
    reviews: awaited<ReviewsRepo>(store, REVIEW_METHODS),
    sql: async (text, params = {}) => {
      const s = db.prepare(text);
      return s.reader ? (s.all(params) as Row[]) : (s.run(params), []);
    },
    duplicate: expect.objectContaining({ name: 'StoreError', code: 'sqlite_constraint' }),
    done: async () => {
      store.close();
      file.cleanup();
    },
  };
}

// One PostgreSQL database for the file (creating one costs ~100 ms); each case starts empty.
let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>> | undefined;
beforeAll(async () => {
  pgDb = await migratedPgDatabase();
});
afterAll(async () => {
  await pgDb?.close();
});

const fixtureStatements = new Map<string, ReturnType<typeof statement<Row>>>();
function pgSql(pool: pg.Pool, text: string, params: Row = {}): Promise<Row[]> {
  let s = fixtureStatements.get(text);
  if (!s)
    fixtureStatements.set(text, (s = statement<Row>(`test_fixture_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`, text)));
  return s.all(poolExecutor(pool), params);
}

async function makePg(): Promise<Backend> {
  const pool = pgDb!.pool;
  await pool.query('TRUNCATE screenings, reviews, score_fetches CASCADE');
  const x = poolExecutor(pool);
  return {
    screenings: pgScreeningsOf(x, { now }),
    reviews: pgReviewsOf(x, { now }),
    sql: (text, params) => pgSql(pool, text, params),
    // Until pg-store.ts maps PostgreSQL's errors to StoreError (db_constraint): unique_violation.
    duplicate: expect.objectContaining({ code: '23505' }),
    done: async () => undefined,
  };
}

// ---- the fixtures ----

function sampleScore(dot = '1000003', over: Partial<SvcScore> = {}): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: dot, mc_number: `MC${dot}`, legal_name: 'Test Carrier 3 LLC', dba_name: null, region: 'NE' },
    score: 66,
    grade: 'D',
    decision: 'review',
    verdict: 'Needs a look',
    needs_manual_review: true,
    knockout: { triggered: false, reasons: [] },
    reasons: [],
    checks: { total: 53, triggered: 1, passed: 46, not_checked: 6 },
    flags: ['new_authority', 'some_future_flag'],
    data_confidence: 0.92,
    model_version: 'carrier-risk-3.5-sandbox',
    calculated_at: '2025-03-15T08:00:00Z',
    future_field: { nested: [1, 'two', null] },
    ...over,
  } as SvcScore;
}

const HOLD: ScreeningResult = {
  action: 'hold',
  hold_reason: 'manual_review',
  source: 'service',
  score: sampleScore(),
  score_fetched_at: '2025-03-15T11:59:00.000Z',
  error: null,
};

const NEW = { query: { dot_number: '1000003' }, tender_id: 'T-1', priority: 'tender' as const, refresh: false, callback_url: null };

/** A score as putScore stores it (score_fetches); its id. */
async function fetchRow(b: Backend, score: SvcScore, at: string): Promise<number> {
  const rows = await b.sql('INSERT INTO score_fetches (env, dot_number, body, fetched_at) VALUES (@env, @dot, @body, @at) RETURNING id', {
    env: 'live',
    dot: score.carrier.dot_number,
    body: JSON.stringify(score),
    at,
  });
  return Number(rows[0]!.id);
}

/** A pending review as decisions-repo.ts insertReview writes it. */
async function openReview(
  b: Backend,
  screeningId: string,
  o: { id?: string; carrier?: string; parent?: string | null } = {},
): Promise<string> {
  const id = o.id ?? `rev_${screeningId}`;
  await b.sql(
    `INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id, previous_decision)
     VALUES (@id, @screening_id, 'pending', 'manual_review', @created_at, @carrier_key, @parent_id, NULL)`,
    {
      id,
      screening_id: screeningId,
      created_at: clock.toISOString(),
      carrier_key: o.carrier ?? `dot:${screeningId}`,
      parent_id: o.parent ?? null,
    },
  );
  return id;
}

/** A held screening with its open review (the pipeline opens it before it completes the screening). */
async function heldWithReview(b: Backend, dot = '1000003', completed = true): Promise<{ screening: Screening; review: Review }> {
  const s = await b.screenings.insertScreening({ ...NEW, query: { dot_number: dot } });
  const id = await openReview(b, s.id, { carrier: `dot:${dot}` });
  if (completed) await b.screenings.completeScreening(s.id, HOLD);
  return { screening: s, review: (await b.reviews.getReview(id))! };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

const BACKENDS: Array<[string, () => Promise<Backend>]> = [
  ['sqlite', makeSqlite],
  ['postgres', makePg],
];

describe.each(BACKENDS)('%s', (_name, make) => {
  let b: Backend;
  beforeEach(async () => {
    clock = T0;
    b = await make();
  });
  afterEach(async () => {
    await b.done();
  });

  describe('screenings', () => {
    it('inserts a queued screening shaped like shared/screening.ts; every change is a new version', async () => {
      const s = await b.screenings.insertScreening({ ...NEW, query: { mc_number: 'MC1000003' }, callback_url: 'https://tms.example/cb' });
      expect(s).toEqual({
        object: 'screening',
        id: expect.stringMatching(/^scr_[a-z2-7]{26}$/),
        tender_id: 'T-1',
        load: null,
        status: 'queued',
        query: { mc_number: 'MC1000003' },
        priority: 'tender',
        refresh: false,
        action: null,
        hold_reason: null,
        source: null,
        score: null,
        score_fetched_at: null,
        score_age_seconds: null,
        review: null,
        settled_by: null,
        standing_decision: null,
        error: null,
        callback_url: 'https://tms.example/cb',
        created_at: T0.toISOString(),
        completed_at: null,
        updated_at: T0.toISOString(),
        version: 1,
      });
      const read = await b.screenings.getScreening(s.id);
      expect(read).toEqual(s);
      expect(Object.keys(read!)).toEqual(Object.keys(s));
      await b.screenings.markActive(s.id);
      expect((await b.screenings.getScreening(s.id))!.version).toBe(2);
    });

    it('keeps a caller-chosen id and refuses a duplicate', async () => {
      const s = await b.screenings.insertScreening({ ...NEW, id: 'scr_fixed' });
      expect(s.id).toBe('scr_fixed');
      expect(await rejection(b.screenings.insertScreening({ ...NEW, id: 'scr_fixed' }))).toEqual(b.duplicate);
      expect(await rejection(b.screenings.insertScreening({ ...NEW, id: 'has space' }))).toMatchObject({ param: 'id' });
    });

    it('goes queued -> active -> done; completing is idempotent', async () => {
      const s = await b.screenings.insertScreening(NEW);
      await b.screenings.markActive(s.id);
      expect((await b.screenings.getScreening(s.id))?.status).toBe('active');
      later(1500);
      const first = await b.screenings.completeScreening(s.id, HOLD);
      expect(first.changed).toBe(true);
      expect(first.screening).toMatchObject({
        status: 'done',
        action: 'hold',
        hold_reason: 'manual_review',
        source: 'service',
        completed_at: clock.toISOString(),
        updated_at: clock.toISOString(),
        score_age_seconds: 61,
        version: 3,
      });
      expect(first.screening.score).toEqual(sampleScore());

      later(1000);
      const again = await b.screenings.completeScreening(s.id, { ...HOLD, action: 'block', hold_reason: null });
      expect(again.changed).toBe(false);
      expect(again.screening).toEqual(first.screening);
      await b.screenings.markActive(s.id); // done stays done
      expect(await b.screenings.getScreening(s.id)).toEqual(first.screening);
    });

    it('keeps the refresh flag and the load as sent', async () => {
      const load = { pickup_at: '2025-03-16T08:00:00Z', origin: 'Columbus, OH', extra: { nested: [1, null] } };
      const s = await b.screenings.insertScreening({ ...NEW, refresh: true, load } as typeof NEW);
      expect(s).toMatchObject({ refresh: true, load });
      expect(await b.screenings.getScreening(s.id)).toEqual(s);
    });

    it('sets the carrier columns: the number asked by, the other from the score', async () => {
      const s = await b.screenings.insertScreening({ ...NEW, query: { mc_number: 'mc 001234' } });
      await b.screenings.completeScreening(s.id, { ...HOLD, score: sampleScore('0042') });
      expect(await b.sql('SELECT carrier_dot, carrier_mc FROM screenings WHERE id = @id', { id: s.id })).toEqual([
        { carrier_dot: '42', carrier_mc: expect.any(String) },
      ]);
      const [row] = await b.sql('SELECT carrier_mc FROM screenings WHERE id = @id', { id: s.id });
      const t = await b.screenings.insertScreening({ ...NEW, query: { mc_number: 'mc 001234' } });
      expect(await b.sql('SELECT carrier_dot, carrier_mc FROM screenings WHERE id = @id', { id: t.id })).toEqual([
        { carrier_dot: null, carrier_mc: row!.carrier_mc },
      ]);
    });

    it('discards a screening only while it is still queued', async () => {
      const a = await b.screenings.insertScreening(NEW);
      const c = await b.screenings.insertScreening(NEW);
      await b.screenings.markActive(c.id);
      expect(await b.screenings.discardScreening(a.id)).toBe(true);
      expect(await b.screenings.getScreening(a.id)).toBeUndefined();
      expect(await b.screenings.discardScreening(a.id)).toBe(false);
      expect(await b.screenings.discardScreening(c.id)).toBe(false);
      expect((await b.screenings.getScreening(c.id))?.status).toBe('active');
    });

    it('stores an error result without a score', async () => {
      const s = await b.screenings.insertScreening({ ...NEW, query: { dot_number: '4242' } });
      const error = { code: 'carrier_not_found', message: 'not found', request_id: 'req_9' };
      const { screening } = await b.screenings.completeScreening(s.id, {
        action: 'block',
        hold_reason: null,
        source: 'none',
        score: null,
        score_fetched_at: null,
        error,
      });
      expect(screening).toMatchObject({ action: 'block', score: null, error, score_age_seconds: null });
    });

    it('raises NotFoundError for unknown ids and returns undefined from getters; names a bad argument', async () => {
      expect(await rejection(b.screenings.markActive('scr_nope'))).toBeInstanceOf(NotFoundError);
      expect(await rejection(b.screenings.completeScreening('scr_nope', HOLD))).toBeInstanceOf(NotFoundError);
      expect(await b.screenings.getScreening('scr_nope')).toBeUndefined();
      const s = await b.screenings.insertScreening(NEW);
      expect(await rejection(b.screenings.getScreening(''))).toMatchObject({ name: 'StoreArgumentError', param: 'id' });
      expect(await rejection(b.screenings.insertScreening({ ...NEW, priority: 'urgent' as never }))).toMatchObject({ param: 'priority' });
      expect(await rejection(b.screenings.insertScreening({ ...NEW, query: { dot_number: ' ' } }))).toMatchObject({ param: 'query' });
      expect(await rejection(b.screenings.completeScreening(s.id, { ...HOLD, action: 'maybe' as never }))).toMatchObject({
        param: 'action',
      });
      expect((await b.screenings.getScreening(s.id))?.status).toBe('queued');
    });

    it('lists unfinished screenings oldest first (insertion order breaks a tie); the oldest queued', async () => {
      expect(await b.screenings.oldestQueuedAt()).toBeNull();
      const a = await b.screenings.insertScreening({ ...NEW, tender_id: 'a' });
      later(1);
      const bb = await b.screenings.insertScreening({ ...NEW, tender_id: 'b' });
      const c = await b.screenings.insertScreening({ ...NEW, tender_id: 'c' }); // same millisecond as b
      later(1);
      const d = await b.screenings.insertScreening({ ...NEW, tender_id: 'd' });
      await b.screenings.markActive(c.id);
      await b.screenings.completeScreening(d.id, HOLD);
      expect((await b.screenings.listUnfinished()).map((s) => s.id)).toEqual([a.id, bb.id, c.id]);
      expect(await b.screenings.oldestQueuedAt()).toBe(a.created_at);
      await b.screenings.markActive(a.id); // taken by a worker: no longer waiting
      expect(await b.screenings.oldestQueuedAt()).toBe(bb.created_at);
      await b.screenings.markActive(bb.id);
      expect(await b.screenings.oldestQueuedAt()).toBeNull();
      expect((await b.screenings.listUnfinished()).map((s) => s.id)).toEqual([a.id, bb.id, c.id]);
    });

    it('a screening written done in one insert (a cache hit) reads back as returned, and as one completed would', async () => {
      const score = sampleScore('21');
      const fetchId = await fetchRow(b, score, '2026-11-01T00:00:00.000Z');
      const result: ScreeningResult = {
        action: 'tender',
        hold_reason: null,
        source: 'cache',
        score,
        score_fetched_at: '2026-11-01T00:00:00.000Z',
        error: null,
        score_fetch_id: fetchId,
      };
      const n = { ...NEW, query: { dot_number: '21' }, tender_id: 'L-1', callback_url: 'https://tms.example/cb' };
      const done = await b.screenings.insertScreening({ ...n, carrier_key: 'dot:21' }, result);
      expect(done.status).toBe('done');
      expect(await b.screenings.getScreening(done.id)).toEqual(done);
      const queued = await b.screenings.insertScreening(n);
      const completed = (await b.screenings.completeScreening(queued.id, result)).screening;
      const shape = (s: Screening) => ({ ...s, id: '', created_at: '', completed_at: '', updated_at: '', version: 0 });
      expect(shape(done)).toEqual(shape(completed));
      expect([done.version, completed.version]).toEqual([1, 2]);
      expect((await b.screenings.listUnfinished()).map((s) => s.id)).toEqual([]);
      expect((await b.screenings.completeScreening(done.id, { ...result, action: 'block' })).changed).toBe(false);
      expect(await rejection(b.screenings.insertScreening(n, { ...result, action: 'maybe' as never }))).toMatchObject({ param: 'action' });
      // A reference to the fetch, not a copy; one parsed score per fetch, shared and frozen.
      expect(await b.sql('SELECT score, score_fetch_id, carrier_key FROM screenings WHERE id = @id', { id: done.id })).toEqual([
        { score: null, score_fetch_id: fetchId, carrier_key: 'dot:21' },
      ]);
      const [x, y] = [await b.screenings.getScreening(done.id), await b.screenings.getScreening(queued.id)];
      expect(x!.score).toBe(y!.score);
      expect(Object.isFrozen(x!.score!.carrier)).toBe(true);
    });

    it('a screening whose score fetch is gone is a damaged record (StoreError sqlite_corrupt), not a screening without a score', async () => {
      const s = await b.screenings.insertScreening(NEW, { ...HOLD, score_fetch_id: 987654 });
      expect(await rejection(b.screenings.getScreening(s.id))).toMatchObject({ name: 'StoreError', code: 'sqlite_corrupt' });
    });

    it('re-screens a held screening only while done, held and not settled; notes a re-screen that changed nothing', async () => {
      const queued = await b.screenings.insertScreening(NEW);
      const tender: ScreeningResult = { ...HOLD, action: 'tender', hold_reason: null, score: sampleScore('1000003', { score: 90 }) };
      expect(await b.screenings.rescreenResult(queued.id, tender)).toBe(false);

      const held = await b.screenings.insertScreening(NEW, { ...HOLD, hold_reason: 'scoring_unavailable', score: null, source: 'none' });
      later(60_000);
      expect(await b.screenings.rescreenResult(held.id, tender)).toBe(true);
      const after = (await b.screenings.getScreening(held.id))!;
      // The action and score are the new answer's; the reason it was held stays as history.
      expect(after).toMatchObject({ action: 'tender', hold_reason: 'scoring_unavailable', source: 'service', version: 2 });
      expect(after.score?.score).toBe(90);
      expect(await b.sql('SELECT rescreened_at FROM screenings WHERE id = @id', { id: held.id })).toEqual([
        { rescreened_at: clock.toISOString() },
      ]);
      expect(await b.screenings.rescreenResult(held.id, tender)).toBe(false); // no longer held

      const again = await b.screenings.insertScreening(NEW, { ...HOLD, hold_reason: 'scoring_unavailable', score: null, source: 'none' });
      expect(await b.screenings.rescreenResult(again.id, { ...HOLD, hold_reason: 'quota_exhausted' })).toBe(true);
      expect(await b.screenings.getScreening(again.id)).toMatchObject({ action: 'hold', hold_reason: 'quota_exhausted' });

      const settled = await b.screenings.insertScreening(NEW, HOLD);
      await b.sql("UPDATE screenings SET settled_by = 'standing_decision' WHERE id = @id", { id: settled.id });
      expect(await b.screenings.rescreenResult(settled.id, tender)).toBe(false);

      later(1000);
      await b.screenings.markRescreened(settled.id);
      await b.screenings.markRescreened('scr_nope'); // nothing to note
      expect(await b.sql('SELECT rescreened_at, version FROM screenings WHERE id = @id', { id: settled.id })).toEqual([
        { rescreened_at: clock.toISOString(), version: 2 },
      ]);
    });
  });

  describe('reviews', () => {
    it('resolves once; a second resolve is a ReviewConflictError and changes nothing', async () => {
      const { review, screening } = await heldWithReview(b);
      expect(review).toMatchObject({ state: 'pending', screening_id: screening.id, version: 1, waits_on: null });
      expect(await b.reviews.countPendingReviews()).toBe(1);
      later(60_000);
      const approved = await b.reviews.resolveReview(review.id, 'approved', 'dana', 'known carrier', 'tok_1');
      expect(approved).toMatchObject({
        state: 'approved',
        decided_by: 'dana',
        decided_at: clock.toISOString(),
        updated_at: clock.toISOString(),
        note: 'known carrier',
        token_id: 'tok_1',
      });
      // The dispatcher's decision becomes the screening's action; hold_reason stays as history.
      expect(approved.screening).toMatchObject({
        action: 'tender',
        hold_reason: 'manual_review',
        review: { state: 'approved', decided_by: 'dana' },
        updated_at: clock.toISOString(),
        // queued 1, done 2, the review decided 3, the action 4 (the triggers).
        version: 4,
      });
      expect(await b.screenings.getScreening(screening.id)).toEqual(approved.screening);

      later(1000);
      expect(await rejection(b.reviews.resolveReview(review.id, 'rejected', 'eve', null))).toBeInstanceOf(ReviewConflictError);
      expect(await b.reviews.getReview(review.id)).toEqual(approved);
      expect(await rejection(b.reviews.resolveReview('rev_nope', 'rejected', 'eve', null))).toBeInstanceOf(NotFoundError);
      expect(await rejection(b.reviews.resolveReview(review.id, 'maybe' as never, 'eve', null))).toMatchObject({ param: 'state' });
      expect(await rejection(b.reviews.resolveReview(review.id, 'approved', ' ', null))).toMatchObject({ param: 'by' });
      expect(await b.reviews.getReview('rev_nope')).toBeUndefined();
      expect(await b.reviews.countPendingReviews()).toBe(0);
    });

    it('a decision made before a late completion survives it', async () => {
      const { screening: s, review } = await heldWithReview(b, '1000003', false);
      await b.reviews.resolveReview(review.id, 'rejected', 'dana', null);
      const { screening } = await b.screenings.completeScreening(s.id, HOLD);
      expect(screening).toMatchObject({ status: 'done', action: 'block', hold_reason: 'manual_review', review: { state: 'rejected' } });
    });

    it('a rejection blocks the screening', async () => {
      const { review } = await heldWithReview(b);
      expect((await b.reviews.resolveReview(review.id, 'rejected', 'dana', null)).screening.action).toBe('block');
    });

    it('lists pending oldest first and decided newest first', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        later(1000);
        ids.push((await heldWithReview(b, String(2000001 + i))).review.id);
      }
      later(1000);
      await b.reviews.resolveReview(ids[0]!, 'approved', 'a', null);
      later(1000);
      await b.reviews.resolveReview(ids[1]!, 'approved', 'b', null);
      expect((await b.reviews.listReviews('pending')).map((r) => r.id)).toEqual([ids[2], ids[3]]);
      expect((await b.reviews.listReviews('approved')).map((r) => r.id)).toEqual([ids[1], ids[0]]);
      expect(await b.reviews.listReviews('rejected')).toEqual([]);
      expect((await b.reviews.listReviews(undefined, 3)).map((r) => r.id)).toEqual([ids[3], ids[2], ids[1]]);
      expect(await b.reviews.listReviews('pending')).toEqual([await b.reviews.getReview(ids[2]!), await b.reviews.getReview(ids[3]!)]);
      expect(await rejection(b.reviews.listReviews('open' as never))).toMatchObject({ param: 'state' });
      expect(await rejection(b.reviews.listReviews('pending', 0))).toMatchObject({ param: 'limit' });
    });

    it("a carrier's review shows its waiting tenders; a tender's own item its carrier review's version and newest facts", async () => {
      const head = await b.screenings.insertScreening(NEW, HOLD);
      const headReview = await openReview(b, head.id, { carrier: 'dot:1000003' });
      later(1000);
      const waiting = await b.screenings.insertScreening({ ...NEW, tender_id: 'T-2', load: { origin: 'Erie, PA' } }, HOLD);
      const own = await openReview(b, waiting.id, { carrier: 'dot:1000003', parent: headReview });
      later(1000);
      // Newer facts shown on the carrier's review (decisions-repo.ts showFacts / close give it a new version).
      const fetchId = await fetchRow(b, sampleScore('1000003', { score: 20, grade: 'F' }), clock.toISOString());
      const facts = await b.screenings.insertScreening(NEW, {
        ...HOLD,
        score: sampleScore('1000003', { score: 20, grade: 'F' }),
        score_fetch_id: fetchId,
      });
      await b.sql('UPDATE reviews SET version = 2, facts_screening_id = @facts WHERE id = @id', { facts: facts.id, id: headReview });

      const tenders = [
        { screening_id: head.id, tender_id: 'T-1', load: null, action: 'hold', created_at: head.created_at },
        { screening_id: waiting.id, tender_id: 'T-2', load: { origin: 'Erie, PA' }, action: 'hold', created_at: waiting.created_at },
      ];
      const carrier = (await b.reviews.getReview(headReview))!;
      expect(carrier).toMatchObject({
        waits_on: null,
        tenders,
        version: 2,
        updated_at: facts.created_at,
        latest: { screening_id: facts.id, score_fetched_at: HOLD.score_fetched_at },
      });
      expect(carrier.latest.score?.score).toBe(20);
      expect(carrier.latest.changes).toEqual(['grade D → F']);
      const item = (await b.reviews.getReview(own))!;
      expect(item).toMatchObject({
        waits_on: headReview,
        version: 2,
        tenders: [tenders[1]],
        latest: { screening_id: facts.id },
        closed_by: null,
        previous_decision: null,
      });
      // Only carrier reviews are listed.
      expect((await b.reviews.listReviews('pending')).map((r) => r.id)).toEqual([headReview]);
      expect(await b.reviews.countPendingReviews()).toBe(1);
    });
  });

  describe('GET /reviews pages (keyset)', () => {
    /** Minute m of a fixed day; a few rows share a minute, so the tie-break is exercised. */
    const t = (m: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0) + m * 60_000).toISOString();
    let n = 0;
    /** A review in `state` at minute m, as list-keyset.test.ts writes one (its screening held). */
    async function review(state: string, m: number, parent: string | null = null): Promise<string> {
      const k = ++n;
      await b.sql(
        `INSERT INTO screenings (id, status, query_kind, query_value, priority, action, created_at, completed_at)
         VALUES (@id, 'done', 'dot_number', '1000001', 'tender', 'hold', @at, @at)`,
        { id: `scr_r${k}`, at: t(m) },
      );
      const decided = state === 'pending' ? null : t(m);
      await b.sql(
        `INSERT INTO reviews (id, screening_id, state, hold_reason, decided_by, decided_at, created_at, carrier_key, parent_id)
         VALUES (@id, @sid, @state, 'manual_review', @by, @decided, @at, @carrier, @parent)`,
        {
          id: `rev_${k}`,
          sid: `scr_r${k}`,
          state,
          by: decided ? 'Dana' : null,
          decided,
          at: t(m),
          // One open review per carrier (reviews_one_open on PostgreSQL): a carrier each.
          carrier: `dot:${k}`,
          parent,
        },
      );
      return `rev_${k}`;
    }

    type State = 'pending' | 'approved' | 'rejected' | 'closed' | 'superseded' | 'decided' | undefined;
    const STATES: State[] = ['pending', 'approved', 'rejected', 'closed', 'superseded', 'decided', undefined];

    async function filled(state: State, count: number): Promise<string[]> {
      const made: Array<{ id: string; m: number; i: number }> = [];
      for (let i = 0; i < count; i++) {
        const m = 10 + Math.floor(i / 3) * 2;
        made.push({ id: await review(state === undefined || state === 'decided' ? (n % 2 ? 'approved' : 'rejected') : state, m), m, i });
        if (i % 4 === 0) {
          // Rows not in the list: another state, and a tender's own item waiting on a carrier review.
          if (state !== undefined) await review(state === 'pending' ? 'approved' : state === 'decided' ? 'closed' : 'pending', m);
          await review(state === 'decided' || state === undefined ? 'approved' : state, m, 'rev_carrier');
        }
      }
      const asc = state === 'pending';
      made.sort((a, c) => (asc ? a.m - c.m || a.i - c.i : c.m - a.m || c.i - a.i));
      return made.map((x) => x.id);
    }

    async function walk(state: State, limit: number, between?: () => Promise<void>): Promise<string[]> {
      const seen: string[] = [];
      let p = await b.reviews.pageReviews(state, { limit });
      for (;;) {
        seen.push(...p.data.map((x) => x.id));
        if (!p.has_more) return seen;
        await between?.();
        p = await b.reviews.pageReviews(state, { limit, starting_after: seen[seen.length - 1]! });
      }
    }

    async function walkBack(state: State, limit: number, last: string): Promise<string[]> {
      const seen: string[] = [last];
      for (;;) {
        const p = await b.reviews.pageReviews(state, { limit, ending_before: seen[0]! });
        seen.unshift(...p.data.map((x) => x.id));
        if (!p.has_more) return seen;
      }
    }

    it.each(STATES.map((s) => [s ?? 'all', s] as const))(
      '%s: in the list order, every row once, while rows are added between pages; back by ending_before',
      async (_label, state) => {
        n = 0;
        const expected = await filled(state, 13);
        const first = await b.reviews.pageReviews(state, { limit: 5 });
        expect(first.data.map((x) => x.id)).toEqual(expected.slice(0, 5));
        expect(first.has_more).toBe(true);
        expect(first.data[0]).toEqual(await b.reviews.getReview(expected[0]!));
        expect(await b.reviews.pageReviews(state, { limit: 13 })).toMatchObject({ has_more: false });
        for (const limit of [1, 4, 13, 100]) expect(await walk(state, limit)).toEqual(expected);

        // Rows added between pages: never seen by a newest-first walk begun before them, seen once
        // at the end of an oldest-first one.
        let k = 0;
        const seen = await walk(state, 4, async () => {
          await review(state === undefined || state === 'decided' ? 'approved' : state, 500 + k++);
        });
        expect(new Set(seen).size).toBe(seen.length);
        if (state === 'pending') expect(seen.slice(0, expected.length)).toEqual(expected);
        else expect(seen).toEqual(expected);

        // Back from the last row, in pages: the same list; the page before the first is empty.
        const all = await walk(state, 100);
        expect(await walkBack(state, 3, all[all.length - 1]!)).toEqual(all);
        expect(await b.reviews.pageReviews(state, { limit: 3, ending_before: all[0]! })).toEqual({ data: [], has_more: false });
        const back = await b.reviews.pageReviews(state, { limit: 2, ending_before: all[3]! });
        expect(back).toMatchObject({ data: [{ id: all[1] }, { id: all[2] }], has_more: true });
      },
    );

    it('a cursor not in the list (with these filters) is refused, naming the parameter; so are both cursors and a bad limit', async () => {
      n = 0;
      const ids = await filled('pending', 3);
      const approved = await review('approved', 99);
      for (const param of ['starting_after', 'ending_before'] as const) {
        for (const cursor of ['nope_1', approved]) {
          const err = await rejection(b.reviews.pageReviews('pending', { limit: 2, [param]: cursor }));
          expect(err).toBeInstanceOf(StoreArgumentError);
          expect(err).toMatchObject({ param, message: expect.stringMatching(/is not in this list/) });
        }
      }
      expect(
        await rejection(b.reviews.pageReviews('pending', { limit: 2, starting_after: ids[0]!, ending_before: ids[1]! })),
      ).toMatchObject({
        param: 'ending_before',
      });
      expect(await rejection(b.reviews.pageReviews('pending', { limit: 0 }))).toMatchObject({ param: 'limit' });
      expect(await rejection(b.reviews.pageReviews('open' as never, { limit: 2 }))).toMatchObject({ param: 'state' });
      expect(await b.reviews.pageReviews('pending', { limit: 5 })).toMatchObject({ has_more: false });
    });
  });
});

describe('postgres only: several hosts at once', () => {
  let b: Backend;
  beforeEach(async () => {
    clock = T0;
    b = await makePg();
  });

  /** Until a statement of this database waits on a row lock (another client's uncommitted write). */
  async function untilWaitingOnALock(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await pgDb!.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (rows[0]!.n > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no statement came to wait on the lock');
  }

  /**
   * `first` runs in a transaction on one pool client and stays uncommitted until `second`, on
   * another client, waits on its row; then it commits. Both outcomes.
   */
  async function overlapped<A, B>(
    first: (tx: ReturnType<typeof poolExecutor>) => Promise<A>,
    second: (x: ReturnType<typeof poolExecutor>) => Promise<B>,
  ): Promise<[PromiseSettledResult<A>, PromiseSettledResult<B>]> {
    const x = poolExecutor(pgDb!.pool);
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    let commit!: () => void;
    const held = new Promise<void>((r) => (commit = r));
    const a = x.transaction(async (tx) => {
      const value = await first(tx);
      wrote();
      await held;
      return value;
    });
    await written;
    const bb = second(x);
    await untilWaitingOnALock();
    commit();
    return Promise.allSettled([a, bb]) as Promise<[PromiseSettledResult<A>, PromiseSettledResult<B>]>;
  }

  it('one review decided on two hosts at once: the first wins, the second waits on the row and gets the conflict', async () => {
    const { review, screening } = await heldWithReview(b);
    later(60_000);
    const [a, second] = await overlapped(
      (tx) => pgReviewsOf(tx, { now }).resolveReview(review.id, 'approved', 'dana', null),
      (x) => pgReviewsOf(x, { now }).resolveReview(review.id, 'rejected', 'eve', 'no'),
    );
    expect(a).toMatchObject({ status: 'fulfilled', value: { state: 'approved', decided_by: 'dana' } });
    expect(second).toMatchObject({ status: 'rejected', reason: expect.any(ReviewConflictError) });
    expect((second as PromiseRejectedResult).reason).toMatchObject({ message: `review ${review.id} is already approved` });
    // The loser changed nothing: the winner's decision and action, one version each.
    expect(await b.reviews.getReview(review.id)).toEqual((a as PromiseFulfilledResult<Review>).value);
    expect(await b.screenings.getScreening(screening.id)).toMatchObject({ action: 'tender', version: 4 });
  });

  it('decided at once, unsynchronised, many times: exactly one decision per review', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await heldWithReview(b, String(3000001 + i))).review.id);
    const x = poolExecutor(pgDb!.pool);
    const hostA = pgReviewsOf(x, { now });
    const hostB = pgReviewsOf(x, { now });
    const outcomes = await Promise.all(
      ids.map((id) => Promise.allSettled([hostA.resolveReview(id, 'approved', 'a', null), hostB.resolveReview(id, 'rejected', 'b', null)])),
    );
    for (const [i, pair] of outcomes.entries()) {
      const won = pair.filter((o) => o.status === 'fulfilled');
      expect(won, ids[i]).toHaveLength(1);
      expect(pair.find((o) => o.status === 'rejected')).toMatchObject({ reason: expect.any(ReviewConflictError) });
      const state = (won[0] as PromiseFulfilledResult<Review>).value.state;
      expect((await b.reviews.getReview(ids[i]!))!.state).toBe(state);
      expect((await b.reviews.getReview(ids[i]!))!.screening.action).toBe(state === 'approved' ? 'tender' : 'block');
    }
    expect(await b.reviews.countPendingReviews()).toBe(0);
  });

  it('one screening completed on two hosts at once: one completion, the other finds it done (changed=false)', async () => {
    const s = await b.screenings.insertScreening(NEW);
    await b.screenings.markActive(s.id);
    later(1000);
    const [a, second] = await overlapped(
      (tx) => pgScreeningsOf(tx, { now }).completeScreening(s.id, HOLD),
      (x) => pgScreeningsOf(x, { now }).completeScreening(s.id, { ...HOLD, action: 'block', hold_reason: null }),
    );
    expect(a).toMatchObject({ status: 'fulfilled', value: { changed: true, screening: { action: 'hold', version: 3 } } });
    expect(second).toMatchObject({ status: 'fulfilled', value: { changed: false } });
    expect((second as PromiseFulfilledResult<{ screening: Screening }>).value.screening).toEqual(
      (a as PromiseFulfilledResult<{ screening: Screening }>).value.screening,
    );
  });

  it('a re-screen waiting on a decision being made finds the screening no longer held (false, nothing written)', async () => {
    const { review, screening } = await heldWithReview(b);
    const tender: ScreeningResult = { ...HOLD, action: 'tender', hold_reason: null };
    const [a, second] = await overlapped(
      (tx) => pgReviewsOf(tx, { now }).resolveReview(review.id, 'rejected', 'dana', null),
      (x) => pgScreeningsOf(x, { now }).rescreenResult(screening.id, tender),
    );
    expect(a).toMatchObject({ status: 'fulfilled' });
    expect(second).toEqual({ status: 'fulfilled', value: false });
    expect(await b.screenings.getScreening(screening.id)).toMatchObject({ action: 'block', hold_reason: 'manual_review' });
  });

  it('a discard waiting on a worker taking the screening keeps it (false)', async () => {
    const s = await b.screenings.insertScreening(NEW);
    const [a, second] = await overlapped(
      (tx) => pgScreeningsOf(tx, { now }).markActive(s.id),
      (x) => pgScreeningsOf(x, { now }).discardScreening(s.id),
    );
    expect(a).toMatchObject({ status: 'fulfilled' });
    expect(second).toEqual({ status: 'fulfilled', value: false });
    expect((await b.screenings.getScreening(s.id))?.status).toBe('active');
  });

  it('a decision and a late completion on two hosts at once, in either order: the decision is the action', async () => {
    for (const first of ['decision', 'completion'] as const) {
      const { screening: s, review } = await heldWithReview(b, first === 'decision' ? '4000001' : '4000002', false);
      const decide = (x: ReturnType<typeof poolExecutor>) => pgReviewsOf(x, { now }).resolveReview(review.id, 'approved', 'dana', null);
      const complete = (x: ReturnType<typeof poolExecutor>) => pgScreeningsOf(x, { now }).completeScreening(s.id, HOLD);
      const outcomes = first === 'decision' ? await overlapped(decide, complete) : await overlapped(complete, decide);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
      expect(await b.screenings.getScreening(s.id), first).toMatchObject({
        status: 'done',
        action: 'tender',
        hold_reason: 'manual_review',
        review: { state: 'approved' },
      });
    }
  });

  it("inside a caller's transaction a decision is the caller's: rolled back with it", async () => {
    const { review, screening } = await heldWithReview(b);
    const x = poolExecutor(pgDb!.pool);
    const boom = new Error('the caller failed after the decision');
    await expect(
      x.transaction(async (tx) => {
        await pgReviewsOf(tx, { now }).resolveReview(review.id, 'approved', 'dana', null);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await b.reviews.getReview(review.id)).toEqual(review);
    expect(await b.screenings.getScreening(screening.id)).toMatchObject({ action: 'hold', version: 2 });
    expect(await b.reviews.countPendingReviews()).toBe(1);
  });
});

describe('postgres only: the lists read an index in their order', () => {
  // A record of some size (4 000 reviews, every state, some waiting on a carrier review), analysed:
  // on a handful of rows any plan is as good as another.
  beforeAll(async () => {
    await pgDb!.pool.query('TRUNCATE screenings, reviews, score_fetches CASCADE');
    await pgDb!.pool.query(`
      INSERT INTO screenings (id, status, query_kind, query_value, priority, action, created_at, completed_at)
      SELECT 'scr_p' || i, CASE WHEN i % 50 = 0 THEN 'queued' ELSE 'done' END, 'dot_number', '1000001', 'tender', 'hold',
        to_char(timestamp '2026-11-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        to_char(timestamp '2026-11-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      FROM generate_series(1, 4000) i`);
    await pgDb!.pool.query(`
      INSERT INTO reviews (id, screening_id, state, hold_reason, decided_by, decided_at, created_at, carrier_key, parent_id)
      SELECT 'rev_p' || i, 'scr_p' || i, st, 'manual_review', CASE WHEN st <> 'pending' THEN 'Dana' END,
        CASE WHEN st <> 'pending' THEN to_char(timestamp '2026-11-02' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END,
        to_char(timestamp '2026-11-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'dot:' || i, CASE WHEN i % 10 = 0 THEN 'rev_p' || (i - 1) END
      FROM generate_series(1, 4000) i,
        LATERAL (SELECT (ARRAY['pending', 'approved', 'rejected', 'closed', 'superseded'])[1 + i % 5] AS st) s`);
    await pgDb!.pool.query('ANALYZE screenings; ANALYZE reviews');
  });

  /**
   * The plan of `sql` (with @names). `ordered`: with sorts and table scans priced out, so a Sort
   * or a Seq Scan left means no index gives the list's order (at this size PostgreSQL may
   * rightly sort a few hundred rows; on a year's record it must not have to).
   */
  async function plan(sql: string, params: Row, ordered: boolean): Promise<string> {
    const { text, names } = positional(sql);
    const client = await pgDb!.pool.connect();
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

  it.each([['pending'], ['approved'], ['closed'], ['decided'], ['all']] as const)(
    'GET /reviews?state=%s: an index gives every page shape its order (no sort, no scan of the table); the cursor is found by its key',
    async (label) => {
      const list = pgReviewList(label === 'all' ? undefined : label);
      for (const [withCursor, backwards] of [
        [false, false],
        [true, false],
        [true, true],
      ] as const) {
        const p = await plan(
          keysetSql(list, withCursor, backwards),
          {
            ...list.params,
            page_limit: 101,
            cursor_key: '2026-11-02T12:00:00.000Z',
            cursor_tie: 2000,
          },
          true,
        );
        expect(p, p).not.toMatch(/\bSort\b|Seq Scan on reviews|Seq Scan on screenings/);
        expect(p, p).toMatch(/Index Scan( Backward)? using reviews_\w+ on reviews r/);
      }
      const c = await plan(cursorSql(list), { ...list.params, cursor_id: 'rev_p2000' }, false);
      expect(c, c).toMatch(/Index Scan using reviews_pkey on reviews r/);
    },
  );
});
