/**
 * Store calls made outside a unit of work while one is open (docs/design/postgres.md 3.1, step
 * 1c). A unit spans several microtasks; over SQLite's one connection a plain synchronous call
 * made in one of its gaps would run inside its transaction: a write would be rolled back with
 * it, a read would see its uncommitted rows. The product's calls outside a unit wait for it
 * (store.readCommitted, or a unit of their own). Each case holds a unit open across awaits of
 * resolved values, makes the outside call, then rolls the unit back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IntakeEvent } from '../../shared/screening.js';
import { cancelCallback, getCallback, getCallbackByDelivery, writeCallback } from '../../worker/callbacks/index.js';
import { SharedEventFeed } from '../../worker/events/event-feed.js';
import { openStore, recordOf, type RecordTx, type Store } from '../../worker/store/index.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { tempDbPath } from '../helpers/temp-db.js';

let store: Store | undefined;
let tmp: ReturnType<typeof tempDbPath> | undefined;
afterEach(() => {
  store?.close();
  tmp?.cleanup();
  store = undefined;
});

function setUp(): Store {
  tmp = tempDbPath();
  store = openStore(tmp.path);
  return store;
}

/** Open a unit that writes `inside`, waits a few microtasks (a store call's worth), runs `outside` meanwhile, then throws. */
async function rolledBackAround<T>(s: Store, inside: (tx: RecordTx) => unknown, outside: () => T): Promise<T> {
  const unit = recordOf(s).unitOfWork(async (tx) => {
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
    const s = setUp();
    const tokens = new IntakeTokens(recordOf(s));
    const { token, record } = await tokens.create('tms', 'Tess TMS');
    const lookup = await rolledBackAround(
      s,
      (tx) =>
        writeCallback(recordOf(s), { kind: 'screening.completed', url: 'http://127.0.0.1:9/cb', deliveryId: 'inside', payload: {} }, tx),
      () => tokens.lookup(token),
    );
    expect(await lookup).toMatchObject({ role: 'tms', token_id: record.id });
    expect((await tokens.list())[0]!.last_used_at).not.toBeNull();
    // The unit's own write is gone.
    expect(await getCallbackByDelivery(recordOf(s), 'inside')).toBeUndefined();
  });

  it('a callback cancelled meanwhile stays cancelled', async () => {
    const s = setUp();
    const { id } = await writeCallback(recordOf(s), {
      kind: 'screening.completed',
      url: 'http://127.0.0.1:9/cb',
      deliveryId: 'd1',
      payload: {},
    });
    const cancel = await rolledBackAround(
      s,
      (tx) =>
        writeCallback(recordOf(s), { kind: 'screening.completed', url: 'http://127.0.0.1:9/cb', deliveryId: 'inside', payload: {} }, tx),
      () => cancelCallback(recordOf(s), id),
    );
    expect(await cancel).toMatchObject({ id, state: 'cancelled' });
    expect(await getCallback(recordOf(s), id)).toMatchObject({ state: 'cancelled' });
  });

  it("the event feed's reads never see the unit's event (nor hand out its id)", async () => {
    const s = setUp();
    const feed = new SharedEventFeed(recordOf(s), { publish: async () => 0 } as never, 'test');
    const heard: IntakeEvent[] = [];
    feed.subscribe((e) => heard.push(e));
    await feed.publish('quota.changed', { n: 1 });
    const reads = await rolledBackAround(
      s,
      () => s.appendEvent('quota.changed', { n: 2 }),
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
