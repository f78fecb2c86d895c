import type { CarrierChange } from '../../shared/screening.js';
import { listJob } from '../store/list-reads.js';
import type { ListPage } from '../store/types.js';
import type { StoredChange } from '../store/watch-store.js';

/**
 * The watch list's list pages as reader jobs (GET /watchlist, /changes; GET /blocks: worker/blocks/block-reads.ts): each calls
 * the record's watch store's own keyset read and its one mapping to the API object, on either
 * backend (on SQLite in a reader thread, which also makes the page's JSON: list-reads.ts).
 */

/** A change as the API and the event show it: where the callbacks go stays inside. */
export function publicChange(c: StoredChange): CarrierChange {
  const { carrier_key: _key, tender_callbacks: _cb, ...pub } = c;
  return pub;
}

/** GET /watchlist: entries active at `now` (an entry lasts `watchDays` after its last tender). */
export const watchPage = listJob(import.meta.url, 'watchPage', (record, a: { now: string; watchDays: number; page: ListPage }) =>
  record.watch(a.watchDays).pageActive(a.now, a.page),
);

/** GET /changes. */
export const changesPage = listJob(
  import.meta.url,
  'changesPage',
  async (
    record,
    a: { state: 'new' | 'acknowledged' | undefined; page: ListPage; filter?: { since?: string; dot?: string }; watchDays: number },
  ) => {
    const { data, has_more } = await record.watch(a.watchDays).pageChanges(a.state, a.page, a.filter);
    return { data: data.map(publicChange), has_more };
  },
);
