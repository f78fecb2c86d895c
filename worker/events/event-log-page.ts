import { listJob } from '../store/list-reads.js';
import type { Store } from '../store/index.js';
import type { EventLogFilter, ListPage } from '../store/types.js';
import { expandEvent } from './event-refs.js';

/**
 * One page of GET /event-log as the API answers it: each logged event as an `event` object, its
 * data expanded as the stream sends it (the screening or review as it is now, event-refs.ts).
 */
export function eventLogPage(store: Store, filter: EventLogFilter, p: ListPage) {
  const { data, has_more } = store.pageEvents(filter, p);
  return {
    data: data.map((e) => ({
      object: 'event' as const,
      id: e.id,
      event: e.event,
      created_at: e.created_at,
      data: expandEvent(
        e.event,
        e.data,
        (id) => store.getScreening(id),
        (id) => store.getReview(id),
      ),
    })),
    has_more,
  };
}

/** eventLogPage as a reader-pool job: the page and its JSON are made in a reader thread (list-reads.ts). */
export const eventLogJob = listJob(import.meta.url, 'eventLogJob', (store, a: { filter: EventLogFilter; page: ListPage }) =>
  eventLogPage(store, a.filter, a.page),
);
