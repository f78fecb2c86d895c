import Database from 'better-sqlite3';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type OwnRedis } from '../helpers/redis-server.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { countRows, describeSqlite } from '../helpers/test-db.js';

async function call(stack: Stack, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, json: (await res.body.json()) as any };
}

describe('Redis down', () => {
  let redis: OwnRedis;
  let stack: Stack;
  beforeAll(async () => {
    redis = await startRedis();
    stack = await startStack({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await redis.start().catch(() => {});
    await stack?.close();
    await redis?.stop();
  });

  it('POST /screenings is 503 unavailable and keeps nothing; /healthz is 503 naming Redis', async () => {
    const screenings = (): Promise<number> => countRows(stack.screenDb, 'screenings');
    const before = await screenings();
    await redis.kill();
    const r = await call(stack, 'POST', '/screenings', { dot_number: '1000001' });
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('unavailable');
    expect(r.json.error.message).toMatch(/Redis/);
    expect(await screenings()).toBe(before);

    const h = await request(`${stack.intakeUrl}/healthz`);
    const body = (await h.body.json()) as any;
    expect(h.statusCode).toBe(503);
    expect(body).toMatchObject({ status: 'down', redis: false, record: true });
    expect(body.error.message).toMatch(/Redis/);
  });
});

describe('Redis down at stop', () => {
  let redis: OwnRedis;
  afterAll(async () => {
    await redis?.stop();
  });

  // Hung here (till the test's timeout) while a queue worker's blocking connection was between two reconnect attempts.
  it('the worker stops while Redis is down: close() ends, not waiting for a connection that is not coming back', async () => {
    redis = await startRedis();
    const stack = await startStack({ redisUrl: redis.url });
    await redis.kill();
    expect((await call(stack, 'POST', '/screenings', { dot_number: '1000001' })).status).toBe(503);
    await stack.close();
  });
});

describeSqlite('SQLite not writable', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('a database locked by another process is 503 storage_unavailable with a clear message, not a 500', async () => {
    // Root ignores file modes, so a real lock is the dependable way to refuse a write here.
    const other = new Database(stack.dbPath);
    other.exec('BEGIN EXCLUSIVE');
    try {
      const r = await call(stack, 'POST', '/screenings', { dot_number: '1000001' });
      expect(r.status).toBe(503);
      expect(r.json.error.code).toBe('storage_unavailable');
      expect(r.json.error.message).toMatch(/locked by another process/);
      expect(JSON.stringify(r.json)).not.toContain(stack.dbPath);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const ok = await call(stack, 'POST', '/screenings?wait=10', { dot_number: '1000005' });
    expect(ok.status).toBe(200);
  });
});
