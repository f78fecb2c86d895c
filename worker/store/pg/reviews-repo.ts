import type { Review } from '../../../shared/screening.js';
import type { KeysetList } from '../keyset.js';
import { loadOf, toReview, withFacts, type ScreeningRow } from '../rows.js';
import type { ReviewsRepo } from '../screening-repos.js';
import { NotFoundError, ReviewConflictError, StoreArgumentError } from '../store-error.js';
import type { ReviewListState } from '../types.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { pgKeysetPage } from './keyset-page.js';
import { reviewListOf } from '../review-list.js';
import { parsedFetches, type ParsedFetches } from './score-refs.js';
import { checkId, checkLimit } from '../arg-checks.js';
import { PG_SCREENING_COLUMNS, screeningsByIds } from './screenings-repo.js';
import { statement, type Queryable } from './sql.js';

/**
 * The Store's reviews on PostgreSQL (sqlite-store.ts's review methods). A review read is the
 * joined row plus its tenders and newest facts; SQLite reads those per review, here they are read
 * for a whole page at once (the head review by a join, the tenders and facts by one statement
 * each). resolveReview is one atomic UPDATE … WHERE state = 'pending' in its own transaction: of
 * two hosts deciding one review, the second waits on the row, then finds it decided (0 rows) and
 * gets the ReviewConflictError.
 */

export interface PgReviewsOptions {
  now: () => Date;
  /** The parsed-score memo, shared by the repositories of one record (one per repository otherwise). */
  scores?: ParsedFetches;
}

/**
 * The joined row and what a review read adds (sqlite-store.ts `reviewExtra`, for the review and
 * its head): a tender's own item shows its carrier review's version and facts.
 */
const REVIEW_SELECT = `SELECT ${PG_SCREENING_COLUMNS},
  r.closed_by AS x_closed_by, r.closed_reason AS x_closed_reason, r.token_id AS x_token_id,
  CASE WHEN h.id IS NULL THEN r.version ELSE h.version END AS x_version,
  CASE WHEN h.id IS NULL THEN r.facts_screening_id ELSE h.facts_screening_id END AS x_facts
  FROM reviews r JOIN screenings s ON s.id = r.screening_id LEFT JOIN reviews h ON h.id = r.parent_id`;

interface ReviewRow extends ScreeningRow {
  x_closed_by: string | null;
  x_closed_reason: string | null;
  x_token_id: string | null;
  x_version: number;
  x_facts: string | null;
}

interface TenderRow {
  of_review: string;
  screening_id: string;
  tender_id: string | null;
  load: string | null;
  action: string | null;
  created_at: string;
}

/** GET /reviews as a keyset list (review-list.ts), on PostgreSQL: seq breaks ties; the planner finds reviews_decided_recent by itself. */
export function pgReviewList(state: ReviewListState | undefined): KeysetList {
  return reviewListOf(state, { select: REVIEW_SELECT, tie: 'r.seq' });
}

type Resolve = { id: string; state: string; by: string; at: string; note: string | null; token_id: string | null };

const st = {
  review: statement<{ id: string }>('reviews_by_id', `${REVIEW_SELECT} WHERE r.id = @id`),
  pending: statement<{ n: number }>(
    'reviews_list_pending',
    `${REVIEW_SELECT} WHERE r.state = 'pending' AND r.parent_id IS NULL ORDER BY r.created_at ASC, r.seq ASC LIMIT @n`,
  ),
  byState: statement<{ state: string; n: number }>(
    'reviews_list_by_state',
    `${REVIEW_SELECT} WHERE r.state = @state AND r.parent_id IS NULL ORDER BY COALESCE(r.decided_at, r.created_at) DESC, r.seq DESC LIMIT @n`,
  ),
  all: statement<{ n: number }>(
    'reviews_list_all',
    `${REVIEW_SELECT} WHERE r.parent_id IS NULL ORDER BY r.created_at DESC, r.seq DESC LIMIT @n`,
  ),
  // The carrier's tenders on each review: its own screening and those waiting on it.
  tenders: statement<{ ids: string[] }>(
    'reviews_tenders',
    `SELECT r.id AS of_review, s.id AS screening_id, s.tender_id, s.load, s.action, s.created_at, s.seq
       FROM reviews r JOIN screenings s ON s.id = r.screening_id WHERE r.id = ANY(@ids::text[])
     UNION ALL
     SELECT r.parent_id, s.id, s.tender_id, s.load, s.action, s.created_at, s.seq
       FROM reviews r JOIN screenings s ON s.id = r.screening_id WHERE r.parent_id = ANY(@ids::text[])
     ORDER BY created_at ASC, seq ASC`,
  ),
  resolve: statement<Resolve>(
    'reviews_resolve',
    "UPDATE reviews SET state = @state, decided_by = @by, decided_at = @at, note = @note, token_id = @token_id WHERE id = @id AND state = 'pending'",
  ),
  state: statement<{ id: string }>('reviews_state', 'SELECT state FROM reviews WHERE id = @id'),
  actionAfterReview: statement<{ id: string; action: string }>(
    'reviews_action_after',
    'UPDATE screenings SET action = @action WHERE id = (SELECT screening_id FROM reviews WHERE id = @id)',
  ),
  countPending: statement('reviews_count_pending', "SELECT COUNT(*) AS n FROM reviews WHERE state = 'pending' AND parent_id IS NULL"),
};

export function pgReviewsOf(x: PgExecutor, opts: PgReviewsOptions): AsyncRepo<ReviewsRepo> {
  const { now } = opts;
  const scores = opts.scores ?? parsedFetches();

  /** Review rows as Reviews: the tenders of all of them in one read, their facts in another. */
  const reviewsOf = async (q: Queryable, rows: ReviewRow[]): Promise<Review[]> => {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.r_id!);
    const tenders = new Map<string, Review['tenders']>();
    for (const t of await st.tenders.all<TenderRow>(q, { ids })) {
      let list = tenders.get(t.of_review);
      if (!list) tenders.set(t.of_review, (list = []));
      list.push({
        screening_id: t.screening_id,
        tender_id: t.tender_id,
        load: loadOf(t.load),
        action: t.action as Review['tenders'][number]['action'],
        created_at: t.created_at,
      });
    }
    const facts = await screeningsByIds(
      q,
      scores,
      rows.flatMap((r) => (r.x_facts === null ? [] : [r.x_facts])),
    );
    const scoreOf = await scores.scoresFor(
      q,
      rows.map((r) => r.score_fid),
    );
    return rows.map((row) =>
      withFacts(
        toReview(row, scoreOf, tenders.get(row.r_id!) ?? []),
        {
          version: row.x_version,
          facts_screening_id: row.x_facts,
          closed_by: row.x_closed_by,
          closed_reason: row.x_closed_reason,
          token_id: row.x_token_id,
        },
        row.x_facts === null ? undefined : facts.get(row.x_facts),
      ),
    );
  };

  const reviewById = async (q: Queryable, id: string): Promise<Review | undefined> => {
    const row = await st.review.get<ReviewRow>(q, { id });
    return row ? (await reviewsOf(q, [row]))[0] : undefined;
  };

  return {
    async getReview(id) {
      checkId(id);
      return reviewById(x, id);
    },

    async listReviews(state, limit = 100) {
      const n = checkLimit(limit);
      if (state === undefined) return reviewsOf(x, await st.all.all<ReviewRow>(x, { n }));
      if (state === 'pending') return reviewsOf(x, await st.pending.all<ReviewRow>(x, { n }));
      if (state === 'approved' || state === 'rejected' || state === 'closed' || state === 'superseded')
        return reviewsOf(x, await st.byState.all<ReviewRow>(x, { state, n }));
      throw new StoreArgumentError(
        `state must be "pending", "approved", "rejected", "closed" or "superseded", got ${JSON.stringify(state)}`,
        'state',
      );
    },

    async pageReviews(state, p) {
      const { rows, has_more } = await pgKeysetPage<ReviewRow & Record<string, unknown>>(x, 'reviews_page', pgReviewList(state), p);
      return { data: await reviewsOf(x, rows), has_more };
    },

    async resolveReview(id, state, by, note, tokenId = null) {
      checkId(id);
      if (state !== 'approved' && state !== 'rejected')
        throw new StoreArgumentError(`state must be "approved" or "rejected", got ${JSON.stringify(state)}`, 'state');
      if (typeof by !== 'string' || by.trim() === '') throw new StoreArgumentError('by must name who decided', 'by');
      if (note !== null && typeof note !== 'string') throw new StoreArgumentError('note must be a string or null', 'note');
      return x.transaction(async (tx) => {
        const changed = await st.resolve.run(tx, { id, state, by, at: now().toISOString(), note, token_id: tokenId });
        if (changed === 0) {
          const current = await st.state.get<{ state: string }>(tx, { id });
          if (!current) throw new NotFoundError(`no review with id ${id}`);
          throw new ReviewConflictError(`review ${id} is already ${current.state}`, id);
        }
        await st.actionAfterReview.run(tx, { id, action: state === 'approved' ? 'tender' : 'block' });
        return (await reviewById(tx, id))!;
      });
    },

    async countPendingReviews() {
      return (await st.countPending.get<{ n: number }>(x, {}))!.n;
    },
  };
}
