/**
 * Group commit (worker/store/group-commit.ts) on a real SQLite file: work arriving within two
 * turns of the event loop shares one transaction, first without savepoints; when a piece fails
 * the batch is done again with a savepoint per piece, so a failing piece rolls back alone and
 * rejects only its caller; every caller is answered after the COMMIT.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../worker/store/group-commit.js';
import { openStore, type Store, type Tx } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';

let store: Store | undefined;
let tmp: ReturnType<typeof tempDbPath> | undefined;
afterEach(() => {
  store?.close();
  tmp?.cleanup();
});

/** The store, counting what GroupCommit asks of it: batches without savepoints, batches with, savepoints. */
function counted(s: Store) {
  const n = { fast: 0, fastKept: 0, slow: 0, savepoints: 0 };
  const countingSavepoints = (tx: Tx): Tx => ({
    afterCommit: (fn) => tx.afterCommit(fn),
    savepoint: (fn) => {
      n.savepoints++;
      return tx.savepoint(fn);
    },
  });
  return {
    n,
    async unitOfWorkWithoutSavepoints<T>(fn: (tx: Tx) => Promise<T>) {
      n.fast++;
      const out = await s.unitOfWorkWithoutSavepoints(fn);
      if (out) n.fastKept++;
      return out;
    },
    unitOfWork<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      n.slow++;
      return s.unitOfWork((tx) => fn(countingSavepoints(tx)));
    },
  };
}

function setUp() {
  tmp = tempDbPath();
  store = openStore(tmp.path);
  const db = connectionOf(store);
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
  const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
  const rows = (): number[] => (db.prepare('SELECT n FROM t ORDER BY n').all() as Array<{ n: number }>).map((r) => r.n);
  /** Whether another connection sees row n (it was committed). */
  const committed = (n: number): boolean => {
    const other = openStore(store!.path);
    try {
      return (connectionOf(other).prepare('SELECT COUNT(*) AS c FROM t WHERE n = ?').get(n) as { c: number }).c === 1;
    } finally {
      other.close();
    }
  };
  return { db, insert, rows, committed };
}

describe('group commit', () => {
  it('a burst in one transaction without savepoints; answers come after the commit', async () => {
    const { insert, rows, committed } = setUp();
    const c = counted(store!);
    const group = new GroupCommit(c);
    const seen = await Promise.all([1, 2, 3, 4].map((n) => group.run(() => (insert.run(n), n)).then((v) => committed(v))));
    expect(seen).toEqual([true, true, true, true]);
    expect(rows()).toEqual([1, 2, 3, 4]);
    expect(c.n).toEqual({ fast: 1, fastKept: 1, slow: 0, savepoints: 0 });
    // The next turn is a new transaction.
    await group.run(() => insert.run(5));
    expect(c.n.fast).toBe(2);
  });

  it('a failing piece: the batch again with a savepoint per piece, the piece rolled back alone, only its caller rejected', async () => {
    const { insert, rows, committed } = setUp();
    const c = counted(store!);
    const group = new GroupCommit(c);
    const runs = [1, 2, 3, 4, 5].map((n) =>
      group
        .run(() => {
          insert.run(n);
          if (n === 3) throw new Error('piece 3 fails');
          return n;
        })
        .then((v) => (committed(v) ? v : -v)),
    );
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([1, 2, 'piece 3 fails', 4, 5]);
    expect(rows()).toEqual([1, 2, 4, 5]);
    expect(c.n).toEqual({ fast: 1, fastKept: 0, slow: 1, savepoints: 5 });
  });

  it('a nested transaction that throws inside a piece, caught there: again with savepoints, so only the nested writes are undone', async () => {
    const { insert, rows } = setUp();
    const c = counted(store!);
    const group = new GroupCommit(c);
    const logged: string[] = [];
    // Like the pipeline's watch record: its failure is logged and never undoes the screening.
    const piece = (n: number) => () => {
      insert.run(n);
      try {
        store!.transaction(() => {
          insert.run(n * 100);
          if (n === 2) throw new Error(`nested ${n} fails`);
        });
      } catch (e) {
        logged.push((e as Error).message);
      }
      return n;
    };
    const out = await Promise.all([1, 2, 3].map((n) => group.run(piece(n))));
    expect(out).toEqual([1, 2, 3]);
    expect(rows()).toEqual([1, 2, 3, 100, 300]);
    // Logged in each attempt: without savepoints (all rolled back), then with.
    expect(logged).toEqual(['nested 2 fails', 'nested 2 fails']);
    expect(c.n).toEqual({ fast: 1, fastKept: 0, slow: 1, savepoints: 3 });
  });

  it('SQLite rolling the whole transaction back inside a caught nested one (a full disk): nothing kept, nothing twice, every caller rejected', async () => {
    const { db, insert, rows } = setUp();
    const group = new GroupCommit(store!);
    const piece = (n: number) => () => {
      insert.run(n);
      try {
        store!.transaction(() => {
          // What SQLITE_FULL or an I/O error does to the whole transaction.
          if (n === 2) {
            db.exec('ROLLBACK');
            throw new Error('disk full');
          }
        });
      } catch {
        // the caller carries on (as the pipeline does when its watch record fails)
      }
      insert.run(n * 10);
      return n;
    };
    const settled = await Promise.allSettled([1, 2, 3].map((n) => group.run(piece(n))));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'sqlite_error' });
    expect(rows()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    // The store works on.
    await group.run(() => insert.run(7));
    expect(rows()).toEqual([7]);
  });

  it("beforeCommit: the batch's last writes, given the values of the pieces kept, in batch order, committed with them", async () => {
    const { insert, rows, committed } = setUp();
    const calls: number[][] = [];
    const group = new GroupCommit(store!, {
      beforeCommit: async (_tx, values) => {
        calls.push(values as number[]);
        insert.run(1000 + (values as number[]).reduce((a, v) => a + v, 0));
      },
    });
    const seen = await Promise.all([1, 2, 3].map((n) => group.run(() => (insert.run(n), n)).then(() => committed(1006))));
    expect(seen).toEqual([true, true, true]);
    expect(calls).toEqual([[1, 2, 3]]);
    // A piece that fails: rolled back alone, and not among the values (the fast pass never got there).
    const settled = await Promise.allSettled(
      [4, 5, 6].map((n) =>
        group.run(() => {
          insert.run(n);
          if (n === 5) throw new Error('piece 5 fails');
          return n;
        }),
      ),
    );
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 6],
    ]);
    expect(rows()).toEqual([1, 2, 3, 4, 6, 1006, 1010]);
    // When it throws, nothing of the batch is kept and every caller is rejected.
    const failing = new GroupCommit(store!, {
      beforeCommit: async () => {
        throw new Error('last write fails');
      },
    });
    const all = await Promise.allSettled([7, 8].map((n) => failing.run(() => (insert.run(n), n))));
    expect(all.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : s.value))).toEqual([
      'last write fails',
      'last write fails',
    ]);
    expect(rows()).toEqual([1, 2, 3, 4, 6, 1006, 1010]);
  });

  it('cannot be nested', () => {
    setUp();
    expect(() => store!.transaction(() => store!.transactionWithoutSavepoints(() => 1))).toThrow(/cannot be nested/);
  });
});
