import { listJob } from '../store/list-reads.js';
import type { RecordRepos } from '../store/record.js';
import type { EventLogFilter, ListPage } from '../store/types.js';
import { expandEventFrom } from './event-refs.js';

/**
 * One page of GET /event-log as the API answers it: each logged event as an `event` object, its
 * data expanded as the stream sends it (the screening or review as it is now, event-refs.ts).
 */
export async function eventLogPage(repos: Pick<RecordRepos, 'events' | 'screenings' | 'reviews'>, filter: EventLogFilter, p: ListPage) {
  const { data, has_more } = await repos.events.pageEvents(filter, p);
  return {
    data: await Promise.all(
      data.map(async (e) => ({
        object: 'event' as const,
        id: e.id,
        event: e.event,
        created_at: e.created_at,
        data: await expandEventFrom(repos, e.event, e.data),
      })),
    ),
    has_more,
  };
}

/** eventLogPage as a reader job: on SQLite the page and its JSON are made in a reader thread (list-reads.ts). */
export const eventLogJob = listJob(import.meta.url, 'eventLogJob', (record, a: { filter: EventLogFilter; page: ListPage }) =>
  eventLogPage(record, a.filter, a.page),
);
