import type { IntakeEvent, IntakeEventName } from '../../../shared/screening.js';
import { StoreArgumentError } from '../store-error.js';
import type { EventLogFilter, ListPage } from '../types.js';
import { checkLimit, iso } from '../arg-checks.js';
import type { AsyncRepo } from '../async-repo.js';
import type { AppendOptions } from '../record.js';
import type { EventLogRepo } from '../screening-repos.js';
import type { PgExecutor } from './executor.js';
import { answered, finishedArrays, insertFinishedManySql, type FinishedArrays } from './screenings-repo.js';
import { batchArray, statement, type Queryable, type Statement } from './sql.js';

/**
 * The event log on PostgreSQL (SSE replay with Last-Event-ID, GET /event-log): the Store's four
 * event methods, as the SQLite store has them, plus `appendEvents` for a batch.
 *
 * Ids commit in id order (docs/design/postgres.md, section 4): a reader at id N never later sees
 * an id below N appear. A sequence cannot promise that (105 may commit before 104, and a reader
 * at 105 never sees 104), so ids come from the one row of `event_head`, whose row lock the
 * append's UPDATE holds until its transaction ends: the next writer waits, then counts on from
 * the committed value. `lastEventId` reads that row, so it names committed ids only, and it never
 * goes backwards when old events are pruned (SQLite's AUTOINCREMENT).
 *
 * The lock serializes every appending transaction from its append to its COMMIT: append last in
 * the unit of work (the group commit writes its batch's events with `appendEvents` as its
 * last statement), so the lock is held for one statement and the COMMIT. Appending early also
 * risks a deadlock (40P01): holding the head while waiting for a row that another unit of work
 * holds while it waits for the head.
 */
export interface PgEventLog extends AsyncRepo<EventLogRepo> {
  /**
   * Several events in one statement, with consecutive ids in the batch's order (one lock taken).
   * `at`: when each happened (default: now). An empty batch writes nothing and takes no lock.
   */
  appendEvents(batch: ReadonlyArray<{ event: string; data: unknown; at?: Date }>, opts?: AppendOptions): Promise<IntakeEvent[]>;
}

type EventRow = { id: number; event: string; data: string };
type LogRow = EventRow & { created_at: string };

const append = statement<{ event: string; data: string; created_at: string }>(
  'events_append',
  `WITH h AS (UPDATE event_head SET last_id = last_id + 1 RETURNING last_id)
   INSERT INTO events (id, event, data, created_at) SELECT h.last_id, @event, @data, @created_at FROM h
   RETURNING id`,
);

const EVENT_ARRAYS = ['events', 'datas', 'created'].map((a) => batchArray(a, 'text')).join(', ');

// The ids are last_id's new value counted back by the batch's size: ordinality keeps the order given.
const appendBatch = statement<{ events: string[]; datas: string[]; created: string[] }>(
  'events_append_batch',
  `WITH h AS (UPDATE event_head SET last_id = last_id + cardinality(@events::text[]) RETURNING last_id)
   INSERT INTO events (id, event, data, created_at)
   SELECT h.last_id - cardinality(@events::text[]) + e.ord, e.event, e.data, e.created_at
   FROM h CROSS JOIN unnest(${EVENT_ARRAYS}) WITH ORDINALITY AS e(event, data, created_at, ord)
   RETURNING id`,
);

// The same, after the finished screenings its unit kept (screenings-repo.ts `answered`): a group
// commit of cache hits writes its screenings and its events in this one statement.
const appendBatchWithScreenings = statement<{ events: string[]; datas: string[]; created: string[] } & FinishedArrays>(
  'events_append_batch_with_screenings',
  // The screenings join the head's row: without it (an unmigrated schema) nothing is written,
  // not the screenings alone (a statement sent alone commits what it wrote).
  `WITH h AS (UPDATE event_head SET last_id = last_id + cardinality(@events::text[]) RETURNING last_id),
   s AS (${insertFinishedManySql('h CROSS JOIN', '', batchArray)})
   INSERT INTO events (id, event, data, created_at)
   SELECT h.last_id - cardinality(@events::text[]) + e.ord, e.event, e.data, e.created_at
   FROM h CROSS JOIN unnest(${EVENT_ARRAYS}) WITH ORDINALITY AS e(event, data, created_at, ord)
   RETURNING id`,
);

const since = statement<{ last_id: number; limit: number }>(
  'events_since',
  'SELECT id, event, data FROM events WHERE id > @last_id ORDER BY id ASC LIMIT @limit',
);

const head = statement('events_last_id', 'SELECT last_id FROM event_head');

/** The SQL text of a filter: one prepared statement per shape, as few as SQLite's. */
function filterOf(filter: EventLogFilter): { where: string[]; params: Record<string, unknown>; shape: string } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  let shape = '';
  if (filter.types && filter.types.length > 0) {
    // One shape whatever the number of types (SQLite: json_each).
    where.push('event = ANY(@types::text[])');
    params.types = [...filter.types];
    shape += 't';
  }
  if (filter.createdGte !== undefined) {
    where.push('created_at >= @gte');
    params.gte = filter.createdGte;
    shape += 'g';
  }
  if (filter.createdLt !== undefined) {
    where.push('created_at < @lt');
    params.lt = filter.createdLt;
    shape += 'l';
  }
  return { where, params, shape: shape || 'all' };
}

const shapes = new Map<string, Statement<Record<string, unknown>>>();
function shaped(name: string, sql: string): Statement<Record<string, unknown>> {
  let s = shapes.get(name);
  if (!s) shapes.set(name, (s = statement<Record<string, unknown>>(name, sql)));
  return s;
}

const WHOLE_ID = /^\d{1,15}$/;

export function pgEventLogOf(x: PgExecutor, opts: { now: () => Date }): PgEventLog {
  const checkEvent = (event: unknown): string => {
    if (typeof event !== 'string' || event === '') throw new StoreArgumentError('event must be a non-empty string', 'event');
    return event;
  };
  // The text SQLite stores, byte for byte (JSON.stringify escapes U+0000 and lone surrogates,
  // so PostgreSQL's text takes every value).
  const textOf = (data: unknown): string => JSON.stringify(data) ?? 'null';

  return {
    async appendEvent(event, data) {
      checkEvent(event);
      const row = await append.get<{ id: number }>(x, { event, data: textOf(data), created_at: opts.now().toISOString() });
      if (!row) throw new Error('event_head has no row: the PostgreSQL schema is not migrated');
      // The data as given (a reader of the log gets it parsed back from the text).
      return { id: row.id, event, data: data ?? null };
    },

    async appendEvents(batch, o = {}) {
      if (batch.length === 0) return [];
      const events = batch.map((e) => checkEvent(e.event));
      const now = opts.now();
      const created = batch.map((e) => iso(e.at ?? now, 'at'));
      const params = { events, datas: batch.map((e) => textOf(e.data)), created };
      // The unit's kept screenings go in the same statement (the batch's news is about them).
      const kept = x.takeDeferred?.(answered) ?? [];
      const send = (q: Queryable) =>
        kept.length === 0
          ? appendBatch.all<{ id: number }>(q, params)
          : appendBatchWithScreenings.all<{ id: number }>(q, { ...params, ...finishedArrays(kept) });
      const rows = o.last && x.last ? await x.last(send) : await send(x);
      if (rows.length !== batch.length) throw new Error('event_head has no row: the PostgreSQL schema is not migrated');
      // RETURNING's order is not promised; the ids are consecutive, in the batch's order.
      const first = rows.reduce((m, r) => Math.min(m, r.id), Infinity);
      return batch.map((e, i) => ({ id: first + i, event: e.event, data: e.data ?? null }));
    },

    async eventsSince(lastId, limit = 1000) {
      if (typeof lastId !== 'number' || !Number.isInteger(lastId) || lastId < 0)
        throw new StoreArgumentError('lastId must be a whole number, 0 or more', 'lastId');
      const rows = await since.all<EventRow>(x, { last_id: lastId, limit: checkLimit(limit) });
      return rows.map((r) => ({ id: r.id, event: r.event, data: JSON.parse(r.data) as unknown }));
    },

    async pageEvents(filter, p: ListPage) {
      // As keyset.ts's keysetPage with key and tie-break both the id (the primary key).
      if (p.starting_after !== undefined && p.ending_before !== undefined)
        throw new StoreArgumentError('send starting_after or ending_before, not both', 'ending_before');
      if (!Number.isInteger(p.limit) || p.limit < 1) throw new StoreArgumentError('limit must be a whole number of at least 1', 'limit');
      const { where, params, shape } = filterOf(filter);
      const cursorId = p.starting_after ?? p.ending_before;
      const backwards = p.ending_before !== undefined;
      const terms = [...where];
      let kind = 'first';
      if (cursorId !== undefined) {
        const param = backwards ? 'ending_before' : 'starting_after';
        // The cursor must be an event of this list (these filters), as on SQLite. A text that is
        // no id finds nothing there (the route lets only digits through).
        const cursor = shaped(`events_page_cursor_${shape}`, `SELECT id FROM events WHERE ${[...where, 'id = @cursor_id'].join(' AND ')}`);
        const at = WHOLE_ID.test(cursorId) ? await cursor.get<{ id: number }>(x, { ...params, cursor_id: Number(cursorId) }) : undefined;
        if (!at) throw new StoreArgumentError(`${param}: ${cursorId} is not in this list (with these filters)`, param);
        params.cursor_id = at.id;
        terms.push(backwards ? 'id > @cursor_id' : 'id < @cursor_id');
        kind = backwards ? 'before' : 'after';
      }
      // Newest first; going back reads upwards from the cursor, then the page is turned round.
      const page = shaped(
        `events_page_${kind}_${shape}`,
        `SELECT id, event, data, created_at FROM events ${terms.length ? `WHERE ${terms.join(' AND ')}` : ''} ORDER BY id ${backwards ? 'ASC' : 'DESC'} LIMIT @page_limit`,
      );
      const rows = await page.all<LogRow>(x, { ...params, page_limit: p.limit + 1 });
      const has_more = rows.length > p.limit;
      const kept = rows.slice(0, p.limit);
      if (backwards) kept.reverse();
      return {
        data: kept.map((r) => ({
          id: r.id,
          event: r.event as IntakeEventName,
          data: JSON.parse(r.data) as unknown,
          created_at: r.created_at,
        })),
        has_more,
      };
    },

    async lastEventId() {
      return (await head.get<{ last_id: number }>(x, {}))?.last_id ?? 0;
    },
  };
}
