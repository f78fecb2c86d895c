/**
 * The callback outbox and its sender on PostgreSQL (worker/callbacks): the same functions as on
 * SQLite, over the record's PostgreSQL store. Two hosts' senders on one database send each
 * delivery once (claimDue's SKIP LOCKED), a destination gets no more attempts than its slots,
 * and a callback owed in a unit of work stands or falls with it, waking the sender at its commit.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CallbackSender,
  DestinationPolicy,
  callbackCounts,
  cancelCallback,
  getCallback,
  getCallbackByDelivery,
  retryCallback,
  writeCallback,
  type CallbackTransport,
} from '../../worker/callbacks/index.js';
import { openPgStore, type PgStore } from '../../worker/store/pg/pg-store.js';
import { pgTestStore } from '../helpers/pg-db.js';
import { until } from '../helpers/processes.js';

const log = pino({ level: 'silent' });
const policy = new DestinationPolicy({ allow: undefined, intakeHost: '127.0.0.1' });

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
/** Every URL a case owes to: what one case leaves owed is cancelled before the next. */
const URLS = [
  'http://a.test/hook',
  'http://one.test/hook',
  'http://two.test/hook',
  'http://three.test/hook',
  'http://slow.test/hook',
  'http://fast.test/hook',
];
beforeEach(async () => {
  const at = new Date().toISOString();
  await t.store.unitOfWork(async (tx) => {
    for (const url of URLS) await tx.outbox.cancelTo(url, at);
  });
});

const owe = (store: PgStore, deliveryId: string, url = 'http://a.test/hook') =>
  writeCallback(store, { kind: 'screening.completed', url, deliveryId, payload: { n: deliveryId } });

const sender = (store: PgStore, send: CallbackTransport, o: Partial<ConstructorParameters<typeof CallbackSender>[0]> = {}) =>
  new CallbackSender({ store, secret: 'secret', logger: log, policy, fetch: send, ...o });

describe('the callback sender on PostgreSQL', () => {
  it("two hosts' senders on one database: each delivery sent once", async () => {
    const urls = ['http://one.test/hook', 'http://two.test/hook', 'http://three.test/hook'];
    for (let i = 0; i < 30; i++) await owe(t.store, `many-${i}`, urls[i % 3]);
    const sent: string[] = [];
    const send: CallbackTransport = async (_url, r) => {
      sent.push(String(r.headers['x-carrier-screen-delivery']));
      return 204;
    };
    const a = sender(t.store, send, { concurrency: 4 });
    const b = sender(other, send, { concurrency: 4 });
    for (let pass = 0; (await callbackCounts(t.store)).pending > 0; pass++) {
      expect(pass).toBeLessThan(100);
      await Promise.all([a.drainOnce(), b.drainOnce()]);
    }
    expect(sent).toHaveLength(30);
    expect(new Set(sent).size).toBe(30);
    expect(await getCallbackByDelivery(other, 'many-7')).toMatchObject({ state: 'delivered', attempts: 1, last_status: 204 });
  });

  it('a destination gets no more attempts at once than its slots; the others still go', async () => {
    for (let i = 0; i < 5; i++) await owe(t.store, `slow-${i}`, 'http://slow.test/hook');
    for (let i = 0; i < 2; i++) await owe(t.store, `fast-${i}`, 'http://fast.test/hook');
    const held: Array<() => void> = [];
    const to: string[] = [];
    const send: CallbackTransport = (url) => {
      to.push(new URL(url).host);
      return url.includes('slow') ? new Promise<number>((r) => held.push(() => r(204))) : Promise.resolve(204);
    };
    const s = sender(t.store, send, { destinations: { perDestination: 2 } });
    const pass = s.drainOnce();
    await until('the first attempts', 10_000, () => to.length === 4);
    expect(to.filter((h) => h === 'slow.test')).toHaveLength(2);
    expect(to.filter((h) => h === 'fast.test')).toHaveLength(2);
    for (const r of held) r();
    expect(await pass).toBe(4);
    expect(await getCallbackByDelivery(t.store, 'slow-2')).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('a failed attempt is retried later; retry and cancel by hand', async () => {
    const { id } = await owe(t.store, 'flaky');
    expect(await sender(t.store, async () => 503).drainOnce()).toBe(1);
    expect(await getCallback(t.store, id)).toMatchObject({ state: 'pending', attempts: 1, last_status: 503, last_error: 'http_status' });
    expect(await retryCallback(t.store, id)).toMatchObject({ state: 'pending', attempts: 0 });
    expect(await cancelCallback(other, id)).toMatchObject({ state: 'cancelled' });
    expect(await sender(t.store, async () => 204).drainOnce()).toBe(0);
  });

  it('a callback owed in a unit of work stands or falls with it; its commit wakes a running sender', async () => {
    await expect(
      t.store.unitOfWork(async (tx) => {
        await writeCallback(t.store, { kind: 'k', url: 'http://a.test/hook', deliveryId: 'rolled-back', payload: {} }, tx);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await getCallbackByDelivery(t.store, 'rolled-back')).toBeUndefined();
    const sent: string[] = [];
    const s = sender(
      t.store,
      async (_url, r) => {
        sent.push(String(r.headers['x-carrier-screen-delivery']));
        return 204;
      },
      { pollMs: 3_600_000 },
    );
    s.start();
    try {
      await new Promise((r) => setTimeout(r, 100)); // its first pass found nothing; it sleeps for an hour
      await t.store.unitOfWork((tx) =>
        writeCallback(t.store, { kind: 'k', url: 'http://a.test/hook', deliveryId: 'woken', payload: {} }, tx),
      );
      await until('delivered', 10_000, () => sent.includes('woken'));
    } finally {
      await s.close();
    }
  });
});
