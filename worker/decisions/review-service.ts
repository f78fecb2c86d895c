import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { Decision, IntakeEvent, Review, Screening } from '../../shared/screening.js';
import type { SharedEventFeed } from '../events/event-feed.js';
import type { RedisUp } from '../redis-up.js';
import { ReviewStaleError, type RecordStore, type RecordTx } from '../store/index.js';
import type { ListPage } from '../store/types.js';
import type { Actor } from '../tokens/intake-tokens.js';
import type { CarrierDecisions, DecisionFilter } from './carrier-decisions.js';
import { closedReviewNews, endedDecisionNews, resolvedReviewNews } from './review-news.js';

/** What deciding a review needs of the local do-not-use list ("reject and block"). */
export interface BlockOnReject {
  /** In the caller's unit of work (a savepoint of it). */
  addBlockFor(tx: RecordTx, s: Screening, actor: Actor, reason: string): Promise<IntakeEvent[]>;
  /** The block addBlockFor would add for `s`: its names (each a carrier lock) and its DOT and MC numbers. In the caller's unit. */
  blockFor(tx: RecordTx, s: Screening): Promise<{ names: string[]; dot_number: string | null; mc_number: string | null }>;
}

/**
 * A person's decisions: a review approved or rejected, a standing decision read or ended. Each
 * change, the callbacks it owes and its events commit in one `store.unitOfWork`, whose work goes
 * through its handle only (a store read inside would wait for the unit, or miss its rows); the events are
 * announced after the commit (ARCHITECTURE.md, "The unit of work"). The rules are
 * CarrierDecisions'; this is the unit of work around them.
 */
export class ReviewService {
  constructor(
    private readonly d: {
      store: RecordStore;
      events: Pick<SharedEventFeed, 'append' | 'announce'>;
      decisions: CarrierDecisions;
      blocks: BlockOnReject;
      now: () => Date;
      redisUp: RedisUp;
    },
  ) {}

  /**
   * Records who (and with which credential) and when, settles every tender waiting on the
   * carrier and owes each its callback. `block` (reject only): the carrier goes on the local
   * do-not-use list in the same commit. ReviewStaleError when the facts moved past `version`.
   */
  async resolveReview(
    id: string,
    decision: 'approve' | 'reject',
    actor: Actor,
    note: string | null,
    o: { block?: boolean; version?: number } = {},
  ): Promise<Review> {
    const { store, events, decisions, blocks, now } = this.d;
    // The decision's event and callback need Redis: without it, change nothing.
    await this.d.redisUp('the review was not changed');
    const out = await store.unitOfWork(async (tx) => {
      // Reject and block locks the block's names, then its carrier's reviews (onLocalBlock): every
      // carrier lock of the unit first, in the one order, or a host blocking the carrier by hand
      // (names, then reviews) and this one (the review, then names) could each wait on the other.
      if (o.block && decision === 'reject') await this.#lockRejectAndBlock(tx, id);
      const r = await decisions.resolve(tx, id, decision === 'approve' ? 'approved' : 'rejected', actor, note, o.version);
      // Refused: a local block found only now closed the review (committed, and told, before the 409).
      if (r.kind === 'stale') return { ...r, appended: r.closed ? await closedReviewNews(tx, store, events, r.closed, now()) : [] };
      const appended =
        o.block && decision === 'reject'
          ? await blocks.addBlockFor(tx, r.review.screening, actor, note ?? `rejected in review ${r.review.id}`)
          : [];
      appended.push(...(await resolvedReviewNews(tx, store, events, r.review, r.settled, now())));
      // A decision this one replaced has lapsed: its event commits with the ending.
      appended.push(...(await endedDecisionNews(tx, events, r.ended)));
      return { ...r, appended };
    });
    await events.announce(out.appended);
    if (out.kind === 'stale')
      throw new ReviewStaleError(
        `the carrier's facts changed since you saw the review: ${out.reason}; look again`,
        (await store.reviews.getReview(id))!,
      );
    return out.review;
  }

  /** The carrier locks of a reject-and-block of review `id` (its own, and the review it waits on). */
  async #lockRejectAndBlock(tx: RecordTx, id: string): Promise<void> {
    const { decisions, blocks } = this.d;
    const own = await tx.reviews.getReview(id);
    const head = own?.waits_on ? await tx.reviews.getReview(own.waits_on) : undefined;
    // One after another: a unit's statements run in turn on its one connection.
    const found: Array<Awaited<ReturnType<BlockOnReject['blockFor']>>> = [];
    for (const r of [own, head]) if (r) found.push(await blocks.blockFor(tx, r.screening));
    const queries: CarrierQuery[] = found.flatMap((b) => [
      ...(b.dot_number ? [{ dot_number: b.dot_number }] : []),
      ...(b.mc_number ? [{ mc_number: b.mc_number }] : []),
    ]);
    await decisions.lockCarriers(
      tx,
      queries.map((query) => ({ query, score: null })),
      { block: found.flatMap((b) => b.names), reviews: [id] },
    );
  }

  list(f?: DecisionFilter): Promise<Decision[]> {
    return this.d.decisions.list(f);
  }

  page(f: Omit<DecisionFilter, 'limit'>, page: ListPage): Promise<{ data: Decision[]; has_more: boolean }> {
    return this.d.decisions.page(f, page);
  }

  get(id: string): Promise<Decision | undefined> {
    return this.d.decisions.get(id);
  }

  /** A person ends a standing decision. NotFoundError, or ReviewConflictError when it no longer stands. */
  revoke(id: string, actor: Actor, note: string | null): Promise<Decision> {
    return this.#endStanding((tx) => this.d.decisions.revoke(tx, id, actor, note));
  }

  /** The sandbox helper lapses a standing decision as a change of facts would. */
  lapse(id: string, actor: Actor, reason: string): Promise<Decision> {
    return this.#endStanding((tx) => this.d.decisions.lapse(tx, id, actor, reason));
  }

  /** The ending and its `decision.<state>` event in one transaction, announced after the commit. */
  async #endStanding(end: (tx: RecordTx) => Promise<Decision>): Promise<Decision> {
    const { store, events } = this.d;
    const { d, appended } = await store.unitOfWork(async (tx) => {
      const d = await end(tx);
      return { d, appended: await endedDecisionNews(tx, events, [d]) };
    });
    await events.announce(appended);
    return d;
  }
}
