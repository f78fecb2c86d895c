import type { Database } from 'better-sqlite3';
import { canonicalDot, queryKey } from '../../shared/carrier-id.js';
import type { Decision, DecisionState, Review, ReviewState, Screening, StandingDecisionRef } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { NotFoundError, ReviewConflictError, newDecisionId, newReviewId, type Env, type ScreeningResult, type Store } from '../store/index.js';
import { connectionOf } from '../store/sqlite-store.js';
import { basisChanges, basisOf, type Basis } from './basis.js';

/**
 * A dispatcher decides a carrier, not a tender (docs/decisions.md):
 * - one open review per carrier and environment; every later hold of that carrier waits on it;
 * - resolving it settles every waiting tender and records a decision;
 * - the decision stands for later screenings while the score's basis is unchanged, until its
 *   TTL or a revoke; a fresh score with another basis ends it, and the next hold reopens a
 *   review that shows the previous decision and what changed.
 * Every method runs inside the caller's SQLite transaction (synchronous, no I/O but SQLite).
 */

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
}

export interface DecisionFilter {
  dot_number?: string;
  state?: DecisionState;
  limit?: number;
}

export interface CarrierDecisionsOptions {
  store: Store;
  env: Env;
  /** SCREEN_DECISION_TTL. */
  ttlMs: number;
  now: () => Date;
}

/**
 * A hold that went to its carrier's review. `reviewId`: the carrier's review; the caller reads a
 * new one once the screening is finished (a tender that joins one is told by id: reading every
 * waiting tender per hold would grow with them). `ownId`: the screening's own review item.
 */
export type ReviewOutcome = { kind: 'review'; reviewId: string; created: boolean; joined: boolean; ownId: string };

/** What a hold came to: settled at once by a standing decision, or a review (opened or joined). */
export type HoldOutcome = { kind: 'settled'; result: ScreeningResult; decision: StandingDecisionRef } | ReviewOutcome;

export class CarrierDecisions {
  readonly #db: Database;
  readonly #st: ReturnType<typeof statements>;
  readonly #ended: Decision[] = [];

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
    return `${this.o.env}:${named ? `dot:${canonicalDot(named.carrier.dot_number)}` : queryKey(s.query)}`;
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
    if (d && r.score) {
      const why = this.#whyEnds(d, r.score);
      if (!why) {
        const action = d.decision === 'approved' ? 'tender' : 'block';
        return { kind: 'settled', result: { ...r, action }, decision: refOf(d) };
      }
      this.#end(d, 'lapsed', null, why.join('; '));
    }
    const open = this.#st.openReview.get(key) as { id: string } | undefined;
    let previous: string | null = null;
    if (!open) {
      const last = this.#st.lastEnded.get(key) as DecisionRow | undefined;
      if (last) {
        // What ended it: the basis changes of a lapse, or who revoked it and why.
        const revoked = last.state === 'revoked';
        const changes = revoked ? [] : (last.end_reason ?? '').split('; ').filter(Boolean);
        previous = JSON.stringify({ ...refOf(last), state: last.state, ended_at: last.ended_at, ended_by: last.ended_by, note: revoked ? last.end_reason : null, changes });
      }
    }
    const id = newReviewId();
    const created = this.#st.insertReview.run(id, s.id, r.hold_reason ?? 'manual_review', this.o.now().toISOString(), key, open?.id ?? null, previous).changes > 0;
    // Written just now, or there already (a re-run): read only then.
    const own = created ? { id, parent_id: open?.id ?? null } : (this.#st.reviewOfScreening.get(s.id) as { id: string; parent_id: string | null });
    const joined = own.parent_id !== null;
    const reviewId = own.parent_id ?? own.id;
    return { kind: 'review', reviewId, created, joined, ownId: own.id };
  }

  /** The screening was settled (a standing decision, or its review): say so on it. */
  markSettled(screeningId: string, action: 'tender' | 'block', by: 'review' | 'standing_decision', decision: StandingDecisionRef | null): void {
    this.#st.settle.run(action, by, decision ? JSON.stringify(decision) : null, screeningId);
  }

  /**
   * Resolve a carrier's review (or the review a tender waits on): every waiting tender is
   * settled, and the decision stands. Returns the review and the screenings it settled.
   */
  resolve(reviewId: string, state: 'approved' | 'rejected', by: string, note: string | null): { review: Review; settled: string[] } {
    const head = this.#st.reviewHead.get(reviewId) as { id: string; parent_id: string | null; state: ReviewState; carrier_key: string | null; screening_id: string } | undefined;
    if (!head) throw new NotFoundError(`no review with id ${reviewId}`);
    const primaryId = head.parent_id ?? head.id;
    const waiting = this.#st.waiting.all(primaryId) as Array<{ id: string; screening_id: string }>;
    // Settles the carrier's own review item and screening (a conflict if already decided).
    const primary = this.o.store.resolveReview(primaryId, state, by, note);
    const decidedAt = primary.decided_at ?? this.o.now().toISOString();
    this.#st.resolveWaiting.run(state, by, decidedAt, note, primaryId);
    const action = state === 'approved' ? 'tender' : 'block';
    const settled = [primary.screening_id, ...waiting.map((w) => w.screening_id)];
    for (const id of settled) this.markSettled(id, action, 'review', null);

    // The decision stands for the carrier while the score's basis holds.
    const score = primary.screening.score;
    if (score) {
      const key = head.carrier_key ?? this.carrierKey(primary.screening, score);
      const old = this.#st.standing.get(key) as DecisionRow | undefined;
      if (old) this.#end(old, 'lapsed', by, 'replaced by a newer decision');
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
        decided_by: by,
        decided_at: decidedAt,
        expires_at: new Date(Date.parse(decidedAt) + this.o.ttlMs).toISOString(),
      });
    }
    return { review: this.o.store.getReview(primaryId)!, settled };
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
    if (f.state !== undefined) {
      where.push('state = ?');
      args.push(f.state);
    }
    const sql = `SELECT * FROM decisions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY decided_at DESC, rowid DESC LIMIT ?`;
    return (this.#db.prepare(sql).all(...args, f.limit ?? 100) as DecisionRow[]).map(decisionOf);
  }

  /** A person ends a standing decision: the next hold of the carrier opens a review. */
  revoke(id: string, by: string, note: string | null): Decision {
    const row = this.#st.get.get(id) as DecisionRow | undefined;
    if (!row) throw new NotFoundError(`no decision with id ${id}`);
    if (row.state !== 'standing') throw new ReviewConflictError(`decision ${id} is already ${row.state}`, id);
    return this.#end(row, 'revoked', by, note ?? 'revoked')!;
  }

  /** Why a standing decision no longer holds for this score: expired, or the basis changed. */
  #whyEnds(d: DecisionRow, score: SvcScore): string[] | undefined {
    if (Date.parse(d.expires_at) <= this.o.now().getTime()) return [`expired ${d.expires_at} (SCREEN_DECISION_TTL)`];
    const changes = basisChanges(JSON.parse(d.basis) as Basis, basisOf(score));
    return changes.length ? changes : undefined;
  }

  #end(d: DecisionRow, state: 'lapsed' | 'revoked', by: string | null, reason: string): Decision | undefined {
    if (this.#st.end.run(state, this.o.now().toISOString(), by, reason, d.id).changes === 0) return undefined;
    const ended = decisionOf(this.#st.get.get(d.id) as DecisionRow);
    this.#ended.push(ended);
    return ended;
  }

  /** Decisions ended since the last call (for their decision.lapsed / decision.revoked events). */
  drainEnded(): Decision[] {
    return this.#ended.splice(0);
  }
}

function statements(db: Database) {
  return {
    standing: db.prepare("SELECT * FROM decisions WHERE carrier_key = ? AND state = 'standing'"),
    lastEnded: db.prepare("SELECT * FROM decisions WHERE carrier_key = ? AND state IN ('lapsed', 'revoked') ORDER BY ended_at DESC, rowid DESC LIMIT 1"),
    end: db.prepare("UPDATE decisions SET state = ?, ended_at = ?, ended_by = ?, end_reason = ? WHERE id = ? AND state = 'standing'"),
    insert: db.prepare(`
      INSERT INTO decisions (id, carrier_key, dot_number, mc_number, legal_name, review_id, decision, basis, model_version, decided_by, decided_at, expires_at, state)
      VALUES (@id, @carrier_key, @dot_number, @mc_number, @legal_name, @review_id, @decision, @basis, @model_version, @decided_by, @decided_at, @expires_at, 'standing')`),
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
    reviewHead: db.prepare('SELECT id, parent_id, state, carrier_key, screening_id FROM reviews WHERE id = ?'),
    waiting: db.prepare("SELECT id, screening_id FROM reviews WHERE parent_id = ? AND state = 'pending'"),
    resolveWaiting: db.prepare("UPDATE reviews SET state = ?, decided_by = ?, decided_at = ?, note = ? WHERE parent_id = ? AND state = 'pending'"),
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
  };
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
    end_reason: d.end_reason,
    updated_at: d.ended_at ?? d.decided_at,
  };
}

