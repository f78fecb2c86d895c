/**
 * Store calls made outside a unit of work while one is open (docs/design/postgres.md 3.1, step
 * 1c). A unit spans several microtasks; over SQLite's one connection a plain synchronous call
 * made in one of its gaps would run inside its transaction: a write would be rolled back with
 * it, a read would see its uncommitted rows. The product's calls outside a unit wait for it
 * (store.readCommitted, or a unit of their own). Each case holds a unit open across awaits of
 * resolved values, makes the outside call, then rolls the unit back. On PostgreSQL a unit has a
 * client of its own: the same cases hold there, on the record of the pass (openTestRecord, test/helpers/test-record-sql.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IntakeEvent } from '../../shared/screening.js';
import { cancelCallback, getCallback, getCallbackByDelivery, writeCallback } from '../../worker/callbacks/index.js';
import { SharedEventFeed } from '../../worker/events/event-feed.js';
import type { RecordStore, RecordTx } from '../../worker/store/index.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { openTestRecord } from '../helpers/test-record-sql.js';

let opened: Awaited<ReturnType<typeof openTestRecord>> | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

async function setUp(): Promise<RecordStore> {
  opened = await openTestRecord();
  return opened.record;
}

/** Open a unit that writes `inside`, waits a few microtasks (a store call's worth), runs `outside` meanwhile, then throws. */
async function rolledBackAround<T>(s: RecordStore, inside: (tx: RecordTx) => unknown, outside: () => T): Promise<T> {
  const unit = s.unitOfWork(async (tx) => {
    await inside(tx);
    await Promise.resolve();
    await Promise.resolve();
    throw new Error('rolled back');
  });
  // The unit has begun (BEGIN ran, it waits at its first await): this call lands in its gap.
  const out = outside();
  await expect(unit).rejects.toThrow('rolled back');
  return out;
}

describe('a call outside a unit of work, while one is open', () => {
  it('a token lookup: its touch (last_used_at) is not rolled back with the unit', async () => {
    const s = await setUp();
    const tokens = new IntakeTokens(s);
    const { token, record } = await tokens.create('tms', 'Tess TMS');
    const lookup = await rolledBackAround(
      s,
      (tx) => writeCallback(s, { kind: 'screening.completed', url: 'http://127.0.0.1:9/cb', deliveryId: 'inside', payload: {} }, tx),
      () => tokens.lookup(token),
    );
    expect(await lookup).toMatchObject({ role: 'tms', token_id: record.id });
    expect((await tokens.list())[0]!.last_used_at).not.toBeNull();
    // The unit's own write is gone.
    expect(await getCallbackByDelivery(s, 'inside')).toBeUndefined();
  });

  it('a callback cancelled meanwhile stays cancelled', async () => {
    const s = await setUp();
    const { id } = await writeCallback(s, {
      kind: 'screening.completed',
      url: 'http://127.0.0.1:9/cb',
      deliveryId: 'd1',
      payload: {},
    });
    const cancel = await rolledBackAround(
      s,
      (tx) => writeCallback(s, { kind: 'screening.completed', url: 'http://127.0.0.1:9/cb', deliveryId: 'inside', payload: {} }, tx),
      () => cancelCallback(s, id),
    );
    expect(await cancel).toMatchObject({ id, state: 'cancelled' });
    expect(await getCallback(s, id)).toMatchObject({ state: 'cancelled' });
  });

  it("the event feed's reads never see the unit's event (nor hand out its id)", async () => {
    const s = await setUp();
    const feed = new SharedEventFeed(s, { publish: async () => 0 } as never, 'test');
    const heard: IntakeEvent[] = [];
    feed.subscribe((e) => heard.push(e));
    await feed.publish('quota.changed', { n: 1 });
    const reads = await rolledBackAround(
      s,
      (tx) => tx.events.appendEvent('quota.changed', { n: 2 }),
      () => ({ since: feed.since(0), lastId: feed.lastId(), page: feed.page({}, { limit: 10 }) }),
    );
    expect((await reads.since).map((e) => e.data)).toEqual([{ n: 1 }]);
    expect(await reads.lastId).toBe(1);
    expect((await reads.page).data.map((e) => e.data)).toEqual([{ n: 1 }]);
    // The next event takes the id the rolled-back one had; each listener hears it once.
    await feed.publish('quota.changed', { n: 3 });
    expect(heard.map((e) => [e.id, e.data])).toEqual([
      [1, { n: 1 }],
      [2, { n: 3 }],
    ]);
  });
});
