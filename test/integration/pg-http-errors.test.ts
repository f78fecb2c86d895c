/**
 * What a route answers when the PostgreSQL record fails under it (docs/operations.md "Two hosts":
 * a primary that goes away, a promoted standby not yet pointed at): 503 `storage_unavailable` in
 * general terms, never a 500, never the server's address. Real failures of a real server: a
 * refused connection, a session the server ends (as a restart or a failover does), a write to a
 * read-only database (as on a standby).
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHttpError } from '../../worker/intake/http-error.js';
import { toPgStoreError } from '../../worker/store/pg/pg-errors.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { freePort } from '../helpers/free-port.js';
import { pgTestDatabase, type PgTestDatabase } from '../helpers/pg-db.js';

/** The failure as a route sees it: the driver's error made the store's, then the HTTP answer. */
function answered(raw: unknown): { statusCode: number; code: string; message: string } {
  expect(raw).toBeInstanceOf(Error);
  return toHttpError(toPgStoreError(raw, 'postgres://cs:***@db1.corp.example/screen')) as unknown as {
    statusCode: number;
    code: string;
    message: string;
  };
}

describe('the PostgreSQL record failing under a request', () => {
  let db: PgTestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await pgTestDatabase();
    pool = openPgPool(db.url, { max: 2 });
    await pool.query('CREATE TABLE t (k text PRIMARY KEY)');
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('no server there: 503 storage_unavailable, naming neither the server nor the driver', async () => {
    const nowhere = openPgPool(`postgres://postgres@127.0.0.1:${await freePort()}/none`, { connectionTimeoutMs: 2_000 });
    const raw = await nowhere.query('SELECT 1').catch((e: unknown) => e);
    await nowhere.end();
    const a = answered(raw);
    expect(a).toMatchObject({ statusCode: 503, code: 'storage_unavailable' });
    expect(a.message).not.toMatch(/127\.0\.0\.1|db1|ECONNREFUSED|postgres:/);
  });

  it('the session ended by the server (a restart, a failover): 503, and the pool connects again', async () => {
    const c = await pool.connect();
    const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    c.on('error', () => {}); // the server's notice of the end arrives on the idle client too
    await pool.query('SELECT pg_terminate_backend($1)', [pid]);
    const raw = await c.query('SELECT 1').catch((e: unknown) => e);
    c.release(true);
    expect(answered(raw)).toMatchObject({ statusCode: 503, code: 'storage_unavailable' });
    expect((await pool.query<{ n: number }>('SELECT 1 AS n')).rows[0]!.n).toBe(1);
  });

  it('a write to a read-only database (a standby): 503 saying it is read-only', async () => {
    const c = await pool.connect();
    try {
      await c.query('BEGIN READ ONLY');
      const raw = await c.query("INSERT INTO t VALUES ('a')").catch((e: unknown) => e);
      await c.query('ROLLBACK');
      const a = answered(raw);
      expect(a).toMatchObject({ statusCode: 503, code: 'storage_unavailable' });
      expect(a.message).toMatch(/read-only/);
    } finally {
      c.release();
    }
  });
});
