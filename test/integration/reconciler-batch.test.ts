import { UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Reconciler } from '../../worker/queue/reconciler.js';
import type { ScreeningPipeline } from '../../worker/queue/screening-pipeline.js';
import { ScreeningQueue } from '../../worker/queue/screening-queue.js';
import type { RecordStore } from '../../worker/store/index.js';
import { until } from '../helpers/processes.js';
import { openTestRecord } from '../helpers/test-record-sql.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';

/** The reconciler against a real Redis and the record of this pass (SQLite or PostgreSQL): batched look-ups, whatever the backlog. */

let redis: Redis;
let opened: Awaited<ReturnType<typeof openTestRecord>> | undefined;
let store: RecordStore;
beforeAll(async () => {
  redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  opened = await openTestRecord({ now: () => new Date('2026-01-01T00:00:00.000Z') });
  store = opened.record;
});
afterAll(async () => {
  await opened?.close();
  redis?.disconnect();
});

describe('reconciler', () => {
  it('tells missing, present and failed jobs apart', async () => {
    const prefix = uniquePrefix('recon-states');
    const queue = new ScreeningQueue(redis, prefix);
    await queue.add('scr_present', 'tender');
    await queue.add('scr_failed', 'tender');
    const worker = new Worker(
      'screenings',
      async (job) => {
        if (job.id === 'scr_failed') throw new UnrecoverableError('broken on purpose');
      },
      { connection: redis.duplicate({ maxRetriesPerRequest: null }), prefix, autorun: true },
    );
    try {
      await until('the job failed', 20_000, async () => (await queue.has('scr_failed')) === 'failed' || undefined, 50);
      expect(await queue.states(['scr_missing', 'scr_failed'])).toEqual(['missing', 'failed']);
      expect(await queue.states([])).toEqual([]);
    } finally {
      await worker.close();
      await queue.close();
    }
  });

  it('a backlog of 1,200 unfinished screenings costs one look-up round trip per 500, not two per screening', async () => {
    const prefix = uniquePrefix('recon-batch');
    const queue = new ScreeningQueue(redis, prefix);
    // One unit: 1,200 inserts in one commit.
    const ids = await store.unitOfWork(async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < 1_200; i++)
        out.push(
          (
            await tx.screenings.insertScreening({
              query: { dot_number: String(1_000 + i) },
              tender_id: null,
              priority: 'background',
              refresh: false,
              callback_url: null,
            })
          ).id,
        );
      return out;
    });
    // Half still have their job; the rest lost it (Redis restarted empty).
    for (const id of ids.slice(0, 600)) await queue.add(id, 'background');
    const ended: string[] = [];
    const pipeline = { giveUp: async (id: string) => void ended.push(id) } as unknown as ScreeningPipeline;
    // Count the look-up round trips: each batch is one MULTI-less pipeline on this connection.
    let lookups = 0;
    const real = queue.states.bind(queue);
    queue.states = async (batch) => {
      lookups++;
      return real(batch);
    };
    try {
      const r = await new Reconciler(
        store,
        queue,
        pipeline,
        pino({ level: 'silent' }),
        5_000,
        () => new Date('2026-01-01T01:00:00.000Z'),
      ).run();
      expect(r).toEqual({ requeued: 600, ended: 0 });
      expect(lookups).toBe(3);
      expect(await queue.states(ids)).toEqual(Array(1_200).fill('present'));
      // A second pass finds every job and queues nothing.
      expect(
        await new Reconciler(store, queue, pipeline, pino({ level: 'silent' }), 5_000, () => new Date('2026-01-01T01:00:00.000Z')).run(),
      ).toEqual({ requeued: 0, ended: 0 });
    } finally {
      await queue.queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
