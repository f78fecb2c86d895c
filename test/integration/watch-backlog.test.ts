import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEYS } from '../../emulator/index.js';
import { openStore } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { createScreener } from '../../worker/screener.js';
import { BACKLOG_BATCH } from '../../worker/watch/watch-backlog.js';
import { withScreener } from '../helpers/screener.js';

/**
 * Cache hits go on the watch list a batch at a time (worker/watch/watch-backlog.ts): real
 * SQLite, Redis and emulator. Whoever reads the list sees every hit committed before, and a hit
 * left behind by a process that stopped is recorded by the next one.
 */

let ctx: Awaited<ReturnType<typeof withScreener>> | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

const tenderRows = (dbPath: string, key: string): number => {
  const store = openStore(dbPath);
  try {
    return (connectionOf(store).prepare('SELECT COUNT(*) AS n FROM watch_tenders WHERE carrier_key = ?').get(key) as { n: number }).n;
  } finally {
    store.close();
  }
};

describe('the watch list backlog of cache hits', () => {
  it('every hit is on the list for whoever reads it, over several batches, each tender once', async () => {
    ctx = await withScreener();
    const { screener } = ctx;
    const first = await screener.screen({ dot_number: '1000001', tender_id: 'L-0' });
    expect(first.source).toBe('service');
    await screener.screen({ dot_number: '1000004', tender_id: 'M-0' });
    // Two carriers interleaved over several batches, each batch holding both.
    const n = BACKLOG_BATCH * 3 + 7;
    const hits = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        screener.submit({ query: { dot_number: i % 3 === 0 ? '1000004' : '1000001' }, tender_id: `L-${i + 1}`, callback_url: null, priority: 'tender', refresh: false }),
      ),
    );
    expect(new Set(hits.map((h) => h.source))).toEqual(new Set(['cache']));
    const dotOf = (h: (typeof hits)[number]): string | undefined => ('dot_number' in h.query ? h.query.dot_number : undefined);
    const latestOf = (dot: string) => hits.filter((h) => dotOf(h) === dot).map((h) => h.created_at).sort().at(-1);
    // Read at once: the read catches up first.
    expect(screener.watch.get({ dot_number: '1000001' })!.last_tender_at).toBe(latestOf('1000001'));
    expect(screener.watch.get({ dot_number: '1000004' })!.last_tender_at).toBe(latestOf('1000004'));
    const ofA = hits.filter((h) => dotOf(h) === '1000001').length;
    expect(tenderRows(ctx.config.dbPath, 'dot:1000001')).toBe(ofA + 1);
    expect(tenderRows(ctx.config.dbPath, 'dot:1000004')).toBe(n - ofA + 1);
    // Caught up again (the timer, another read): nothing is recorded twice.
    await screener.watch.catchUp();
    expect(screener.watch.list().filter((e) => e.dot_number === '1000001')).toHaveLength(1);
    expect(tenderRows(ctx.config.dbPath, 'dot:1000001')).toBe(ofA + 1);
  });

  it('a hit committed by a process that stopped before recording it is recorded by the next process, unasked', async () => {
    ctx = await withScreener();
    const { config, screener } = ctx;
    await screener.screen({ dot_number: '1000004', tender_id: 'L-1' });
    const cached = screener.store.getScore('sandbox', { dot_number: '1000004' })!;
    await screener.close();
    // What a hit's commit leaves when the process is killed before the next batch: the done
    // row, source "cache", and nothing on the watch list yet.
    const store = openStore(config.dbPath);
    const hit = store.insertScreening(
      { query: { dot_number: '1000004' }, tender_id: 'L-2', priority: 'tender', refresh: false, callback_url: null },
      { action: 'tender', hold_reason: null, source: 'cache', score: cached.score, score_fetched_at: cached.fetched_at, error: null, score_fetch_id: cached.fetch_id },
    );
    store.close();
    expect(tenderRows(config.dbPath, 'dot:1000004')).toBe(1);

    const next = await createScreener(config, { svc: { baseUrl: ctx.emulator.baseUrl, apiKey: DEMO_KEYS.sandbox }, logger: pino({ level: 'silent' }), runWorker: false });
    try {
      // Nobody reads the list: the process's own timer records the hit.
      await expect.poll(() => tenderRows(config.dbPath, 'dot:1000004'), { timeout: 5_000, interval: 50 }).toBe(2);
      expect(next.watch.get({ dot_number: '1000004' })!.last_tender_at).toBe(hit.created_at);
    } finally {
      await next.close();
      // The first process is closed already: only the emulator and the files are left.
      const emulator = ctx.emulator;
      ctx = undefined;
      await emulator.close();
      (config as typeof config & { cleanup(): void }).cleanup();
    }
  });
});
