import type { DecisionState, ReviewClosedBy, ReviewState } from '../../shared/screening.js';
import { decisionFilter, type DecisionRowFilter } from './decision-filter.js';
import { keysetPage } from './keyset.js';
import { repositoryOf } from './repo.js';
import type { ListPage } from './types.js';

/**
 * The SQL of standing decisions and carrier reviews (the decisions and reviews tables, and the
 * settling of a screening by either): worker/decisions/carrier-decisions.ts has the rules (what
 * ends a decision, which review a hold joins, when facts are stale) and maps these rows to the
 * API's objects. Every write joins the running unit of work (`store.unitOfWork`) and keeps
 * nothing in memory, so a piece of a group commit that runs twice writes the same rows (worker/store/group-commit.ts).
 */

/** A decisions row. */
export interface DecisionRow {
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

/** A new standing decision (state `standing`). */
export type NewDecisionRow = Pick<
  DecisionRow,
  | 'id'
  | 'carrier_key'
  | 'dot_number'
  | 'mc_number'
  | 'legal_name'
  | 'review_id'
  | 'decision'
  | 'basis'
  | 'model_version'
  | 'decided_by'
  | 'decided_at'
  | 'expires_at'
  | 'token_id'
>;

/** A review as the rules of a carrier's review read it: its place, state and version of the facts. */
export interface ReviewHeadRow {
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

export type { DecisionRowFilter };

/** A screening's review item as insertReview writes it (pending). */
// A type, not an interface: the PostgreSQL statement's parameters need its implicit index signature.
export type NewReviewRow = {
  id: string;
  screening_id: string;
  hold_reason: string;
  created_at: string;
  carrier_key: string;
  parent_id: string | null;
  previous_decision: string | null;
};

/**
 * Every carrier lock a unit of work may need, named up front (lockCarriers): local-block names
 * (blockLockNames of block-rows.ts), review keys (`<env>:dot:<n>`, `<env>:mc:<n>`), watch
 * keys (`dot:<n>`, `mc:MC<n>`), and the carrier keys of reviews found by id or by their
 * screening (a review's carrier_key never changes).
 */
export interface CarrierLockSet {
  block?: readonly string[];
  review?: readonly string[];
  watch?: readonly string[];
  reviews?: readonly string[];
  reviewsOfScreenings?: readonly string[];
}

/** What carrier-decisions.ts asks of the decisions and reviews tables, inside the caller's transaction. */
export interface DecisionsRepo {
  /**
   * Take every carrier lock of `set`, once, at the start of a unit of work, in the one global
   * order (docs/design/postgres.md, section 4). SQLite: nothing to do (its one writer serializes
   * units of work); PostgreSQL: one statement, so no unit holds one of them while waiting for another.
   */
  lockCarriers(set: CarrierLockSet): void;
  /** The carrier's standing decision. */
  standing(carrierKey: string): DecisionRow | undefined;
  /**
   * `standing` and `openReviewId` of these carriers, read at once for the unit of work this handle
   * is on (a group commit's held hits, under their locks), which answers them with no round trip
   * until it writes those carriers' rows. PostgreSQL only (so async here: AsyncRepo maps no optional method).
   */
  readAheadStanding?(carrierKeys: readonly string[]): Promise<void>;
  /** The carrier's decision that ended last (lapsed or revoked). */
  lastEnded(carrierKey: string): DecisionRow | undefined;
  get(id: string): DecisionRow | undefined;
  insert(d: NewDecisionRow): void;
  /** End decision `id` if it still stands; false when it no longer did. */
  end(id: string, e: { state: 'lapsed' | 'revoked'; at: string; by: string | null; token_id: string | null; reason: string }): boolean;

  /** The carrier's open review (pending, no parent), the oldest if more. */
  openReviewId(carrierKey: string): string | undefined;
  /** A screening's review item, pending; false when the screening already has one (a re-run). */
  insertReview(r: NewReviewRow): boolean;
  /** A screening's review item. */
  reviewOfScreening(screeningId: string): { id: string; parent_id: string | null } | undefined;
  reviewHead(id: string): ReviewHeadRow | undefined;
  /** The pending items waiting on review `parentId`. */
  waiting(parentId: string): Array<{ id: string; screening_id: string }>;
  /** Decide every pending item waiting on review `parentId`. */
  resolveWaiting(
    parentId: string,
    r: { state: 'approved' | 'rejected'; decided_by: string; decided_at: string; note: string | null; token_id: string | null },
  ): void;
  /** The screenings of review `id` and of its pending items. */
  pendingOn(id: string): string[];
  /**
   * Close review `id` and every item waiting on it, and give it a new version that any earlier
   * one is stale against (the facts of `factsScreeningId`, when given).
   */
  close(id: string, c: { by: ReviewClosedBy; reason: string; at: string; factsScreeningId: string | null }): void;
  /** A newer score shown on pending review `id`: a new version, a new basis too when `newBasis`. */
  showFacts(id: string, factsScreeningId: string, newBasis: boolean): void;
  /** Close pending item `id` as superseded (a new version); false when it was not pending. */
  supersede(id: string, s: { by: string; at: string; note: string }): boolean;
  /** The oldest pending item waiting on review `parentId`. */
  firstWaiting(parentId: string): string | undefined;
  /** Item `id` becomes the carrier's review in place of `formerId`: the other pending items wait on it. */
  promote(id: string, formerId: string): void;

  /** A finished screening settled (by a review, a standing decision or a re-screen). */
  settle(screeningId: string, action: 'tender' | 'block', by: string, standingDecision: string | null): void;
}

export const decisionsOf = repositoryOf<DecisionsRepo>((db) => {
  const st = {
    standing: db.prepare<[string], DecisionRow>("SELECT * FROM decisions WHERE carrier_key = ? AND state = 'standing'"),
    lastEnded: db.prepare<[string], DecisionRow>(
      "SELECT * FROM decisions WHERE carrier_key = ? AND state IN ('lapsed', 'revoked') ORDER BY ended_at DESC, rowid DESC LIMIT 1",
    ),
    end: db.prepare<[string, string, string | null, string | null, string, string]>(
      "UPDATE decisions SET state = ?, ended_at = ?, ended_by = ?, ended_token_id = ?, end_reason = ? WHERE id = ? AND state = 'standing'",
    ),
    insert: db.prepare<[NewDecisionRow]>(`
      INSERT INTO decisions (id, carrier_key, dot_number, mc_number, legal_name, review_id, decision, basis, model_version, decided_by, decided_at, expires_at, state, token_id)
      VALUES (@id, @carrier_key, @dot_number, @mc_number, @legal_name, @review_id, @decision, @basis, @model_version, @decided_by, @decided_at, @expires_at, 'standing', @token_id)`),
    get: db.prepare<[string], DecisionRow>('SELECT * FROM decisions WHERE id = ?'),
    // Named: reviews_by_state (pending, parent_id IS NULL) fits this WHERE too, and without
    // statistics SQLite may pick it and walk every carrier's open review per hold.
    openReview: db.prepare<[string], { id: string }>(
      "SELECT id FROM reviews INDEXED BY reviews_open_by_carrier WHERE carrier_key = ? AND state = 'pending' AND parent_id IS NULL ORDER BY created_at ASC, rowid ASC LIMIT 1",
    ),
    insertReview: db.prepare<[string, string, string, string, string, string | null, string | null]>(`
      INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id, previous_decision)
      VALUES (?, ?, 'pending', ?, ?, ?, ?, ?) ON CONFLICT (screening_id) DO NOTHING`),
    reviewOfScreening: db.prepare<[string], { id: string; parent_id: string | null }>(
      'SELECT id, parent_id FROM reviews WHERE screening_id = ?',
    ),
    reviewHead: db.prepare<[string], ReviewHeadRow>(
      'SELECT id, parent_id, state, carrier_key, screening_id, version, basis_since, facts_screening_id, closed_by, closed_reason FROM reviews WHERE id = ?',
    ),
    waiting: db.prepare<[string], { id: string; screening_id: string }>(
      "SELECT id, screening_id FROM reviews WHERE parent_id = ? AND state = 'pending'",
    ),
    resolveWaiting: db.prepare<[string, string, string, string | null, string | null, string]>(
      "UPDATE reviews SET state = ?, decided_by = ?, decided_at = ?, note = ?, token_id = ? WHERE parent_id = ? AND state = 'pending'",
    ),
    onReview: db.prepare<[string, string], { screening_id: string }>(
      "SELECT screening_id FROM reviews WHERE (id = ? OR parent_id = ?) AND state = 'pending'",
    ),
    // Closed: the carrier's review and every item waiting on it; its facts changed (a new version that any earlier one is stale against).
    close: db.prepare<[string, string, string, string, string]>(
      "UPDATE reviews SET state = 'closed', closed_by = ?, closed_reason = ?, decided_at = ? WHERE (id = ? OR parent_id = ?) AND state = 'pending'",
    ),
    closedVersion: db.prepare<[string | null, string]>(
      'UPDATE reviews SET version = version + 1, basis_since = version + 1, facts_screening_id = COALESCE(?, facts_screening_id) WHERE id = ?',
    ),
    // A newer score shown: a new version; a new basis too when it differs (the first value, 1).
    showFacts: db.prepare<[number, string, string]>(
      "UPDATE reviews SET version = version + 1, basis_since = CASE WHEN ? THEN version + 1 ELSE basis_since END, facts_screening_id = ? WHERE id = ? AND state = 'pending'",
    ),
    supersede: db.prepare<[string, string, string, string]>(
      "UPDATE reviews SET state = 'superseded', decided_by = ?, decided_at = ?, note = ?, version = version + 1, basis_since = version + 1 WHERE id = ? AND state = 'pending'",
    ),
    firstWaiting: db.prepare<[string], { id: string }>(
      "SELECT id FROM reviews WHERE parent_id = ? AND state = 'pending' ORDER BY created_at ASC, rowid ASC LIMIT 1",
    ),
    promote: db.prepare<[string]>('UPDATE reviews SET parent_id = NULL WHERE id = ?'),
    reparent: db.prepare<[string, string]>("UPDATE reviews SET parent_id = ? WHERE parent_id = ? AND state = 'pending'"),
    settle: db.prepare<[string, string, string | null, string]>(
      "UPDATE screenings SET action = ?, settled_by = ?, standing_decision = ? WHERE id = ? AND status = 'done'",
    ),
  };
  return {
    // The one writer already keeps a unit of work whole: no lock to take.
    lockCarriers: () => {},
    standing: (key) => st.standing.get(key),
    lastEnded: (key) => st.lastEnded.get(key),
    get: (id) => st.get.get(id),
    insert: (d) => void st.insert.run(d),
    end: (id, e) => st.end.run(e.state, e.at, e.by, e.token_id, e.reason, id).changes > 0,
    openReviewId: (key) => st.openReview.get(key)?.id,
    insertReview: (r) =>
      st.insertReview.run(r.id, r.screening_id, r.hold_reason, r.created_at, r.carrier_key, r.parent_id, r.previous_decision).changes > 0,
    reviewOfScreening: (screeningId) => st.reviewOfScreening.get(screeningId),
    reviewHead: (id) => st.reviewHead.get(id),
    waiting: (parentId) => st.waiting.all(parentId),
    resolveWaiting: (parentId, r) => void st.resolveWaiting.run(r.state, r.decided_by, r.decided_at, r.note, r.token_id, parentId),
    pendingOn: (id) => st.onReview.all(id, id).map((x) => x.screening_id),
    close: (id, c) => {
      st.close.run(c.by, c.reason, c.at, id, id);
      st.closedVersion.run(c.factsScreeningId, id);
    },
    showFacts: (id, factsScreeningId, newBasis) => void st.showFacts.run(newBasis ? 1 : 0, factsScreeningId, id),
    supersede: (id, s) => st.supersede.run(s.by, s.at, s.note, id).changes > 0,
    firstWaiting: (parentId) => st.firstWaiting.get(parentId)?.id,
    promote: (id, formerId) => {
      st.promote.run(id);
      st.reparent.run(id, formerId);
    },
    settle: (screeningId, action, by, standingDecision) => void st.settle.run(action, by, standingDecision, screeningId),
  };
});

/**
 * The decisions' lists (GET /decisions, the CLI's list): reads only, so a reader thread opens
 * these alone on its read-only connection (worker/store/reader-thread.ts).
 */
export interface DecisionListsRepo {
  /** Up to `limit` decisions, newest first (decided_at, rowid); `ended` by its end, latest first. */
  list(f: DecisionRowFilter, limit: number): DecisionRow[];
  /**
   * One page by keyset, newest first (decided_at, rowid), on the index of the filter:
   * decisions_by_dot, decisions_by_state or decisions_by_decided. `ended` (lapsed or revoked) is
   * ordered by its end, latest first (ended_at, rowid), on decisions_ended_by_ended.
   */
  page(f: DecisionRowFilter, p: ListPage): { rows: DecisionRow[]; has_more: boolean };
}

export const decisionListsOf = repositoryOf<DecisionListsRepo>((db) => ({
  list: (f, limit) => {
    const { where, params, ended } = decisionFilter(f);
    const sql = `SELECT * FROM decisions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${ended ? 'ended_at' : 'decided_at'} DESC, rowid DESC LIMIT @limit`;
    return db.prepare<Record<string, unknown>, DecisionRow>(sql).all({ ...params, limit });
  },
  page: (f, p) => {
    const { where, params, ended } = decisionFilter(f);
    return keysetPage<DecisionRow>(
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
  },
}));
