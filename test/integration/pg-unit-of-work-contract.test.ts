/**
 * The unit of work on both backends (worker/store/unit-of-work.ts over SQLite, worker/store/pg/
 * pg-store.ts over PostgreSQL): the same cases of unit-of-work.test.ts and group-commit.test.ts
 * that hold on both, run on each; then what only PostgreSQL has (deadlock and serialization
 * retries, the pool, the database's encoding, a failed statement aborting the transaction).
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit, type UnitsOfWork } from '../../worker/store/group-commit.js';
import { openStore, StoreError, toStoreError, type Store, type Tx } from '../../worker/store/index.js';
import { executorOf, openPgStore, PG_UNIT_TRIES, type PgStore, type PgTx } from '../../worker/store/pg/pg-store.js';
import { ADVISORY_NAMESPACES } from '../../worker/store/pg/advisory-keys.js';
import { writeTogether } from '../../worker/store/pg/pg-pool.js';
import {
  plainReadTables,
  ahead,
  readAheadMany,
  statement,
  tablesRead,
  tablesWritten,
  CASCADES,
  definedStatements,
  TABLES_TIED_TO_SCREENINGS,
  writtenTables,
} from '../../worker/store/pg/sql.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { pgTestDatabase, pgTestStore, type PgTestDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

/** What table t holds, committed (read on the pool). */
const committedT = async (store: PgStore): Promise<number[]> =>
  (await executorOf(store).query<{ n: number }>({ text: 'SELECT n FROM t ORDER BY n' })).rows.map((r) => r.n);

/** What a case needs of a backend: its units of work, a write (table t) joining a unit, and what another connection sees. */
interface Backend extends UnitsOfWork<Tx> {
  readCommitted<T>(fn: () => T | Promise<T>): Promise<T>;
  /** INSERT INTO t (n) in `tx`'s unit. */
  insert(tx: Tx, n: number): Promise<void>;
  /** The rows of t committed, as another connection sees them. */
  committed(): Promise<number[]>;
  /** A unique-key violation's code. */
  constraintCode: string;
  close(): Promise<void>;
}

let open: Backend | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function sqliteBackend(): Promise<Backend> {
  const tmp = tempDbPath();
  const s: Store = openStore(tmp.path);
  const db = connectionOf(s);
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
  const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
  return (open = {
    unitOfWork: (fn) => s.unitOfWork(fn),
    unitOfWorkWithoutSavepoints: (fn) => s.unitOfWorkWithoutSavepoints(fn),
    readCommitted: (fn) => s.readCommitted(fn) as Promise<Awaited<ReturnType<typeof fn>>>,
    // As a repository of the store: it joins the running unit (the tx is not passed down yet), its error a StoreError.
    insert: async (_tx, n) => {
      try {
        insert.run(n);
      } catch (e) {
        throw toStoreError(e, s.path);
      }
    },
    committed: async () => {
      const other = openStore(s.path, { readonly: true }); // readonly: no write lock to wait for
      try {
        return (connectionOf(other).prepare('SELECT n FROM t ORDER BY n').all() as Array<{ n: number }>).map((r) => r.n);
      } finally {
        other.close();
      }
    },
    constraintCode: 'sqlite_constraint',
    close: async () => {
      s.close();
      tmp.cleanup();
    },
  });
}

let pgDb: PgTestDatabase | undefined;
beforeAll(async () => {
  pgDb = await pgTestDatabase();
});
afterAll(async () => {
  await pgDb?.drop();
});

async function pgBackend(opts: Parameters<typeof openPgStore>[1] = {}): Promise<Backend & { store: PgStore }> {
  const store = await openPgStore(pgDb!.url, { max: 4, applicationName: 'carrier-screen-test', ...opts });
  await executorOf(store).query({ text: 'DROP TABLE IF EXISTS t; CREATE TABLE t (n integer PRIMARY KEY)' });
  const b = {
    store,
    unitOfWork: <T>(fn: (tx: Tx) => Promise<T>) => store.unitOfWork(fn),
    unitOfWorkWithoutSavepoints: <T>(fn: (tx: Tx) => Promise<T>) => store.unitOfWorkWithoutSavepoints(fn),
    readCommitted: <T>(fn: () => T | Promise<T>) => store.readCommitted(fn),
    insert: async (tx: Tx, n: number) => void (await executorOf(tx as PgTx).query({ text: 'INSERT INTO t (n) VALUES ($1)', values: [n] })),
    // The pool: committed rows only.
    committed: async () => (await executorOf(store).query<{ n: number }>({ text: 'SELECT n FROM t ORDER BY n' })).rows.map((r) => r.n),
    constraintCode: 'db_constraint',
    close: () => store.close(),
  };
  open = b;
  return b;
}

const backends: Array<[string, () => Promise<Backend>]> = [
  ['SQLite', sqliteBackend],
  ['PostgreSQL', () => pgBackend()],
];

describe.each(backends)('unit of work on %s', (_name, setUp) => {
  it('commits what it wrote and answers its value; a throw rolls all of it back and reaches the caller as it was', async () => {
    const b = await setUp();
    const v = await b.unitOfWork(async (tx) => {
      await b.insert(tx, 1);
      await b.insert(tx, 2);
      return 'ok';
    });
    expect(v).toBe('ok');
    expect(await b.committed()).toEqual([1, 2]);
    const boom = new Error('boom');
    await expect(
      b.unitOfWork(async (tx) => {
        await b.insert(tx, 3);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await b.committed()).toEqual([1, 2]);
  });

  it("the database's error inside leaves as a StoreError, and the store works on", async () => {
    const b = await setUp();
    await expect(
      b.unitOfWork(async (tx) => {
        await b.insert(tx, 1);
        await b.insert(tx, 1); // the primary key again
      }),
    ).rejects.toMatchObject({ name: 'StoreError', code: b.constraintCode });
    await b.unitOfWork((tx) => b.insert(tx, 2));
    expect(await b.committed()).toEqual([2]);
  });

  it('a savepoint that throws is rolled back alone; the unit goes on and commits the rest', async () => {
    const b = await setUp();
    await b.unitOfWork(async (tx) => {
      await b.insert(tx, 1);
      await expect(
        tx.savepoint(async (sp) => {
          await b.insert(sp, 2);
          throw new Error('nested fails');
        }),
      ).rejects.toThrow('nested fails');
      // A failed statement inside, caught: the savepoint is undone, the unit is not.
      await expect(tx.savepoint((sp) => b.insert(sp, 1))).rejects.toMatchObject({ code: b.constraintCode });
      await tx.savepoint(async (inner) => {
        await b.insert(inner, 3);
        await inner.savepoint((sp) => b.insert(sp, 4));
      });
    });
    expect(await b.committed()).toEqual([1, 3, 4]);
  });

  it('one nested unit at a time', async () => {
    const b = await setUp();
    await b.unitOfWork(async (tx) => {
      const first = tx.savepoint(async () => 1);
      await expect(tx.savepoint(async () => 2)).rejects.toThrow(/one nested unit at a time/);
      await first;
    });
  });

  it('a handle used after its unit ended throws tx_finished (a missing await)', async () => {
    const b = await setUp();
    let kept: Tx | undefined;
    let nestedKept: Tx | undefined;
    await b.unitOfWork(async (tx) => {
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

  it('readCommitted never sees an open unit’s uncommitted rows', async () => {
    const b = await setUp();
    let read: Promise<number[]> | undefined;
    const unit = b.unitOfWork(async (tx) => {
      await b.insert(tx, 1);
      read = b.readCommitted(() => b.committed());
      throw new Error('rolled back');
    });
    await expect(unit).rejects.toThrow('rolled back');
    expect(await read!).toEqual([]);
  });

  it('afterCommit: after the outermost COMMIT, in order, once; never after a rollback or a rolled-back savepoint', async () => {
    const b = await setUp();
    const calls: string[] = [];
    let seen: Promise<number[]> | undefined;
    await b.unitOfWork(async (tx) => {
      await b.insert(tx, 1);
      tx.afterCommit(() => {
        calls.push('first');
        seen = b.committed();
      });
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
    expect(calls).toEqual(['first', 'kept savepoint']);
    expect(await seen!).toEqual([1]);
    await b
      .unitOfWork(async (tx) => {
        tx.afterCommit(() => calls.push('rolled back'));
        throw new Error('no');
      })
      .catch(() => undefined);
    expect(calls).toEqual(['first', 'kept savepoint']);
  });

  it('afterCommit: a callback may begin the next unit; one that throws stops no other', async () => {
    const b = await setUp();
    let next: Promise<void> | undefined;
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    await b.unitOfWork(async (tx) => {
      await b.insert(tx, 1);
      tx.afterCommit(() => {
        throw new Error('a buggy callback');
      });
      tx.afterCommit(() => {
        next = b.unitOfWork((t) => b.insert(t, 2));
      });
    });
    await next;
    expect(await b.committed()).toEqual([1, 2]);
    expect((await warned).message).toMatch(/afterCommit callback threw: Error: a buggy callback/);
  });

  it('without savepoints: kept whole when nothing threw; anything thrown inside, even caught, rolls all back (undefined)', async () => {
    const b = await setUp();
    const told: number[] = [];
    const kept = await b.unitOfWorkWithoutSavepoints(async (tx) => {
      await b.insert(tx, 1);
      await tx.savepoint((sp) => b.insert(sp, 2));
      tx.afterCommit(() => told.push(1));
      return 'kept';
    });
    expect(kept).toEqual({ value: 'kept' });
    const undone = await b.unitOfWorkWithoutSavepoints(async (tx) => {
      await b.insert(tx, 3);
      tx.afterCommit(() => told.push(3));
      await tx
        .savepoint(async () => {
          throw new Error('nested fails');
        })
        .catch(() => undefined);
      return 'lost';
    });
    expect(undone).toBeUndefined();
    expect(await b.committed()).toEqual([1, 2]);
    expect(told).toEqual([1]);
  });

  it('a closed store: a unit rejects with store_closed', async () => {
    const b = await setUp();
    await b.close();
    open = undefined;
    await expect(b.unitOfWork(async () => 1)).rejects.toMatchObject({ code: 'store_closed' });
  });
});

describe.each(backends)('group commit on %s', (_name, setUp) => {
  it('async pieces share one unit, one after another, each answered after the COMMIT', async () => {
    const b = await setUp();
    const group = new GroupCommit(b);
    const log: string[] = [];
    const piece = (n: number) => async (tx: Tx) => {
      log.push(`${n} begins`);
      await b.insert(tx, n);
      tx.afterCommit(() => log.push(`${n} committed`));
      log.push(`${n} ends`);
      return n;
    };
    const out = await Promise.all([1, 2, 3].map((n) => group.run(piece(n)).then(async (v) => [v, (await b.committed()).includes(v)])));
    expect(out).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect(log).toEqual(['1 begins', '1 ends', '2 begins', '2 ends', '3 begins', '3 ends', '1 committed', '2 committed', '3 committed']);
  });

  it('a failing piece: the batch again with a savepoint per piece; only its caller rejected, its afterCommit dropped', async () => {
    const b = await setUp();
    const group = new GroupCommit(b);
    const runs: number[] = [];
    const told: number[] = [];
    const settled = await Promise.allSettled(
      [1, 2, 3].map((n) =>
        group.run(async (tx) => {
          runs.push(n);
          await b.insert(tx, n);
          tx.afterCommit(() => told.push(n));
          if (n === 2) throw new Error('piece 2 fails');
          return n;
        }),
      ),
    );
    expect(settled.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 'piece 2 fails', 3]);
    expect(await b.committed()).toEqual([1, 3]);
    // The first try stops at the failing piece; the second runs every piece.
    expect(runs).toEqual([1, 2, 1, 2, 3]);
    expect(told).toEqual([1, 3]);
  });

  it("a piece whose statement fails (the database's error): it alone is rejected, the others commit", async () => {
    const b = await setUp();
    await b.unitOfWork((tx) => b.insert(tx, 7));
    const group = new GroupCommit(b);
    const settled = await Promise.allSettled([1, 7, 3].map((n) => group.run(async (tx) => (await b.insert(tx, n), n))));
    expect(settled.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as StoreError).code))).toEqual([1, b.constraintCode, 3]);
    expect(await b.committed()).toEqual([1, 3, 7]);
  });
});

describe('unit of work on PostgreSQL only', () => {
  const at = '2026-11-27T09:00:00.000Z';
  /** A serialization failure (40001), as PostgreSQL raises it. */
  const serializationFailure = (tx: PgTx) =>
    executorOf(tx).query({ text: "DO $$ BEGIN RAISE EXCEPTION 'forced' USING ERRCODE = 'serialization_failure'; END $$" });

  it('the repository twins on the tx run on its client; the store’s on the pool see them only after the COMMIT', async () => {
    const { store } = await pgBackend();
    let insideFromPool: unknown = 'unread';
    await store.unitOfWork(async (tx) => {
      await tx.operatorState.put('probe_a', 'v1', at);
      expect(await tx.operatorState.get('probe_a')).toEqual({ value: 'v1', updated_at: at });
      insideFromPool = await store.operatorState.get('probe_a');
    });
    expect(insideFromPool).toBeUndefined();
    expect(await store.operatorState.get('probe_a')).toEqual({ value: 'v1', updated_at: at });
    // Built once: the same twin each time (one parsed-score memo behind every score read).
    expect(store.screenings).toBe(store.screenings);
    expect(store.watch(7)).toBe(store.watch(7));
  });

  it('a twin of a finished unit throws tx_finished; a repository’s own transaction inside a unit is a savepoint of it', async () => {
    const { store } = await pgBackend();
    let kept: PgTx | undefined;
    await store.unitOfWork(async (tx) => {
      kept = tx;
      await expect(
        executorOf(tx).transaction(async (x) => {
          await x.query({ text: 'INSERT INTO t (n) VALUES (1)' });
          throw new Error('undone alone');
        }),
      ).rejects.toThrow('undone alone');
      await executorOf(tx).query({ text: 'INSERT INTO t (n) VALUES (2)' });
    });
    expect((await executorOf(store).query<{ n: number }>({ text: 'SELECT n FROM t' })).rows).toEqual([{ n: 2 }]);
    await expect(kept!.operatorState.put('late', 'x', at)).rejects.toMatchObject({
      code: 'tx_finished',
      message: 'a statement on a unit of work that has already committed or rolled back (a missing await?)',
    });
  });

  it('a failed statement caught without a savepoint: PostgreSQL aborted the transaction, so the unit fails with it and keeps nothing', async () => {
    // SQLite undoes only the statement; PostgreSQL cannot go on without a savepoint.
    const b = await pgBackend();
    await b.unitOfWork((tx) => b.insert(tx, 1));
    await expect(
      b.unitOfWork(async (tx) => {
        await b.insert(tx, 2);
        await b.insert(tx, 1).catch(() => undefined);
        return 'carried on';
      }),
    ).rejects.toMatchObject({ code: 'db_constraint' });
    expect(await b.committed()).toEqual([1]);
  });

  it('a deadlock between two units: PostgreSQL ends one, which is run again whole; both commit, the retry is counted and logged', async () => {
    const warned: Array<{ obj: object; msg: string }> = [];
    const { store } = await pgBackend({ log: { info: () => {}, warn: (obj, msg) => warned.push({ obj, msg }) } });
    await store.unitOfWork(async (tx) => {
      await tx.operatorState.put('lock_a', '-', at);
      await tx.operatorState.put('lock_b', '-', at);
    });
    let holding = 0;
    let bothHold!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => (bothHold = resolve));
    const runs: string[] = [];
    const told: string[] = [];
    // Each locks one row, waits until the other holds its own, then asks for the other's: a cycle.
    const unit = (name: string, first: string, second: string) =>
      store.unitOfWork(async (tx) => {
        runs.push(name);
        await tx.operatorState.put(first, name, at);
        if (++holding === 2) bothHold();
        await bothHoldOne;
        await tx.operatorState.put(second, name, at);
        tx.afterCommit(() => told.push(name));
        return name;
      });
    expect(await Promise.all([unit('x', 'lock_a', 'lock_b'), unit('y', 'lock_b', 'lock_a')])).toEqual(['x', 'y']);
    // Usually one victim and three runs. The victim's retry may win the row the survivor was
    // woken for and deadlock again (seen on a loaded machine): every deadlock is one more run,
    // counted and logged, and each unit still commits once.
    const deadlocks = runs.length - 2;
    expect(deadlocks).toBeGreaterThanOrEqual(1);
    expect(runs.slice(0, 2).sort()).toEqual(['x', 'y']);
    expect(told.sort()).toEqual(['x', 'y']);
    expect(store.retries()).toEqual({ deadlock: deadlocks, serialization: 0 });
    expect(warned).toHaveLength(deadlocks);
    expect(warned[0]).toEqual({
      obj: expect.objectContaining({ attempt: 1, code: '40P01' }) as object,
      msg: expect.stringMatching(/deadlock/) as string,
    });
    // Whoever ran last ran after the other's COMMIT: both rows are its.
    const last = runs.at(-1)!;
    expect(await store.operatorState.get('lock_a')).toMatchObject({ value: last });
    expect(await store.operatorState.get('lock_b')).toMatchObject({ value: last });
  });

  it('a serialization failure, even caught in a savepoint, runs the whole unit again; the failed try’s afterCommit is dropped', async () => {
    const b = await pgBackend();
    let tries = 0;
    const told: number[] = [];
    const v = await b.store.unitOfWork(async (tx) => {
      const n = ++tries;
      await b.insert(tx, 10 + n);
      tx.afterCommit(() => told.push(n));
      if (n === 1) await tx.savepoint(serializationFailure).catch(() => undefined);
      return n;
    });
    expect(v).toBe(2);
    expect(told).toEqual([2]);
    expect(await b.committed()).toEqual([12]);
    expect(b.store.retries()).toEqual({ deadlock: 0, serialization: 1 });
  });

  it(`${PG_UNIT_TRIES} tries at most: then the failure (db_busy) reaches the caller, nothing kept`, async () => {
    const b = await pgBackend();
    let tries = 0;
    await expect(
      b.store.unitOfWork(async (tx) => {
        tries++;
        await b.insert(tx, 1);
        await serializationFailure(tx);
      }),
    ).rejects.toMatchObject({ name: 'StoreError', code: 'db_busy', detail: '40001' });
    expect(tries).toBe(PG_UNIT_TRIES);
    expect(await b.committed()).toEqual([]);
  });

  it('group commit over the PostgreSQL store: pieces get the PgTx; a batch ended by a serialization failure is run again whole', async () => {
    const b = await pgBackend();
    const group = new GroupCommit(b.store);
    let failOnce = true;
    const out = await Promise.all(
      [1, 2, 3].map((n) =>
        group.run(async (tx) => {
          await tx.operatorState.put(`piece_${n}`, String(n), at);
          if (n === 2 && failOnce) {
            failOnce = false;
            await serializationFailure(tx);
          }
          return n;
        }),
      ),
    );
    expect(out).toEqual([1, 2, 3]);
    for (const n of [1, 2, 3]) expect(await b.store.operatorState.get(`piece_${n}`)).toMatchObject({ value: String(n) });
    expect(b.store.retries().serialization).toBe(1);
  });

  it('the pool is not leaked: after commits, rollbacks, failed statements and retries every client is back', async () => {
    const b = await pgBackend({ max: 2 });
    for (let i = 0; i < 6; i++) {
      await b.unitOfWork((tx) => b.insert(tx, i));
      await b.unitOfWork(async () => Promise.reject(new Error('no'))).catch(() => undefined);
      await b.unitOfWork((tx) => b.insert(tx, 0)).catch(() => undefined);
      await b.unitOfWorkWithoutSavepoints(async (tx) => tx.savepoint(async () => Promise.reject(new Error('no'))).catch(() => undefined));
    }
    await b.store.unitOfWork((tx) => serializationFailure(tx)).catch(() => undefined);
    expect(await b.committed()).toEqual([0, 1, 2, 3, 4, 5]);
    const c = b.store.connections();
    expect(c.waiting).toBe(0);
    expect(c.idle).toBe(c.total);
    expect(c.total).toBeLessThanOrEqual(2);
  });

  it('refuses a database whose encoding is not UTF8, before writing its schema', async () => {
    const ascii = await pgTestDatabase({ encoding: 'SQL_ASCII' });
    try {
      const err = (await openPgStore(ascii.url).catch((e: unknown) => e)) as StoreError;
      expect(err).toBeInstanceOf(StoreError);
      expect(err).toMatchObject({ code: 'db_error', detail: 'server_encoding=SQL_ASCII' });
      expect(err.message).toMatch(/encoding is SQL_ASCII, not UTF8/);
      const c = new pg.Client({ connectionString: ascii.url });
      await c.connect();
      try {
        expect((await c.query("SELECT to_regclass('schema_migrations') AS t")).rows).toEqual([{ t: null }]);
      } finally {
        await c.end();
      }
    } finally {
      await ascii.drop();
    }
  });

  describe('a finished screening written late (executor.ts DeferredWrite)', () => {
    const done = {
      action: 'tender' as const,
      hold_reason: null,
      source: 'cache' as const,
      score: null,
      score_fetched_at: null,
      error: null,
    };
    const row = (id: string) => ({
      id,
      query: { dot_number: '1000001' },
      tender_id: `T-${id}`,
      priority: 'tender' as const,
      refresh: false,
      callback_url: null,
    });
    // One database for the file: each case starts with no screenings.
    const seqOrder = async (store: PgStore) =>
      (await executorOf(store).query<{ id: string }>({ text: 'SELECT id FROM screenings ORDER BY seq' })).rows.map((r) => r.id);
    const fresh = async () => {
      const { store } = await pgBackend();
      await executorOf(store).query({ text: 'DELETE FROM screenings' });
      return { store };
    };

    it('without savepoints: kept until a statement that may see it, then one INSERT for all, in the order written', async () => {
      const { store } = await fresh();
      await store.unitOfWork((tx) => tx.screenings.insertScreening(row('scr_dup'), done));
      const answered: string[] = [];
      const out = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        for (const id of ['scr_b', 'scr_a', 'scr_c']) answered.push((await tx.screenings.insertScreening(row(id), done)).id);
        // A cache hit's read goes out before them; a read of screenings sees them.
        expect((await tx.scores.hitFacts('sandbox', { dot_number: '1000001' })).score).toBeUndefined();
        expect((await tx.screenings.getScreening('scr_a'))?.tender_id).toBe('T-scr_a');
        return 'kept';
      });
      expect(out).toEqual({ value: 'kept' });
      expect(answered).toEqual(['scr_b', 'scr_a', 'scr_c']);
      expect(await seqOrder(store)).toEqual(['scr_dup', 'scr_b', 'scr_a', 'scr_c']);
    });

    it('its failure comes late and undoes the whole unit (group commit then runs each piece in a savepoint, where nothing waits)', async () => {
      const { store } = await fresh();
      await store.unitOfWork((tx) => tx.screenings.insertScreening(row('scr_dup'), done));
      let answeredLate = false;
      const out = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        await tx.screenings.insertScreening(row('scr_new'), done);
        // The duplicate is not refused here: its INSERT has not been sent.
        await tx.screenings.insertScreening(row('scr_dup'), done);
        answeredLate = true;
        await tx.operatorState.put('after', 'x', at);
      });
      expect(answeredLate).toBe(true);
      expect(out).toBeUndefined();
      expect(await seqOrder(store)).toEqual(['scr_dup']);
      expect(await store.operatorState.get('after')).toBeUndefined();
      // With savepoints it is written at once: refused where it is made.
      let passed = false;
      await expect(
        store.unitOfWork(async (tx) => {
          await tx.screenings.insertScreening(row('scr_dup'), done);
          passed = true;
        }),
      ).rejects.toMatchObject({ code: 'db_constraint' });
      expect(passed).toBe(false);
    });

    const alone = { text: 'SELECT statement_timestamp() = transaction_timestamp() AS alone' };
    const plainOne = statement('test_plain_one', 'SELECT 1 AS one', { plainRead: true });

    it('the last statement: alone in autocommit after plain reads only; in the transaction once BEGIN went', async () => {
      const { store } = await fresh();
      const first = await store.unitOfWork(async (tx) => {
        expect(await plainOne.get(executorOf(tx), {})).toEqual({ one: 1 });
        const r = await executorOf(tx).last!((q) => q.query<{ alone: boolean }>(alone));
        // Nothing may follow it.
        await expect(plainOne.get(executorOf(tx), {})).rejects.toThrow('after the unit of work’s last one');
        return r.rows[0]!.alone;
      });
      expect(first).toBe(true);
      const second = await store.unitOfWork(async (tx) => {
        await executorOf(tx).query({ text: 'SELECT pg_sleep(0.02)' });
        return (await executorOf(tx).last!((q) => q.query<{ alone: boolean }>(alone))).rows[0]!.alone;
      });
      expect(second).toBe(false);
    });

    const ins = (n: number) => ({ text: 'INSERT INTO t (n) VALUES ($1)', values: [n] });
    /** A store whose table t is empty, and what t holds (committed). */
    const freshT = async () => {
      const { store } = await fresh();
      await executorOf(store).query({ text: 'DELETE FROM t' });
      const rows = () => committedT(store);
      return { store, rows };
    };

    it('the last statement in the transaction: its COMMIT goes behind it; if it fails, the COMMIT answers ROLLBACK and nothing is kept', async () => {
      const { store, rows } = await freshT();
      const kept = await store.unitOfWork(async (tx) => {
        await executorOf(tx).query(ins(1));
        await executorOf(tx).last!((q) => q.query(ins(2)));
        // Nothing may follow it: its COMMIT is on the wire.
        await expect(plainOne.get(executorOf(tx), {})).rejects.toThrow('after the unit of work’s last one');
        return 'kept';
      });
      expect(kept).toBe('kept');
      expect(await rows()).toEqual([1, 2]);
      // A refused last statement: nothing of the unit was kept; without savepoints it is undone, to be run again.
      const undone = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        await executorOf(tx).query(ins(3));
        await executorOf(tx).last!((q) => q.query(ins(1)));
      });
      expect(undone).toBeUndefined();
      expect(await rows()).toEqual([1, 2]);
      // The client went back to the pool in a clean state: the next unit commits.
      await store.unitOfWork(async (tx) => executorOf(tx).last!((q) => q.query(ins(4))));
      expect(await rows()).toEqual([1, 2, 4]);
    });

    it('a pipelined COMMIT whose statement failed kept nothing: the unit is undone, even when the failure is a timeout (class 57)', async () => {
      const { store, rows } = await freshT();
      const timedOut = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        await executorOf(tx).query(ins(11));
        await executorOf(tx).query({ text: "SET LOCAL statement_timeout = '50ms'" });
        await executorOf(tx).last!((q) => q.query({ text: 'SELECT pg_sleep(1)' }));
      });
      expect(timedOut).toBeUndefined();
      // A value pg refuses before sending: the server never sees the statement, so no COMMIT may go behind it.
      const refused = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        await executorOf(tx).query(ins(12));
        const bad = {
          toPostgres() {
            throw new Error('not a value');
          },
        };
        await executorOf(tx).last!((q) => q.query({ text: 'INSERT INTO t (n) VALUES ($1)', values: [bad] }));
      });
      expect(refused).toBeUndefined();
      expect(await rows()).toEqual([]);
    });

    it('only a statement declared to take advisory locks and nothing else may have BEGIN pipelined ahead of it', () => {
      expect(() => statement('test_locks_only_not', 'SELECT 1', { locksOnly: true })).toThrow('only takes advisory locks');
      expect(() =>
        statement('test_locks_only_write', 'SELECT pg_advisory_xact_lock(1, 2) FROM (INSERT INTO t VALUES (1) RETURNING n) x', {
          locksOnly: true,
        }),
      ).toThrow('only takes advisory locks');
      expect(() => statement('test_locks_only_ok', 'SELECT pg_advisory_xact_lock(1, hashtext(@k))', { locksOnly: true })).not.toThrow();
    });

    it('a group commit of hits: their screenings and events in the append, alone; a failed read caught keeps it in the transaction', async () => {
      const { store } = await fresh();
      const out = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        await tx.screenings.insertScreening(row('scr_h1'), done);
        await tx.screenings.insertScreening(row('scr_h2'), done);
        const events = await tx.events.appendEvents(
          [
            { event: 'screening.completed', data: { screening_ref: 'scr_h1' } },
            { event: 'screening.completed', data: { screening_ref: 'scr_h2' } },
          ],
          { last: true },
        );
        return events.map((e) => e.id);
      });
      expect(out!.value).toHaveLength(2);
      expect(await seqOrder(store)).toEqual(['scr_h1', 'scr_h2']);
      // A read that failed, caught: the unit cannot commit, so nothing goes alone (and nothing is kept).
      const before = await store.events.lastEventId();
      const undone = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        await tx.screenings.insertScreening(row('scr_h3'), done);
        await executorOf(tx)
          .query({ text: 'SELECT 1/0' })
          .catch(() => undefined);
        await tx.events.appendEvents([{ event: 'screening.completed', data: { screening_ref: 'scr_h3' } }], { last: true });
      });
      expect(undone).toBeUndefined();
      expect(await store.events.lastEventId()).toBe(before);
      expect(await seqOrder(store)).toEqual(['scr_h1', 'scr_h2']);
    });

    it('the append with the screenings, alone, writes nothing when the event head is missing (not the screenings alone)', async () => {
      const { store } = await fresh();
      await executorOf(store).query({ text: 'DELETE FROM event_head' });
      try {
        await expect(
          store.unitOfWorkWithoutSavepoints(async (tx) => {
            await tx.screenings.insertScreening(row('scr_orphan'), done);
            await tx.events.appendEvents([{ event: 'screening.completed', data: { screening_ref: 'scr_orphan' } }], { last: true });
          }),
        ).rejects.toThrow('event_head has no row');
        expect(await seqOrder(store)).toEqual([]);
      } finally {
        await executorOf(store).query({ text: 'INSERT INTO event_head (last_id) SELECT COALESCE(MAX(id), 0) FROM events' });
      }
    });

    it('kept until a statement that could see them: a carrier lock and a standing decision’s read do not send them', async () => {
      const { store } = await fresh();
      // Rows this transaction inserted so far (the table named as a parameter: this statement names no screenings).
      const inserted = statement<{ rel: string }>(
        'test_xact_inserts',
        'SELECT n_tup_ins::int AS n FROM pg_stat_xact_user_tables WHERE relname = @rel',
      );
      const seen = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        const x = executorOf(tx);
        await tx.screenings.insertScreening(row('scr_k1'), { ...done, action: 'hold', hold_reason: 'manual_review' });
        await tx.decisions.lockCarriers({ review: ['sandbox:dot:1000001'] });
        await tx.decisions.standing('sandbox:dot:1000001');
        const before = (await inserted.get<{ n: number }>(x, { rel: 'screenings' }))!.n;
        // The review's foreign key needs its screening: the two go in one statement.
        await tx.decisions.insertReview({
          id: 'rev_k1',
          screening_id: 'scr_k1',
          hold_reason: 'manual_review',
          created_at: at,
          carrier_key: 'sandbox:dot:1000001',
          parent_id: null,
          previous_decision: null,
        });
        return [before, (await inserted.get<{ n: number }>(x, { rel: 'screenings' }))!.n];
      });
      expect(seen).toEqual({ value: [0, 1] });
      expect(await seqOrder(store)).toEqual(['scr_k1']);
    });

    it('every table the schema ties to screenings (a foreign key to them, a trigger that touches them) waits for the kept rows', async () => {
      const { store } = await fresh();
      const { rows } = await executorOf(store).query<{ t: string }>({
        text: `SELECT conrelid::regclass::text AS t FROM pg_constraint WHERE contype = 'f' AND confrelid = 'screenings'::regclass
               UNION SELECT tg.tgrelid::regclass::text FROM pg_trigger tg JOIN pg_proc p ON p.oid = tg.tgfoid
                 WHERE NOT tg.tgisinternal AND p.prosrc ~* '\\mscreenings\\M'`,
      });
      const tied = rows.map((r) => r.t).filter((t) => t !== 'screenings');
      expect(tied).toContain('reviews');
      for (const t of tied) expect(TABLES_TIED_TO_SCREENINGS.has(t), t).toBe(true);
      // And every foreign key whose action writes the child when its parent is written.
      const { rows: cascades } = await executorOf(store).query<{ parent: string; child: string }>({
        text: `SELECT confrelid::regclass::text AS parent, conrelid::regclass::text AS child FROM pg_constraint
               WHERE contype = 'f' AND confdeltype IN ('c', 'n', 'd')`,
      });
      expect(cascades).toContainEqual({ parent: 'screenings', child: 'reviews' });
      for (const { parent, child } of cascades) expect(CASCADES[parent] ?? [], `${parent} -> ${child}`).toContain(child);
      const { rows: onUpdate } = await executorOf(store).query({
        text: "SELECT 1 FROM pg_constraint WHERE contype = 'f' AND confupdtype IN ('c', 'n', 'd')",
      });
      expect(onUpdate).toEqual([]);
    });

    it('a statement that reads a table written late cannot be declared to go before those writes', () => {
      expect(() => statement('test_reads_screenings', 'SELECT 1 FROM screenings', { plainRead: true })).toThrow(
        'reads a table written late',
      );
      expect(() => statement('test_try_lock', 'SELECT pg_try_advisory_xact_lock(1, 2)', { plainRead: true })).toThrow('not a plain read');
      expect(() => statement('test_reads_blocks', 'SELECT 1 FROM local_blocks', { plainRead: true })).not.toThrow();
    });
  });

  describe('a plain read answered from a read-ahead (sql.ts remember)', () => {
    const readT = statement<{ n: number }>('test_read_t', 'SELECT n, @n::int * 10 AS ten FROM t WHERE n = @n', { plainRead: true });
    const writeT = statement<{ n: number }>('test_write_t', 'INSERT INTO t (n) VALUES (@n)');
    const writeU = statement<{ n: number }>('test_write_u', 'INSERT INTO u (n) VALUES (@n)');
    const fresh = async () => {
      const { store } = await pgBackend();
      await executorOf(store).query({ text: 'DROP TABLE IF EXISTS u; CREATE TABLE u (n integer)' });
      await executorOf(store).query({ text: 'INSERT INTO t (n) VALUES (1), (2)' });
      return store;
    };

    it('answers the read with no round trip until the unit writes a table it reads; a write elsewhere keeps it', async () => {
      const store = await fresh();
      const seen = await store.unitOfWork(async (tx) => {
        const x = executorOf(tx);
        // An answer the table does not hold: only the memory can give it.
        readT.remember(x, { n: 1 }, [{ n: 1, ten: 999 }]);
        const out = [(await readT.get<{ ten: number }>(x, { n: 1 }))!.ten, (await readT.get<{ ten: number }>(x, { n: 2 }))!.ten];
        await writeU.run(x, { n: 5 });
        out.push((await readT.get<{ ten: number }>(x, { n: 1 }))!.ten);
        await writeT.run(x, { n: 3 });
        out.push((await readT.get<{ ten: number }>(x, { n: 1 }))!.ten);
        return out;
      });
      expect(seen).toEqual([999, 20, 999, 10]);
    });

    it('SQL not defined in sql.ts may write anything: every answer is forgotten; on the pool nothing is kept', async () => {
      const store = await fresh();
      const seen = await store.unitOfWork(async (tx) => {
        const x = executorOf(tx);
        readT.remember(x, { n: 2 }, []);
        const before = await readT.get(x, { n: 2 });
        await x.query({ text: 'SELECT 1' });
        return [before, await readT.get<{ n: number }>(x, { n: 2 })];
      });
      expect(seen).toEqual([undefined, { n: 2, ten: 20 }]);
      readT.remember(executorOf(store), { n: 1 }, []);
      expect(await readT.get(executorOf(store), { n: 1 })).toEqual({ n: 1, ten: 10 });
    });

    it('a lock on a key forgets the answers read ahead about it (read before the lock); so does a rolled-back savepoint', async () => {
      const store = await fresh();
      const byKey = statement<{ n: number; key: string }>('test_read_t_key', 'SELECT n, @key::text AS key FROM t WHERE n = @n', {
        plainRead: true,
      });
      const seen = await store.unitOfWork(async (tx) => {
        const x = executorOf(tx);
        byKey.remember(x, { n: 1, key: 'dot:71' }, [{ n: 1, key: 'remembered' }]);
        byKey.remember(x, { n: 2, key: 'dot:72' }, [{ n: 2, key: 'remembered' }]);
        await tx.decisions.lockCarriers({ watch: ['dot:71'] });
        const out = [
          (await byKey.get<{ key: string }>(x, { n: 1, key: 'dot:71' }))!.key,
          (await byKey.get<{ key: string }>(x, { n: 2, key: 'dot:72' }))!.key,
        ];
        await tx
          .savepoint(async (sp) => {
            byKey.remember(executorOf(sp), { n: 1, key: 'dot:73' }, [{ n: 1, key: 'in a savepoint' }]);
            throw new Error('undo');
          })
          .catch(() => undefined);
        out.push(
          (await byKey.get<{ key: string }>(x, { n: 1, key: 'dot:73' }))!.key,
          (await byKey.get<{ key: string }>(x, { n: 2, key: 'dot:72' }))!.key,
        );
        return out;
      });
      expect(seen).toEqual(['dot:71', 'remembered', 'dot:73', 'dot:72']);
    });

    it('only a plain read can be read ahead', async () => {
      const store = await fresh();
      await expect(store.unitOfWork(async (tx) => writeT.remember(executorOf(tx), { n: 9 }, []))).rejects.toThrow('not a plain read');
    });

    it('the tables a statement reads and writes, from its text', () => {
      const w = statement(
        'test_tables_written',
        'WITH h AS (UPDATE event_head SET last_id = 1 RETURNING last_id) INSERT INTO events (id) SELECT last_id FROM h',
      );
      expect([...tablesWritten({ name: w.name, text: w.text })!].sort()).toEqual(['event_head', 'events']);
      const r = statement(
        'test_tables_read',
        'SELECT q.i FROM unnest(@a::text[]) AS q(a, i) LEFT JOIN score_cache c ON c.dot_number = q.a JOIN (SELECT 1) AS one ON true',
        {
          plainRead: true,
        },
      );
      expect([...tablesRead({ name: r.name, text: r.text })!]).toEqual(['score_cache']);
      expect(tablesWritten({ name: r.name, text: r.text })!.size).toBe(0);
      expect(tablesWritten({ text: 'SELECT 1' })).toBeUndefined();
      // A parenthesised join's first table is read too; a deleted screening deletes its review (ON DELETE CASCADE).
      const j = statement('test_tables_join', 'SELECT 1 FROM (SELECT 1) AS one LEFT JOIN (mc_alias a JOIN score_cache c ON true) ON true', {
        plainRead: true,
      });
      expect([...tablesRead({ name: j.name, text: j.text })!].sort()).toEqual(['mc_alias', 'score_cache']);
      expect([...writtenTables('DELETE FROM ONLY screenings WHERE id = $1')].sort()).toEqual(['reviews', 'screenings']);
    });

    it("every statement's tables as read off its text hold what PostgreSQL's plan of it writes (and, for a plain read, reads)", async () => {
      const { store } = await pgBackend();
      // A generic plan: the one a prepared statement may run with any parameters.
      const plans = await store.unitOfWork(async (tx) => {
        const q = executorOf(tx);
        await q.query({ text: 'SET LOCAL plan_cache_mode = force_generic_plan' });
        const out: Array<{ name: string; plainRead: boolean; written: string[]; read: string[] }> = [];
        const walk = (n: unknown, acc: { w: Set<string>; r: Set<string> }): void => {
          if (!n || typeof n !== 'object') return;
          const node = n as Record<string, unknown>;
          if (typeof node['Relation Name'] === 'string') (node['Node Type'] === 'ModifyTable' ? acc.w : acc.r).add(node['Relation Name']);
          for (const v of Object.values(node))
            if (Array.isArray(v)) v.forEach((c) => walk(c, acc));
            else walk(v, acc);
        };
        let i = 0;
        for (const st of definedStatements().filter((d) => !d.name.startsWith('test_'))) {
          const params = Math.max(0, ...[...st.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
          const p = `plan_${i++}`;
          await q.query({ text: `PREPARE ${p} AS ${st.text}` });
          const args = params > 0 ? `(${Array(params).fill('NULL').join(', ')})` : '';
          const { rows } = await q.query<{ 'QUERY PLAN': unknown }>({ text: `EXPLAIN (FORMAT JSON) EXECUTE ${p}${args}` });
          const acc = { w: new Set<string>(), r: new Set<string>() };
          walk(rows[0]!['QUERY PLAN'], acc);
          out.push({ name: st.name, plainRead: st.plainRead, written: [...acc.w], read: [...acc.r] });
        }
        return out;
      });
      expect(plans.length).toBeGreaterThan(100);
      expect(plans.some((p) => p.plainRead)).toBe(true);
      for (const p of plans) {
        const written = tablesWritten({ name: p.name, text: '' })!;
        expect(
          p.written.filter((t) => !written.has(t)),
          `${p.name} writes`,
        ).toEqual([]);
        if (p.plainRead)
          expect(
            p.read.filter((t) => !tablesRead({ name: p.name, text: '' })!.has(t)),
            `${p.name} reads`,
          ).toEqual([]);
      }
    });

    it('no function or trigger of the schema writes a table a plain read reads (a write sql.ts cannot see)', async () => {
      const { store } = await pgBackend();
      const { rows } = await executorOf(store).query<{ proname: string; prosrc: string }>({
        text: 'SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema()',
      });
      // The schema has its triggers' functions (callback counts, screening versions): the check reads them.
      expect(rows.map((r) => r.proname)).toContain('callback_counts_add');
      const read = plainReadTables();
      expect(read).toContain('score_cache');
      expect(read).toContain('watch_entries');
      for (const { proname, prosrc } of rows) {
        const clash = [...writtenTables(prosrc)].filter((t) => read.has(t));
        expect(clash, `function ${proname} writes what a plain read reads`).toEqual([]);
      }
    });

    it('a group commit of cache hits reads their facts ahead, once: a change committed after that is not seen by the batch', async () => {
      const { store } = await pgBackend();
      const score = (dot: string) => ({
        object: 'svc_score',
        carrier: { dot_number: dot, mc_number: `MC${dot}`, legal_name: `Carrier ${dot}` },
        score: 90,
        grade: 'A',
        decision: 'approve',
        model_version: 'm1',
      });
      await store.scores.putScore('sandbox', score('7100001') as never, new Date(Date.parse(at)));
      await store.scores.putScore('sandbox', score('7100002') as never, new Date(Date.parse(at)));
      const other = new pg.Client({ connectionString: pgDb!.url });
      await other.connect();
      try {
        const group = new GroupCommit<PgTx, string>(store, {
          readAhead: async (tx, dots) => {
            await tx.scores.readAhead!(
              'sandbox',
              dots.map((d) => ({ dot_number: d })),
            );
            // Another host replaces an entry: the batch answers as of its read-ahead.
            await other.query("UPDATE score_cache SET model_version = 'm2' WHERE dot_number = '7100001'");
          },
        });
        const piece = (dot: string) =>
          group.run(async (tx) => (await tx.scores.hitFacts('sandbox', { dot_number: dot })).score?.model_version, dot);
        expect(await Promise.all([piece('7100001'), piece('7100002'), piece('7100003')])).toEqual(['m1', 'm1', undefined]);
        // A unit that did not read ahead reads the row as it is.
        expect(
          await store.unitOfWork(async (tx) => (await tx.scores.hitFacts('sandbox', { dot_number: '7100001' })).score?.model_version),
        ).toBe('m2');
      } finally {
        await other.end();
      }
    });

    it("a held hit's review item carries the unit's kept screenings (the review's foreign key sees them)", async () => {
      const { store } = await pgBackend();
      const out = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        await tx.screenings.insertScreening(
          {
            id: 'scr_held_ra',
            query: { dot_number: '7100009' },
            tender_id: 'T-held',
            priority: 'tender',
            refresh: false,
            callback_url: null,
          },
          { action: 'hold', hold_reason: 'manual_review', source: 'cache', score: null, score_fetched_at: null, error: null },
        );
        return tx.decisions.insertReview({
          id: 'rev_held_ra',
          screening_id: 'scr_held_ra',
          hold_reason: 'manual_review',
          created_at: at,
          carrier_key: 'sandbox:dot:7100009',
          parent_id: null,
          previous_decision: null,
        });
      });
      expect(out).toEqual({ value: true });
      const { rows } = await executorOf(store).query<{ id: string; status: string }>({
        text: "SELECT r.id, s.status FROM reviews r JOIN screenings s ON s.id = r.screening_id WHERE r.id = 'rev_held_ra'",
      });
      expect(rows).toEqual([{ id: 'rev_held_ra', status: 'done' }]);
    });
  });

  describe("one carrier's rows apart from another's (sql.ts carrierRows), a write not waited for (sendOnly)", () => {
    const readR = statement<{ key: string }>('test_read_r', 'SELECT count(*)::int AS n FROM r WHERE carrier_key = @key', {
      plainRead: true,
      carrierRows: { param: 'key', tables: ['r'] },
    });
    const writeR = statement<{ carrier_key: string }>('test_write_r', 'INSERT INTO r (carrier_key) VALUES (@carrier_key)', {
      carrierRows: { param: 'carrier_key', tables: ['r'] },
    });
    // The same write, not declared: it may write any carrier's rows.
    const writeRAny = statement<{ k: string }>('test_write_r_any', 'INSERT INTO r (carrier_key) VALUES (@k)');
    const sendT = statement<{ n: number }>('test_send_t', 'INSERT INTO t (n) VALUES (@n)', { writesOrFails: true });
    // Many carriers' readR at once, each row with its position (sql.ts readAheadMany).
    const readRMany = statement<{ keys: string[] }>(
      'test_read_r_many',
      'SELECT q.i, (SELECT count(*)::int FROM r WHERE r.carrier_key = q.k) AS n FROM unnest(@keys::text[]) WITH ORDINALITY AS q(k, i)',
      { plainRead: true },
    );
    const fresh = async () => {
      const { store } = await pgBackend();
      await executorOf(store).query({ text: 'DROP TABLE IF EXISTS r; CREATE TABLE r (carrier_key text); DELETE FROM t' });
      const rows = () => committedT(store);
      return { store, rows };
    };

    it("a write of one carrier's rows forgets what was read ahead about that carrier only; an undeclared write forgets all", async () => {
      const { store } = await fresh();
      const seen = await store.unitOfWork(async (tx) => {
        const x = executorOf(tx);
        // Answers the table does not hold: only the memory gives them.
        readR.remember(x, { key: 'A' }, [{ n: 98 }]);
        readR.remember(x, { key: 'B' }, [{ n: 99 }]);
        await writeR.run(x, { carrier_key: 'A' });
        const out = [(await readR.get<{ n: number }>(x, { key: 'A' }))!.n, (await readR.get<{ n: number }>(x, { key: 'B' }))!.n];
        await writeRAny.run(x, { k: 'C' });
        out.push((await readR.get<{ n: number }>(x, { key: 'B' }))!.n);
        return out;
      });
      expect(seen).toEqual([1, 99, 0]);
    });

    it('carrierRows must name a parameter the text compares carrier_key with (or inserts), in tables it uses', () => {
      expect(() =>
        statement('test_rows_not_compared', 'SELECT 1 FROM r WHERE n = @key', {
          plainRead: true,
          carrierRows: { param: 'key', tables: ['r'] },
        }),
      ).toThrow('carrierRows');
      expect(() =>
        statement('test_rows_other_table', 'SELECT 1 FROM r WHERE carrier_key = @key', {
          plainRead: true,
          carrierRows: { param: 'key', tables: ['reviews'] },
        }),
      ).toThrow('carrierRows');
      expect(() =>
        statement('test_rows_other_value', 'INSERT INTO r (carrier_key, n) VALUES (@other, @key)', {
          carrierRows: { param: 'key', tables: ['r'] },
        }),
      ).toThrow('carrierRows');
      for (const [name, sql] of [
        ['test_rows_or', 'SELECT 1 FROM r WHERE carrier_key = @key OR n = 1'],
        ['test_rows_prefixed', 'SELECT 1 FROM r WHERE prev_carrier_key = @key'],
        ['test_rows_not', 'SELECT 1 FROM r WHERE NOT carrier_key = @key'],
        ['test_rows_two_writes', 'WITH u AS (UPDATE r SET n = 1) INSERT INTO r (carrier_key) VALUES (@key)'],
      ])
        expect(() => statement(name!, sql!, { carrierRows: { param: 'key', tables: ['r'] } }), name).toThrow('carrierRows');
    });

    it('writesOrFails: INSERT … VALUES only (or after a WITH of one INSERT from unnest), no ON CONFLICT, no WHERE; sendOnly needs it', async () => {
      for (const [name, sql] of [
        ['test_wof_conflict', 'INSERT INTO t (n) VALUES (@n) ON CONFLICT (n) DO NOTHING'],
        ['test_wof_select', 'INSERT INTO t (n) SELECT @n WHERE false'],
        ['test_wof_update', 'UPDATE t SET n = @n'],
        [
          'test_wof_join',
          'WITH s AS (INSERT INTO u (n) SELECT r.n FROM unnest(@ns::int[]) AS r (n) JOIN t ON t.n = r.n ORDER BY 1) INSERT INTO t (n) VALUES (@n)',
        ],
        [
          'test_wof_delete',
          'WITH s AS (INSERT INTO u (n) SELECT n FROM unnest(@ns::int[]) AS r (n) ORDER BY n), d AS (DELETE FROM u) INSERT INTO t (n) VALUES (@n)',
        ],
      ])
        expect(() => statement(name!, sql!, { writesOrFails: true }), name).toThrow('writes its rows or fails');
      expect(() =>
        statement(
          'test_wof_with',
          'WITH s AS (INSERT INTO u (n) SELECT n FROM unnest(@ns::int[]) WITH ORDINALITY AS r (n, o) ORDER BY o) INSERT INTO t (n) VALUES (@n)',
          {
            writesOrFails: true,
          },
        ),
      ).not.toThrow();
      const { store } = await fresh();
      await expect(store.unitOfWork(async (tx) => writeR.sendOnly(executorOf(tx), { carrier_key: 'A' }))).rejects.toThrow(
        'not declared writesOrFails',
      );
    });

    it('a read-ahead about a key a lock named that went out while it was on its way is not kept; about another key, or sent behind the lock, it is', async () => {
      const { store } = await fresh();
      const other = new pg.Client({ connectionString: pgDb!.url });
      await other.connect();
      try {
        const seen = await store.unitOfWork(async (tx) => {
          const x = executorOf(tx);
          // Read, then a lock of A sent before the answers came: A's not kept (read before its lock), B's kept.
          const before = readAheadMany(x, readRMany, { keys: ['A', 'B'] }, [ahead(readR, { key: 'A' }), ahead(readR, { key: 'B' })]);
          const locked = tx.decisions.lockCarriers({ watch: ['A'] });
          await Promise.all([before, locked]);
          const known = [readR.known(x, { key: 'A' }), readR.known(x, { key: 'B' })];
          // A lock of C, then the read pipelined behind it: kept.
          const lockedToo = tx.decisions.lockCarriers({ watch: ['C'] });
          await Promise.all([lockedToo, readAheadMany(x, readRMany, { keys: ['C'] }, [ahead(readR, { key: 'C' })])]);
          known.push(readR.known(x, { key: 'C' }));
          // Another session's commit: a kept answer does not see it, a read does.
          await other.query("INSERT INTO r (carrier_key) VALUES ('A'), ('B'), ('C')");
          const n = async (key: string) => (await readR.get<{ n: number }>(x, { key }))!.n;
          return { known, n: [await n('A'), await n('B'), await n('C')] };
        });
        expect(seen).toEqual({ known: [false, true, true], n: [1, 0, 0] });
        // On the pool nothing is known.
        expect(readR.known(executorOf(store), { key: 'A' })).toBe(false);
      } finally {
        await other.end();
      }
    });

    it('sendOnly in a unit without savepoints, after BEGIN: the unit goes on before its answer, and commits it', async () => {
      const { store, rows } = await fresh();
      const other = new pg.Client({ connectionString: pgDb!.url });
      await other.connect();
      try {
        // Another session's uncommitted row 2: an insert of 2 waits for it to end.
        await other.query('BEGIN');
        await other.query('INSERT INTO t (n) VALUES (2)');
        const out = await store.unitOfWorkWithoutSavepoints(async (tx) => {
          const x = executorOf(tx);
          await sendT.run(x, { n: 1 });
          // Awaited, this would wait for the other's end, which comes only after it returns.
          await sendT.sendOnly(x, { n: 2 });
          await other.query('ROLLBACK');
          return 'went on';
        });
        expect(out).toEqual({ value: 'went on' });
        expect(await rows()).toEqual([1, 2]);
      } finally {
        await other.end();
      }
    });

    it("statements sent in one turn go out in one write of the socket (writeTogether), pg's own cork per query nested in it", async () => {
      const client = new pg.Client({ connectionString: pgDb!.url });
      (client as unknown as { pipeline: boolean }).pipeline = true;
      await client.connect();
      try {
        const stream = (
          client as unknown as {
            connection: { stream: { _write: (...a: unknown[]) => void; _writev: (chunks: unknown[], cb: unknown) => void } };
          }
        ).connection.stream;
        const writes: number[] = [];
        // Counted on the real socket: each call is one system call's worth of bytes.
        const write = stream._write.bind(stream);
        const writev = stream._writev.bind(stream);
        stream._write = (...a: unknown[]) => (writes.push(1), write(...a));
        stream._writev = (chunks: unknown[], cb: unknown) => (writes.push(chunks.length), writev(chunks, cb));
        const send = () => Promise.all([client.query('BEGIN'), client.query('SELECT 1'), client.query('COMMIT')]);
        await send();
        expect(writes.length).toBe(3);
        writes.length = 0;
        writeTogether(client);
        const answers = await send();
        expect(writes.length).toBe(1);
        expect(answers.map((a) => a.command)).toEqual(['BEGIN', 'SELECT', 'COMMIT']);
      } finally {
        await client.end();
      }
    });

    it('a sendOnly write that fails undoes the unit, also when a last statement follows it; with savepoints it is awaited and throws', async () => {
      const { store, rows } = await fresh();
      await store.unitOfWork((tx) => sendT.run(executorOf(tx), { n: 5 }));
      const undone = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        const x = executorOf(tx);
        await sendT.run(x, { n: 6 });
        await sendT.sendOnly(x, { n: 5 });
        return 'returned';
      });
      expect(undone).toBeUndefined();
      const behindCommit = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        const x = executorOf(tx);
        await sendT.run(x, { n: 7 });
        await sendT.sendOnly(x, { n: 5 });
        await x.last!((q) => q.query({ text: 'INSERT INTO t (n) VALUES (8)' }));
      });
      expect(behindCommit).toBeUndefined();
      // From a nested unit that ended before the answer came.
      const nested = await store.unitOfWorkWithoutSavepoints(async (tx) => {
        await sendT.run(executorOf(tx), { n: 10 });
        await tx.savepoint(async (sp) => sendT.sendOnly(executorOf(sp), { n: 5 }));
        return 'returned';
      });
      expect(nested).toBeUndefined();
      expect(await rows()).toEqual([5]);
      await expect(
        store.unitOfWork(async (tx) => {
          await sendT.run(executorOf(tx), { n: 9 });
          await sendT.sendOnly(executorOf(tx), { n: 5 });
        }),
      ).rejects.toMatchObject({ code: 'db_constraint' });
      expect(await rows()).toEqual([5]);
    });
  });

  it('a carrier lock a unit holds is not taken again; one a rolled-back savepoint took is (PostgreSQL released it)', async () => {
    const { store } = await pgBackend();
    const probe = new pg.Client({ connectionString: pgDb!.url });
    await probe.connect();
    // Whether another session could take the review lock of carrier key `k` now (given back at once).
    const free = async (k: string) => {
      const args = [ADVISORY_NAMESPACES.review, k];
      const { got } = (await probe.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS got', args)).rows[0]!;
      if (got) await probe.query('SELECT pg_advisory_unlock($1, hashtext($2))', args);
      return got;
    };
    try {
      await store.unitOfWork(async (tx) => {
        await tx
          .savepoint(async (sp) => {
            await sp.decisions.lockCarriers({ review: ['dot:77'] });
            expect(await free('dot:77')).toBe(false);
            throw new Error('undone');
          })
          .catch(() => undefined);
        expect(await free('dot:77')).toBe(true);
        // Taken again, not skipped as held.
        await tx.decisions.openReviewId('dot:77');
        expect(await free('dot:77')).toBe(false);
        await tx.decisions.lockCarriers({ review: ['dot:78'] });
        await tx.decisions.standing('dot:78');
        expect(await free('dot:78')).toBe(false);
      });
      expect(await free('dot:77')).toBe(true);
    } finally {
      await probe.end();
    }
  });

  it('a lock set the unit holds already sends no statement (a group commit took its held hits’ locks first, in one)', async () => {
    const { store } = await pgBackend();
    const value = await store.unitOfWork(async (tx) => {
      await tx.decisions.lockCarriers({ review: ['dot:79'], watch: ['dot:79'], reviewsOfScreenings: ['scr_79'] });
      await executorOf(tx).last!((q) => q.query({ text: 'SELECT 1' }));
      // After the unit's last statement any statement throws: these send none.
      await tx.decisions.lockCarriers({ review: ['dot:79'], reviewsOfScreenings: ['scr_79'] });
      await tx.decisions.lockCarriers({ watch: ['dot:79'] });
      await expect(tx.decisions.lockCarriers({ review: ['dot:80'] })).rejects.toThrow('after the unit of work’s last one');
      await expect(tx.decisions.lockCarriers({ review: ['dot:79'], reviewsOfScreenings: ['scr_80'] })).rejects.toThrow(
        'after the unit of work’s last one',
      );
      return 'held';
    });
    expect(value).toBe('held');
  });

  it('an unreachable server: db_unavailable, the password not shown', async () => {
    const err = (await openPgStore('postgres://someone:s3cret@127.0.0.1:1/nowhere').catch((e: unknown) => e)) as StoreError;
    expect(err).toMatchObject({ name: 'StoreError', code: 'db_unavailable' });
    expect(err.message).not.toContain('s3cret');
  });

  it('pgTestStore: a database of its own, migrated by the open', async () => {
    const t = await pgTestStore();
    try {
      expect(await t.store.events.lastEventId()).toBe(0);
    } finally {
      await t.close();
    }
  });
});
