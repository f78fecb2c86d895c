import { canonicalDot, canonicalMc, queryKey, type CarrierQuery } from '../../shared/carrier-id.js';
import type { Decision, DecisionState, Review, ReviewClosedBy, Screening, StandingDecisionRef } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { LOCAL_BLOCK_CODE, actionForScore } from '../../shared/tender-rules.js';
import type { Actor } from '../tokens/intake-tokens.js';
import {
  NotFoundError,
  ReviewConflictError,
  StoreArgumentError,
  newDecisionId,
  newReviewId,
  type Env,
  type ScreeningResult,
  type Store,
} from '../store/index.js';
import {
  decisionListsOf,
  decisionsOf,
  type DecisionRow,
  type DecisionRowFilter,
  type CarrierLockSet,
  type DecisionsRepo,
  type ReviewHeadRow,
} from '../store/decisions-repo.js';
import { listJob } from '../store/list-reads.js';
import type { ListPage } from '../store/types.js';
import type { RecordTx } from '../store/index.js';
import { basisChanges, basisOf, uncheckableApproval, type Basis } from '../../shared/basis.js';
import { reviewCarrierKey } from '../store/review-carrier-key.js';

/**
 * A dispatcher decides a carrier, not a tender (docs/decisions.md):
 * - one open review per carrier and environment; every later hold of that carrier waits on it;
 * - resolving it settles every waiting tender and records a decision;
 * - the decision stands for later screenings while the score's basis is unchanged, until its
 *   TTL or a revoke; a fresh score with another basis ends it, and the next hold reopens a
 *   review that shows the previous decision and what changed;
 * - an open review shows the carrier's newest facts under a version; a decision names the
 *   version it saw and is refused when the facts changed since (onFacts, resolve); a blocking
 *   score or a local block closes the review and blocks its tenders at once.
 * Every method runs inside the caller's unit of work; its SQL is the store's
 * (worker/store/decisions-repo.ts), whose writes join that unit.
 * Carrier locks (PostgreSQL; nothing on SQLite's one writer): the caller takes every lock its unit
 * may need first, in one call (`lockCarriers`), before any other carrier read; the methods' own
 * lock reads are then re-entrant. Taking them as each key is looked under would lock a carrier's
 * mc: then dot: key in one unit and dot: then mc: in another, and the two deadlock (40P01).
 * A method that ends a standing decision returns it (observe, revoke, lapse) or lists it in its
 * outcome (`ended` of onHold and resolve): the caller appends its `decision.<state>` event in
 * the same transaction. Nothing is kept here between calls, so a piece of a group commit that
 * runs twice, or a transaction rolled back, leaves no event behind (worker/store/group-commit.ts).
 */

/** Who closes a review a re-screen superseded (reviews.decided_by): no person decided it. */
export const SUPERSEDED_BY = 'carrier-screen (re-screen)';

export interface DecisionFilter {
  dot_number?: string;
  /** `ended`: lapsed or revoked, latest end first (page only). */
  state?: DecisionState | 'ended';
  limit?: number;
}

export interface CarrierDecisionsOptions {
  store: Store;
  env: Env;
  /** SCREEN_DECISION_TTL. */
  ttlMs: number;
  now: () => Date;
  /** The carrier's active local block, if any, as the unit `tx` sees it (worker/blocks): a decision is never taken past one. */
  blockOf?: (
    tx: RecordTx,
    query: CarrierQuery,
    score: SvcScore | null,
  ) => Promise<{ id: string; reason: string; blocked_by: string } | undefined>;
}

/**
 * A carrier's open review closed without a person (docs/decisions.md): by a blocking score or
 * a local block. `settled`: the screenings it set to `block` (each owes its callback and event).
 */
export interface ClosedReview {
  reviewId: string;
  closedBy: ReviewClosedBy;
  settled: string[];
}

/** What a screening's facts did to its carrier's open review: shown (a newer score), or closed. */
export type FactsOutcome = { kind: 'updated'; reviewId: string } | ({ kind: 'closed' } & ClosedReview);

/**
 * What a decision on a review came to: done, or refused because the facts changed (the caller
 * commits any closing first). `ended`: the standing decision the new one replaced, if any.
 */
export type ResolveOutcome =
  { kind: 'resolved'; review: Review; settled: string[]; ended: Decision[] } | { kind: 'stale'; reason: string; closed?: ClosedReview };

/**
 * A hold that went to its carrier's review. `reviewId`: the carrier's review; the caller reads a
 * new one once the screening is finished (a tender that joins one is told by id: reading every
 * waiting tender per hold would grow with them). `ownId`: the screening's own review item.
 */
export type ReviewOutcome = { kind: 'review'; reviewId: string; created: boolean; joined: boolean; ownId: string; ended: Decision[] };

/**
 * What a hold came to: settled at once by a standing decision, or a review (opened or joined).
 * `ended`: the standing decision the hold's score no longer matched (lapsed), if any.
 */
export type HoldOutcome = { kind: 'settled'; result: ScreeningResult; decision: StandingDecisionRef; ended: Decision[] } | ReviewOutcome;

/**
 * The review keys a carrier is looked up under, in the order its open review is looked for
 * (#openReviewOf): the key of the query, then the DOT and the MC number the score names.
 */
export function reviewLookupKeys(env: Env, query: CarrierQuery, score: SvcScore | null): string[] {
  const keys = new Set([`${env}:${queryKey(query)}`]);
  if (score) {
    keys.add(reviewCarrierKey(env, query, score.carrier.dot_number));
    if (typeof score.carrier.mc_number === 'string' && score.carrier.mc_number !== '')
      keys.add(`${env}:mc:${canonicalMc(score.carrier.mc_number)}`);
  }
  return [...keys];
}

/** A screening a unit of work is about, for lockCarriers: its id (its own review's carrier), query and score. */
export interface LockedScreening {
  id?: string;
  query: CarrierQuery;
  score: SvcScore | null;
}

/** Locks beside the screenings' own: the watch keys, a local block's names, reviews by id. */
export type MoreCarrierLocks = Pick<CarrierLockSet, 'watch' | 'block' | 'reviews'>;

/**
 * The carrier locks a unit of work about these screenings may take: every review key each is
 * looked up under (reviewLookupKeys), its own review's carrier, and the caller's `more`.
 */
export function carrierLockSet(env: Env, about: readonly LockedScreening[], more: MoreCarrierLocks = {}): CarrierLockSet {
  const review = new Set(about.flatMap((s) => reviewLookupKeys(env, s.query, s.score)));
  const reviewsOfScreenings = about.flatMap((s) => (s.id === undefined ? [] : [s.id]));
  return { ...more, review: [...review], reviewsOfScreenings };
}

export class CarrierDecisions {
  readonly #st: DecisionsRepo;

  constructor(private readonly o: CarrierDecisionsOptions) {
    this.#st = decisionsOf(o.store);
  }

  /**
   * The carrier a screening is about, per environment: its DOT number once a score names it, or
   * once the cache links an MC number to one (so an MC-keyed hold without a score joins the
   * review its carrier's DOT already has, instead of opening a second).
   */
  carrierKey(s: Pick<Screening, 'query'>, score: SvcScore | null): string {
    const named = score ?? ('mc_number' in s.query ? this.o.store.getScore(this.o.env, s.query)?.score : undefined);
    return reviewCarrierKey(this.o.env, s.query, named?.carrier.dot_number);
  }

  /**
   * Take, at the start of a unit of work, every carrier lock it may need: the review keys of each
   * screening it is about (those #openReviewOf looks under, and the key it is reviewed under) and
   * of its own review, plus what the caller's unit will lock beside (`more`: the watch record's
   * keys, a block's names, a review decided). One call
   * per unit, before any other carrier read: on PostgreSQL one statement takes them all in the one
   * global order (worker/store/pg/decisions-repo.ts); on SQLite nothing.
   */
  async lockCarriers(_tx: RecordTx, about: readonly LockedScreening[], more: MoreCarrierLocks = {}): Promise<void> {
    const set = carrierLockSet(this.o.env, about, more);
    // Without a score, an MC query is reviewed under the DOT the cache links it to (carrierKey).
    const linked = about.filter((s) => s.score === null).map((s) => this.carrierKey(s, null));
    await this.#st.lockCarriers({ ...set, review: [...new Set([...set.review!, ...linked])] });
  }

  /**
   * A fresh score from /v1 (a re-check, the cache refreshing, a watch re-screen): a standing
   * decision whose basis it does not match, or whose TTL has passed, ends here. Returns it.
   */
  async observe(_tx: RecordTx, s: Pick<Screening, 'query'>, score: SvcScore): Promise<Decision | undefined> {
    const d = this.#st.standing(this.carrierKey(s, score));
    if (!d) return undefined;
    const why = this.#whyEnds(d, score);
    return why ? this.#end(d, 'lapsed', null, why.join('; ')) : undefined;
  }

  /**
   * A screening is to be held for a person. With a standing decision on the same basis, it is
   * settled at once (no review); otherwise it opens the carrier's review, or waits on the one
   * already open.
   */
  async onHold(_tx: RecordTx, s: Screening, r: ScreeningResult): Promise<HoldOutcome> {
    const key = this.carrierKey(s, r.score);
    const d = this.#st.standing(key);
    const ended: Decision[] = [];
    if (d && r.score) {
      const why = this.#whyEnds(d, r.score);
      if (!why) {
        const action = d.decision === 'approved' ? 'tender' : 'block';
        return { kind: 'settled', result: { ...r, action }, decision: refOf(d), ended };
      }
      const lapsed = this.#end(d, 'lapsed', null, why.join('; '));
      if (lapsed) ended.push(lapsed);
    }
    const openId = this.#st.openReviewId(key);
    let previous: string | null = null;
    if (openId === undefined) {
      const last = this.#st.lastEnded(key);
      if (last) {
        // What ended it: the basis changes of a lapse, or who revoked it and why.
        const revoked = last.state === 'revoked';
        const changes = revoked ? [] : (last.end_reason ?? '').split('; ').filter(Boolean);
        previous = JSON.stringify({
          ...refOf(last),
          state: last.state,
          ended_at: last.ended_at,
          ended_by: last.ended_by,
          note: revoked ? last.end_reason : null,
          changes,
        });
      }
    }
    const id = newReviewId();
    const created = this.#st.insertReview({
      id,
      screening_id: s.id,
      hold_reason: r.hold_reason ?? 'manual_review',
      created_at: this.o.now().toISOString(),
      carrier_key: key,
      parent_id: openId ?? null,
      previous_decision: previous,
    });
    // Written just now, or there already (a re-run): read only then.
    const own = created ? { id, parent_id: openId ?? null } : this.#st.reviewOfScreening(s.id)!;
    const joined = own.parent_id !== null;
    const reviewId = own.parent_id ?? own.id;
    return { kind: 'review', reviewId, created, joined, ownId: own.id, ended };
  }

  /** The screening was settled (a standing decision, or its review): say so on it. */
  async markSettled(
    _tx: RecordTx,
    screeningId: string,
    action: 'tender' | 'block',
    by: 'review' | 'standing_decision' | 'rescreen',
    decision: StandingDecisionRef | null,
  ): Promise<void> {
    this.#settle(screeningId, action, by, decision);
  }

  #settle(
    screeningId: string,
    action: 'tender' | 'block',
    by: 'review' | 'standing_decision' | 'rescreen',
    decision: StandingDecisionRef | null,
  ): void {
    this.#st.settle(screeningId, action, by, decision ? JSON.stringify(decision) : null);
  }

  /**
   * Resolve a carrier's review (or the review a tender waits on): every waiting tender is
   * settled, and the decision stands. `seenVersion`: the review version its maker saw (none:
   * the facts it was opened with, version 1). When the carrier's facts changed since (another
   * basis, a blocking score, a local block) nothing is decided: `stale`. A local block not yet
   * applied to the review closes it here, for the caller to commit and tell.
   */
  async resolve(
    _tx: RecordTx,
    reviewId: string,
    state: 'approved' | 'rejected',
    actor: Actor,
    note: string | null,
    seenVersion?: number,
  ): Promise<ResolveOutcome> {
    // Its carrier's lock before any read: the review's (and so its head's) carrier_key.
    await this.#st.lockCarriers({ reviews: [reviewId] });
    const head = this.#st.reviewHead(reviewId);
    if (!head) throw new NotFoundError(`no review with id ${reviewId}`);
    const primaryId = head.parent_id ?? head.id;
    const p = head.parent_id === null ? head : (this.#st.reviewHead(primaryId) ?? head);
    const seen = seenVersion ?? 1;
    if (seen > p.version)
      throw new StoreArgumentError(`review_version ${seen} is newer than the review (version ${p.version})`, 'review_version');
    if (p.state === 'closed') {
      if (seen < p.version)
        return { kind: 'stale', reason: `the review was closed since version ${seen}: ${p.closed_reason ?? p.closed_by}` };
      throw new ReviewConflictError(`review ${primaryId} is already closed (${p.closed_by})`, primaryId);
    }
    if (p.state === 'pending') {
      const facts = this.o.store.getScreening(p.facts_screening_id ?? p.screening_id);
      const block = await this.o.blockOf?.(_tx, facts?.query ?? { dot_number: '0' }, facts?.score ?? null);
      if (block) {
        const closed = this.#close(
          p,
          'local_block',
          `on the local do-not-use list: ${block.reason} (${block.id}, blocked by ${block.blocked_by})`,
          null,
        );
        return { kind: 'stale', reason: `the carrier is on the local do-not-use list (${block.id})`, closed };
      }
      if (seen < p.basis_since)
        return { kind: 'stale', reason: `the carrier's facts changed since version ${seen} (now version ${p.version})` };
    }
    const waiting = this.#st.waiting(primaryId);
    // Settles the carrier's own review item and screening (a conflict if already decided).
    const primary = this.o.store.resolveReview(primaryId, state, actor.by, note, actor.token_id);
    const decidedAt = primary.decided_at ?? this.o.now().toISOString();
    this.#st.resolveWaiting(primaryId, { state, decided_by: actor.by, decided_at: decidedAt, note, token_id: actor.token_id });
    const action = state === 'approved' ? 'tender' : 'block';
    const settled = [primary.screening_id, ...waiting.map((w) => w.screening_id)];
    for (const id of settled) this.#settle(id, action, 'review', null);

    // The decision stands for the carrier while the basis of the facts decided on holds.
    const score = primary.latest.score ?? primary.screening.score;
    const ended: Decision[] = [];
    if (score) {
      const key = head.carrier_key ?? this.carrierKey(primary.screening, score);
      const old = this.#st.standing(key);
      const replaced = old ? this.#end(old, 'lapsed', actor, 'replaced by a newer decision') : undefined;
      if (replaced) ended.push(replaced);
      this.#st.insert({
        id: newDecisionId(),
        carrier_key: key,
        dot_number: canonicalDot(score.carrier.dot_number),
        mc_number: score.carrier.mc_number ?? null,
        legal_name: score.carrier.legal_name ?? score.carrier.dba_name ?? null,
        review_id: primaryId,
        decision: state,
        basis: JSON.stringify(basisOf(score)),
        model_version: score.model_version ?? null,
        decided_by: actor.by,
        decided_at: decidedAt,
        expires_at: new Date(Date.parse(decidedAt) + this.o.ttlMs).toISOString(),
        token_id: actor.token_id,
      });
    }
    return { kind: 'resolved', review: this.o.store.getReview(primaryId)!, settled, ended };
  }

  /**
   * New facts about a carrier, as a screening finishes (in its transaction; store writes only,
   * so a group commit may run it twice): a newer score from /v1 is shown on the carrier's open
   * review (version + 1); a blocking score or a local block closes the review and blocks every
   * tender waiting on it. Undefined when there is no open review or nothing new.
   */
  async onFacts(_tx: RecordTx, s: Pick<Screening, 'id' | 'query'>, r: ScreeningResult): Promise<FactsOutcome | undefined> {
    const localBlock = r.error?.code === LOCAL_BLOCK_CODE;
    // A cache hit's score was shown when it was fetched: only /v1's answers and blocks are news.
    if (!localBlock && !(r.score && r.source === 'service')) return undefined;
    const p = this.#openReviewOf(s.query, r.score);
    if (!p || p.screening_id === s.id || p.facts_screening_id === s.id) return undefined;
    const facts = this.o.store.getScreening(p.facts_screening_id ?? p.screening_id);
    const newer =
      r.score !== null && (!facts?.score_fetched_at || (r.score_fetched_at !== null && r.score_fetched_at > facts.score_fetched_at));
    if (localBlock) return { kind: 'closed', ...this.#close(p, 'local_block', r.error!.message, newer ? s.id : null) };
    if (!newer || !r.score) return undefined;
    const verdict = actionForScore(r.score);
    if (verdict.action === 'block') return { kind: 'closed', ...this.#close(p, 'blocking_score', blockingWhy(r.score), s.id) };
    const changed = !facts?.score || basisChanges(basisOf(facts.score), basisOf(r.score)).length > 0;
    this.#st.showFacts(p.id, s.id, changed);
    return { kind: 'updated', reviewId: p.id };
  }

  /**
   * The carrier was put on the local do-not-use list (in that transaction): its open review, if
   * any, is closed and every tender waiting on it blocked.
   */
  async onLocalBlock(
    _tx: RecordTx,
    block: {
      id: string;
      dot_number: string | null;
      mc_number: string | null;
      reason: string;
      blocked_by: string;
    },
  ): Promise<ClosedReview | undefined> {
    const queries: CarrierQuery[] = [];
    if (block.dot_number) queries.push({ dot_number: block.dot_number });
    if (block.mc_number) queries.push({ mc_number: block.mc_number });
    // After the block's own locks (namespace block, before review): every key at once.
    await this.#st.lockCarriers({ review: queries.flatMap((q) => reviewLookupKeys(this.o.env, q, null)) });
    for (const q of queries) {
      const p = this.#openReviewOf(q, null);
      if (p)
        return this.#close(
          p,
          'local_block',
          `on the local do-not-use list: ${block.reason} (${block.id}, blocked by ${block.blocked_by})`,
          null,
        );
    }
    return undefined;
  }

  /** The carrier's open review: by the key a screening of it is reviewed under, or its DOT or MC number. */
  #openReviewOf(query: CarrierQuery, score: SvcScore | null): ReviewHeadRow | undefined {
    // Each openReviewId locks its key: re-entrant once the unit has taken lockCarriers.
    for (const key of reviewLookupKeys(this.o.env, query, score)) {
      const openId = this.#st.openReviewId(key);
      if (openId !== undefined) return this.#st.reviewHead(openId);
    }
    return undefined;
  }

  /** Close an open review and its waiting items: every tender on it becomes `block`. */
  #close(p: ReviewHeadRow, by: ReviewClosedBy, reason: string, factsScreeningId: string | null): ClosedReview {
    const settled = this.#st.pendingOn(p.id);
    this.#st.close(p.id, { by, reason, at: this.o.now().toISOString(), factsScreeningId });
    for (const id of settled) this.#settle(id, 'block', 'review', null);
    return { reviewId: p.id, closedBy: by, settled };
  }

  /** The pending carrier review a screening's item belongs to (its own, or the one it waits on). */
  #headOf(screeningId: string): ReviewHeadRow | undefined {
    const own = this.#st.reviewOfScreening(screeningId);
    if (!own) return undefined;
    const head = this.#st.reviewHead(own.parent_id ?? own.id);
    return head?.state === 'pending' ? head : undefined;
  }

  /**
   * A re-screen after an outage gave a held screening a score that still needs a person: the
   * carrier's review now shows it, as a new version with a new basis (it had none), so a decision
   * on the version shown before is refused as stale.
   */
  async showRescreenFacts(_tx: RecordTx, screeningId: string): Promise<string | undefined> {
    const head = this.#headOf(screeningId);
    if (!head) return undefined;
    this.#st.showFacts(head.id, screeningId, true);
    return head.id;
  }

  /**
   * A re-screen after an outage came to block on a blocking score or a local block: the
   * carrier's review is closed, as for any blocking news, and every tender waiting on it blocked.
   */
  async closeOnRescreen(_tx: RecordTx, screeningId: string, r: ScreeningResult): Promise<ClosedReview | undefined> {
    const head = this.#headOf(screeningId);
    if (!head) return undefined;
    if (r.error?.code === LOCAL_BLOCK_CODE) return this.#close(head, 'local_block', r.error.message, r.score ? screeningId : null);
    if (r.score && actionForScore(r.score).action === 'block')
      return this.#close(head, 'blocking_score', blockingWhy(r.score), screeningId);
    return undefined;
  }

  /**
   * A held screening was screened again after an outage and came to tender or block: its own
   * review item is closed as `superseded` by carrier-screen, with why. When it was its
   * carrier's review and other tenders still wait on it, the oldest of them becomes the
   * carrier's review (they are not decided by this). Returns the closed item, or undefined
   * when there was none pending.
   */
  async supersede(_tx: RecordTx, screeningId: string, note: string): Promise<Review | undefined> {
    const own = this.#st.reviewOfScreening(screeningId);
    if (!own) return undefined;
    if (!this.#st.supersede(own.id, { by: SUPERSEDED_BY, at: this.o.now().toISOString(), note })) return undefined;
    if (own.parent_id === null) {
      const next = this.#st.firstWaiting(own.id);
      if (next !== undefined) this.#st.promote(next, own.id);
    }
    return this.o.store.getReview(own.id);
  }

  // The reads below are made outside a unit of work: committed rows only (store.readCommitted).
  get(id: string): Promise<Decision | undefined> {
    return this.o.store.readCommitted(() => {
      const row = this.#st.get(id);
      return row ? decisionOf(row) : undefined;
    });
  }

  list(f: DecisionFilter = {}): Promise<Decision[]> {
    return this.o.store.readCommitted(() =>
      decisionListsOf(this.o.store)
        .list(rowFilter(f), f.limit ?? 100)
        .map(decisionOf),
    );
  }

  /** One page of GET /decisions (pageDecisions, below). */
  page(f: Omit<DecisionFilter, 'limit'>, p: ListPage): Promise<{ data: Decision[]; has_more: boolean }> {
    return this.o.store.readCommitted(() => pageDecisions(this.o.store, f, p));
  }

  /** A person ends a standing decision: the next hold of the carrier opens a review. Returns it, ended. */
  async revoke(_tx: RecordTx, id: string, actor: Actor, note: string | null): Promise<Decision> {
    return this.#endStanding(id, 'revoked', actor, note ?? 'revoked');
  }

  /** The sandbox's test helper: end a standing decision as if its TTL had run out. Returns it, ended. */
  async lapse(_tx: RecordTx, id: string, actor: Actor, reason: string): Promise<Decision> {
    return this.#endStanding(id, 'lapsed', actor, reason);
  }

  /**
   * End the standing decision `id` for a person (revoke) or the sandbox (lapse): NotFoundError
   * when there is none, ReviewConflictError when it no longer stands (decision_conflict).
   */
  #endStanding(id: string, state: 'lapsed' | 'revoked', actor: Actor, reason: string): Decision {
    const row = this.#st.get(id);
    if (!row) throw new NotFoundError(`no decision ${id}`);
    if (row.state !== 'standing')
      throw new ReviewConflictError(`decision ${id} is already ${row.state}${row.ended_by ? ` by ${row.ended_by}` : ''}`, id);
    return this.#end(row, state, actor, reason)!;
  }

  /** Why a standing decision no longer holds for this score: expired, or the basis changed. */
  #whyEnds(d: DecisionRow, score: SvcScore): string[] | undefined {
    if (Date.parse(d.expires_at) <= this.o.now().getTime()) return [`expired ${d.expires_at} (SCREEN_DECISION_TTL)`];
    const before = JSON.parse(d.basis) as Basis;
    const changes = basisChanges(before, basisOf(score));
    const old = uncheckableApproval(d.decision, before);
    if (old) changes.push(old);
    return changes.length ? changes : undefined;
  }

  /** End a standing decision; the ended decision (undefined when it no longer stood), for the caller's event. */
  #end(d: DecisionRow, state: 'lapsed' | 'revoked', actor: Actor | null, reason: string): Decision | undefined {
    if (!this.#st.end(d.id, { state, at: this.o.now().toISOString(), by: actor?.by ?? null, token_id: actor?.token_id ?? null, reason }))
      return undefined;
    return decisionOf(this.#st.get(d.id)!);
  }
}

function refOf(d: DecisionRow): StandingDecisionRef {
  return {
    id: d.id,
    review_id: d.review_id,
    decision: d.decision,
    decided_by: d.decided_by,
    decided_at: d.decided_at,
    expires_at: d.expires_at,
    model_version: d.model_version,
    token_id: d.token_id ?? null,
  };
}

/** Why a score blocks, in words a dispatcher reads. */
function blockingWhy(score: SvcScore): string {
  const codes = score.knockout?.triggered ? score.knockout.reasons.map((r) => r.code) : [];
  return codes.length ? `knockout ${codes.join(', ')} (decision ${score.decision})` : `decision ${score.decision}, grade ${score.grade}`;
}

function decisionOf(d: DecisionRow): Decision {
  return {
    object: 'decision',
    ...refOf(d),
    dot_number: d.dot_number,
    mc_number: d.mc_number,
    legal_name: d.legal_name,
    state: d.state,
    basis: JSON.parse(d.basis) as Record<string, unknown>,
    ended_at: d.ended_at,
    ended_by: d.ended_by,
    ended_token_id: d.ended_token_id ?? null,
    end_reason: d.end_reason,
    updated_at: d.ended_at ?? d.decided_at,
  };
}

/** The filter as the store compares it: a DOT number canonical. */
function rowFilter(f: Omit<DecisionFilter, 'limit'>): DecisionRowFilter {
  return {
    ...(f.dot_number !== undefined ? { dot_number: canonicalDot(f.dot_number) } : {}),
    ...(f.state !== undefined ? { state: f.state } : {}),
  };
}

/**
 * One page of GET /decisions by keyset, newest first; `ended` (lapsed or revoked) latest end
 * first (the SQL and its indexes: decisionListsOf, worker/store/decisions-repo.ts).
 */
export function pageDecisions(store: Store, f: Omit<DecisionFilter, 'limit'>, p: ListPage): { data: Decision[]; has_more: boolean } {
  const { rows, has_more } = decisionListsOf(store).page(rowFilter(f), p);
  return { data: rows.map(decisionOf), has_more };
}

/** GET /decisions as a reader-pool job: the page and its JSON are made in a reader thread (list-reads.ts). */
export const decisionsPage = listJob(
  import.meta.url,
  'decisionsPage',
  (store, a: { filter: Omit<DecisionFilter, 'limit'>; page: ListPage }) => pageDecisions(store, a.filter, a.page),
);
