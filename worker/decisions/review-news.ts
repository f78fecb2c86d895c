import type { Decision, IntakeEvent, Review } from '../../shared/screening.js';
import { oweScreeningCallback } from '../callbacks/callbacks.js';
import type { SharedEventFeed } from '../events/event-feed.js';
import { recordOf, type Store, type RecordTx } from '../store/index.js';
import type { ClosedReview } from './carrier-decisions.js';

/**
 * What a review closed without a person owes (docs/decisions.md): every tender it blocked gets
 * its `review.resolved` callback (the outbox) and event, written in the caller's transaction
 * (the one that closed it); announce the events after the commit. Store writes only.
 */
export function closedReviewNews(
  tx: RecordTx,
  store: Store,
  events: Pick<SharedEventFeed, 'append'>,
  c: ClosedReview,
  now: Date,
): Promise<IntakeEvent[]> {
  return resolvedReviewNews(tx, store, events, store.getReview(c.reviewId)!, c.settled, now);
}

/**
 * What a decided or closed review owes each tender it settled: its `review.resolved` callback
 * (the outbox) and event, in the caller's transaction. Store writes only.
 */
export async function resolvedReviewNews(
  tx: RecordTx,
  store: Store,
  events: Pick<SharedEventFeed, 'append'>,
  review: Review,
  settled: readonly string[],
  now: Date,
): Promise<IntakeEvent[]> {
  const out: IntakeEvent[] = [];
  for (const id of settled) {
    const s = store.getScreening(id)!;
    await oweScreeningCallback(tx, recordOf(store), s, 'review.resolved', now);
    out.push(await events.append(tx, 'review.resolved', { ...review, screening: s }));
  }
  return out;
}

/**
 * The events of standing decisions that ended (`decision.lapsed`, `decision.revoked`), as the
 * CarrierDecisions method that ended them returned them: appended in the caller's transaction
 * (the one that ended them), so a rollback takes them back with the ending and a piece run twice
 * appends them once. Announce them after the commit. Store writes only.
 */
export async function endedDecisionNews(
  tx: RecordTx,
  events: Pick<SharedEventFeed, 'append'>,
  ended: ReadonlyArray<Decision | undefined>,
): Promise<IntakeEvent[]> {
  const out: IntakeEvent[] = [];
  for (const d of ended) if (d) out.push(await events.append(tx, `decision.${d.state}`, d));
  return out;
}
