import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * GET /event-log over real HTTP against the real stack: the stream's events as a list, newest
 * first, with the stream's ids; paged without gaps or repeats while events are added, filtered by
 * type and time; bad input named and refused.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ mode: 'sandbox' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

interface Entry {
  object: string;
  id: number;
  event: string;
  created_at: string;
  data: Record<string, unknown>;
}
type Page = { object: string; data: Entry[]; has_more: boolean };

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as T };
}

const screen = async (dot: string, tender: string) =>
  (await call<Screening>('POST', '/screenings?wait=10', { dot_number: dot, tender_id: tender })).json;

describe('GET /event-log', () => {
  it('lists the events newest first with the stream ids, pages without gaps while events are added, and filters by type and time', async () => {
    const t0 = new Date().toISOString();
    const tendered = await screen('1000001', 'EL-1');
    const held = await screen('1000003', 'EL-2');
    expect([tendered.action, held.action]).toEqual(['tender', 'hold']);

    const all = (await call<Page>('GET', '/event-log?limit=100')).json;
    expect(all.object).toBe('list');
    const ids = all.data.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // The same ids as the stream's replay (Last-Event-ID).
    expect(ids.slice().reverse()).toEqual((await stack.screener.events.since(0, 100)).map((e) => e.id));
    const completed = all.data.find((e) => e.event === 'screening.completed' && e.data.id === held.id)!;
    expect(completed).toMatchObject({ object: 'event', data: { object: 'screening', action: 'hold' } });
    expect(all.data.some((e) => e.event === 'review.created')).toBe(true);

    // Pages of 2, with events added between pages: every event that was there once, in order.
    const seen: number[] = [];
    let after: number | undefined;
    for (let i = 0; i < 50; i++) {
      const page = (await call<Page>('GET', `/event-log?limit=2${after === undefined ? '' : `&starting_after=${after}`}`)).json;
      seen.push(...page.data.map((e) => e.id));
      if (i === 0) await screen('1000006', 'EL-3'); // newer than the first page: not in this walk
      if (!page.has_more) break;
      after = page.data.at(-1)!.id;
    }
    expect(seen).toEqual(ids);
    // Forward in time from the oldest: ending_before walks back up to the newest.
    const newer = (await call<Page>('GET', `/event-log?limit=100&ending_before=${ids[0]}`)).json;
    expect(newer.data.length).toBeGreaterThan(0);
    expect(newer.data.every((e) => e.id > ids[0]!)).toBe(true);

    const reviews = (await call<Page>('GET', '/event-log?type=review.created,review.updated')).json;
    expect(reviews.data.length).toBeGreaterThan(0);
    expect(reviews.data.every((e) => e.event === 'review.created' || e.event === 'review.updated')).toBe(true);

    const since = (await call<Page>('GET', `/event-log?created_gte=${encodeURIComponent(t0)}&limit=100`)).json;
    expect(since.data.every((e) => e.created_at >= t0)).toBe(true);
    expect((await call<Page>('GET', `/event-log?created_lt=${encodeURIComponent(t0)}`)).json.data.every((e) => e.created_at < t0)).toBe(
      true,
    );
    expect((await call<Page>('GET', '/event-log?created_gte=2999-01-01')).json).toEqual({ object: 'list', data: [], has_more: false });
  });

  it('names bad input', async () => {
    const bad = async (q: string) => (await call<{ error: { code: string; param?: string } }>('GET', `/event-log?${q}`)).json.error;
    expect(await bad('starting_after=evt_1')).toMatchObject({ code: 'invalid_request', param: 'starting_after' });
    expect(await bad('starting_after=999999999')).toMatchObject({ param: 'starting_after' });
    expect(await bad('created_gte=2026-02-01&created_lt=2026-01-01')).toMatchObject({ param: 'created_gte' });
    expect(await bad('created_lt=yesterday')).toMatchObject({ param: 'created_lt' });
    expect(await bad('type=Screening Completed')).toMatchObject({ code: 'invalid_request' });
  });
});
