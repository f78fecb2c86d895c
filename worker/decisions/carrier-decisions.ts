import type { Database } from 'better-sqlite3';
import { canonicalDot, canonicalMc, queryKey, type CarrierQuery } from '../../shared/carrier-id.js';
import type {
  Decision,
  DecisionState,
  Review,
  ReviewClosedBy,
  ReviewState,
  Screening,
  StandingDecisionRef,
} from '../../shared/screening.js';
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
import { connectionOf } from '../store/sqlite-store.js';
import { keysetPage } from '../store/keyset.js';
import { listJob } from '../store/list-reads.js';
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
 * Every method runs inside the caller's SQLite transaction (synchronous, no I/O but SQLite).
 * A method that ends a standing decision returns it (observe, revoke, lapse) or lists it in its
 * outcome (`ended` of onHold and resolve): the caller appends its `decision.<state>` event in
 * the same transaction. Nothing is kept here between calls, so a piece of a group commit that
 * runs twice, or a transaction rolled back, leaves no event behind (worker/store/group-commit.ts).
 */

/** Who closes a review a re-screen superseded (reviews.decided_by): no person decided it. */
export const SUPERSEDED_BY = 'carrier-screen (re-screen)';

interface DecisionRow {
  id: string;
  carrier_key: string;
  dot_number: string | null;
  mc_number: string | null;
  legal_name: string | null;
  review_id: string;
  decision: 'approved' | 'rejected';
  basis: string;
  model_version: string | null;
  decided_by: string;
  decided_at: string;
  expires_at: string;
  state: DecisionState;
  ended_at: string | null;
  ended_by: string | null;
  end_reason: string | null;
  token_id: string | null;
  ended_token_id: string | null;
}

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
  /** The carrier's active local block, if any (worker/watch): a decision is never taken past one. */
  blockOf?: (query: CarrierQuery, score: SvcScore | null) => { id: string; reason: string; blocked_by: string } | undefined;
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

interface ReviewHeadRow {
  id: string;
  parent_id: string | null;
  state: ReviewState;
  carrier_key: string | null;
  screening_id: string;
  version: number;
  basis_since: number;
  facts_screening_id: string | null;
  closed_by: string | null;
  closed_reason: string | null;
}

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

export class CarrierDecisions {
  readonly #db: Database;
  readonly #st: ReturnType<typeof statements>;

  constructor(private readonly o: CarrierDecisionsOptions) {
    this.#db = connectionOf(o.store);
    const db = this.#db;
    this.#st = statements(db);
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
   * A fresh score from /v1 (a re-check, the cache refreshing, a watch re-screen): a standing
   * decision whose basis it does not match, or whose TTL has passed, ends here. Returns it.
   */
  observe(s: Pick<Screening, 'query'>, score: SvcScore): Decision | undefined {
    const d = this.#st.standing.get(this.carrierKey(s, score)) as DecisionRow | undefined;
    if (!d) return undefined;
    const why = this.#whyEnds(d, score);
    return why ? this.#end(d, 'lapsed', null, why.join('; ')) : undefined;
  }

  /**
   * A screening is to be held for a person. With a standing decision on the same basis, it is
   * settled at once (no review); otherwise it opens the carrier's review, or waits on the one
   * already open.
   */
  onHold(s: Screening, r: ScreeningResult): HoldOutcome {
    const key = this.carrierKey(s, r.score);
    const d = this.#st.standing.get(key) as DecisionRow | undefined;
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
    const open = this.#st.openReview.get(key) as { id: string } | undefined;
    let previous: string | null = null;
    if (!open) {
      const last = this.#st.lastEnded.get(key) as DecisionRow | undefined;
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
    const created =
      this.#st.insertReview.run(id, s.id, r.hold_reason ?? 'manual_review', this.o.now().toISOString(), key, open?.id ?? null, previous)
        .changes > 0;
    // Written just now, or there already (a re-run): read only then.
    const own = created
      ? { id, parent_id: open?.id ?? null }
      : (this.#st.reviewOfScreening.get(s.id) as { id: string; parent_id: string | null });
    const joined = own.parent_id !== null;
    const reviewId = own.parent_id ?? own.id;
    return { kind: 'review', reviewId, created, joined, ownId: own.id, ended };
  }

  /** The screening was settled (a standing decision, or its review): say so on it. */
  markSettled(
    screeningId: string,
    action: 'tender' | 'block',
    by: 'review' | 'standing_decision' | 'rescreen',
    decision: StandingDecisionRef | null,
  ): void {
    this.#st.settle.run(action, by, decision ? JSON.stringify(decision) : null, screeningId);
  }

  /**
   * Resolve a carrier's review (or the review a tender waits on): every waiting tender is
   * settled, and the decision stands. `seenVersion`: the review version its maker saw (none:
   * the facts it was opened with, version 1). When the carrier's facts changed since (another
   * basis, a blocking score, a local block) nothing is decided: `stale`. A local block not yet
   * applied to the review closes it here, for the caller to commit and tell.
   */
  resolve(reviewId: string, state: 'approved' | 'rejected', actor: Actor, note: string | null, seenVersion?: number): ResolveOutcome {
    const head = this.#st.reviewHead.get(reviewId) as ReviewHeadRow | undefined;
    if (!head) throw new NotFoundError(`no review with id ${reviewId}`);
    const primaryId = head.parent_id ?? head.id;
    const p = head.parent_id === null ? head : ((this.#st.reviewHead.get(primaryId) as ReviewHeadRow | undefined) ?? head);
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
      const block = this.o.blockOf?.(facts?.query ?? { dot_number: '0' }, facts?.score ?? null);
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
    const waiting = this.#st.waiting.all(primaryId) as Array<{ id: string; screening_id: string }>;
    // Settles the carrier's own review item and screening (a conflict if already decided).
    const primary = this.o.store.resolveReview(primaryId, state, actor.by, note, actor.token_id);
    const decidedAt = primary.decided_at ?? this.o.now().toISOString();
    this.#st.resolveWaiting.run(state, actor.by, decidedAt, note, actor.token_id, primaryId);
    const action = state === 'approved' ? 'tender' : 'block';
    const settled = [primary.screening_id, ...waiting.map((w) => w.screening_id)];
    for (const id of settled) this.markSettled(id, action, 'review', null);

    // The decision stands for the carrier while the basis of the facts decided on holds.
    const score = primary.latest.score ?? primary.screening.score;
    const ended: Decision[] = [];
    if (score) {
      const key = head.carrier_key ?? this.carrierKey(primary.screening, score);
      const old = this.#st.standing.get(key) as DecisionRow | undefined;
      const replaced = old ? this.#end(old, 'lapsed', actor, 'replaced by a newer decision') : undefined;
      if (replaced) ended.push(replaced);
      this.#st.insert.run({
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
  onFacts(s: Pick<Screening, 'id' | 'query'>, r: ScreeningResult): FactsOutcome | undefined {
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
    this.#st.showFacts.run(changed ? 1 : 0, s.id, p.id);
    return { kind: 'updated', reviewId: p.id };
  }

  /**
   * The carrier was put on the local do-not-use list (in that transaction): its open review, if
   * any, is closed and every tender waiting on it blocked.
   */
  onLocalBlock(block: {
    id: string;
    dot_number: string | null;
    mc_number: string | null;
    reason: string;
    blocked_by: string;
  }): ClosedReview | undefined {
    const queries: CarrierQuery[] = [];
    if (block.dot_number) queries.push({ dot_number: block.dot_number });
    if (block.mc_number) queries.push({ mc_number: block.mc_number });
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
    const keys = new Set([`${this.o.env}:${queryKey(query)}`]);
    if (score) {
      keys.add(this.carrierKey({ query }, score));
      if (typeof score.carrier.mc_number === 'string' && score.carrier.mc_number !== '')
        keys.add(`${this.o.env}:mc:${canonicalMc(score.carrier.mc_number)}`);
    }
    for (const key of keys) {
      const open = this.#st.openReview.get(key) as { id: string } | undefined;
      if (open) return this.#st.reviewHead.get(open.id) as ReviewHeadRow;
    }
    return undefined;
  }

  /** Close an open review and its waiting items: every tender on it becomes `block`. */
  #close(p: ReviewHeadRow, by: ReviewClosedBy, reason: string, factsScreeningId: string | null): ClosedReview {
    const settled = (this.#st.onReview.all(p.id, p.id) as Array<{ screening_id: string }>).map((x) => x.screening_id);
    this.#st.close.run(by, reason, this.o.now().toISOString(), p.id, p.id);
    this.#st.closedVersion.run(factsScreeningId, p.id);
    for (const id of settled) this.markSettled(id, 'block', 'review', null);
    return { reviewId: p.id, closedBy: by, settled };
  }

  /** The pending carrier review a screening's item belongs to (its own, or the one it waits on). */
  #headOf(screeningId: string): ReviewHeadRow | undefined {
    const own = this.#st.reviewOfScreening.get(screeningId) as { id: string; parent_id: string | null } | undefined;
    if (!own) return undefined;
    const head = this.#st.reviewHead.get(own.parent_id ?? own.id) as ReviewHeadRow | undefined;
    return head?.state === 'pending' ? head : undefined;
  }

  /**
   * A re-screen after an outage gave a held screening a score that still needs a person: the
   * carrier's review now shows it, as a new version with a new basis (it had none), so a decision
   * on the version shown before is refused as stale.
   */
  showRescreenFacts(screeningId: string): string | undefined {
    const head = this.#headOf(screeningId);
    if (!head) return undefined;
    this.#st.showFacts.run(1, screeningId, head.id);
    return head.id;
  }

  /**
   * A re-screen after an outage came to block on a blocking score or a local block: the
   * carrier's review is closed, as for any blocking news, and every tender waiting on it blocked.
   */
  closeOnRescreen(screeningId: string, r: ScreeningResult): ClosedReview | undefined {
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
  supersede(screeningId: string, note: string): Review | undefined {
    const own = this.#st.reviewOfScreening.get(screeningId) as { id: string; parent_id: string | null } | undefined;
    if (!own) return undefined;
    if (this.#st.supersede.run(SUPERSEDED_BY, this.o.now().toISOString(), note, own.id).changes === 0) return undefined;
    if (own.parent_id === null) {
      const next = this.#st.firstWaiting.get(own.id) as { id: string } | undefined;
      if (next) {
        this.#st.promote.run(next.id);
        this.#st.reparent.run(next.id, own.id);
      }
    }
    return this.o.store.getReview(own.id);
  }

  get(id: string): Decision | undefined {
    const row = this.#st.get.get(id) as DecisionRow | undefined;
    return row ? decisionOf(row) : undefined;
  }

  list(f: DecisionFilter = {}): Decision[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (f.dot_number !== undefined) {
      where.push('dot_number = ?');
      args.push(canonicalDot(f.dot_number));
    }
    if (f.state === 'ended') where.push("state IN ('lapsed', 'revoked')");
    else if (f.state !== undefined) {
      where.push('state = ?');
      args.push(f.state);
    }
    const sql = `SELECT * FROM decisions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${f.state === 'ended' ? 'ended_at' : 'decided_at'} DESC, rowid DESC LIMIT ?`;
    return (this.#db.prepare(sql).all(...args, f.limit ?? 100) as DecisionRow[]).map(decisionOf);
  }

  /** One page of GET /decisions (pageDecisions, below). */
  page(f: Omit<DecisionFilter, 'limit'>, p: ListPage): { data: Decision[]; has_more: boolean } {
    return pageDecisions(this.#db, f, p);
  }

  /** A person ends a standing decision: the next hold of the carrier opens a review. Returns it, ended. */
  revoke(id: string, actor: Actor, note: string | null): Decision {
    return this.#endStanding(id, 'revoked', actor, note ?? 'revoked');
  }

  /** The sandbox's test helper: end a standing decision as if its TTL had run out. Returns it, ended. */
  lapse(id: string, actor: Actor, reason: string): Decision {
    return this.#endStanding(id, 'lapsed', actor, reason);
  }

  /**
   * End the standing decision `id` for a person (revoke) or the sandbox (lapse): NotFoundError
   * when there is none, ReviewConflictError when it no longer stands (decision_conflict).
   */
  #endStanding(id: string, state: 'lapsed' | 'revoked', actor: Actor, reason: string): Decision {
    const row = this.#st.get.get(id) as DecisionRow | undefined;
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
    if (this.#st.end.run(state, this.o.now().toISOString(), actor?.by ?? null, actor?.token_id ?? null, reason, d.id).changes === 0)
      return undefined;
    return decisionOf(this.#st.get.get(d.id) as DecisionRow);
  }
}

function statements(db: Database) {
  return {
    standing: db.prepare("SELECT * FROM decisions WHERE carrier_key = ? AND state = 'standing'"),
    lastEnded: db.prepare(
      "SELECT * FROM decisions WHERE carrier_key = ? AND state IN ('lapsed', 'revoked') ORDER BY ended_at DESC, rowid DESC LIMIT 1",
    ),
    end: db.prepare(
      "UPDATE decisions SET state = ?, ended_at = ?, ended_by = ?, ended_token_id = ?, end_reason = ? WHERE id = ? AND state = 'standing'",
    ),
    insert: db.prepare(`
      INSERT INTO decisions (id, carrier_key, dot_number, mc_number, legal_name, review_id, decision, basis, model_version, decided_by, decided_at, expires_at, state, token_id)
      VALUES (@id, @carrier_key, @dot_number, @mc_number, @legal_name, @review_id, @decision, @basis, @model_version, @decided_by, @decided_at, @expires_at, 'standing', @token_id)`),
    get: db.prepare('SELECT * FROM decisions WHERE id = ?'),
    // Named: reviews_by_state (pending, parent_id IS NULL) fits this WHERE too, and without
    // statistics SQLite may pick it and walk every carrier's open review per hold.
    openReview: db.prepare(
      "SELECT id FROM reviews INDEXED BY reviews_open_by_carrier WHERE carrier_key = ? AND state = 'pending' AND parent_id IS NULL ORDER BY created_at ASC, rowid ASC LIMIT 1",
    ),
    insertReview: db.prepare(`
      INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id, previous_decision)
      VALUES (?, ?, 'pending', ?, ?, ?, ?, ?) ON CONFLICT (screening_id) DO NOTHING`),
    reviewOfScreening: db.prepare('SELECT id, parent_id FROM reviews WHERE screening_id = ?'),
    reviewHead: db.prepare(
      'SELECT id, parent_id, state, carrier_key, screening_id, version, basis_since, facts_screening_id, closed_by, closed_reason FROM reviews WHERE id = ?',
    ),
    waiting: db.prepare("SELECT id, screening_id FROM reviews WHERE parent_id = ? AND state = 'pending'"),
    resolveWaiting: db.prepare(
      "UPDATE reviews SET state = ?, decided_by = ?, decided_at = ?, note = ?, token_id = ? WHERE parent_id = ? AND state = 'pending'",
    ),
    onReview: db.prepare("SELECT screening_id FROM reviews WHERE (id = ? OR parent_id = ?) AND state = 'pending'"),
    // Closed: the carrier's review and every item waiting on it; its facts changed (a new version that any earlier one is stale against).
    close: db.prepare(
      "UPDATE reviews SET state = 'closed', closed_by = ?, closed_reason = ?, decided_at = ? WHERE (id = ? OR parent_id = ?) AND state = 'pending'",
    ),
    closedVersion: db.prepare(
      'UPDATE reviews SET version = version + 1, basis_since = version + 1, facts_screening_id = COALESCE(?, facts_screening_id) WHERE id = ?',
    ),
    // A newer score shown: a new version; a new basis too when it differs (the first value, 1).
    showFacts: db.prepare(
      "UPDATE reviews SET version = version + 1, basis_since = CASE WHEN ? THEN version + 1 ELSE basis_since END, facts_screening_id = ? WHERE id = ? AND state = 'pending'",
    ),
    supersede: db.prepare(
      "UPDATE reviews SET state = 'superseded', decided_by = ?, decided_at = ?, note = ?, version = version + 1, basis_since = version + 1 WHERE id = ? AND state = 'pending'",
    ),
    firstWaiting: db.prepare("SELECT id FROM reviews WHERE parent_id = ? AND state = 'pending' ORDER BY created_at ASC, rowid ASC LIMIT 1"),
    promote: db.prepare('UPDATE reviews SET parent_id = NULL WHERE id = ?'),
    reparent: db.prepare("UPDATE reviews SET parent_id = ? WHERE parent_id = ? AND state = 'pending'"),
    settle: db.prepare("UPDATE screenings SET action = ?, settled_by = ?, standing_decision = ? WHERE id = ? AND status = 'done'"),
  };
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

/**
 * One page of GET /decisions by keyset, newest first (decided_at, rowid), on the index of the
 * filter: decisions_by_dot, decisions_by_state or decisions_by_decided. `ended` (lapsed or
 * revoked) is ordered by its end, latest first (ended_at, rowid), on decisions_ended_by_ended.
 */
export function pageDecisions(db: Database, f: Omit<DecisionFilter, 'limit'>, p: ListPage): { data: Decision[]; has_more: boolean } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (f.dot_number !== undefined) {
    where.push('dot_number = @dot');
    params.dot = canonicalDot(f.dot_number);
  }
  const ended = f.state === 'ended';
  // Spelt as the partial index's own term, so SQLite may read it.
  if (ended) where.push("state IN ('lapsed', 'revoked')");
  else if (f.state !== undefined) {
    where.push('state = @state');
    params.state = f.state;
  }
  const { rows, has_more } = keysetPage<DecisionRow>(
    db,
    {
      select: 'SELECT * FROM decisions',
      // With no statistics SQLite would pick decisions_by_state and sort every ended decision.
      ...(ended && f.dot_number === undefined ? { pageSelect: 'SELECT * FROM decisions INDEXED BY decisions_ended_by_ended' } : {}),
      where,
      params,
      key: ended ? 'ended_at' : 'decided_at',
      tie: 'rowid',
      direction: 'DESC',
      cursor: 'id = @cursor_id',
    },
    p,
  );
  return { data: rows.map(decisionOf), has_more };
}

/** GET /decisions as a reader-pool job: the page and its JSON are made in a reader thread (list-reads.ts). */
export const decisionsPage = listJob(
  import.meta.url,
  'decisionsPage',
  (store, a: { filter: Omit<DecisionFilter, 'limit'>; page: ListPage }) => pageDecisions(connectionOf(store), a.filter, a.page),
);
