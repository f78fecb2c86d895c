/**
 * /healthz while the record refuses writes (issue 32): 503 (reads are served, new work is not),
 * and 200 again as soon as it takes writes again — not a minute later. On SQLite the refusal is
 * its own SQLITE_FULL, made by capping the database's size with PRAGMA max_page_count (what a
 * full disk gives the store), then lifting the cap. On PostgreSQL it is the server's own
 * refusal of a read-only database (what a standby gives; worker/health/pg-write-probe.ts), made
 * with default_transaction_read_only and the database's sessions ended, then undone.
 */
import pg from 'pg';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { PG_ADMIN_URL } from '../helpers/pg-db.js';
import { until } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { onPostgres } from '../helpers/test-db.js';

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

/** carrier_screen_store_writes_refused_total for the backend's refusal (CarrierScreenWritesRefused's series). */
async function refusalsCounted(): Promise<number> {
  const res = await request(stack.intakeUrl + '/metrics', { headers: { authorization: `Bearer ${stack.token}` } });
  const code = onPostgres ? 'db_readonly' : 'sqlite_full';
  const m = new RegExp(`^carrier_screen_store_writes_refused_total\\{code="${code}"\\} (\\d+)$`, 'm').exec(await res.body.text());
  return Number(m?.[1] ?? 0);
}

/** Makes the record refuse writes; the function returned lets it write again. */
async function refuseWrites(): Promise<() => Promise<void>> {
  if (!onPostgres) {
    const db = connectionOf(sqliteStoreOf(stack.screener.store));
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    return async () => {
      db.pragma('max_page_count = 4294967294');
    };
  }
  const name = new URL(stack.screenDb).pathname.slice(1);
  // As the admin: read-only (or not) for new sessions, and the stack's sessions ended so its pool opens new ones.
  const readOnly = async (on: boolean): Promise<void> => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    try {
      await c.query(`ALTER DATABASE ${name} SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
      const { rows } = await c.query<{ pid: number }>(
        'SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      // Ended, not only told to end: else the pool may hand out a session that is on its way out
      // and the first write after the change fails with it (seen in CI, 1 run).
      const pids = rows.map((r) => r.pid);
      await until(
        'the ended sessions gone',
        5_000,
        async () => (await c.query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1::int[])', [pids])).rowCount === 0,
        50,
      );
    } finally {
      await c.end();
    }
  };
  await readOnly(true);
  return () => readOnly(false);
}

describe('/healthz and a store that cannot write', () => {
  it('is 503 storage_unavailable while writes are refused, and 200 ok once one succeeds', async () => {
    expect((await call('GET', '/healthz')).json).toMatchObject({ status: 'ok', record_writable: true });
    // No background writes while the disk is full: a finished lookup's UPDATE may still fit in the
    // file's free pages, and a write that succeeds rightly counts as "writable again".
    expect((await call('POST', '/queue/pause')).status).toBe(200);
    const countedBefore = await refusalsCounted();
    const allowWrites = await refuseWrites();
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    try {
      // Screenings until the record refuses one (SQLite: till the capped file has no room; each new carrier writes a screening and a job).
      for (let i = 0; i < 400 && !refused; i++) {
        const r = await call('POST', '/screenings', { dot_number: String(5_100_000 + i * 13), tender_id: `FULL-${i}-${'x'.repeat(100)}` });
        if (r.status === 503) refused = r;
      }
      expect(refused, 'the record never refused a write').toBeDefined();
      expect(refused!.json.error.code).toBe('storage_unavailable');
      // Counted for the alert (each refused statement: a batch's is tried again alone), with the backend's code.
      expect(await refusalsCounted()).toBeGreaterThan(countedBefore);
      const down = await call('GET', '/healthz');
      expect(down.status).toBe(503);
      expect(down.json).toMatchObject({
        status: 'degraded',
        redis: true,
        record: true,
        record_writable: false,
        record_backend: onPostgres ? 'postgresql' : 'sqlite',
        ...(onPostgres ? {} : { sqlite: true, sqlite_writable: false }),
        error: { code: 'storage_unavailable' },
      });
      expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
      // Reads are still served.
      expect((await call('GET', '/status')).status).toBe(200);
    } finally {
      await allowWrites();
    }
    // Room again: the next write succeeds, and /healthz says so at once (well within the minute a refusal is otherwise remembered).
    const after = await call('POST', '/screenings', { dot_number: '5099999' });
    expect([200, 202]).toContain(after.status);
    const up = await call('GET', '/healthz');
    expect([up.status, up.json.status, up.json.record_writable]).toEqual([200, 'ok', true]);
  });
});
