/**
 * The shared event feed (worker/events/event-feed.ts) on PostgreSQL: events appended in a unit
 * of work are heard in id order, replayed from the log, paged, and an event that names what it
 * reports (a review by reference) is read back from the store when delivered.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { IntakeEvent } from '../../shared/screening.js';
import { SharedEventFeed } from '../../worker/events/event-feed.js';
import { reviewRef } from '../../worker/events/event-refs.js';
import { pgTestStore } from '../helpers/pg-db.js';
import { until } from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';

let t: Awaited<ReturnType<typeof pgTestStore>>;
beforeAll(async () => {
  t = await pgTestStore();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The test store, with the log's reads (eventsSince) counted on the real store. */
function countingLogReads() {
  let reads = 0;
  const events = new Proxy(t.store.events, {
    get: (target, key, receiver) =>
      key === 'eventsSince'
        ? (...a: Parameters<typeof target.eventsSince>) => (reads++, target.eventsSince(...a))
        : Reflect.get(target, key, receiver),
  });
  const store = new Proxy(t.store, { get: (target, key, receiver) => (key === 'events' ? events : Reflect.get(target, key, receiver)) });
  return { store, reads: () => reads };
}

/** One quota.changed event appended by `feed` in a unit of its own, committed (not announced). */
const appendInAUnit = (feed: SharedEventFeed, n: string) =>
  t.store.unitOfWork(async (tx) => [await feed.append(tx, 'quota.changed', { n })]);

/**
 * Two units commit their events in id order (a, then b) and the second announces first (two
 * group commits): what `feed` has heard since, the log's last id before them, and a's events.
 */
async function secondAnnouncedFirst(feed: SharedEventFeed) {
  const heard: IntakeEvent[] = [];
  feed.subscribe((e) => heard.push(e));
  const start = await feed.lastId();
  const a = await appendInAUnit(feed, 'a');
  const b = await appendInAUnit(feed, 'b');
  await feed.announce(b);
  return { heard, start, a };
}

it('events are heard in id order, replayed and paged from the log; a reference is read when delivered', async () => {
  await t.store.unitOfWork((tx) => tx.events.appendEvent('quota.changed', { before: true }));
  const feed = new SharedEventFeed(t.store, { publish: async () => 0 } as never, 'test');
  const heard: IntakeEvent[] = [];
  feed.subscribe((e) => heard.push(e));
  const first = await feed.publish('quota.changed', { n: 1 });
  const appended = await t.store.unitOfWork(async (tx) => [
    await feed.append(tx, 'quota.changed', { n: 2 }),
    await feed.append(tx, 'review.updated', reviewRef('rev_gone')),
  ]);
  await feed.announce(appended);
  const gone = { object: 'review', id: 'rev_gone', pruned: true };
  // The event before the feed started is not news; the rest in order, the reference read.
  expect(heard.map((e) => [e.id, e.data])).toEqual([
    [first.id, { n: 1 }],
    [first.id + 1, { n: 2 }],
    [first.id + 2, gone],
  ]);
  expect(await feed.lastId()).toBe(first.id + 2);
  expect((await feed.since(first.id)).map((e) => e.data)).toEqual([{ n: 2 }, gone]);
  expect((await feed.page({}, { limit: 2 })).data.map((e) => e.data)).toEqual([gone, { n: 2 }]);
  await feed.close();
});

it('events announced ahead of an earlier one wait for it, then go in id order, without reading the log; one never announced here is read from it', async () => {
  const { store, reads } = countingLogReads();
  const feed = new SharedEventFeed(store, { publish: async () => 0 } as never, 'test');
  const { heard, start, a } = await secondAnnouncedFirst(feed);
  expect(heard).toEqual([]);
  await feed.announce(a);
  expect(heard.map((e) => [e.id - start, e.data])).toEqual([
    [1, { n: 'a' }],
    [2, { n: 'b' }],
  ]);
  expect(reads()).toBe(0);
  // Another host's event, announced there (not here), before ours: ours waits, then the log is read.
  await t.store.unitOfWork((tx) => tx.events.appendEvent('quota.changed', { n: 'elsewhere' }));
  const c = await appendInAUnit(feed, 'c');
  await feed.announce(c);
  expect(heard).toHaveLength(2);
  await until('the event read from the log', 5_000, () => heard.length === 4, 5);
  expect(heard.slice(2).map((e) => [e.id - start, e.data])).toEqual([
    [3, { n: 'elsewhere' }],
    [4, { n: 'c' }],
  ]);
  expect(reads()).toBeGreaterThan(0);
  await feed.close();
});

it('its own Redis message (the one that wakes the other hosts) does not read the log while its events wait for an earlier one', async () => {
  const { store, reads } = countingLogReads();
  const url = inject('redisUrl');
  const [pub, sub, other] = [new Redis(url), new Redis(url), new Redis(url)];
  const channel = `${uniquePrefix('feed-echo')}:events`;
  // Only the echo could read the log: the wait for the gap is longer than the test.
  const feed = new SharedEventFeed(store, pub, channel, 60_000);
  try {
    await feed.start(sub);
    const published = new Promise<string>((resolve) => other.on('message', (_c: string, id: string) => resolve(id)));
    await other.subscribe(channel);
    const { heard, start, a } = await secondAnnouncedFirst(feed);
    expect(Number(await published)).toBe(start + 2);
    // Redis answers in order on the subscriber's connection: its message was handled before this.
    await sub.ping();
    await feed.announce(a);
    expect(heard.map((e) => e.id - start)).toEqual([1, 2]);
    expect(reads()).toBe(0);
  } finally {
    await feed.close();
    pub.disconnect();
    other.disconnect();
  }
});
