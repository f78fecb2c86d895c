/**
 * List pages whose JSON a reader thread makes (issue 35): GET /screenings, /reviews, /callbacks,
 * /watchlist, /changes, /blocks, /event-log and /decisions answer the bytes the routes sent when
 * the main thread serialized the page (the same envelope and fields, read through the same
 * mapping), as application/json; charset=utf-8; and readJson runs in a thread, not on the main one.
 */
import { threadId } from 'node:worker_threads';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksPage } from '../../worker/blocks/block-reads.js';
import { changesPage, watchPage } from '../../worker/watch/watch-reads.js';
import { openStore } from '../../worker/store/index.js';
import { openReaderPool } from '../../worker/store/reader-pool.js';
import { reviewsPage, screeningsPage } from '../../worker/store/list-reads.js';
import { callbacksPage } from '../../worker/callbacks/index.js';
import { whichThread } from '../helpers/reader-jobs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { tempDbPath } from '../helpers/temp-db.js';

describe('list bodies made in a reader thread', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; type: string | undefined; text: string }> {
    const res = await request(stack.intakeUrl + path, {
      method,
      headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.statusCode, type: res.headers['content-type'] as string | undefined, text: await res.body.text() };
  }

  it('answer the bytes the main thread would have serialized, as application/json; charset=utf-8', async () => {
    // Rows in every list: screenings (a hold opens a review), a watch entry, a block, events.
    for (const [dot, tender] of [
      ['1000001', 'LJ-1'],
      ['1000003', 'LJ-2'],
      ['1000005', 'LJ-3'],
    ] as const)
      expect((await call('POST', '/screenings?wait=10', { dot_number: dot, tender_id: tender })).status).toBe(200);
    expect((await call('POST', '/watchlist', { dot_number: '1000007', note: 'list json' })).status).toBe(201);
    expect((await call('POST', '/blocks', { dot_number: '1000009', by: 'Dana', reason: 'list json' })).status).toBe(201);

    const s = stack.screener;
    const store = s.store;
    const limit = 2;
    // SCREEN_WATCH_DAYS as startStack leaves it (the default).
    const watchDays = 14;
    const expected: Array<[string, () => unknown]> = [
      [`/screenings?limit=${limit}`, () => screeningsPage.run(store, { filter: {}, page: { limit } })],
      [`/reviews?state=all&limit=${limit}`, () => reviewsPage.run(store, { state: undefined, page: { limit } })],
      [`/callbacks?state=all&limit=${limit}`, () => callbacksPage.run(store, { state: 'all', page: { limit } })],
      [`/watchlist?limit=${limit}`, () => watchPage.run(store, { now: new Date().toISOString(), watchDays, page: { limit } })],
      [`/changes?limit=${limit}`, () => changesPage.run(store, { state: undefined, page: { limit }, filter: {}, watchDays })],
      [`/blocks?limit=${limit}`, () => blocksPage.run(store, { state: 'active', page: { limit } })],
      // As the routes built them before the reader made them: the service's page in the envelope.
      [`/decisions?limit=${limit}`, async () => ({ object: 'list', ...(await s.pageDecisions({}, { limit })) })],
      [
        `/decisions?state=ended&limit=${limit}`,
        async () => ({ object: 'list', ...(await s.pageDecisions({ state: 'ended' }, { limit })) }),
      ],
      [`/blocks?dot_number=1000009&state=all`, () => blocksPage.run(store, { state: undefined, page: { limit: 50 }, dot: '1000009' })],
      [
        `/event-log?limit=${limit}`,
        async () => {
          const { data, has_more } = await s.events.page({}, { limit });
          return {
            object: 'list',
            data: data.map((e) => ({ object: 'event', id: e.id, event: e.event, created_at: e.created_at, data: e.data })),
            has_more,
          };
        },
      ],
    ];
    for (const [path, main] of expected) {
      const r = await call('GET', path);
      expect(r.status, path).toBe(200);
      expect(r.type, path).toBe('application/json; charset=utf-8');
      expect(r.text, path).toBe(JSON.stringify(await main()));
    }
    // Not vacuous: the lists had rows.
    for (const path of ['/screenings', '/reviews?state=all', '/watchlist', '/blocks', '/event-log'])
      expect((JSON.parse((await call('GET', path)).text) as { data: unknown[] }).data.length, path).toBeGreaterThan(0);
  });
});

describe('readJson', () => {
  it('makes the JSON in a reader thread; on an in-memory store, on the main one', async () => {
    const db = tempDbPath();
    const store = openStore(db.path);
    const reader = openReaderPool(store, { size: 1 });
    const mem = openStore(':memory:');
    const inline = openReaderPool(mem, { size: 1 });
    try {
      const body = await reader.readJson(whichThread, undefined);
      expect(Buffer.isBuffer(body)).toBe(true);
      const page = JSON.parse(body.toString('utf8')) as { object: string; data: number[] };
      expect(page.object).toBe('list');
      expect(page.data[0]).not.toBe(threadId);
      expect((JSON.parse((await inline.readJson(whichThread, undefined)).toString('utf8')) as { data: number[] }).data).toEqual([threadId]);
    } finally {
      await reader.close();
      await inline.close();
      store.close();
      mem.close();
      db.cleanup();
    }
  });
});
