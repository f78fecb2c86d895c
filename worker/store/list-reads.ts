import { readJob, type ReadJob } from './read-jobs.js';
import type { RecordRepos } from './record.js';
import type { ScreeningFilter, ScreeningPage } from './screening-search-sql.js';
import type { ListPage, ReviewListState } from './types.js';

/**
 * The store's list pages as reader jobs (issue 35: heavy reads off the tender path). Each calls
 * the record's own keyset read (the SQL keeps its one home per backend: screening-search-sql.ts,
 * keyset.ts and the repositories), so the same job runs on SQLite's reader pool (a read-only
 * connection in a thread) and on PostgreSQL's record (record-reader.ts).
 * A list job answers the page as the API sends it, `{ object: 'list', data, has_more, … }`, so the
 * route can ask the reader for its JSON (`reader.readJson`): on SQLite the thread makes the
 * response body and the main thread only sends the bytes (intake/reply-json.ts `sendJsonBody`).
 * A new heavy read: export a `listJob` (or a `readJob`) from the module that owns it, and call
 * it through `screener.reader` (ARCHITECTURE.md).
 */

/** A list page as the API answers it (intake/paging.ts): `object` first, then the page's own fields. */
export type ListBody<P> = { object: 'list' } & P;

/** A read job whose answer is a list page, enveloped as the API sends it. */
export function listJob<A, P extends object>(
  module: string,
  name: string,
  page: (record: RecordRepos, args: A) => Promise<P>,
): ReadJob<A, ListBody<P>> {
  return readJob(module, name, async (record, args: A): Promise<ListBody<P>> => ({
    object: 'list' as const,
    ...(await page(record, args)),
  }));
}

/** GET /screenings. */
export const screeningsPage = listJob(import.meta.url, 'screeningsPage', (record, a: { filter: ScreeningFilter; page: ScreeningPage }) =>
  record.lists.searchScreenings(a.filter, a.page),
);

/** GET /reviews. */
export const reviewsPage = listJob(import.meta.url, 'reviewsPage', (record, a: { state: ReviewListState | undefined; page: ListPage }) =>
  record.reviews.pageReviews(a.state, a.page),
);
