import type { Store } from '../../worker/store/index.js';
import { writeCallback } from '../../worker/callbacks/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';

/**
 * Rows of every kind retention handles, written through the store at the store's (injected)
 * clock (`at` for the outbox rows): a finished screening with a decided review, one with a pending review, its events,
 * a delivered and a dead callback, a not-found answer. Returns their ids.
 */
export function seedRetentionRows(
  store: Store,
  tag: string,
  at: Date,
): { decided: string; pendingReview: string; review: string; delivered: string; dead: string; dot: string } {
  const dot = String(7_000_000 + Math.floor(Math.random() * 900_000));
  const hold = {
    action: 'hold' as const,
    hold_reason: 'manual_review' as const,
    source: 'none' as const,
    score: null,
    score_fetched_at: null,
    error: null,
  };
  const a = store.insertScreening({
    query: { dot_number: dot },
    tender_id: `${tag}-a`,
    priority: 'tender',
    refresh: false,
    callback_url: 'http://127.0.0.1:9/hook',
  });
  const { review } = store.createReview(a.id, 'manual_review');
  store.completeScreening(a.id, hold);
  store.resolveReview(review.id, 'approved', 'dana', null);
  store.appendEvent('screening.completed', { screening_ref: a.id });
  const b = store.insertScreening({
    query: { dot_number: dot },
    tender_id: `${tag}-b`,
    priority: 'tender',
    refresh: false,
    callback_url: null,
  });
  store.createReview(b.id, 'manual_review');
  store.completeScreening(b.id, hold);
  const delivered = writeCallback(store, {
    kind: 'screening.completed',
    url: 'http://127.0.0.1:9/hook',
    deliveryId: `${a.id}:screening.completed`,
    payload: {},
    at,
  });
  const dead = writeCallback(store, {
    kind: 'review.resolved',
    url: 'http://127.0.0.1:9/hook',
    deliveryId: `${a.id}:review.resolved:approved`,
    payload: {},
    at,
  });
  const db = connectionOf(store);
  db.prepare("UPDATE callback_outbox SET state = 'delivered' WHERE id = ?").run(delivered.id);
  db.prepare("UPDATE callback_outbox SET state = 'dead' WHERE id = ?").run(dead.id);
  store.putNotFound('sandbox', { dot_number: dot }, { code: 'carrier_not_found', message: 'no such carrier', request_id: null });
  return { decided: a.id, pendingReview: b.id, review: review.id, delivered: delivered.id, dead: dead.id, dot };
}
