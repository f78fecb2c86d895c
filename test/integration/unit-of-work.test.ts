/**
 * The asynchronous unit of work over SQLite (worker/store/unit-of-work.ts): one at a time per
 * store (the mutex), savepoints for nested units, afterCommit, `tx_finished` on a handle used
 * after its end, and the I/O guard (`tx_awaited_io`: tests run it strict). Real SQLite files.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../worker/store/group-commit.js';
import { openStore, StoreError, type Store, type Tx } from '../../worker/store/index.js';
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
  it('commits what it wrote and answers its value; a throw rolls all of it back and reaches the caller as it was', async () => {
    const { s, insert, committed, storeAwait } = setUp();
    const v = await s.unitOfWork(async () => {
      insert.run(await storeAwait(1));
      insert.run(await storeAwait(2));
      return 'ok';
    });
    expect(v).toBe('ok');
    expect(committed()).toEqual([1, 2]);
    const boom = new Error('boom');
    await expect(
      s.unitOfWork(async () => {
        insert.run(3);
        await storeAwait(0);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(committed()).toEqual([1, 2]);
  });

  it('a SQLite error inside leaves as a StoreError, and the store works on', async () => {
    const { s, insert, committed } = setUp();
    await expect(
      s.unitOfWork(async () => {
        insert.run(1);
        insert.run(1); // the primary key again
      }),
    ).rejects.toMatchObject({ name: 'StoreError', code: 'sqlite_constraint' });
    await s.unitOfWork(async () => void insert.run(2));
    expect(committed()).toEqual([2]);
  });

  it('a savepoint that throws is rolled back alone; the unit goes on and commits the rest', async () => {
    const { s, insert, committed, storeAwait } = setUp();
    await s.unitOfWork(async (tx) => {
      insert.run(1);
      await expect(
        tx.savepoint(async () => {
          insert.run(await storeAwait(2));
          throw new Error('nested fails');
        }),
      ).rejects.toThrow('nested fails');
      await tx.savepoint(async (inner) => {
        insert.run(3);
        await inner.savepoint(async () => void insert.run(4));
      });
    });
    expect(committed()).toEqual([1, 3, 4]);
  });

  it('one nested unit at a time', async () => {
    const { s, storeAwait } = setUp();
    await s.unitOfWork(async (tx) => {
      const first = tx.savepoint(() => storeAwait(1));
      await expect(tx.savepoint(() => storeAwait(2))).rejects.toThrow(/one nested unit at a time/);
      await first;
    });
  });

  it('a handle used after its unit ended throws tx_finished (a missing await)', async () => {
    const { s } = setUp();
    let kept: Tx | undefined;
    let nestedKept: Tx | undefined;
    await s.unitOfWork(async (tx) => {
      kept = tx;
      await tx.savepoint(async (sp) => {
        nestedKept = sp;
      });
      // The savepoint has been released: its handle is finished, the unit's is not.
      expect(() => nestedKept!.afterCommit(() => {})).toThrow(StoreError);
      tx.afterCommit(() => {});
    });
    expect(() => kept!.afterCommit(() => {})).toThrow(expect.objectContaining({ code: 'tx_finished' }) as Error);
    await expect(kept!.savepoint(async () => 1)).rejects.toMatchObject({ code: 'tx_finished' });
  });

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

  it('afterCommit: after the outermost COMMIT, in order, once; never after a rollback or a rolled-back savepoint', async () => {
    const { s, insert, committed } = setUp();
    const calls: string[] = [];
    await s.unitOfWork(async (tx) => {
      insert.run(1);
      tx.afterCommit(() => calls.push(`first sees ${committed().join(',')}`));
      await tx.savepoint(async (sp) => {
        sp.afterCommit(() => calls.push('kept savepoint'));
      });
      await tx
        .savepoint(async (sp) => {
          sp.afterCommit(() => calls.push('rolled-back savepoint'));
          throw new Error('undone');
        })
        .catch(() => undefined);
      expect(calls).toEqual([]);
    });
    expect(calls).toEqual(['first sees 1', 'kept savepoint']);
    await s
      .unitOfWork(async (tx) => {
        tx.afterCommit(() => calls.push('rolled back'));
        throw new Error('no');
      })
      .catch(() => undefined);
    expect(calls).toEqual(['first sees 1', 'kept savepoint']);
  });

  it('afterCommit runs once the store is free: a callback may begin the next unit; one that throws stops no other', async () => {
    const { s, insert, committed } = setUp();
    let next: Promise<void> | undefined;
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    await s.unitOfWork(async (tx) => {
      insert.run(1);
      tx.afterCommit(() => {
        throw new Error('a buggy callback');
      });
      tx.afterCommit(() => {
        next = s.unitOfWork(async () => void insert.run(2));
      });
    });
    await next;
    expect(committed()).toEqual([1, 2]);
    expect((await warned).message).toMatch(/afterCommit callback threw: Error: a buggy callback/);
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
  it('async pieces share one unit, one after another, each answered after the COMMIT', async () => {
    const { s, insert, committed, storeAwait } = setUp();
    const group = new GroupCommit(s);
    const log: string[] = [];
    const piece = (n: number) => async (tx: Tx) => {
      log.push(`${n} begins`);
      insert.run(await storeAwait(n));
      tx.afterCommit(() => log.push(`${n} committed`));
      log.push(`${n} ends`);
      return committed().includes(n); // not yet: the COMMIT is shared and comes after every piece
    };
    const out = await Promise.all([1, 2, 3].map((n) => group.run(piece(n))));
    expect(out).toEqual([false, false, false]);
    expect(committed()).toEqual([1, 2, 3]);
    expect(log).toEqual(['1 begins', '1 ends', '2 begins', '2 ends', '3 begins', '3 ends', '1 committed', '2 committed', '3 committed']);
  });

  it('a failing async piece: the batch again with a savepoint per piece; only its caller rejected, its afterCommit dropped', async () => {
    const { s, insert, committed, storeAwait } = setUp();
    const group = new GroupCommit(s);
    const runs: number[] = [];
    const told: number[] = [];
    const settled = await Promise.allSettled(
      [1, 2, 3].map((n) =>
        group.run(async (tx) => {
          runs.push(n);
          insert.run(await storeAwait(n));
          tx.afterCommit(() => told.push(n));
          if (n === 2) throw new Error('piece 2 fails');
          return n;
        }),
      ),
    );
    expect(settled.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 'piece 2 fails', 3]);
    expect(committed()).toEqual([1, 3]);
    // The first try stops at the failing piece; the second runs every piece.
    expect(runs).toEqual([1, 2, 1, 2, 3]);
    expect(told).toEqual([1, 3]);
  });

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
