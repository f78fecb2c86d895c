/**
 * Finding and paging for an integrator (docs/api.md): cursor lists the Stripe way over 250 real
 * screenings, every filter of GET /screenings, the objects by id, state=all, and one conflict
 * rule (409 with error.resource_id) on every route; fast-check on the new parameters (never 5xx).
 */
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalBlock, Review, Screening, WatchEntry } from '../../shared/screening.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
const screenings: Screening[] = [];
const CARRIERS = ['1000001', '1000002', '1000003', '1000005', '1000006'];

async function call(method: string, path: string, body?: unknown) {
  const res = await request(stack.intakeUrl + path, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${stack.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, headers: res.headers, json: (await res.body.json()) as any };
}

beforeAll(async () => {
  stack = await startStack();
  // 250 screenings over five sandbox carriers (cache hits after the first of each).
  for (let i = 0; i < 250; i++) {
    const r = await call('POST', '/screenings?wait=10', { dot_number: CARRIERS[i % CARRIERS.length], tender_id: `LOAD-${1000 + i}` });
    expect(r.status).toBe(200);
    screenings.push(r.json as Screening);
  }
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

/** Every page from the start, following starting_after. */
async function walk(path: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let after: string | undefined;
  let pages = 0;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await call('GET', `${path}${sep}limit=${limit}${after ? `&starting_after=${after}` : ''}`);
    expect(r.status).toBe(200);
    expect(r.json.object).toBe('list');
    pages++;
    ids.push(...r.json.data.map((x: { id: string }) => x.id));
    if (!r.json.has_more) return { ids, pages };
    after = r.json.data.at(-1).id;
  }
}

describe('cursor lists', () => {
  it('walks 250 screenings with starting_after: each exactly once, newest first, has_more false at the end', async () => {
    const { ids, pages } = await walk('/screenings', 40);
    expect(pages).toBe(7);
    expect(ids).toEqual(screenings.map((s) => s.id).reverse());
    expect(new Set(ids).size).toBe(250);
  });

  it('walks back with ending_before, and refuses both cursors at once or an unknown one', async () => {
    const newestFirst = screenings.map((s) => s.id).reverse();
    const back = await call('GET', `/screenings?limit=10&ending_before=${newestFirst[25]}`);
    expect(back.json.data.map((s: Screening) => s.id)).toEqual(newestFirst.slice(15, 25));
    expect(back.json.has_more).toBe(true);
    const first = await call('GET', `/screenings?limit=10&ending_before=${newestFirst[5]}`);
    expect([first.json.data.length, first.json.has_more]).toEqual([5, false]);
    const both = await call('GET', `/screenings?starting_after=${newestFirst[1]}&ending_before=${newestFirst[5]}`);
    expect([both.status, both.json.error.param]).toEqual([400, 'ending_before']);
    const unknown = await call('GET', '/screenings?starting_after=scr_aaaaaaaaaaaaaaaaaaaaaaaaaa');
    expect([unknown.status, unknown.json.error.param]).toEqual([400, 'starting_after']);
    const big = await call('GET', '/screenings?limit=101');
    expect([big.status, big.json.error.param]).toEqual([400, 'limit']);
  });

  it('pages reviews, decisions and callbacks the same way (state=all everywhere)', async () => {
    for (const path of [
      '/reviews?state=all',
      '/decisions?state=all',
      '/decisions?state=ended',
      '/callbacks?state=all',
      '/changes?state=all',
      '/blocks?state=all',
      '/watchlist',
    ]) {
      const r = await call('GET', path);
      expect(r.status, path).toBe(200);
      expect(r.json, path).toMatchObject({ object: 'list', has_more: expect.any(Boolean) });
    }
    // 1000003 is held for review once (the others wait on the same carrier's review).
    const reviews = await walk('/reviews?state=all', 1);
    expect(reviews.ids.length).toBeGreaterThanOrEqual(1);
    expect(new Set(reviews.ids).size).toBe(reviews.ids.length);
  });
});

describe('finding a screening', () => {
  it('by tender_id: the TMS whose POST timed out finds its screening by its load', async () => {
    const r = await call('GET', '/screenings?tender_id=LOAD-1107');
    expect(r.json.data.map((s: Screening) => s.id)).toEqual([screenings[107]!.id]);
    expect((await call('GET', '/screenings?tender_id=LOAD-none')).json.data).toEqual([]);
  });

  it('by dot_number (leading zeros are the same carrier), mc_number, status and action', async () => {
    const byDot = await walk('/screenings?dot_number=01000003', 100);
    expect(byDot.ids.sort()).toEqual(
      screenings
        .filter((s) => 'dot_number' in s.query && s.query.dot_number === '1000003')
        .map((s) => s.id)
        .sort(),
    );
    const byMc = await walk('/screenings?mc_number=mc-1000005', 100);
    expect(byMc.ids.length).toBe(50);
    const blocked = await walk('/screenings?action=block', 100);
    expect(blocked.ids.sort()).toEqual(
      screenings
        .filter((s) => s.action === 'block')
        .map((s) => s.id)
        .sort(),
    );
    expect((await call('GET', '/screenings?status=queued')).json.data).toEqual([]);
    const bad = await call('GET', '/screenings?mc_number=MCX');
    expect([bad.status, bad.json.error.param]).toEqual([400, 'mc_number']);
  });

  it('by updated_since: a settled review makes an old screening show up again, with its updated_at', async () => {
    const held = screenings.find((s) => s.action === 'hold')!;
    const mark = new Date().toISOString();
    expect((await call('GET', `/screenings?updated_since=${mark}`)).json.data).toEqual([]);
    const review = (await call('GET', `/reviews/${held.review!.id}`)).json as Review;
    const approved = await call('POST', `/reviews/${review.waits_on ?? review.id}/approve`, { by: 'Dana', note: '' });
    expect(approved.status).toBe(200);
    const changed = (await walk(`/screenings?updated_since=${mark}`, 100)).ids;
    expect(changed).toContain(held.id);
    const now = (await call('GET', `/screenings/${held.id}`)).json as Screening;
    expect(now.updated_at >= mark).toBe(true);
    expect(now.updated_at > now.created_at).toBe(true);
    const bad = await call('GET', '/screenings?updated_since=yesterday');
    expect([bad.status, bad.json.error.param]).toEqual([400, 'updated_since']);
  });
});

describe('objects by id, and one conflict rule', () => {
  it('GET /reviews/:id; repeating a decision is 409 review_conflict naming the review', async () => {
    const [decided] = (await call('GET', '/reviews?state=approved&limit=1')).json.data as Review[];
    expect((await call('GET', `/reviews/${decided!.id}`)).json.id).toBe(decided!.id);
    const again = await call('POST', `/reviews/${decided!.id}/approve`, { by: 'Dana', note: '' });
    expect([again.status, again.json.error.code, again.json.error.resource_id]).toEqual([409, 'review_conflict', decided!.id]);
    const missing = await call('GET', '/reviews/rev_aaaaaaaaaaaaaaaaaaaaaaaaaa');
    expect([missing.status, missing.json.error.code]).toEqual([404, 'resource_missing']);
  });

  it('blocks: GET /blocks/:dot, a second block is 409 naming the active one, DELETE takes ?by= and ?note= (no body), POST …/lift too; the note is kept', async () => {
    const made = await call('POST', '/blocks', { dot_number: '1000001', by: 'Dana', reason: 'fraud report' });
    expect(made.status).toBe(201);
    const block = made.json as LocalBlock;
    expect((await call('GET', '/blocks/1000001')).json.id).toBe(block.id);
    const twice = await call('POST', '/blocks', { dot_number: '1000001', by: 'Eli', reason: 'again' });
    expect([twice.status, twice.json.error.code, twice.json.error.resource_id]).toEqual([409, 'block_conflict', block.id]);
    const noBy = await call('DELETE', '/blocks/1000001');
    expect([noBy.status, noBy.json.error.param]).toEqual([400, 'by']);
    const lifted = await call('DELETE', '/blocks/1000001?by=Dana&note=%20settled%20with%20the%20broker%20');
    expect([lifted.status, lifted.json.state, lifted.json.lifted_by, lifted.json.lift_note]).toEqual([
      200,
      'lifted',
      'Dana',
      'settled with the broker',
    ]);
    expect((await call('GET', '/blocks?state=lifted')).json.data[0].lift_note).toBe('settled with the broker');
    expect(lifted.json.updated_at).toBe(lifted.json.lifted_at);
    expect((await call('GET', '/blocks/1000001')).status).toBe(404);
    await call('POST', '/blocks', { mc_number: 'MC1000002', by: 'Dana', reason: 'x' });
    const tooLong = await call('POST', '/blocks/MC1000002/lift', { by: 'Eli', note: 'x'.repeat(501) });
    expect([tooLong.status, tooLong.json.error.param]).toEqual([400, 'note']);
    const viaPost = await call('POST', '/blocks/MC1000002/lift', { by: 'Eli' });
    expect([viaPost.status, viaPost.json.lifted_by, viaPost.json.lift_note]).toEqual([200, 'Eli', null]);
  });

  it('GET /watchlist/:dot for a tendered carrier; 404 resource_missing for one never seen', async () => {
    const entry = (await call('GET', '/watchlist/1000006')).json as WatchEntry;
    expect(entry).toMatchObject({ object: 'watch_entry', dot_number: '1000006', updated_at: expect.any(String) });
    const none = await call('GET', '/watchlist/7777777');
    expect([none.status, none.json.error.code]).toEqual([404, 'resource_missing']);
  });
});

describe('new parameters under fast-check', () => {
  it('any value of limit, cursors and filters is 200 or 400 naming a parameter, never 5xx', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer().map(String),
      fc.constantFrom('', '0', '101', 'all', 'scr_aaaaaaaaaaaaaaaaaaaaaaaaaa', '2026-11-25', 'MC12'),
    );
    const param = fc.constantFrom(
      'limit',
      'starting_after',
      'ending_before',
      'tender_id',
      'dot_number',
      'mc_number',
      'status',
      'action',
      'updated_since',
      'state',
    );
    const path = fc.constantFrom('/screenings', '/reviews', '/decisions', '/blocks', '/changes', '/watchlist', '/callbacks');
    await fc.assert(
      fc.asyncProperty(path, fc.array(fc.tuple(param, value), { maxLength: 3 }), async (p, params) => {
        const qs = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        const r = await call('GET', `${p}${qs ? `?${qs}` : ''}`);
        expect(r.status, `${p}?${qs}`).toBeLessThan(500);
        if (r.status !== 200) {
          expect(r.status).toBe(400);
          expect(typeof r.json.error.param, `${p}?${qs}`).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
  });
});
