/**
 * Group commit (worker/store/group-commit.ts) on the record of the pass (SCREEN_TEST_DB): work
 * arriving within two turns of the event loop shares one unit of work, first without
 * savepoints; when a piece fails the batch is done again with a savepoint per piece, so a
 * failing piece rolls back alone and rejects only its caller; every caller is answered after the
 * COMMIT (seen from another opening of the database). pg-unit-of-work-contract.test.ts "group
 * commit on …" runs the pieces' order, afterCommit and a failing statement on both backends.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../worker/store/group-commit.js';
import { openStore, type RecordStore, type RecordTx, type Store, type Tx } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { itSqlite } from '../helpers/test-db.js';
import { openTestRecord, type OpenedTestRecord } from '../helpers/test-record-sql.js';

let opened: OpenedTestRecord | undefined;
let other: { record: RecordStore; close(): Promise<void> } | undefined;
let store: Store | undefined;
let tmp: ReturnType<typeof tempDbPath> | undefined;
afterEach(async () => {
  await other?.close();
  await opened?.close();
  store?.close();
  tmp?.cleanup();
  opened = other = store = tmp = undefined;
});

/** The record, counting what GroupCommit asks of it: batches without savepoints, batches with, savepoints. */
function counted(r: RecordStore) {
  const n = { fast: 0, fastKept: 0, slow: 0, savepoints: 0 };
  // The unit's handle as it is, but for savepoint, counted.
  const countingSavepoints = (tx: RecordTx): RecordTx =>
    new Proxy(tx, {
      get(t, p) {
        if (p === 'savepoint')
          return <T>(fn: (sp: RecordTx) => Promise<T>) => {
            n.savepoints++;
            return t.savepoint(fn);
          };
        const v: unknown = Reflect.get(t, p, t);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });
  return {
    n,
    async unitOfWorkWithoutSavepoints<T>(fn: (tx: RecordTx) => Promise<T>) {
      n.fast++;
      const out = await r.unitOfWorkWithoutSavepoints(fn);
      if (out) n.fastKept++;
      return out;
    },
    unitOfWork<T>(fn: (tx: RecordTx) => Promise<T>): Promise<T> {
      n.slow++;
      return r.unitOfWork((tx) => fn(countingSavepoints(tx)));
    },
  };
}

/** Rows are events `{ n }` in the log: written through a unit's handle, read by another opening of the database. */
async function setUp() {
  opened = await openTestRecord();
  other = await opened.another();
  const reader = other.record;
  const insert = (tx: RecordTx, n: number) => tx.events.appendEvent('t', { n });
  const rows = async (): Promise<number[]> =>
    (await reader.events.eventsSince(0)).map((e) => (e.data as { n: number }).n).sort((a, b) => a - b);
  /** Whether another connection sees row n (it was committed). */
  const committed = async (n: number): Promise<boolean> => (await rows()).includes(n);
  return { record: opened.record, insert, rows, committed };
}

describe('group commit', () => {
  it('a burst in one transaction without savepoints; answers come after the commit', async () => {
    const { record, insert, rows, committed } = await setUp();
    const c = counted(record);
    const group = new GroupCommit(c);
    const seen = await Promise.all([1, 2, 3, 4].map((n) => group.run(async (tx) => (await insert(tx, n), n)).then((v) => committed(v))));
    expect(seen).toEqual([true, true, true, true]);
    expect(await rows()).toEqual([1, 2, 3, 4]);
    expect(c.n).toEqual({ fast: 1, fastKept: 1, slow: 0, savepoints: 0 });
    // The next turn is a new transaction.
    await group.run((tx) => insert(tx, 5));
    expect(c.n.fast).toBe(2);
  });

  it('a failing piece: the batch again with a savepoint per piece, the piece rolled back alone, only its caller rejected', async () => {
    const { record, insert, rows, committed } = await setUp();
    const c = counted(record);
    const group = new GroupCommit(c);
    const runs = [1, 2, 3, 4, 5].map((n) =>
      group
        .run(async (tx) => {
          await insert(tx, n);
          if (n === 3) throw new Error('piece 3 fails');
          return n;
        })
        .then(async (v) => ((await committed(v)) ? v : -v)),
    );
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([1, 2, 'piece 3 fails', 4, 5]);
    expect(await rows()).toEqual([1, 2, 4, 5]);
    expect(c.n).toEqual({ fast: 1, fastKept: 0, slow: 1, savepoints: 5 });
  });

  it('a nested unit that throws inside a piece, caught there: again with savepoints, so only the nested writes are undone', async () => {
    const { record, insert, rows } = await setUp();
    const c = counted(record);
    const group = new GroupCommit(c);
    const logged: string[] = [];
    // Like the pipeline's watch record: its failure is logged and never undoes the screening.
    const piece = (n: number) => async (tx: RecordTx) => {
      await insert(tx, n);
      try {
        await tx.savepoint(async (sp) => {
          await insert(sp, n * 100);
          if (n === 2) throw new Error(`nested ${n} fails`);
        });
      } catch (e) {
        logged.push((e as Error).message);
      }
      return n;
    };
    const out = await Promise.all([1, 2, 3].map((n) => group.run(piece(n))));
    expect(out).toEqual([1, 2, 3]);
    expect(await rows()).toEqual([1, 2, 3, 100, 300]);
    // Logged in each attempt: without savepoints (all rolled back), then with.
    expect(logged).toEqual(['nested 2 fails', 'nested 2 fails']);
    expect(c.n).toEqual({ fast: 1, fastKept: 0, slow: 1, savepoints: 3 });
  });

  // SQLite's own: its store's synchronous transactions on the file, and what SQLite does to a
  // transaction on a full disk (PostgreSQL aborts a failed statement's transaction: a unit that
  // carried on after one fails with it, pg-unit-of-work-contract.test.ts).
  /** A table t on a SQLite store of its own. */
  function sqliteTable() {
    tmp = tempDbPath();
    store = openStore(tmp.path);
    const db = connectionOf(store);
    db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    const rows = (): number[] => (db.prepare('SELECT n FROM t ORDER BY n').all() as Array<{ n: number }>).map((r) => r.n);
    return { db, insert, rows };
  }

  it("beforeCommit: the batch's last writes, given the values of the pieces kept, in batch order, committed with them", async () => {
    const { record, insert, rows, committed } = await setUp();
    const calls: number[][] = [];
    const group = new GroupCommit(record, {
      beforeCommit: async (tx, values) => {
        calls.push(values as number[]);
        await insert(tx, 1000 + (values as number[]).reduce((a, v) => a + v, 0));
      },
    });
    const seen = await Promise.all([1, 2, 3].map((n) => group.run(async (tx) => (await insert(tx, n), n)).then(() => committed(1006))));
    expect(seen).toEqual([true, true, true]);
    expect(calls).toEqual([[1, 2, 3]]);
    // A piece that fails: rolled back alone, and not among the values (the fast pass never got there).
    const settled = await Promise.allSettled(
      [4, 5, 6].map((n) =>
        group.run(async (tx) => {
          await insert(tx, n);
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
    expect(await rows()).toEqual([1, 2, 3, 4, 6, 1006, 1010]);
    // When it throws, nothing of the batch is kept and every caller is rejected.
    const failing = new GroupCommit(record, {
      beforeCommit: async () => {
        throw new Error('last write fails');
      },
    });
    const all = await Promise.allSettled([7, 8].map((n) => failing.run(async (tx) => (await insert(tx, n), n))));
    expect(all.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : s.value))).toEqual([
      'last write fails',
      'last write fails',
    ]);
    expect(await rows()).toEqual([1, 2, 3, 4, 6, 1006, 1010]);
  });

  itSqlite(
    'SQLite rolling the whole transaction back inside a caught nested one (a full disk): nothing kept, nothing twice, every caller rejected',
    async () => {
      const { db, insert, rows } = sqliteTable();
      const group = new GroupCommit<Tx>(store!);
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
    },
  );

  itSqlite("cannot be nested (the SQLite store's synchronous transactions)", () => {
    sqliteTable();
    expect(() => store!.transaction(() => store!.transactionWithoutSavepoints(() => 1))).toThrow(/cannot be nested/);
  });
});
