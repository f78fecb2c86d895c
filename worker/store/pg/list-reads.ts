import type { Review, Screening } from '../../../shared/screening.js';
import type { ListBody } from '../list-reads.js';
import type { ScreeningFilter, ScreeningPage } from '../screening-search-sql.js';
import type { ListPage, ReviewListState } from '../types.js';
import type { PgExecutor } from './executor.js';
import { pgReviewsOf } from './reviews-repo.js';
import type { ParsedFetches } from './score-refs.js';
import { pgSearchScreenings } from './screening-search.js';

/**
 * list-reads.ts's list jobs on PostgreSQL: the same arguments, the same page in the API's
 * envelope (`{ object: 'list', data, has_more }`), so its JSON is the bytes SQLite's job makes.
 * Read on the pool: PostgreSQL's reads leave the tender path's connection alone by themselves.
 */

export interface PgListOptions {
  /** The parsed-score memo of the record (pg/score-refs.ts). */
  scores: ParsedFetches;
}

type Page<T> = { data: T[]; has_more: boolean };

/** GET /screenings (list-reads.ts `screeningsPage`). */
export async function pgScreeningsPage(
  x: PgExecutor,
  a: { filter: ScreeningFilter; page: ScreeningPage },
  opts: PgListOptions,
): Promise<ListBody<Page<Screening>>> {
  return { object: 'list', ...(await pgSearchScreenings(x, a.filter, a.page, opts)) };
}

/** GET /reviews (list-reads.ts `reviewsPage`). */
export async function pgReviewsPage(
  x: PgExecutor,
  a: { state: ReviewListState | undefined; page: ListPage },
  opts: PgListOptions,
): Promise<ListBody<Page<Review>>> {
  // No clock: a page only reads.
  const reviews = pgReviewsOf(x, { now: () => new Date(), scores: opts.scores });
  return { object: 'list', ...(await reviews.pageReviews(a.state, a.page)) };
}
