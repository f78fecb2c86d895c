/**
 * The pruner (worker/retention/pruner.ts) on PostgreSQL: several hosts run a pass at the same
 * time, one takes the prune lock and the others skip theirs, and each old row goes once.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Pruner } from '../../worker/retention/pruner.js';
import { openPgStore, type PgStore } from '../../worker/store/pg/pg-store.js';
import { pgTestStore } from '../helpers/pg-db.js';

const DAY = 86_400_000;
const log = pino({ level: 'silent' });

let t: Awaited<ReturnType<typeof pgTestStore>>;
/** A second host on the same database. */
let other: PgStore;
beforeAll(async () => {
  t = await pgTestStore();
  other = await openPgStore(t.db.url, { max: 4, applicationName: 'carrier-screen-test' });
}, 60_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
});

it('two hosts prune at once: one holds the prune lock, each old event goes once', async () => {
  const old = new Date(Date.now() - 30 * DAY);
  await t.store.unitOfWork((tx) =>
    tx.events.appendEvents(Array.from({ length: 25 }, (_, i) => ({ event: 'quota.changed', data: { i }, at: old }))),
  );
  await t.store.unitOfWork((tx) => tx.events.appendEvent('quota.changed', { recent: true }));
  const policy = { eventsMs: 7 * DAY, recordsMs: 3 * 365 * DAY, notFoundMs: DAY };
  const [a, b] = await Promise.all([
    new Pruner({ store: t.store, policy, logger: log, batch: 10 }).run(),
    new Pruner({ store: other, policy, logger: log, batch: 10 }).run(),
  ]);
  expect((a.events ?? 0) + (b.events ?? 0)).toBe(25);
  // The second pass either waited for nothing (the lock was held: skipped) or came after (nothing left).
  expect([a, b]).toContainEqual({});
  expect((await other.events.eventsSince(0)).map((e) => e.data)).toEqual([{ recent: true }]);
  // Both passes gave the lock back: either host takes it again.
  for (const host of [t.store, other]) {
    const lock = await host.retention.tryPruneLock();
    expect(lock).toBeDefined();
    await lock!.release();
  }
});

it('a pass while another host holds the prune lock prunes nothing', async () => {
  const old = new Date(Date.now() - 30 * DAY);
  const [held] = await t.store.unitOfWork((tx) => tx.events.appendEvents([{ event: 'quota.changed', data: { held: true }, at: old }]));
  const lock = await other.retention.tryPruneLock();
  expect(lock).toBeDefined();
  try {
    const policy = { eventsMs: 7 * DAY, recordsMs: 3 * 365 * DAY, notFoundMs: DAY };
    expect(await new Pruner({ store: t.store, policy, logger: log }).run()).toEqual({});
    expect((await t.store.events.eventsSince(held!.id - 1, 1)).map((e) => e.data)).toEqual([{ held: true }]);
  } finally {
    await lock!.release();
  }
});
