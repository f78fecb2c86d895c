import type { CarrierChange } from '../../shared/screening.js';
import { listJob } from '../store/list-reads.js';
import type { ListPage, Store } from '../store/types.js';
import { openWatchStore, type StoredChange, type WatchStore } from '../store/watch-store.js';

/**
 * The watch list's list pages as reader-pool jobs (GET /watchlist, /changes; GET /blocks: worker/blocks/block-reads.ts): each calls
 * the watch store's own keyset read and its one mapping to the API object, on a read-only
 * connection in a reader thread, which also makes the page's JSON (list-reads.ts).
 */

/** A change as the API and the event show it: where the callbacks go stays inside. */
export function publicChange(c: StoredChange): CarrierChange {
  const { carrier_key: _key, tender_callbacks: _cb, ...pub } = c;
  return pub;
}

// A thread's watch store (its statements prepared once), per connection and watch window.
const opened = new WeakMap<Store, Map<number, WatchStore>>();
function watchStoreOf(store: Store, watchDays: number): WatchStore {
  let m = opened.get(store);
  if (!m) opened.set(store, (m = new Map()));
  let w = m.get(watchDays);
  if (!w) m.set(watchDays, (w = openWatchStore(store, { watchDays })));
  return w;
}

/** GET /watchlist: entries active at `now` (an entry lasts `watchDays` after its last tender). */
export const watchPage = listJob(import.meta.url, 'watchPage', (store, a: { now: string; watchDays: number; page: ListPage }) =>
  watchStoreOf(store, a.watchDays).pageActive(a.now, a.page),
);

/** GET /changes. */
export const changesPage = listJob(
  import.meta.url,
  'changesPage',
  (
    store,
    a: { state: 'new' | 'acknowledged' | undefined; page: ListPage; filter?: { since?: string; dot?: string }; watchDays: number },
  ) => {
    const { data, has_more } = watchStoreOf(store, a.watchDays).pageChanges(a.state, a.page, a.filter);
    return { data: data.map(publicChange), has_more };
  },
);
