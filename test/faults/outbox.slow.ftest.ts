/**
 * Fault suite — nothing owed is lost (issue 12). Real `start` / `screen` processes, a real
 * Redis of the test's own (it is flushed), the record of this pass (a SQLite file, or a
 * PostgreSQL database under SCREEN_TEST_DB=postgres), a real callback endpoint:
 * - the endpoint down while screenings finish, Redis flushed, the endpoint back: every callback;
 * - the worker SIGKILLed while a review's callback is on the wire: delivered after the restart,
 *   acknowledged once per delivery id;
 * - `screen --file` working the shared queue beside `start`: every TMS callback arrives;
 * - after FLUSHALL the operator's pause, the watch schedule and the quota gate come back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, until } from '../helpers/processes.js';
import { startRedis, type OwnRedis } from '../helpers/redis-server.js';
import { WATCH_QUEUE, WATCH_SCHEDULER_ID } from '../../worker/watch/watch-scheduler.js';
import { mapLimit } from './support/intake-client.js';
import { startRecordingEmulator, type RecordingEmulator } from './support/recording-emulator.js';
import { doneCount, outboxRows, storeFigures } from './support/store-inspect.js';
import { startSwitchableReceiver, type SwitchableReceiver } from './support/switchable-receiver.js';
import { installation, type Installation } from './support/worker-stack.js';
import { seedRetentionRows } from '../helpers/retention-seed.js';
import { openRecord } from '../../worker/open-record.js';

let redis: OwnRedis;
const cleanup: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f().catch(() => {});
});
afterAll(async () => {
  await redis?.stop();
});

async function flushAll(): Promise<void> {
  const r = new Redis(redis.url);
  try {
    await r.flushall();
  } finally {
    r.disconnect();
  }
}

async function setup(o: {
  mode: 'sandbox' | 'live';
  latencyMs?: number;
  env?: Record<string, string>;
}): Promise<{ emu: RecordingEmulator; inst: Installation; receiver: SwitchableReceiver }> {
  const emu = await startRecordingEmulator({
    mode: o.mode,
    ratePerMinute: 1_000_000,
    monthlyQuota: 1_000_000,
    ...(o.latencyMs ? { faults: { latencyMs: o.latencyMs } } : {}),
  });
  cleanup.push(() => emu.close());
  const inst = await installation({ svcBaseUrl: emu.baseUrl, svcKey: emu.key, redisUrl: redis.url, env: { ...o.env } });
  cleanup.push(() => inst.close());
  const receiver = await startSwitchableReceiver(inst.callbackSecret);
  cleanup.push(() => receiver.close());
  await inst.start();
  return { emu, inst, receiver };
}

describe('callbacks survive a down endpoint and a Redis that lost its data', () => {
  it('endpoint down, 20 screenings done, FLUSHALL, endpoint up: every callback delivered, signed', async () => {
    const { inst, receiver } = await setup({ mode: 'live' });
    const client = inst.client!;
    receiver.setDown(true);
    const dots = Array.from({ length: 20 }, (_, i) => String(5_100_000 + i * 41));
    const answers = await mapLimit(dots, 8, (dot, i) =>
      client.screen({ dot_number: dot, tender_id: `D-${i}`, callback_url: receiver.url }),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 202)).toEqual([]);
    const ids = answers.map((a) => a.json.id as string);
    await until('all 20 done', 60_000, async () => (await doneCount(inst.reader)) >= 20 || undefined, 200);
    // Every callback owed; the endpoint was tried and failed until its circuit breaker opened
    // (a destination that keeps failing is backed off as a whole, not tried row by row).
    await until(
      'every callback owed, the endpoint tried and backed off',
      60_000,
      async () => {
        const rows = await outboxRows(inst.reader);
        return rows.length === 20 && rows.every((r) => r.state === 'pending') && rows.filter((r) => r.attempts >= 1).length >= 5;
      },
      250,
    );
    expect(receiver.arrivals).toHaveLength(0);

    await flushAll();
    receiver.setDown(false);
    const t0 = Date.now();
    await until(
      'every callback delivered',
      180_000,
      () => ids.every((id) => receiver.acknowledged().has(`${id}:screening.completed`)) || undefined,
      250,
    );
    const rows = await outboxRows(inst.reader);
    await until(
      'every outbox row delivered',
      30_000,
      async () => (await outboxRows(inst.reader)).every((r) => r.state === 'delivered') || undefined,
      250,
    );
    console.info(
      `outbox (down + FLUSHALL): 20 callbacks delivered ${Math.round((Date.now() - t0) / 1000)} s after the endpoint came back; attempts ${rows.map((r) => r.attempts).join(',')}`,
    );
    expect(receiver.arrivals.every((a) => a.signatureOk)).toBe(true);
    // Same body on every arrival of a delivery id.
    for (const id of ids)
      expect(new Set(receiver.arrivals.filter((a) => a.id === `${id}:screening.completed`).map((a) => a.body)).size).toBe(1);
    expect(inst.proc!.alive()).toBe(true);
  });

  it("SIGKILL while a review's callback is on the wire: delivered after the restart, acknowledged once", async () => {
    const { inst, receiver } = await setup({ mode: 'sandbox' });
    const client = inst.client!;
    const held = await client.screen({ dot_number: '1000003', tender_id: 'K-1', callback_url: receiver.url }, '?wait=10');
    expect(held.json).toMatchObject({ status: 'done', action: 'hold' });
    const sid = held.json.id as string;
    await until(
      'screening.completed acknowledged',
      60_000,
      () => receiver.acknowledged().has(`${sid}:screening.completed`) || undefined,
      100,
    );

    // The receiver holds the review callback: the decision is committed, its callback in flight.
    receiver.hold((a) => a.event === 'review.resolved');
    const approved = await client.call('POST', `/reviews/${held.json.review.id}/approve`, { body: { by: 'dana' } });
    expect(approved.status).toBe(200);
    const delivery = `${sid}:review.resolved:approved`;
    await until('the review callback on the wire', 60_000, () => receiver.arrivals.some((a) => a.id === delivery) || undefined, 50);
    await inst.proc!.kill('SIGKILL');
    expect(receiver.acknowledged().get(delivery)).toBeUndefined();

    receiver.hold(undefined);
    await inst.start();
    // The dead process's claim runs out (time-out + 30 s), then the new one sends it.
    await until(
      'the review callback acknowledged after the restart',
      120_000,
      () => receiver.acknowledged().has(delivery) || undefined,
      250,
    );
    await new Promise((r) => setTimeout(r, 3_000)); // room for a duplicate to show up, were there one
    expect(receiver.acknowledged().get(delivery)).toBe(1);
    const bodies = receiver.arrivals.filter((a) => a.id === delivery);
    expect(new Set(bodies.map((a) => a.body)).size).toBe(1);
    expect(JSON.parse(bodies[0]!.body).screening).toMatchObject({
      id: sid,
      action: 'tender',
      review: { state: 'approved', decided_by: 'dana' },
    });
    expect(bodies.every((a) => a.signatureOk)).toBe(true);
    expect((await outboxRows(inst.reader)).find((r) => r.delivery_id === delivery)).toMatchObject({ state: 'delivered' });
  });
});

describe('every process that works the queue delivers', () => {
  it('`screen --file` beside `start` on one Redis and database: every TMS screening gets its callback', async () => {
    const { inst, receiver } = await setup({ mode: 'live', latencyMs: 50, env: { SCREEN_CONCURRENCY: '4' } });
    const client = inst.client!;
    const roster = join(inst.dataDir, 'roster.csv');
    writeFileSync(roster, ['dot_number', ...Array.from({ length: 150 }, (_, i) => String(6_100_000 + i * 13))].join('\n') + '\n');
    const bulk = spawnCli(['screen', '--file', roster, '--json', '--wait', '120'], {
      name: 'screen',
      env: { ...inst.env, LOG_LEVEL: 'info' },
      cwd: inst.dataDir,
    });
    cleanup.push(() => bulk.stop());
    // TMS screenings accepted meanwhile, on the shared queue the bulk process works too.
    await until(
      'the bulk process to have queued work',
      60_000,
      async () => (await storeFigures(inst.reader)).screenings >= 20 || undefined,
      50,
    );
    const answers = await mapLimit(
      Array.from({ length: 20 }, (_, i) => String(6_900_000 + i * 17)),
      4,
      (dot, i) => client.screen({ dot_number: dot, tender_id: `B-${i}`, callback_url: receiver.url }),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 202)).toEqual([]);
    const ids = answers.map((a) => a.json.id as string);
    const exit = await bulk.exited;
    expect(exit.code).toBe(0);
    await until(
      'every TMS callback',
      120_000,
      () => ids.every((id) => receiver.acknowledged().has(`${id}:screening.completed`)) || undefined,
      250,
    );
    // The bulk process finished some of the TMS screenings itself (its log says which): the
    // case that used to lose their callbacks.
    const byBulk = ids.filter((id) => new RegExp(`${id}[^\n]*screening done|screening done[^\n]*${id}`).test(bulk.stderr()));
    console.info(
      `outbox (screen --file beside start): ${ids.length} TMS callbacks of ${ids.length} arrived; ${byBulk.length} of them finished by the screen process`,
    );
    expect(byBulk.length).toBeGreaterThan(0);
    expect(receiver.arrivals.every((a) => a.signatureOk)).toBe(true);
  });
});

describe('Redis state rebuilt from the record', () => {
  it("after FLUSHALL the operator's pause, the watch schedule and the quota gate come back by themselves", async () => {
    const { inst } = await setup({ mode: 'live' });
    const client = inst.client!;
    // A tender puts its carrier on the watch list.
    expect((await client.screen({ dot_number: '5900001', tender_id: 'W-1' }, '?wait=10')).json.status).toBe('done');
    expect((await client.call('POST', '/queue/pause')).json.queue.paused).toBe(true);
    const before = (await client.call('GET', '/status')).json;
    expect(before.quota.monthly_quota).not.toBeNull();
    const watchQueue = new Queue(WATCH_QUEUE, { connection: { url: redis.url }, prefix: inst.prefix });
    cleanup.push(() => watchQueue.close());
    expect(await watchQueue.getJobScheduler(WATCH_SCHEDULER_ID)).toBeTruthy();

    await flushAll();
    expect(await watchQueue.getJobScheduler(WATCH_SCHEDULER_ID)).toBeFalsy();
    const t0 = Date.now();
    const after = await until(
      'pause and quota back in /status',
      60_000,
      async () => {
        const s = (await client.call('GET', '/status')).json;
        return s?.queue?.paused === true && s.quota.monthly_quota !== null && s;
      },
      250,
    );
    await until('the watch schedule back', 60_000, async () => (await watchQueue.getJobScheduler(WATCH_SCHEDULER_ID)) || undefined, 250);
    console.info(`outbox (FLUSHALL): pause, quota gate and watch schedule back within ${Math.round((Date.now() - t0) / 1000)} s`);
    expect(after.quota.monthly_quota).toBe(before.quota.monthly_quota);
    // Paused means paused: a new screening waits.
    const queued = await client.screen({ dot_number: '5900002' }, '?wait=2');
    expect(queued.status).toBe(202);
    expect((await client.call('POST', '/queue/resume')).json.queue.paused).toBe(false);
    await until(
      'the queued screening done after resume',
      60_000,
      async () => (await client.call('GET', `/screenings/${queued.json.id}`)).json.status === 'done' || undefined,
      250,
    );
    expect(inst.logs()).toMatch(/Redis state rebuilt/);
  });
});

describe('retention', () => {
  it('a real worker on a database seeded years back (an injected clock): old rows gone, the record within the period kept', async () => {
    const emu = await startRecordingEmulator({ mode: 'sandbox' });
    cleanup.push(() => emu.close());
    const inst = await installation({
      svcBaseUrl: emu.baseUrl,
      svcKey: emu.key,
      redisUrl: redis.url,
      env: { SCREEN_RETENTION: '3y', SCREEN_EVENTS_RETENTION: '7d' },
    });
    cleanup.push(() => inst.close());
    const DAY = 86_400_000;
    let t = Date.now() - 4 * 365 * DAY;
    // The record made and seeded before the worker's first start, at an injected clock (either backend).
    const db = inst.sqlitePath ? { kind: 'sqlite' as const, path: inst.sqlitePath } : { kind: 'postgres' as const, url: inst.screenDb };
    const seed = await openRecord({ db, dataDir: inst.dataDir }, { now: () => new Date(t), readers: { size: 0 } });
    const old = await seedRetentionRows(seed.record, 'old', new Date(t));
    t = Date.now() - 365 * DAY;
    const kept = await seedRetentionRows(seed.record, 'kept', new Date(t));
    await seed.close();

    await inst.start();
    // The ids are ours (scr_…, rev_…, cb_…): quoted into the SQL, the same on both backends.
    const rows = async (table: string, ...ids: string[]): Promise<number> => {
      if (ids.some((id) => !/^\w+$/.test(id))) throw new Error(`rows: ${ids.join(' ')}`);
      const where = ids.length ? ` WHERE id IN (${ids.map((id) => `'${id}'`).join(', ')})` : '';
      return Number((await inst.reader.rows<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}${where}`))[0]!.n);
    };
    await until('the old screenings pruned', 60_000, async () => (await rows('screenings', old.decided)) === 0 || undefined, 250);
    expect(await rows('reviews', old.review)).toBe(0);
    expect(await rows('callback_outbox', old.delivered, old.dead)).toBe(0);
    // A year old: the screening, its decided review (who and when) and its dead callback stay;
    // its delivered callback and events (older than 7 days) are gone.
    const screening = await inst.client!.call('GET', `/screenings/${kept.decided}`);
    expect(screening.status).toBe(200);
    expect(screening.json).toMatchObject({
      id: kept.decided,
      action: 'tender',
      review: { id: kept.review, state: 'approved', decided_by: 'dana' },
    });
    expect(await rows('callback_outbox', kept.dead)).toBe(1);
    expect(await rows('callback_outbox', kept.delivered)).toBe(0);
    expect(await rows('events')).toBe(0);
    // A review still pending keeps even a four-year-old screening.
    expect(await rows('screenings', old.pendingReview)).toBe(1);
    expect(inst.logs()).toMatch(/retention: old rows pruned/);
  });
});
