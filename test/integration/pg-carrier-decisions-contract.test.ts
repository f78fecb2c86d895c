/**
 * The rules of carrier decisions (worker/decisions/carrier-decisions.ts) and of Idempotency-Keys
 * (idempotency.ts) over the record, the same cases on both backends (issue 34): SQLite's
 * recordOf(store) and PostgreSQL's store. Every step
 * runs as the product runs it: the rules' writes in a unit of work, on its handle; get, list and
 * page on the store's repositories (committed rows). The repositories' own cases are
 * pg-decisions-contract.test.ts; this holds the rules to them on either backend.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { CarrierDecisions, type LockedScreening, type ReviewOutcome } from '../../worker/decisions/carrier-decisions.js';
import { GroupCommit } from '../../worker/store/group-commit.js';
import { IdempotencyKeys } from '../../worker/decisions/idempotency.js';
import { ReviewConflictError, type RecordStore, type RecordTx, type ScreeningResult } from '../../worker/store/index.js';
import { RECORD_BACKENDS } from '../helpers/record-backends.js';

const DOT = '1000003';
const DAY = 86_400_000;
const actor = { by: 'Dana Dispatcher', token_id: null };

function score(over: Partial<SvcScore> = {}): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: DOT, mc_number: 'MC1000003', legal_name: 'Test Carrier 3 LLC', dba_name: null, region: 'NE' },
    score: 66,
    grade: 'D',
    decision: 'review',
    verdict: 'Needs a look',
    needs_manual_review: true,
    knockout: { triggered: false, reasons: [] },
    reasons: [],
    checks: { total: 53, triggered: 1, passed: 46, not_checked: 6 },
    flags: [],
    data_confidence: 0.92,
    model_version: 'carrier-risk-3.5-sandbox',
    calculated_at: '2025-03-15T08:00:00Z',
    ...over,
  } as SvcScore;
}

const held = (s: SvcScore): ScreeningResult => ({
  action: 'hold',
  hold_reason: 'manual_review',
  source: 'service',
  score: s,
  score_fetched_at: '2026-01-01T00:00:00.000Z',
  error: null,
});

describe.each(RECORD_BACKENDS)('CarrierDecisions on $name', (backend) => {
  let record: RecordStore;
  let close: () => Promise<void>;
  let clock = Date.UTC(2026, 0, 1);
  let decisions: CarrierDecisions;

  beforeAll(async () => {
    ({ record, close } = await backend.open());
    decisions = new CarrierDecisions({ store: record, env: 'sandbox', ttlMs: 30 * DAY, now: () => new Date(clock) });
  });
  afterAll(async () => {
    await close?.();
  });

  /** A tender held on `s`, as the pipeline finishes one: its hold (a review, or settled), then the screening done. */
  async function hold(tender: string, s: SvcScore) {
    clock += 60_000;
    const r = held(s);
    return record.unitOfWork(async (tx) => {
      const screening: Screening = await tx.screenings.insertScreening({
        query: { dot_number: DOT },
        tender_id: tender,
        priority: 'tender',
        refresh: false,
        callback_url: null,
      });
      await decisions.lockCarriers(tx, [{ id: screening.id, query: screening.query, score: s }]);
      const o = await decisions.onHold(tx, screening, r);
      const result = o.kind === 'settled' ? o.result : r;
      await tx.screenings.completeScreening(screening.id, result);
      if (o.kind === 'settled') await decisions.markSettled(tx, screening.id, result.action as 'tender', 'standing_decision', o.decision);
      return { screening, o };
    });
  }

  it('one review per carrier, resolved for every tender on it; the decision stands on its basis until the basis changes', async () => {
    const a = await hold('T-1', score());
    expect(a.o).toMatchObject({ kind: 'review', created: true, joined: false });
    const b = await hold('T-2', score());
    expect(b.o).toMatchObject({ kind: 'review', created: true, joined: true });
    const reviewId = a.o.kind === 'review' ? a.o.reviewId : '';
    expect(b.o.kind === 'review' && b.o.reviewId).toBe(reviewId);

    clock += 60_000;
    const r = await record.unitOfWork((tx) => decisions.resolve(tx, reviewId, 'approved', actor, 'known carrier'));
    expect(r).toMatchObject({ kind: 'resolved', review: { id: reviewId, state: 'approved', decided_by: actor.by }, ended: [] });
    expect(r.kind === 'resolved' && [...r.settled].sort()).toEqual([a.screening.id, b.screening.id].sort());
    expect(await record.screenings.getScreening(b.screening.id)).toMatchObject({ action: 'tender', settled_by: 'review' });

    // Read outside a unit: the store's repositories.
    const [standing] = await decisions.list({ state: 'standing' });
    expect(standing).toMatchObject({ state: 'standing', decision: 'approved', dot_number: DOT, decided_by: actor.by });
    expect(await decisions.get(standing!.id)).toEqual(standing);
    expect(await decisions.page({ dot_number: `00${DOT}` }, { limit: 10 })).toEqual({ data: [standing], has_more: false });

    // The same basis: settled at once by the standing decision.
    const c = await hold('T-3', score({ score: 67 }));
    expect(c.o).toMatchObject({ kind: 'settled', result: { action: 'tender' }, decision: { id: standing!.id } });
    expect(await record.screenings.getScreening(c.screening.id)).toMatchObject({
      action: 'tender',
      settled_by: 'standing_decision',
      standing_decision: { id: standing!.id },
    });

    // A fresh score on another basis ends it; ending it again is a conflict.
    const lapsed = await record.unitOfWork((tx) => decisions.observe(tx, { query: { dot_number: DOT } }, score({ grade: 'C' })));
    expect(lapsed).toMatchObject({ id: standing!.id, state: 'lapsed', end_reason: 'grade D → C' });
    await expect(record.unitOfWork((tx) => decisions.revoke(tx, standing!.id, actor, null))).rejects.toBeInstanceOf(ReviewConflictError);

    // The next hold opens a review that shows the lapsed decision and what changed.
    const d = await hold('T-4', score({ grade: 'C' }));
    expect(d.o).toMatchObject({ kind: 'review', created: true, joined: false });
    const opened = await record.reviews.getReview(d.o.kind === 'review' ? d.o.reviewId : '');
    expect(opened?.previous_decision).toMatchObject({ id: standing!.id, decision: 'approved', changes: ['grade D → C'] });
  });

  it('a local block closes the carrier’s open review and blocks every tender on it', async () => {
    const open = await decisions.list({ state: 'standing' });
    expect(open).toEqual([]);
    const pending = await record.reviews.listReviews('pending');
    expect(pending.length).toBeGreaterThan(0);
    const closed = await record.unitOfWork((tx) =>
      decisions.onLocalBlock(tx, { id: 'blk_1', dot_number: DOT, mc_number: null, reason: 'fraud', blocked_by: 'Lee' }),
    );
    expect(closed).toMatchObject({ closedBy: 'local_block', reviewId: pending[0]!.id });
    const s = await record.screenings.getScreening(closed!.settled[0]!);
    expect(s).toMatchObject({ action: 'block', settled_by: 'review' });
    expect(await record.reviews.countPendingReviews()).toBe(0);
  });

  it('held hits of one batch (a group commit), read ahead under their locks: one review per carrier; the second of a carrier joins it', async () => {
    clock += 60_000;
    const of = (dot: string) => score({ carrier: { ...score().carrier, dot_number: dot, mc_number: `MC${dot}` } });
    // As the pipeline's batch of cache hits: the locks, then the reads behind them; each piece its screening and its hold.
    // The batch must commit as it first ran: run again with savepoints (unitOfWork), a stale read
    // ahead would still come out right (the one-open-review index refuses its second review).
    let again = 0;
    const units = {
      unitOfWorkWithoutSavepoints: record.unitOfWorkWithoutSavepoints.bind(record),
      unitOfWork: <T>(fn: (tx: RecordTx) => Promise<T>) => (again++, record.unitOfWork(fn)),
    };
    const group = new GroupCommit<RecordTx, LockedScreening>(units, {
      readAhead: async (tx, about) => {
        const locked = decisions.lockCarriers(tx, about);
        await Promise.all([locked, decisions.readAheadHolds(tx, about)]);
      },
    });
    const piece = (tender: string, s: SvcScore) => {
      const query = { dot_number: s.carrier.dot_number };
      return group.run(
        async (tx) => {
          const r = held(s);
          const screening = await tx.screenings.insertScreening(
            { query, tender_id: tender, priority: 'tender', refresh: false, callback_url: null },
            r,
          );
          return { screening, o: await decisions.onHold(tx, screening, r) };
        },
        { query, score: s },
      );
    };
    const [a1, b, a2] = await Promise.all([piece('T-b1', of('1000771')), piece('T-b2', of('1000772')), piece('T-b3', of('1000771'))]);
    expect(a1.o).toMatchObject({ kind: 'review', created: true, joined: false });
    expect(b.o).toMatchObject({ kind: 'review', created: true, joined: false });
    const reviewA = (a1.o as ReviewOutcome).reviewId;
    expect(a2.o).toMatchObject({ kind: 'review', created: true, joined: true, reviewId: reviewA });
    expect((b.o as ReviewOutcome).reviewId).not.toBe(reviewA);
    const on = await record.unitOfWork(async (tx) => [
      await tx.decisions.pendingOn(reviewA),
      await tx.decisions.openReviewId('sandbox:dot:1000771'),
    ]);
    expect(on).toEqual([[a1.screening.id, a2.screening.id], reviewA]);
    expect(await record.screenings.getScreening(a2.screening.id)).toMatchObject({ status: 'done', action: 'hold' });
    expect(again).toBe(0);
  });
});

describe.each(RECORD_BACKENDS)('IdempotencyKeys on $name', (backend) => {
  let record: RecordStore;
  let close: () => Promise<void>;
  let clock = Date.UTC(2026, 0, 1);

  beforeAll(async () => {
    ({ record, close } = await backend.open());
  });
  afterAll(async () => {
    await close?.();
  });

  it('new, then in progress; replayed once made; another request is a conflict; released, new again; abandoned, taken over', async () => {
    const keys = new IdempotencyKeys(record, () => new Date(clock));
    const scope = 'POST /screenings';
    expect(await keys.claim(scope, 'k1', 'h1')).toEqual({ kind: 'new' });
    expect(await keys.claim(scope, 'k1', 'h1')).toEqual({ kind: 'in_progress' });
    await keys.complete(scope, 'k1', 'scr_1');
    expect(await keys.claim(scope, 'k1', 'h1')).toEqual({ kind: 'replay', resourceId: 'scr_1' });
    expect(await keys.claim(scope, 'k1', 'h2')).toEqual({ kind: 'conflict' });

    expect(await keys.claim(scope, 'k2', 'h1')).toEqual({ kind: 'new' });
    await keys.release(scope, 'k2');
    expect(await keys.claim(scope, 'k2', 'h1')).toEqual({ kind: 'new' });
    clock += 61_000;
    expect(await keys.claim(scope, 'k2', 'h1')).toEqual({ kind: 'new' });
  });
});
