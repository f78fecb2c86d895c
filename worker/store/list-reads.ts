import { readJob, type ReadJob } from './reader-pool.js';
import { searchScreenings, type ScreeningFilter, type ScreeningPage } from './screening-search.js';
import { connectionOf } from './sqlite-store.js';
import type { ListPage, ReviewListState, Store } from './types.js';

/**
 * The store's list pages as reader-pool jobs (issue 35: heavy reads off the tender path). Each
 * calls the store's own keyset read (the SQL keeps its one home: screening-search.ts, keyset.ts
 * and the Store's page methods); the pool runs it on a read-only connection in a thread.
 * A list job answers the page as the API sends it, `{ object: 'list', data, has_more, … }`, so the
 * route can ask the pool for its JSON (`reader.readJson`): the thread makes the response body and
 * the main thread only sends the bytes (intake/reply-json.ts `sendJsonBody`).
 * A new heavy read: export a `listJob` (or a `readJob`) from the module that owns its SQL, and
 * call it through `screener.reader` (ARCHITECTURE.md).
 */

/** A list page as the API answers it (intake/paging.ts): `object` first, then the page's own fields. */
export type ListBody<P> = { object: 'list' } & P;

/** A read job whose answer is a list page, enveloped as the API sends it (a page read through the record answers a Promise). */
export function listJob<A, P extends object>(
  module: string,
  name: string,
  page: (store: Store, args: A) => Promise<P>,
): ReadJob<A, Promise<ListBody<P>>>;
export function listJob<A, P extends object>(module: string, name: string, page: (store: Store, args: A) => P): ReadJob<A, ListBody<P>>;
export function listJob<A, P extends object>(
  module: string,
  name: string,
  page: (store: Store, args: A) => P | Promise<P>,
): ReadJob<A, ListBody<P> | Promise<ListBody<P>>> {
  const envelope = (p: P): ListBody<P> => ({ object: 'list' as const, ...p });
  return readJob(module, name, (store, args: A) => {
    const p = page(store, args);
    return p instanceof Promise ? p.then(envelope) : envelope(p);
  });
}

/** GET /screenings. */
export const screeningsPage = listJob(import.meta.url, 'screeningsPage', (store, a: { filter: ScreeningFilter; page: ScreeningPage }) =>
  searchScreenings(connectionOf(store), a.filter, a.page),
);

/** GET /reviews. */
export const reviewsPage = listJob(import.meta.url, 'reviewsPage', (store, a: { state: ReviewListState | undefined; page: ListPage }) =>
  store.pageReviews(a.state, a.page),
);
