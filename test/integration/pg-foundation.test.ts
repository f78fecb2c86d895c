import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { StoreError } from '../../worker/store/store-error.js';
import { poolExecutor, type PgExecutor } from '../../worker/store/pg/executor.js';
import { pgErrorCode, redactedUrl, toPgStoreError } from '../../worker/store/pg/pg-errors.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { migratePg } from '../../worker/store/pg/pg-migrations.js';
import { positional, statement } from '../../worker/store/pg/sql.js';
import type { PgMigration } from '../../worker/store/pg/schema/index.js';
import { pgTestDatabase, type PgTestDatabase } from '../helpers/pg-db.js';

describe('positional parameters', () => {
  it('numbers each name once, in order of first use, and leaves quoted text alone', () => {
    const { text, names } = positional('SELECT \'@not\' AS "@neither", a FROM t WHERE a = @a AND b > @b OR a < @a AND c <@ d');
    expect(text).toBe('SELECT \'@not\' AS "@neither", a FROM t WHERE a = $1 AND b > $2 OR a < $1 AND c <@ d');
    expect(names).toEqual(['a', 'b']);
  });

  it('refuses one name for two texts, and a missing parameter', async () => {
    statement('pgf_same', 'SELECT 1');
    expect(() => statement('pgf_same', 'SELECT 2')).toThrow(/defined twice/);
    const st = statement<{ a: number }>('pgf_missing', 'SELECT @a::int AS a');
    await expect(st.get({ query: async () => ({ rows: [], rowCount: 0 }) }, {} as { a: number })).rejects.toThrow(/@a not given/);
  });
});

describe('a PostgreSQL database of the test', () => {
  let db: PgTestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await pgTestDatabase();
    pool = openPgPool(db.url, { max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('reads bigint as a number, and refuses one beyond 2^53', async () => {
    const st = statement<{ n: string }>('pgf_int8', 'SELECT @n::bigint AS n, count(*) AS c FROM (VALUES (1), (2)) v(x)');
    expect(await st.get(pool, { n: '1764201600000' })).toEqual({ n: 1764201600000, c: 2 });
    await expect(st.get(pool, { n: '9007199254740993' })).rejects.toThrow(/beyond JavaScript's safe integers/);
  });

  it('migrates once though several hosts start at once, and refuses a newer schema', async () => {
    const steps: PgMigration[] = [
      { version: 1, name: 'one', sql: 'CREATE TABLE one (id bigint PRIMARY KEY); INSERT INTO one VALUES (1)' },
      { version: 2, name: 'two', sql: 'INSERT INTO one SELECT max(id) + 1 FROM one' },
    ];
    const applied: number[] = [];
    const versions = await Promise.all([0, 1, 2].map(() => migratePg(pool, { onMigration: (m) => applied.push(m.version) }, steps)));
    expect(versions).toEqual([2, 2, 2]);
    expect(applied).toEqual([1, 2]);
    expect((await pool.query('SELECT id FROM one ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    // Again: nothing to do.
    expect(await migratePg(pool, {}, steps)).toBe(2);
    const err = await migratePg(pool, {}, steps.slice(0, 1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('schema_too_new');
  });

  it('rolls a failing step back whole', async () => {
    const steps: PgMigration[] = [
      { version: 1, name: 'one', sql: 'SELECT 1' },
      { version: 2, name: 'two', sql: 'SELECT 1' },
      { version: 3, name: 'bad', sql: 'CREATE TABLE half (id bigint); SELECT no_such_column FROM half' },
    ];
    await expect(migratePg(pool, {}, steps)).rejects.toThrow(/no_such_column/);
    expect((await pool.query("SELECT to_regclass('half') AS t")).rows[0]).toEqual({ t: null });
    expect((await pool.query('SELECT max(version) AS v FROM schema_migrations')).rows[0]).toEqual({ v: 2 });
  });
});

describe('units of work on PostgreSQL', () => {
  let db: PgTestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await pgTestDatabase();
    pool = openPgPool(db.url, { max: 2 });
    await pool.query('CREATE TABLE t (v bigint)');
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });
  const values = async () => (await pool.query<{ v: number }>('SELECT v FROM t ORDER BY v')).rows.map((r) => r.v);
  const insert = statement<{ v: number }>('pgf_insert', 'INSERT INTO t (v) VALUES (@v)');

  it('commits whole, rolls back whole, and a nested one is a savepoint', async () => {
    const x = poolExecutor(pool);
    await x.transaction(async (tx) => {
      await insert.run(tx, { v: 1 });
      await tx.transaction(async (inner) => insert.run(inner, { v: 2 }));
      await tx
        .transaction(async (inner) => {
          await insert.run(inner, { v: 3 });
          throw new Error('inner');
        })
        .catch(() => undefined);
    });
    expect(await values()).toEqual([1, 2]);
    await expect(
      x.transaction(async (tx) => {
        await insert.run(tx, { v: 4 });
        throw new Error('outer');
      }),
    ).rejects.toThrow('outer');
    expect(await values()).toEqual([1, 2]);
  });

  it('refuses a statement after the commit (a missing await), and its client goes back to the pool', async () => {
    let kept: PgExecutor | undefined;
    await poolExecutor(pool).transaction(async (tx) => {
      kept = tx;
    });
    expect(() => kept!.query({ text: 'SELECT 1' })).toThrow(/has ended/);
    // Both clients of the pool are free again.
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
  });
});

describe('PostgreSQL errors as the store says them', () => {
  let db: PgTestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await pgTestDatabase();
    pool = openPgPool(db.url, { max: 2 });
    await pool.query('CREATE TABLE u (k text PRIMARY KEY)');
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('a broken rule is db_constraint, naming the database without its password and keeping the SQLSTATE', async () => {
    await pool.query("INSERT INTO u VALUES ('a')");
    const raw = await pool.query("INSERT INTO u VALUES ('a')").catch((e: unknown) => e);
    const err = toPgStoreError(raw, redactedUrl('postgres://cs:s3cret@db.example/screen'));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('db_constraint');
    expect((err as StoreError).detail).toBe('23505');
    expect((err as StoreError).message).toContain('postgres://cs:***@db.example/screen');
    expect((err as StoreError).message).not.toContain('s3cret');
  });

  it('no server is db_unavailable; our own errors pass through', async () => {
    const nowhere = openPgPool('postgres://postgres@127.0.0.1:1/none', { connectionTimeoutMs: 2_000 });
    const raw = await nowhere.query('SELECT 1').catch((e: unknown) => e);
    await nowhere.end();
    expect(pgErrorCode(raw)).toBe('db_unavailable');
    expect((toPgStoreError(raw, 'x') as StoreError).code).toBe('db_unavailable');
    const own = new RangeError('ours');
    expect(toPgStoreError(own, 'x')).toBe(own);
    const c = await pool.connect();
    let timedOut: unknown;
    try {
      await c.query('BEGIN');
      await c.query("SET LOCAL statement_timeout = '10ms'");
      timedOut = await c.query('SELECT pg_sleep(1)').catch((e: unknown) => e);
    } finally {
      await c.query('ROLLBACK');
      c.release();
    }
    expect(pgErrorCode(timedOut)).toBe('db_busy');
  });
});
