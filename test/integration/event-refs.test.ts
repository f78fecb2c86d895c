import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review, Screening } from '../../shared/screening.js';
import { compactEvent, expandEvent } from '../../worker/events/event-refs.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { itSqlite } from '../helpers/test-db.js';

/** Events refer to their screening: small rows in SQLite, whole screenings to readers. */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('events refer to their screening', () => {
  itSqlite('a screening.completed row holds a reference; replay and live delivery give the whole screening', async () => {
    const live: unknown[] = [];
    const off = stack.screener.events.subscribe((e) => live.push(e));
    const s = await stack.screener.screen({ dot_number: '1000003', tender_id: 'EV-1' }, { waitMs: 10_000 });
    off();
    expect(s.score).not.toBeNull();
    const rows = connectionOf(sqliteStoreOf(stack.screener.store))
      .prepare('SELECT event, data FROM events WHERE data LIKE ?')
      .all(`%${s.id}%`) as Array<{
      event: string;
      data: string;
    }>;
    expect(rows.map((r) => r.event).sort()).toEqual(['review.created', 'screening.completed']);
    const completed = rows.find((r) => r.event === 'screening.completed')!;
    expect(JSON.parse(completed.data)).toEqual({ screening_ref: s.id });
    // The score is not copied into the log: the row is a few dozen bytes.
    for (const r of rows) expect(r.data).not.toContain('"score"');

    const replayed = (await stack.screener.events.since(0)).filter((e) => JSON.stringify(e.data).includes(s.id));
    const c = replayed.find((e) => e.event === 'screening.completed')!.data as Screening;
    expect(c).toEqual(await stack.screener.get(s.id));
    const rc = replayed.find((e) => e.event === 'review.created')!.data as Review;
    expect(rc).toMatchObject({ object: 'review', state: 'pending', screening: { id: s.id, action: 'hold' } });
    // Live listeners got the same, whole.
    expect(live.some((e) => (e as { data: Screening }).data.id === s.id && (e as { data: Screening }).data.score !== null)).toBe(true);
    // The new review as a read of it gives it, its tender already held (a lookup's, like a cache hit's).
    const liveCreated = live.find((e) => (e as { event: string }).event === 'review.created') as { data: Review } | undefined;
    expect(s.source).toBe('service');
    expect(liveCreated!.data.tenders.map((t) => [t.screening_id, t.action])).toEqual([[s.id, 'hold']]);
  });

  it('other events are stored as they are; a pruned screening says so', () => {
    expect(compactEvent('quota.changed', { remaining: 3 })).toEqual({ remaining: 3 });
    expect(expandEvent('screening.completed', { screening_ref: 'scr_gone' }, () => undefined)).toEqual({
      object: 'screening',
      id: 'scr_gone',
      pruned: true,
    });
  });
});
