import { readJob } from './reader-pool.js';
import { searchScreenings, type ScreeningFilter, type ScreeningPage } from './screening-search.js';
import { connectionOf } from './sqlite-store.js';
import type { ListPage, ReviewListState } from './types.js';

/**
 * The store's list pages as reader-pool jobs (issue 35: heavy reads off the tender path). Each
 * calls the store's own keyset read (the SQL keeps its one home: screening-search.ts, keyset.ts
 * and the Store's page methods); the pool runs it on a read-only connection in a thread.
 * A new heavy read: export a `readJob` from the module that owns its SQL, and call it through
 * `screener.reader` (ARCHITECTURE.md).
 */

/** GET /screenings. */
export const screeningsPage = readJob(import.meta.url, 'screeningsPage', (store, a: { filter: ScreeningFilter; page: ScreeningPage }) =>
  searchScreenings(connectionOf(store), a.filter, a.page),
);

/** GET /reviews. */
export const reviewsPage = readJob(import.meta.url, 'reviewsPage', (store, a: { state: ReviewListState | undefined; page: ListPage }) => store.pageReviews(a.state, a.page));

