/**
 * Load details on POST /screenings (issue 30, DESIGN.md "Intake API"): stored and returned as
 * sent on every screening read (GET one, the list, the callback body), on each tender of the
 * carrier's review, and through the batch route; refused with 400 naming the field (e.g.
 * `load.pickup_at`) with nothing kept; and part of the body an Idempotency-Key stands for.
 * Real stack: worker, emulator, Redis, SQLite (test/helpers/stack.ts).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review, Screening } from '../../shared/screening.js';
import { startCallbackListener, type CallbackListener } from '../helpers/callback-listener.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let tms: CallbackListener;

async function call(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; json: any }> {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

async function byTender(tender: string): Promise<Screening[]> {
  const r = await call('GET', `/screenings?tender_id=${encodeURIComponent(tender)}`);
  expect(r.status).toBe(200);
  return r.json.data as Screening[];
}

async function until<T>(what: string, ms: number, f: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const LOAD = {
  pickup_at: '2026-11-28T08:00:00-06:00',
  origin: 'Dallas, TX',
  destination: 'Memphis, TN',
  equipment: '53 ft dry van',
  customer_ref: 'PO-7781',
};

beforeAll(async () => {
  stack = await startStack();
  tms = await startCallbackListener();
});
afterAll(async () => {
  await stack?.close();
  await tms?.close();
});

describe('POST /screenings with load details', () => {
  it('stores the load as sent and returns it on the answer, GET /screenings/:id, the list and the callback', async () => {
    const r = await call('POST', '/screenings', { dot_number: '1000003', tender_id: 'L-1', load: LOAD, callback_url: tms.url });
    expect(r.status).toBe(202);
    const s = r.json as Screening;
    expect(s.load).toEqual(LOAD);

    const done = await until('the screening done', 20_000, async () => {
      const g = await call('GET', `/screenings/${s.id}`);
      return g.json.status === 'done' ? (g.json as Screening) : undefined;
    });
    // The offset is kept as sent, not turned into UTC.
    expect(done.load).toEqual(LOAD);
    expect(done.action).toBe('hold');
    expect((await byTender('L-1')).map((x) => x.load)).toEqual([LOAD]);

    const cb = await until('the screening.completed callback', 20_000, () =>
      tms.received.find((b) => b.event === 'screening.completed' && b.screening.id === s.id),
    );
    expect(cb.screening.load).toEqual(LOAD);

    // The events (GET /event-log carries what the SSE stream sends): the screening and the review's tenders.
    const log = await call('GET', '/event-log?type=screening.completed,review.created,review.updated&limit=100');
    expect(log.status, JSON.stringify(log.json)).toBe(200);
    const events = log.json.data as Array<{ event: string; data: any }>;
    expect(events.find((e) => e.event === 'screening.completed' && e.data.id === s.id)?.data.load).toEqual(LOAD);
    const reviewEvent = events.find(
      (e) => e.event.startsWith('review.') && e.data.tenders?.some((t: { screening_id: string }) => t.screening_id === s.id),
    );
    expect(reviewEvent?.data.tenders.find((t: { screening_id: string }) => t.screening_id === s.id).load).toEqual(LOAD);
  });

  it('a cache hit (written done at once) keeps its load too; without load a screening says load: null', async () => {
    const partial = { pickup_at: '2026-11-29T14:30:00Z', origin: '' };
    const hit = await call('POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'L-2', load: partial });
    expect(hit.status).toBe(200);
    expect(hit.json.source).toBe('cache');
    expect(hit.json.load).toEqual(partial);
    expect((await call('GET', `/screenings/${hit.json.id}`)).json.load).toEqual(partial);

    const none = await call('POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'L-3' });
    expect(none.json.load).toBeNull();
    const nulled = await call('POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'L-4', load: null });
    expect(nulled.status).toBe(200);
    expect(nulled.json.load).toBeNull();
  });

  it("the audit export carries each screening's load in its load_* columns (empty without one)", async () => {
    const res = await request(`${stack.intakeUrl}/audit.csv?from=2000-01-01`, { headers: { authorization: `Bearer ${stack.token}` } });
    expect(res.statusCode).toBe(200);
    const { parse } = await import('csv-parse/sync');
    const rows = parse(await res.body.text(), { columns: true }) as Array<Record<string, string>>;
    const load = (tender: string) => {
      const r = rows.find((x) => x.tender_id === tender)!;
      return [r.load_customer_ref, r.load_pickup_at, r.load_origin, r.load_destination, r.load_equipment];
    };
    expect(load('L-1')).toEqual([LOAD.customer_ref, LOAD.pickup_at, LOAD.origin, LOAD.destination, LOAD.equipment]);
    expect(load('L-2')).toEqual(['', '2026-11-29T14:30:00Z', '', '', '']);
    expect(load('L-3')).toEqual(['', '', '', '', '']);
  });

  it("the carrier's review carries each waiting tender's load, so the desk needs no other request", async () => {
    const review = await until('the review with L-1 and L-2', 20_000, async () => {
      const list = (await call('GET', '/reviews?state=pending')).json.data as Review[];
      return list.find((rv) => rv.tenders.some((t) => t.tender_id === 'L-1') && rv.tenders.some((t) => t.tender_id === 'L-2'));
    });
    const loads = Object.fromEntries(review.tenders.map((t) => [t.tender_id, t.load]));
    expect(loads['L-1']).toEqual(LOAD);
    expect(loads['L-2']).toEqual({ pickup_at: '2026-11-29T14:30:00Z', origin: '' });
    expect(loads['L-3']).toBeNull();
    // GET /reviews/:id says the same.
    const one = (await call('GET', `/reviews/${review.id}`)).json as Review;
    expect(one.tenders.find((t) => t.tender_id === 'L-1')?.load).toEqual(LOAD);
  });

  it.each([
    ['a pickup_at that is no date-time', { pickup_at: 'tomorrow 8am' }, 'load.pickup_at'],
    ['a pickup_at without its offset', { pickup_at: '2026-11-28T08:00:00' }, 'load.pickup_at'],
    ['a date alone', { pickup_at: '2026-11-28' }, 'load.pickup_at'],
    ['a number for origin', { origin: 75201 }, 'load.origin'],
    ['an origin over 200 characters', { origin: 'x'.repeat(201) }, 'load.origin'],
    ['an unknown field in load', { pickup: '2026-11-28T08:00:00Z' }, 'load.pickup'],
  ])('refuses %s with 400 invalid_request naming %s, and keeps nothing', async (_what, load, param) => {
    const tender = `BAD-${param}-${JSON.stringify(load).length}`;
    const before = (await call('GET', '/status')).json.queue;
    const r = await call('POST', '/screenings', { dot_number: '1000004', tender_id: tender, load });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalid_request');
    expect(r.json.error.param).toBe(param);
    expect(r.json.error.message).toContain(param);
    expect(await byTender(tender)).toEqual([]);
    const after = (await call('GET', '/status')).json.queue;
    expect(after.waiting + after.active + after.delayed).toBe(before.waiting + before.active + before.delayed);
  });

  it('refuses a load that is not an object, naming load', async () => {
    const r = await call('POST', '/screenings', { dot_number: '1000004', tender_id: 'BAD-str', load: 'Dallas → Memphis' });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalid_request', param: 'load' });
    expect(await byTender('BAD-str')).toEqual([]);
  });

  it('an Idempotency-Key replay with the same load answers the first screening; another load is 409 idempotency_conflict', async () => {
    const key = { 'idempotency-key': 'load-key-1' };
    const body = { dot_number: '1000003', tender_id: 'L-idem', load: LOAD };
    const first = await call('POST', '/screenings', body, key);
    expect(first.json.load).toEqual(LOAD);
    const again = await call('POST', '/screenings', body, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json.id).toBe(first.json.id);

    const other = await call('POST', '/screenings', { ...body, load: { ...LOAD, pickup_at: '2026-11-28T09:00:00-06:00' } }, key);
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('idempotency_conflict');
    expect((await byTender('L-idem')).map((x) => [x.id, x.load])).toEqual([[first.json.id, LOAD]]);
  });

  it('POST /screenings/batch: each item keeps its own load; a bad one is refused on its own, naming screenings[i].load.pickup_at', async () => {
    const r = await call('POST', '/screenings/batch', {
      screenings: [
        { dot_number: '1000003', tender_id: 'B-1', load: { pickup_at: '2026-12-01T06:00:00+01:00', equipment: 'reefer' } },
        { dot_number: '1000003', tender_id: 'B-2', load: { pickup_at: '12/01/2026' } },
      ],
    });
    expect(r.status).toBe(207);
    expect(r.json.data[0].screening.load).toEqual({ pickup_at: '2026-12-01T06:00:00+01:00', equipment: 'reefer' });
    expect(r.json.data[1]).toMatchObject({ status: 400, error: { code: 'invalid_request', param: 'screenings[1].load.pickup_at' } });
    expect(await byTender('B-2')).toEqual([]);
    expect((await byTender('B-1'))[0]!.load).toEqual({ pickup_at: '2026-12-01T06:00:00+01:00', equipment: 'reefer' });
  });
});
