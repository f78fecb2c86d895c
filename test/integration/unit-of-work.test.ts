/**
 * SQLite's own unit of work (worker/store/unit-of-work.ts): one at a time per store (the mutex),
 * readCommitted waiting for it, the I/O guard (`tx_awaited_io`: tests run it strict), SQLite
 * rolling the transaction back by itself; and under it the Store's synchronous store.transaction.
 * Real SQLite files. SQLite by nature (vitest.pg.config.ts: SQLITE_FILE): what a unit does on
 * either backend (commit, rollback, savepoints, afterCommit, tx_finished, group commit) is
 * pg-unit-of-work-contract.test.ts's and record-contract.test.ts's, run on both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../worker/store/group-commit.js';
import { openStore, StoreArgumentError, type Store } from '../../worker/store/index.js';
import { localBlocksOf } from '../../worker/store/local-blocks-repo.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { unitGuard } from '../../worker/store/unit-of-work.js';
import { tempDbPath } from '../helpers/temp-db.js';

let store: Store | undefined;
let tmp: ReturnType<typeof tempDbPath> | undefined;
afterEach(() => {
  store?.close();
  tmp?.cleanup();
  store = undefined;
});

function setUp() {
  tmp = tempDbPath();
  store = openStore(tmp.path);
  const s = store;
  const db = connectionOf(s);
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
  const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
  const rows = (): number[] => (db.prepare('SELECT n FROM t ORDER BY n').all() as Array<{ n: number }>).map((r) => r.n);
  /** The rows another connection sees (committed ones). */
  const committed = (): number[] => {
    const other = openStore(s.path, { readonly: true }); // readonly: no write lock to wait for
    try {
      return (connectionOf(other).prepare('SELECT n FROM t ORDER BY n').all() as Array<{ n: number }>).map((r) => r.n);
    } finally {
      other.close();
    }
  };
  /** A store call's worth of waiting: resolved values only, no I/O. */
  const storeAwait = async (n: number): Promise<number> => {
    await Promise.resolve();
    return n;
  };
  return { s, db, insert, rows, committed, storeAwait };
}

describe('unit of work', () => {
  it('units of one store run one at a time: a second waits for the first COMMIT, in arrival order', async () => {
    const { s, insert, storeAwait } = setUp();
    const log: string[] = [];
    const unit = (name: string, n: number) =>
      s.unitOfWork(async () => {
        log.push(`${name} begins`);
        insert.run(n);
        await storeAwait(0);
        await storeAwait(0);
        insert.run(n + 1);
        log.push(`${name} ends`);
      });
    await Promise.all([unit('a', 10), unit('b', 20), unit('c', 30)]);
    expect(log).toEqual(['a begins', 'a ends', 'b begins', 'b ends', 'c begins', 'c ends']);
  });

  it('readCommitted waits for an open unit: it never sees its uncommitted rows', async () => {
    const { s, db, insert, storeAwait } = setUp();
    const count = () => (db.prepare('SELECT COUNT(*) AS c FROM t').get() as { c: number }).c;
    let seenInside: number | undefined;
    let read: Promise<number> | undefined;
    const unit = s.unitOfWork(async () => {
      insert.run(1);
      read = s.readCommitted(count);
      // A plain synchronous read on the shared connection would see the row already.
      seenInside = count();
      await storeAwait(0);
      throw new Error('rolled back');
    });
    await expect(unit).rejects.toThrow('rolled back');
    expect(seenInside).toBe(1);
    expect(await read!).toBe(0);
    // No unit open: at once.
    expect(await s.readCommitted(count)).toBe(0);
  });

  it('the I/O guard: a unit that awaits real I/O is rolled back with tx_awaited_io (tests are strict)', async () => {
    const { s, insert, committed } = setUp();
    await expect(
      s.unitOfWork(async () => {
        insert.run(1);
        await new Promise((r) => setTimeout(r, 5)); // a timer stands for any I/O
        insert.run(2);
      }),
    ).rejects.toMatchObject({ code: 'tx_awaited_io' });
    expect(committed()).toEqual([]);
    await s.unitOfWork(async () => void insert.run(3));
    expect(committed()).toEqual([3]);
  });

  it('the I/O guard: a nested unit begun through the store, not the tx, fails instead of waiting for ever', async () => {
    const { s, insert } = setUp();
    let inner: Promise<unknown> | undefined;
    const outer = s.unitOfWork(async () => {
      insert.run(1);
      inner = s.unitOfWork(async () => void insert.run(2)); // should be tx.savepoint
      await inner;
    });
    await expect(outer).rejects.toMatchObject({ code: 'tx_awaited_io' });
    await expect(inner).rejects.toMatchObject({ code: 'tx_awaited_io' });
  });

  it('the I/O guard in production: a warning, the unit commits; a unit stuck waiting for it fails after stuckAfterMs', async () => {
    const { s, insert, committed } = setUp();
    const saved = { ...unitGuard };
    Object.assign(unitGuard, { strict: false, stuckAfterMs: 50 });
    try {
      const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
      await s.unitOfWork(async () => {
        insert.run(1);
        await new Promise((r) => setTimeout(r, 5));
        insert.run(2);
      });
      expect(committed()).toEqual([1, 2]);
      expect((await warned).message).toMatch(/awaited I\/O while holding the transaction/);
      // A nested unit through the store (not tx.savepoint): without the limit, every write would wait for ever.
      const outer = s.unitOfWork(async () => {
        insert.run(3);
        await s.unitOfWork(async () => void insert.run(4));
      });
      await expect(outer).rejects.toMatchObject({ code: 'tx_awaited_io' });
      expect(committed()).toEqual([1, 2]);
      await s.unitOfWork(async () => void insert.run(5));
      expect(committed()).toEqual([1, 2, 5]);
    } finally {
      Object.assign(unitGuard, saved);
    }
  });

  it('cannot begin inside a synchronous store.transaction; a closed store rejects', async () => {
    const { s } = setUp();
    let p: Promise<unknown> | undefined;
    s.transaction(() => {
      p = s.unitOfWork(async () => 1);
    });
    await expect(p).rejects.toThrow(/inside a synchronous store.transaction/);
    s.close();
    await expect(s.unitOfWork(async () => 1)).rejects.toMatchObject({ code: 'store_closed' });
  });

  it('a unit still waiting for the store when it closes fails with store_closed', async () => {
    const { s, storeAwait } = setUp();
    const first = s.unitOfWork(async () => {
      await storeAwait(0);
      s.close();
    });
    const second = s.unitOfWork(async () => 1);
    await expect(first).rejects.toBeDefined(); // its COMMIT met a closed connection
    await expect(second).rejects.toMatchObject({ code: 'store_closed' });
  });

  it('SQLite rolling the whole transaction back inside a caught savepoint (a full disk): the unit fails, nothing kept', async () => {
    const { s, db, insert, committed } = setUp();
    await expect(
      s.unitOfWork(async (tx) => {
        insert.run(1);
        await tx
          .savepoint(async () => {
            db.exec('ROLLBACK'); // what SQLITE_FULL or an I/O error does to the whole transaction
            throw new Error('disk full');
          })
          .catch(() => undefined);
        insert.run(2);
      }),
    ).rejects.toMatchObject({ code: 'sqlite_error' });
    expect(committed()).toEqual([]);
    expect(db.inTransaction).toBe(false);
  });
});

describe('group commit with async pieces', () => {
  it('a piece that awaits I/O fails the whole batch (tx_awaited_io), nothing kept', async () => {
    const { s, insert, committed } = setUp();
    const group = new GroupCommit(s);
    const settled = await Promise.allSettled([
      group.run(() => insert.run(1)),
      group.run(async () => {
        insert.run(2);
        await new Promise((r) => setTimeout(r, 5));
      }),
    ]);
    // Not a failing piece to roll back alone: the shared unit itself failed.
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'tx_awaited_io' });
    expect(committed()).toEqual([]);
  });
});

describe('the synchronous store.transaction (SQLite record units and batch writes are built on it)', () => {
  const newScreening = (s: Store, dot: string) =>
    s.insertScreening({ query: { dot_number: dot }, tender_id: null, priority: 'tender', refresh: false, callback_url: null });
  const block = (dot: string) => ({
    carrierKey: `dot:${dot}`,
    dot_number: dot,
    mc_number: null,
    reason: 'test',
    by: 'ann',
    at: '2025-03-15T12:00:00.000Z',
  });

  it('commits every write inside together, a repository opened on the store (the local blocks) included', () => {
    const { s } = setUp();
    const blocks = localBlocksOf(s);
    const screening = s.transaction(() => {
      const screening = newScreening(s, '1000003');
      s.appendEvent('screening.completed', { id: screening.id });
      blocks.addBlock(block('1000003'));
      return screening;
    });
    expect(s.getScreening(screening.id)?.status).toBe('queued');
    expect(s.lastEventId()).toBe(1);
    expect(blocks.activeBlock({ dot_number: '1000003', mc_number: null })?.reason).toBe('test');
  });

  it('rolls back every write inside when the function throws, and rethrows its error', () => {
    const { s } = setUp();
    const blocks = localBlocksOf(s);
    let id = '';
    expect(() =>
      s.transaction(() => {
        id = newScreening(s, '1000005').id;
        s.appendEvent('screening.completed', { id });
        blocks.addBlock(block('1000005'));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(id).not.toBe('');
    expect(s.getScreening(id)).toBeUndefined();
    expect(s.lastEventId()).toBe(0);
    expect(blocks.activeBlock({ dot_number: '1000005', mc_number: null })).toBeUndefined();
  });

  it('keeps the outer writes when an inner transaction fails and is caught (a savepoint)', () => {
    const { s } = setUp();
    const screening = s.transaction(() => {
      const screening = newScreening(s, '1000003');
      try {
        s.transaction(() => {
          s.appendEvent('review.created', { id: 'x' });
          throw new Error('inner');
        });
      } catch {
        /* a caught inner failure never undoes the outer writes */
      }
      return screening;
    });
    expect(s.getScreening(screening.id)?.id).toBe(screening.id);
    expect(s.lastEventId()).toBe(0);
  });

  it('refuses something that is not a function', () => {
    const { s } = setUp();
    expect(() => s.transaction(42 as unknown as () => void)).toThrow(StoreArgumentError);
  });
});
