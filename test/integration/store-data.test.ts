import { recordOf } from '../../worker/store/index.js';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Review, Screening } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { CarrierDecisions } from '../../worker/decisions/carrier-decisions.js';
import {
  NotFoundError,
  openStore,
  ReviewConflictError,
  StoreArgumentError,
  type ScreeningResult,
  type Store,
} from '../../worker/store/index.js';
import { localBlocksOf } from '../../worker/store/local-blocks-repo.js';
import { tempDbPath } from '../helpers/temp-db.js';

/** The sandbox's review carrier, with fields the spec does not list (they must survive). */
function sampleScore(over: Partial<SvcScore> = {}): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: '1000003', mc_number: 'MC1000003', legal_name: 'Test Carrier 3 LLC', dba_name: null, region: 'NE' },
    score: 66,
    grade: 'D',
    decision: 'review',
    verdict: 'Needs a look',
    needs_manual_review: true,
    knockout: { triggered: false, reasons: [] },
    reasons: [
      {
        check: 'oos_rate',
        area: 'Safety & Roadside',
        severity: 'medium',
        detail: 'Out-of-service rate above national average.',
        facts: [{ label: 'OOS rate', value: '31%', unit_hint: 'percent' }],
        weight: 0.4,
      },
    ],
    checks: { total: 53, triggered: 1, passed: 46, not_checked: 6 },
    flags: ['new_authority', 'some_future_flag'],
    data_confidence: 0.92,
    model_version: 'carrier-risk-3.5-sandbox',
    calculated_at: '2025-03-15T08:00:00Z',
    future_field: { nested: [1, 'two', null] },
    ...over,
  } as SvcScore;
}

const T0 = new Date('2025-03-15T12:00:00.000Z');

let db: ReturnType<typeof tempDbPath>;
let clock: Date;
let store: Store;

beforeEach(() => {
  db = tempDbPath();
  clock = T0;
  store = openStore(db.path, { now: () => clock });
});

afterEach(() => {
  store.close();
  db.cleanup();
});

function later(ms: number): Date {
  clock = new Date(clock.getTime() + ms);
  return clock;
}

describe('score cache', () => {
  it('finds a score by DOT and by its MC alias, per environment', () => {
    store.putScore('sandbox', sampleScore());
    const byDot = store.getScore('sandbox', { dot_number: '1000003' });
    const byMc = store.getScore('sandbox', { mc_number: 'MC1000003' });
    expect(byDot).toEqual({
      score: sampleScore(),
      fetched_at: T0.toISOString(),
      model_version: 'carrier-risk-3.5-sandbox',
      fetch_id: expect.any(Number),
    });
    expect(byMc).toEqual(byDot);
    expect(store.getScore('live', { dot_number: '1000003' })).toBeUndefined();
    expect(store.getScore('sandbox', { dot_number: '1000005' })).toBeUndefined();
    expect(store.getScore('sandbox', { mc_number: 'MC1000005' })).toBeUndefined();
  });

  it('treats zero-padded and spelled-differently numbers as the same carrier', () => {
    store.putScore('sandbox', sampleScore());
    expect(store.getScore('sandbox', { dot_number: '01000003' })?.score.score).toBe(66);
    expect(store.getScore('sandbox', { mc_number: 'mc-001000003' })?.score.score).toBe(66);
  });

  it('replaces an older entry, moves the MC alias, and ignores a write older than what it holds', () => {
    store.putScore('sandbox', sampleScore(), new Date('2025-03-15T10:00:00Z'));
    const newer = sampleScore({
      score: 70,
      model_version: 'carrier-risk-3.6-sandbox',
      carrier: { ...sampleScore().carrier, mc_number: 'MC77' },
    });
    store.putScore('sandbox', newer, new Date('2025-03-15T11:00:00Z'));
    const got = store.getScore('sandbox', { dot_number: '1000003' });
    expect(got?.score.score).toBe(70);
    expect(got?.model_version).toBe('carrier-risk-3.6-sandbox');
    expect(got?.fetched_at).toBe('2025-03-15T11:00:00.000Z');
    expect(store.getScore('sandbox', { mc_number: 'MC77' })?.score.score).toBe(70);
    expect(store.getScore('sandbox', { mc_number: 'MC1000003' })).toBeUndefined();

    // Another process that fetched earlier but writes later must not overwrite the newer score.
    store.putScore('sandbox', sampleScore({ score: 1 }), new Date('2025-03-15T09:00:00Z'));
    expect(store.getScore('sandbox', { dot_number: '1000003' })?.score.score).toBe(70);
  });

  it('keeps a score without an MC number reachable by DOT only', () => {
    store.putScore('live', sampleScore({ carrier: { dot_number: '42', mc_number: null, legal_name: null, dba_name: null } }));
    expect(store.getScore('live', { dot_number: '42' })?.score.carrier.mc_number).toBeNull();
  });

  it('caches not-found answers per query, and a later score clears them', () => {
    const error = { code: 'carrier_not_found', message: 'No carrier with that number', request_id: 'req_1' };
    store.putNotFound('sandbox', { dot_number: '4242' }, error);
    store.putNotFound('sandbox', { mc_number: 'MC1000003' }, error, new Date('2025-03-15T11:59:00Z'));
    expect(store.getNotFound('sandbox', { dot_number: '4242' })).toEqual({ fetched_at: T0.toISOString(), error });
    expect(store.getNotFound('live', { dot_number: '4242' })).toBeUndefined();
    expect(store.getNotFound('sandbox', { mc_number: 'MC1000003' })?.fetched_at).toBe('2025-03-15T11:59:00.000Z');
    store.putScore('sandbox', sampleScore());
    expect(store.getNotFound('sandbox', { mc_number: 'MC1000003' })).toBeUndefined();
    expect(store.getNotFound('sandbox', { dot_number: '4242' })).toBeDefined();
  });

  it('names the bad parameter', () => {
    expect(() => store.getScore('prod' as never, { dot_number: '1' })).toThrow(StoreArgumentError);
    expect(() => store.getScore('prod' as never, { dot_number: '1' })).toThrow(/env/);
    expect(() => store.getScore('live', {} as never)).toThrow(expect.objectContaining({ param: 'query' }));
    expect(() => store.putScore('live', { object: 'svc_score' } as never)).toThrow(expect.objectContaining({ param: 'score' }));
  });

  it('property: any score object, unknown fields included, round-trips byte-equal in JSON', () => {
    const known = new Set(Object.keys(sampleScore()));
    const extra = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.has(k) && k !== '__proto__'),
      fc.jsonValue({ maxDepth: 3 }),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]\d{0,7}$/),
        fc.integer({ min: 0, max: 100 }),
        fc.string(),
        extra,
        extra,
        (dot, score, decision, top, carrierExtra) => {
          const s = {
            ...sampleScore({ score, decision }),
            ...top,
            carrier: { dot_number: dot, mc_number: `MC${dot}`, legal_name: null, dba_name: null, ...carrierExtra },
          } as SvcScore;
          store.putScore('live', s, later(1000));
          const want = JSON.stringify(s);
          expect(JSON.stringify(store.getScore('live', { dot_number: dot })?.score)).toBe(want);
          expect(JSON.stringify(store.getScore('live', { mc_number: `MC${dot}` })?.score)).toBe(want);
          const scr = store.insertScreening({
            query: { dot_number: dot },
            tender_id: null,
            priority: 'tender',
            refresh: false,
            callback_url: null,
          });
          const done = store.completeScreening(scr.id, {
            action: 'hold',
            hold_reason: 'unknown_decision',
            source: 'service',
            score: s,
            score_fetched_at: clock.toISOString(),
            error: null,
          });
          expect(JSON.stringify(done.screening.score)).toBe(want);
          expect(JSON.stringify(store.getScreening(scr.id)?.score)).toBe(want);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('property: a DOT number with any zero padding finds the same entry', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999 }), fc.nat({ max: 7 }), (n, pad) => {
        const dot = String(n);
        store.putScore(
          'sandbox',
          sampleScore({ carrier: { dot_number: dot, mc_number: null, legal_name: null, dba_name: null } }),
          later(1),
        );
        expect(store.getScore('sandbox', { dot_number: '0'.repeat(pad) + dot })?.score.carrier.dot_number).toBe(dot);
      }),
    );
  });
});

const HOLD: ScreeningResult = {
  action: 'hold',
  hold_reason: 'manual_review',
  source: 'service',
  score: sampleScore(),
  score_fetched_at: T0.toISOString(),
  error: null,
};

function newScreening(over: Partial<Parameters<Store['insertScreening']>[0]> = {}) {
  return store.insertScreening({
    query: { dot_number: '1000003' },
    tender_id: 'T-1',
    priority: 'tender',
    refresh: false,
    callback_url: null,
    ...over,
  });
}

describe('screenings', () => {
  it('inserts a queued screening shaped like shared/screening.ts', () => {
    const s = newScreening({ query: { mc_number: 'MC1000003' }, callback_url: 'https://tms.example/cb' });
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
    expect(Object.keys(s)).toEqual([
      'object',
      'id',
      'tender_id',
      'load',
      'status',
      'query',
      'priority',
      'refresh',
      'action',
      'hold_reason',
      'source',
      'score',
      'score_fetched_at',
      'score_age_seconds',
      'review',
      'settled_by',
      'standing_decision',
      'error',
      'callback_url',
      'created_at',
      'completed_at',
      'updated_at',
      'version',
    ]);
    expect(store.getScreening(s.id)).toEqual(s);
    // Every change of it is a new version (screenings.version, kept by triggers).
    store.markActive(s.id);
    expect(store.getScreening(s.id)!.version).toBe(2);
  });

  it('keeps a caller-chosen id and refuses a duplicate with a StoreError', () => {
    const s = newScreening({ id: 'scr_fixed' });
    expect(s.id).toBe('scr_fixed');
    expect(() => newScreening({ id: 'scr_fixed' })).toThrow(expect.objectContaining({ name: 'StoreError', code: 'sqlite_constraint' }));
    expect(() => newScreening({ id: 'has space' })).toThrow(expect.objectContaining({ param: 'id' }));
  });

  it('goes queued -> active -> done; completing is idempotent and stores the model version', () => {
    const s = newScreening();
    store.markActive(s.id);
    expect(store.getScreening(s.id)?.status).toBe('active');
    later(1500);
    const first = store.completeScreening(s.id, HOLD);
    expect(first.changed).toBe(true);
    expect(first.screening).toMatchObject({
      status: 'done',
      action: 'hold',
      hold_reason: 'manual_review',
      source: 'service',
      completed_at: clock.toISOString(),
    });
    expect(first.screening.score).toEqual(sampleScore());

    later(1000);
    const again = store.completeScreening(s.id, { ...HOLD, action: 'block', hold_reason: null });
    expect(again.changed).toBe(false);
    expect(again.screening).toEqual(first.screening);
    store.markActive(s.id); // done stays done
    expect(store.getScreening(s.id)).toEqual(first.screening);
  });

  it('keeps the refresh flag', () => {
    expect(newScreening({ refresh: true }).refresh).toBe(true);
  });

  it('discards a screening only while it is still queued', () => {
    const a = newScreening();
    const b = newScreening();
    store.markActive(b.id);
    expect(store.discardScreening(a.id)).toBe(true);
    expect(store.getScreening(a.id)).toBeUndefined();
    expect(store.discardScreening(a.id)).toBe(false);
    expect(store.discardScreening(b.id)).toBe(false);
    expect(store.getScreening(b.id)?.status).toBe('active');
  });

  it('stores an error result without a score', () => {
    const s = newScreening({ query: { dot_number: '4242' } });
    const error = { code: 'carrier_not_found', message: 'not found', request_id: 'req_9' };
    const { screening } = store.completeScreening(s.id, {
      action: 'block',
      hold_reason: null,
      source: 'none',
      score: null,
      score_fetched_at: null,
      error,
    });
    expect(screening).toMatchObject({ action: 'block', score: null, error });
  });

  it('raises NotFoundError for unknown ids and returns undefined from getters', () => {
    expect(() => store.markActive('scr_nope')).toThrow(NotFoundError);
    expect(() => store.completeScreening('scr_nope', HOLD)).toThrow(NotFoundError);
    expect(store.getScreening('scr_nope')).toBeUndefined();
  });

  it('lists unfinished screenings oldest first (insertion order breaks a tie)', () => {
    const a = newScreening({ tender_id: 'a' });
    later(1);
    const b = newScreening({ tender_id: 'b' });
    const c = newScreening({ tender_id: 'c' }); // same millisecond as b: insertion order breaks the tie
    later(1);
    const d = newScreening({ tender_id: 'd' });
    store.markActive(c.id);
    store.completeScreening(d.id, HOLD);

    expect(store.listUnfinished().map((s) => s.id)).toEqual([a.id, b.id, c.id]);
  });
});

describe('reviews', () => {
  /**
   * A held screening's review item, opened as production opens it: the pipeline's
   * CarrierDecisions.onHold, in one transaction (one open review per carrier: each `dot` here
   * is a carrier of its own). Done held unless `completed` is false (the pipeline opens the
   * review before it completes the screening).
   */
  async function heldWithReview(dot = '1000003', completed = true): Promise<{ screening: Screening; review: Review }> {
    const decisions = new CarrierDecisions({ store: recordOf(store), env: 'sandbox', ttlMs: 30 * 24 * 3_600_000, now: () => clock });
    const s = newScreening({ query: { dot_number: dot } });
    const hold = { ...HOLD, score: sampleScore({ carrier: { ...sampleScore().carrier, dot_number: dot, mc_number: null } }) };
    const o = await recordOf(store).unitOfWork((tx) => decisions.onHold(tx, s, hold));
    if (o.kind !== 'review' || o.joined) throw new Error(`expected a review of its own, got ${JSON.stringify(o)}`);
    if (completed) store.completeScreening(s.id, hold);
    return { screening: s, review: store.getReview(o.reviewId)! };
  }

  it('resolves once; a second resolve is a ReviewConflictError and changes nothing', async () => {
    const { review } = await heldWithReview();
    later(60_000);
    const approved = store.resolveReview(review.id, 'approved', 'dana', 'known carrier');
    expect(approved).toMatchObject({ state: 'approved', decided_by: 'dana', decided_at: clock.toISOString(), note: 'known carrier' });
    // The dispatcher's decision becomes the screening's action; hold_reason stays as history.
    expect(approved.screening).toMatchObject({
      action: 'tender',
      hold_reason: 'manual_review',
      review: { state: 'approved', decided_by: 'dana' },
    });

    later(1000);
    expect(() => store.resolveReview(review.id, 'rejected', 'eve', null)).toThrow(ReviewConflictError);
    expect(store.getReview(review.id)).toEqual(approved);
    expect(() => store.resolveReview('rev_nope', 'rejected', 'eve', null)).toThrow(NotFoundError);
    expect(() => store.resolveReview(review.id, 'maybe' as never, 'eve', null)).toThrow(expect.objectContaining({ param: 'state' }));
    expect(store.countPendingReviews()).toBe(0);
  });

  it('a decision made before a late completion survives it', async () => {
    // The pipeline opens the review before it completes the screening; a crash in between
    // re-runs the completion after the dispatcher may already have decided.
    const { screening: s, review } = await heldWithReview('1000003', false);
    store.resolveReview(review.id, 'rejected', 'dana', null);
    const { screening } = store.completeScreening(s.id, HOLD);
    expect(screening).toMatchObject({ status: 'done', action: 'block', hold_reason: 'manual_review', review: { state: 'rejected' } });
  });

  it('a rejection blocks the screening', async () => {
    const { review } = await heldWithReview();
    expect(store.resolveReview(review.id, 'rejected', 'dana', null).screening.action).toBe('block');
  });

  it('lists pending oldest first and decided newest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      later(1000);
      ids.push((await heldWithReview(String(2000001 + i))).review.id);
    }
    later(1000);
    store.resolveReview(ids[0]!, 'approved', 'a', null);
    later(1000);
    store.resolveReview(ids[1]!, 'approved', 'b', null);
    expect(store.listReviews('pending').map((r) => r.id)).toEqual([ids[2], ids[3]]);
    expect(store.listReviews('approved').map((r) => r.id)).toEqual([ids[1], ids[0]]);
    expect(store.listReviews('rejected')).toEqual([]);
    expect(store.listReviews(undefined, 3).map((r) => r.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(() => store.listReviews('open' as never)).toThrow(expect.objectContaining({ param: 'state' }));
  });
});

describe('usage', () => {
  it('counts lookups per UTC day and lists every day of the month up to today, zeros included', () => {
    store.recordLookup('live', new Date('2025-03-01T00:00:00Z'));
    store.recordLookup('live', new Date('2025-03-01T23:59:59.999Z'));
    store.recordLookup('live', new Date('2025-03-14T10:00:00Z'));
    store.recordLookup('live', new Date('2025-02-28T23:59:59Z')); // previous month
    store.recordLookup('live', new Date('2025-03-15T00:30:00+01:00')); // 14th in UTC
    store.recordLookup('sandbox', new Date('2025-03-02T10:00:00Z'));
    store.recordLookup('live'); // now: the 15th

    const days = store.dailyLookups('live', '2025-03');
    expect(days).toHaveLength(15);
    expect(days[0]).toEqual({ day: '2025-03-01', lookups: 2 });
    expect(days[1]).toEqual({ day: '2025-03-02', lookups: 0 });
    expect(days[13]).toEqual({ day: '2025-03-14', lookups: 2 });
    expect(days[14]).toEqual({ day: '2025-03-15', lookups: 1 });
    expect(days.reduce((n, d) => n + d.lookups, 0)).toBe(5);

    const feb = store.dailyLookups('live', '2025-02');
    expect(feb).toHaveLength(28);
    expect(feb.at(-1)).toEqual({ day: '2025-02-28', lookups: 1 });
    expect(store.dailyLookups('live', '2024-02')).toHaveLength(29);
    expect(store.dailyLookups('live', '2025-04')).toEqual([]);
    expect(() => store.dailyLookups('live', '2025-3')).toThrow(expect.objectContaining({ param: 'month' }));
  });

  it('keeps the latest usage snapshot per environment', () => {
    expect(store.latestUsageSnapshot('live')).toBeUndefined();
    store.putUsageSnapshot('live', { monthly_quota: 1000, used: 10, remaining: 990, rate_limit_per_minute: 60 });
    later(1000);
    store.putUsageSnapshot('live', { monthly_quota: 1000, used: 11, remaining: 989, rate_limit_per_minute: null });
    store.putUsageSnapshot('live', { monthly_quota: 1000, used: 5, remaining: 995, rate_limit_per_minute: 60 }, T0); // older: ignored
    expect(store.latestUsageSnapshot('live')).toEqual({
      monthly_quota: 1000,
      used: 11,
      remaining: 989,
      rate_limit_per_minute: null,
      at: clock.toISOString(),
    });
    expect(store.latestUsageSnapshot('sandbox')).toBeUndefined();
  });
});

describe('events', () => {
  it('appends with increasing ids and replays after an id', () => {
    expect(store.lastEventId()).toBe(0);
    const e1 = store.appendEvent('screening.completed', { id: 'scr_1' });
    const e2 = store.appendEvent('review.created', { id: 'rev_1', nested: { a: [1, 2] } });
    const e3 = store.appendEvent('queue.changed', null);
    expect([e1.id, e2.id, e3.id]).toEqual([1, 2, 3]);
    expect(store.lastEventId()).toBe(3);
    expect(store.eventsSince(1)).toEqual([e2, e3]);
    expect(store.eventsSince(0, 1)).toEqual([e1]);
    expect(store.eventsSince(3)).toEqual([]);
    expect(e2.data).toEqual({ id: 'rev_1', nested: { a: [1, 2] } });
  });
});

describe('transactions', () => {
  it('commit every write inside together, a repository opened on the store (the local blocks) included', () => {
    const blocks = localBlocksOf(store);
    const s = store.transaction(() => {
      const s = store.insertScreening({
        query: { dot_number: '1000003' },
        tender_id: null,
        priority: 'tender',
        refresh: false,
        callback_url: null,
      });
      store.appendEvent('screening.completed', { id: s.id });
      blocks.addBlock({
        carrierKey: 'dot:1000003',
        dot_number: '1000003',
        mc_number: null,
        reason: 'test',
        by: 'ann',
        at: T0.toISOString(),
      });
      return s;
    });
    expect(store.getScreening(s.id)?.status).toBe('queued');
    expect(store.lastEventId()).toBe(1);
    expect(blocks.activeBlock({ dot_number: '1000003', mc_number: null })?.reason).toBe('test');
  });

  it('roll back every write inside when the function throws, and rethrow its error', () => {
    const blocks = localBlocksOf(store);
    let id = '';
    expect(() =>
      store.transaction(() => {
        id = store.insertScreening({
          query: { dot_number: '1000005' },
          tender_id: null,
          priority: 'tender',
          refresh: false,
          callback_url: null,
        }).id;
        store.appendEvent('screening.completed', { id });
        blocks.addBlock({
          carrierKey: 'dot:1000005',
          dot_number: '1000005',
          mc_number: null,
          reason: 'test',
          by: 'ann',
          at: T0.toISOString(),
        });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(id).not.toBe('');
    expect(store.getScreening(id)).toBeUndefined();
    expect(store.lastEventId()).toBe(0);
    expect(blocks.activeBlock({ dot_number: '1000005', mc_number: null })).toBeUndefined();
  });

  it('keep the outer writes when an inner transaction fails and is caught (a savepoint)', () => {
    const s = store.transaction(() => {
      const s = store.insertScreening({
        query: { dot_number: '1000003' },
        tender_id: null,
        priority: 'tender',
        refresh: false,
        callback_url: null,
      });
      try {
        store.transaction(() => {
          store.appendEvent('review.created', { id: 'x' });
          throw new Error('inner');
        });
      } catch {
        /* the pipeline's watch record does this: its failure never undoes the screening */
      }
      return s;
    });
    expect(store.getScreening(s.id)?.id).toBe(s.id);
    expect(store.lastEventId()).toBe(0);
  });

  it('refuse something that is not a function', () => {
    expect(() => store.transaction(42 as unknown as () => void)).toThrow(StoreArgumentError);
  });
});
