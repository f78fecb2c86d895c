import type { RecordStore } from '../../worker/store/index.js';
import { writeCallback } from '../../worker/callbacks/index.js';
import { CarrierDecisions } from '../../worker/decisions/carrier-decisions.js';

/**
 * Rows of every kind retention handles, written through the record (SQLite or PostgreSQL) at its
 * (injected) clock (`at`, the same time, for the outbox rows and the reviews): a finished
 * screening with a decided review, one with a pending review, its events, a delivered and a dead
 * callback, a not-found answer. The reviews are opened as the pipeline opens them
 * (CarrierDecisions.onHold, in a unit of work); the callbacks end as the sender ends them. Returns
 * their ids.
 */
export async function seedRetentionRows(
  record: RecordStore,
  tag: string,
  at: Date,
): Promise<{ decided: string; pendingReview: string; review: string; delivered: string; dead: string; dot: string }> {
  const dot = String(7_000_000 + Math.floor(Math.random() * 900_000));
  const hold = {
    action: 'hold' as const,
    hold_reason: 'manual_review' as const,
    source: 'none' as const,
    score: null,
    score_fetched_at: null,
    error: null,
  };
  const a = await record.screenings.insertScreening({
    query: { dot_number: dot },
    tender_id: `${tag}-a`,
    priority: 'tender',
    refresh: false,
    callback_url: 'http://127.0.0.1:9/hook',
  });
  const decisions = new CarrierDecisions({ store: record, env: 'sandbox', ttlMs: 30 * 86_400_000, now: () => at });
  const opened = await record.unitOfWork((tx) => decisions.onHold(tx, a, hold));
  if (opened.kind !== 'review') throw new Error('a standing decision settled the seed');
  const { reviewId } = opened;
  await record.screenings.completeScreening(a.id, hold);
  await record.reviews.resolveReview(reviewId, 'approved', 'dana', null);
  await record.events.appendEvent('screening.completed', { screening_ref: a.id });
  const b = await record.screenings.insertScreening({
    query: { dot_number: dot },
    tender_id: `${tag}-b`,
    priority: 'tender',
    refresh: false,
    callback_url: null,
  });
  await record.unitOfWork((tx) => decisions.onHold(tx, b, hold));
  await record.screenings.completeScreening(b.id, hold);
  const delivered = await writeCallback(record, {
    kind: 'screening.completed',
    url: 'http://127.0.0.1:9/hook',
    deliveryId: `${a.id}:screening.completed`,
    payload: {},
    at,
  });
  const dead = await writeCallback(record, {
    kind: 'review.resolved',
    url: 'http://127.0.0.1:9/hook',
    deliveryId: `${a.id}:review.resolved:approved`,
    payload: {},
    at,
  });
  await record.callbackSends.delivered(delivered.id, 200, at.toISOString());
  await record.callbackSends.dead(dead.id, 500, 'http_status', at.toISOString());
  await record.scores.putNotFound(
    'sandbox',
    { dot_number: dot },
    { code: 'carrier_not_found', message: 'no such carrier', request_id: null },
  );
  return { decided: a.id, pendingReview: b.id, review: reviewId, delivered: delivered.id, dead: dead.id, dot };
}
