/**
 * /healthz while SQLite refuses writes (issue 32): 503 (reads are served, new work is not),
 * and 200 again as soon as the disk takes writes again — not a minute later. The refusal is
 * SQLite's own SQLITE_FULL, made by capping the database's size with PRAGMA max_page_count
 * (what a full disk gives the store), then lifting the cap.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { itSqlite } from '../helpers/test-db.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, headers: res.headers, json: (await res.body.json()) as any };
}

describe('/healthz and a store that cannot write', () => {
  itSqlite('is 503 storage_unavailable while writes are refused, and 200 ok once one succeeds', async () => {
    expect((await call('GET', '/healthz')).json).toMatchObject({ status: 'ok', sqlite_writable: true });
    // No background writes while the disk is full: a finished lookup's UPDATE may still fit in the
    // file's free pages, and a write that succeeds rightly counts as "writable again".
    expect((await call('POST', '/queue/pause')).status).toBe(200);
    const db = connectionOf(sqliteStoreOf(stack.screener.store));
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    try {
      // Screenings until the capped file has no room (each new carrier writes a screening and a job).
      for (let i = 0; i < 400 && !refused; i++) {
        const r = await call('POST', '/screenings', { dot_number: String(5_100_000 + i * 13), tender_id: `FULL-${i}-${'x'.repeat(100)}` });
        if (r.status === 503) refused = r;
      }
      expect(refused, 'the capped database never refused a write').toBeDefined();
      expect(refused!.json.error.code).toBe('storage_unavailable');
      const down = await call('GET', '/healthz');
      expect(down.status).toBe(503);
      expect(down.json).toMatchObject({
        status: 'degraded',
        redis: true,
        record: true,
        record_writable: false,
        record_backend: 'sqlite',
        sqlite: true,
        sqlite_writable: false,
        error: { code: 'storage_unavailable' },
      });
      expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
      // Reads are still served.
      expect((await call('GET', '/status')).status).toBe(200);
    } finally {
      db.pragma('max_page_count = 4294967294');
    }
    // Room again: the next write succeeds, and /healthz says so at once (well within the minute a refusal is otherwise remembered).
    const after = await call('POST', '/screenings', { dot_number: '5099999' });
    expect([200, 202]).toContain(after.status);
    const up = await call('GET', '/healthz');
    expect([up.status, up.json.status, up.json.sqlite_writable]).toEqual([200, 'ok', true]);
  });
});
