import { describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { pino } from 'pino';
import { startEmulator, DEMO_KEYS } from '../../emulator/index.js';
import { createScreener } from '../../worker/screener.js';
import { testConfig } from '../helpers/screener.js';

describe('reconciler', () => {
  it('re-queues screenings SQLite accepted whose jobs are gone, and all end done', async () => {
    const emulator = await startEmulator({ port: 0 });
    const config = await testConfig();
    let clock = new Date();
    const now = (): Date => clock;
    const common = { svc: { baseUrl: emulator.baseUrl, apiKey: DEMO_KEYS.sandbox }, logger: pino({ level: 'silent' }), now };
    // An intake with no worker: accepted screenings wait in the queue.
    const intake = await createScreener(config, { ...common, runWorker: false });
    const ids: string[] = [];
    for (const dot of ['1000001', '1000002', '1000003', '1000004', '1000006'])
      ids.push((await intake.submit({ query: { dot_number: dot }, refresh: true })).id);
    // Redis loses the jobs (as after a restart without persistence).
    const conn = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    const q = new Queue('screenings', { connection: conn, prefix: config.redisPrefix });
    await q.obliterate({ force: true });
    expect(await q.getJobCounts('waiting', 'prioritized')).toEqual({ waiting: 0, prioritized: 0 });
    await q.close();
    conn.disconnect();

    clock = new Date(clock.getTime() + 10_000);
    const worker = await createScreener(config, { ...common, runWorker: true });
    try {
      const r = await worker.reconcile();
      // The start-up pass may already have taken some of them.
      expect(r.requeued).toBeLessThanOrEqual(5);
      const done = await Promise.all(ids.map((id) => worker.waitFor(id, 20_000)));
      expect(done.map((s) => s.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
      expect(await worker.store.screenings.listUnfinished()).toHaveLength(0);
      // Exactly one review per held screening, not one per pass.
      const held = done
        .filter((s) => s.action === 'hold')
        .map((s) => s.id)
        .sort();
      expect(held).toContain(ids[2]); // 1000003 is held for review
      const reviewed = (await worker.store.reviews.listReviews('pending'))
        .filter((rv) => ids.includes(rv.screening_id))
        .map((rv) => rv.screening_id);
      expect(reviewed.sort()).toEqual(held);
    } finally {
      await worker.close();
      await intake.close();
      await emulator.close();
      await config.cleanup();
    }
  });
});
