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
  type RecordStore,
  type RecordTx,
  type ScreeningResult,
} from '../store/index.js';
import type { DecisionRow, DecisionRowFilter, CarrierLockSet, ReviewHeadRow } from '../store/decisions-repo.js';
import { listJob } from '../store/list-reads.js';
import type { RecordRepos } from '../store/record.js';
import type { ListPage } from '../store/types.js';
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
 * Every method that changes something runs inside the caller's unit of work, on its handle
 * (`tx.decisions`: the SQL of worker/store/decisions-repo.ts and its PostgreSQL twin); only the
 * reads of get, list and page are the store's own (committed rows).
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
  /** The record's reads outside a unit of work (get, list, page); the rest runs on the caller's unit. */
  store: Pick<RecordStore, 'decisions' | 'decisionLists'>;
  env: Env;
  /** SCREEN_DECISION_TTL. */
  ttlMs: number;
  now: () => Date;
  /**
   * The carrier's active local block, if any (worker/blocks): a decision is never taken past one.
   * Asked inside resolve's unit of work: read it through `tx`, never the store's repositories.
   */
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
  constructor(private readonly o: CarrierDecisionsOptions) {}

  /**
   * The carrier a screening is about, per environment: its DOT number once a score names it, or
   * once the cache links an MC number to one (so an MC-keyed hold without a score joins the
   * review its carrier's DOT already has, instead of opening a second). `repos`: the unit's
   * handle (the cache read only for an MC query without a score).
   */
  async carrierKey(repos: Pick<RecordRepos, 'scores'>, s: Pick<Screening, 'query'>, score: SvcScore | null): Promise<string> {
    const named = score ?? ('mc_number' in s.query ? (await repos.scores.getScore(this.o.env, s.query))?.score : undefined);
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
  async lockCarriers(tx: RecordTx, about: readonly LockedScreening[], more: MoreCarrierLocks = {}): Promise<void> {
    const set = carrierLockSet(this.o.env, about, more);
    // Without a score, an MC query is reviewed under the DOT the cache links it to (carrierKey).
    const linked: string[] = [];
    for (const s of about) if (s.score === null) linked.push(await this.carrierKey(tx, s, null));
    await tx.decisions.lockCarriers({ ...set, review: [...new Set([...set.review!, ...linked])] });
  }

  /**
   * The standing decisions and open reviews `onHold` will read for these held screenings, read at
   * once (PostgreSQL: one statement, after their locks; SQLite: nothing). A screening's key is
   * the one `onHold` holds it under (carrierKey).
   */
  async readAheadHolds(tx: RecordTx, held: readonly LockedScreening[]): Promise<void> {
    if (!tx.decisions.readAheadStanding) return;
    const keys: string[] = [];
    // With a score, no await: sent in the same turn as the locks ahead of it (one write).
    for (const s of held)
      keys.push(s.score ? reviewCarrierKey(this.o.env, s.query, s.score.carrier.dot_number) : await this.carrierKey(tx, s, null));
    await tx.decisions.readAheadStanding(keys);
  }

  /**
   * A fresh score from /v1 (a re-check, the cache refreshing, a watch re-screen): a standing
   * decision whose basis it does not match, or whose TTL has passed, ends here. Returns it.
   */
  async observe(tx: RecordTx, s: Pick<Screening, 'query'>, score: SvcScore): Promise<Decision | undefined> {
    const d = await tx.decisions.standing(await this.carrierKey(tx, s, score));
    if (!d) return undefined;
    const why = this.#whyEnds(d, score);
    return why ? this.#end(tx, d, 'lapsed', null, why.join('; ')) : undefined;
  }

  /**
   * A screening is to be held for a person. With a standing decision on the same basis, it is
   * settled at once (no review); otherwise it opens the carrier's review, or waits on the one
   * already open.
   */
  async onHold(tx: RecordTx, s: Screening, r: ScreeningResult): Promise<HoldOutcome> {
    const st = tx.decisions;
    const key = await this.carrierKey(tx, s, r.score);
    const d = await st.standing(key);
    const ended: Decision[] = [];
    if (d && r.score) {
      const why = this.#whyEnds(d, r.score);
      if (!why) {
        const action = d.decision === 'approved' ? 'tender' : 'block';
        return { kind: 'settled', result: { ...r, action }, decision: refOf(d), ended };
      }
      const lapsed = await this.#end(tx, d, 'lapsed', null, why.join('; '));
      if (lapsed) ended.push(lapsed);
    }
    const openId = await st.openReviewId(key);
    let previous: string | null = null;
    if (openId === undefined) {
      const last = await st.lastEnded(key);
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
    const created = await st.insertReview({
      id,
      screening_id: s.id,
      hold_reason: r.hold_reason ?? 'manual_review',
      created_at: this.o.now().toISOString(),
      carrier_key: key,
      parent_id: openId ?? null,
      previous_decision: previous,
    });
    // Written just now, or there already (a re-run): read only then.
    const own = created ? { id, parent_id: openId ?? null } : (await st.reviewOfScreening(s.id))!;
    const joined = own.parent_id !== null;
    const reviewId = own.parent_id ?? own.id;
    return { kind: 'review', reviewId, created, joined, ownId: own.id, ended };
  }

  /** The screening was settled (a standing decision, or its review): say so on it. */
  async markSettled(
    tx: RecordTx,
    screeningId: string,
    action: 'tender' | 'block',
    by: 'review' | 'standing_decision' | 'rescreen',
    decision: StandingDecisionRef | null,
  ): Promise<void> {
    await tx.decisions.settle(screeningId, action, by, decision ? JSON.stringify(decision) : null);
  }

  /**
   * Resolve a carrier's review (or the review a tender waits on): every waiting tender is
   * settled, and the decision stands. `seenVersion`: the review version its maker saw (none:
   * the facts it was opened with, version 1). When the carrier's facts changed since (another
   * basis, a blocking score, a local block) nothing is decided: `stale`. A local block not yet
   * applied to the review closes it here, for the caller to commit and tell.
   */
  async resolve(
    tx: RecordTx,
    reviewId: string,
    state: 'approved' | 'rejected',
    actor: Actor,
    note: string | null,
    seenVersion?: number,
  ): Promise<ResolveOutcome> {
    const st = tx.decisions;
    // Its carrier's lock before any read: the review's (and so its head's) carrier_key.
    await st.lockCarriers({ reviews: [reviewId] });
    const head = await st.reviewHead(reviewId);
    if (!head) throw new NotFoundError(`no review with id ${reviewId}`);
    const primaryId = head.parent_id ?? head.id;
    const p = head.parent_id === null ? head : ((await st.reviewHead(primaryId)) ?? head);
    const seen = seenVersion ?? 1;
    if (seen > p.version)
      throw new StoreArgumentError(`review_version ${seen} is newer than the review (version ${p.version})`, 'review_version');
    if (p.state === 'closed') {
      if (seen < p.version)
        return { kind: 'stale', reason: `the review was closed since version ${seen}: ${p.closed_reason ?? p.closed_by}` };
      throw new ReviewConflictError(`review ${primaryId} is already closed (${p.closed_by})`, primaryId);
    }
    if (p.state === 'pending') {
      const facts = await tx.screenings.getScreening(p.facts_screening_id ?? p.screening_id);
      const block = await this.o.blockOf?.(tx, facts?.query ?? { dot_number: '0' }, facts?.score ?? null);
      if (block) {
        const closed = await this.#close(
          tx,
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
    const waiting = await st.waiting(primaryId);
    // Settles the carrier's own review item and screening (a conflict if already decided).
    const primary = await tx.reviews.resolveReview(primaryId, state, actor.by, note, actor.token_id);
    const decidedAt = primary.decided_at ?? this.o.now().toISOString();
    await st.resolveWaiting(primaryId, { state, decided_by: actor.by, decided_at: decidedAt, note, token_id: actor.token_id });
    const action = state === 'approved' ? 'tender' : 'block';
    const settled = [primary.screening_id, ...waiting.map((w) => w.screening_id)];
    for (const id of settled) await st.settle(id, action, 'review', null);

    // The decision stands for the carrier while the basis of the facts decided on holds.
    const score = primary.latest.score ?? primary.screening.score;
    const ended: Decision[] = [];
    if (score) {
      const key = head.carrier_key ?? (await this.carrierKey(tx, primary.screening, score));
      const old = await st.standing(key);
      const replaced = old ? await this.#end(tx, old, 'lapsed', actor, 'replaced by a newer decision') : undefined;
      if (replaced) ended.push(replaced);
      await st.insert({
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
    return { kind: 'resolved', review: (await tx.reviews.getReview(primaryId))!, settled, ended };
  }

  /**
   * New facts about a carrier, as a screening finishes (in its transaction; store writes only,
   * so a group commit may run it twice): a newer score from /v1 is shown on the carrier's open
   * review (version + 1); a blocking score or a local block closes the review and blocks every
   * tender waiting on it. Undefined when there is no open review or nothing new.
   */
  async onFacts(tx: RecordTx, s: Pick<Screening, 'id' | 'query'>, r: ScreeningResult): Promise<FactsOutcome | undefined> {
    const localBlock = r.error?.code === LOCAL_BLOCK_CODE;
    // A cache hit's score was shown when it was fetched: only /v1's answers and blocks are news.
    if (!localBlock && !(r.score && r.source === 'service')) return undefined;
    const p = await this.#openReviewOf(tx, s.query, r.score);
    if (!p || p.screening_id === s.id || p.facts_screening_id === s.id) return undefined;
    const facts = await tx.screenings.getScreening(p.facts_screening_id ?? p.screening_id);
    const newer =
      r.score !== null && (!facts?.score_fetched_at || (r.score_fetched_at !== null && r.score_fetched_at > facts.score_fetched_at));
    if (localBlock) return { kind: 'closed', ...(await this.#close(tx, p, 'local_block', r.error!.message, newer ? s.id : null)) };
    if (!newer || !r.score) return undefined;
    const verdict = actionForScore(r.score);
    if (verdict.action === 'block') return { kind: 'closed', ...(await this.#close(tx, p, 'blocking_score', blockingWhy(r.score), s.id)) };
    const changed = !facts?.score || basisChanges(basisOf(facts.score), basisOf(r.score)).length > 0;
    await tx.decisions.showFacts(p.id, s.id, changed);
    return { kind: 'updated', reviewId: p.id };
  }

  /**
   * The carrier was put on the local do-not-use list (in that transaction): its open review, if
   * any, is closed and every tender waiting on it blocked.
   */
  async onLocalBlock(
    tx: RecordTx,
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
    await tx.decisions.lockCarriers({ review: queries.flatMap((q) => reviewLookupKeys(this.o.env, q, null)) });
    for (const q of queries) {
      const p = await this.#openReviewOf(tx, q, null);
      if (p)
        return this.#close(
          tx,
          p,
          'local_block',
          `on the local do-not-use list: ${block.reason} (${block.id}, blocked by ${block.blocked_by})`,
          null,
        );
    }
    return undefined;
  }

  /** The carrier's open review: by the key a screening of it is reviewed under, or its DOT or MC number. */
  async #openReviewOf(tx: RecordTx, query: CarrierQuery, score: SvcScore | null): Promise<ReviewHeadRow | undefined> {
    // Each openReviewId locks its key: re-entrant once the unit has taken lockCarriers.
    for (const key of reviewLookupKeys(this.o.env, query, score)) {
      const openId = await tx.decisions.openReviewId(key);
      if (openId !== undefined) return tx.decisions.reviewHead(openId);
    }
    return undefined;
  }

  /** Close an open review and its waiting items: every tender on it becomes `block`. */
  async #close(tx: RecordTx, p: ReviewHeadRow, by: ReviewClosedBy, reason: string, factsScreeningId: string | null): Promise<ClosedReview> {
    const st = tx.decisions;
    const settled = await st.pendingOn(p.id);
    await st.close(p.id, { by, reason, at: this.o.now().toISOString(), factsScreeningId });
    for (const id of settled) await st.settle(id, 'block', 'review', null);
    return { reviewId: p.id, closedBy: by, settled };
  }

  /** The pending carrier review a screening's item belongs to (its own, or the one it waits on). */
  async #headOf(tx: RecordTx, screeningId: string): Promise<ReviewHeadRow | undefined> {
    const own = await tx.decisions.reviewOfScreening(screeningId);
    if (!own) return undefined;
    const head = await tx.decisions.reviewHead(own.parent_id ?? own.id);
    return head?.state === 'pending' ? head : undefined;
  }

  /**
   * A re-screen after an outage gave a held screening a score that still needs a person: the
   * carrier's review now shows it, as a new version with a new basis (it had none), so a decision
   * on the version shown before is refused as stale.
   */
  async showRescreenFacts(tx: RecordTx, screeningId: string): Promise<string | undefined> {
    const head = await this.#headOf(tx, screeningId);
    if (!head) return undefined;
    await tx.decisions.showFacts(head.id, screeningId, true);
    return head.id;
  }

  /**
   * A re-screen after an outage came to block on a blocking score or a local block: the
   * carrier's review is closed, as for any blocking news, and every tender waiting on it blocked.
   */
  async closeOnRescreen(tx: RecordTx, screeningId: string, r: ScreeningResult): Promise<ClosedReview | undefined> {
    const head = await this.#headOf(tx, screeningId);
    if (!head) return undefined;
    if (r.error?.code === LOCAL_BLOCK_CODE) return this.#close(tx, head, 'local_block', r.error.message, r.score ? screeningId : null);
    if (r.score && actionForScore(r.score).action === 'block')
      return this.#close(tx, head, 'blocking_score', blockingWhy(r.score), screeningId);
    return undefined;
  }

  /**
   * A held screening was screened again after an outage and came to tender or block: its own
   * review item is closed as `superseded` by carrier-screen, with why. When it was its
   * carrier's review and other tenders still wait on it, the oldest of them becomes the
   * carrier's review (they are not decided by this). Returns the closed item, or undefined
   * when there was none pending.
   */
  async supersede(tx: RecordTx, screeningId: string, note: string): Promise<Review | undefined> {
    const st = tx.decisions;
    const own = await st.reviewOfScreening(screeningId);
    if (!own) return undefined;
    if (!(await st.supersede(own.id, { by: SUPERSEDED_BY, at: this.o.now().toISOString(), note }))) return undefined;
    if (own.parent_id === null) {
      const next = await st.firstWaiting(own.id);
      if (next !== undefined) await st.promote(next, own.id);
    }
    return tx.reviews.getReview(own.id);
  }

  // The reads below are made outside a unit of work, on the store's repositories: committed rows only.
  async get(id: string): Promise<Decision | undefined> {
    const row = await this.o.store.decisions.get(id);
    return row ? decisionOf(row) : undefined;
  }

  async list(f: DecisionFilter = {}): Promise<Decision[]> {
    return (await this.o.store.decisionLists.list(rowFilter(f), f.limit ?? 100)).map(decisionOf);
  }

  /** One page of GET /decisions (pageDecisions, below). */
  page(f: Omit<DecisionFilter, 'limit'>, p: ListPage): Promise<{ data: Decision[]; has_more: boolean }> {
    return pageDecisions(this.o.store, f, p);
  }

  /** A person ends a standing decision: the next hold of the carrier opens a review. Returns it, ended. */
  async revoke(tx: RecordTx, id: string, actor: Actor, note: string | null): Promise<Decision> {
    return this.#endStanding(tx, id, 'revoked', actor, note ?? 'revoked');
  }

  /** The sandbox's test helper: end a standing decision as if its TTL had run out. Returns it, ended. */
  async lapse(tx: RecordTx, id: string, actor: Actor, reason: string): Promise<Decision> {
    return this.#endStanding(tx, id, 'lapsed', actor, reason);
  }

  /**
   * End the standing decision `id` for a person (revoke) or the sandbox (lapse): NotFoundError
   * when there is none, ReviewConflictError when it no longer stands (decision_conflict).
   */
  async #endStanding(tx: RecordTx, id: string, state: 'lapsed' | 'revoked', actor: Actor, reason: string): Promise<Decision> {
    const row = await tx.decisions.get(id);
    if (!row) throw new NotFoundError(`no decision ${id}`);
    if (row.state !== 'standing')
      throw new ReviewConflictError(`decision ${id} is already ${row.state}${row.ended_by ? ` by ${row.ended_by}` : ''}`, id);
    return (await this.#end(tx, row, state, actor, reason))!;
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
  async #end(
    tx: RecordTx,
    d: DecisionRow,
    state: 'lapsed' | 'revoked',
    actor: Actor | null,
    reason: string,
  ): Promise<Decision | undefined> {
    const e = { state, at: this.o.now().toISOString(), by: actor?.by ?? null, token_id: actor?.token_id ?? null, reason };
    if (!(await tx.decisions.end(d.id, e))) return undefined;
    return decisionOf((await tx.decisions.get(d.id))!);
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
 * first (the SQL and its indexes: decisionListsOf, worker/store/decisions-repo.ts), read through
 * the record's `decisionLists` (committed rows).
 */
export async function pageDecisions(
  repos: Pick<RecordRepos, 'decisionLists'>,
  f: Omit<DecisionFilter, 'limit'>,
  p: ListPage,
): Promise<{ data: Decision[]; has_more: boolean }> {
  const { rows, has_more } = await repos.decisionLists.page(rowFilter(f), p);
  return { data: rows.map(decisionOf), has_more };
}

/**
 * GET /decisions as a reader job: the page read through the record (either backend; on SQLite
 * the page and its JSON are made in a reader thread: list-reads.ts).
 */
export const decisionsPage = listJob(
  import.meta.url,
  'decisionsPage',
  (record, a: { filter: Omit<DecisionFilter, 'limit'>; page: ListPage }) => pageDecisions(record, a.filter, a.page),
);
