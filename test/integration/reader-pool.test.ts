/**
 * The reader pool (worker/store/reader-pool.ts, issue 35): heavy reads in threads on their own
 * read-only connections. A read served by a thread sees a write acknowledged just before it (over
 * HTTP: POST then GET, through the group commit; and on the store); a thread that dies fails its
 * read with 503-class StoreError 'reader_failed' and is replaced; the threads' connections are
 * read-only; a closed pool leaves no thread behind (its process exits by itself).
 * Over HTTP on either backend (PostgreSQL's reader runs the same jobs in process, record-reader.ts);
 * the threads over the SQLite file on SQLite only.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { openStore, StoreError, type Store } from '../../worker/store/index.js';
import { openReaderPool, type Reader } from '../../worker/store/reader-pool.js';
import { toHttpError } from '../../worker/intake/http-error.js';
import { ensureBuilt } from '../helpers/processes.js';
import { endThread, seeScreening, tryWrite } from '../helpers/reader-jobs.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { describeSqlite, onPostgres } from '../helpers/test-db.js';

describe('over HTTP: a read after an acknowledged write sees it', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await request(stack.intakeUrl + path, {
      method,
      headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
  }

  it('the lists are read by the reader (on SQLite, in the pool’s threads), and each sees the write answered just before it', async () => {
    // SQLite's reads run in the pool's threads; PostgreSQL's in this process, on the pool of connections.
    expect(stack.screener.reader.threads > 0).toBe(!onPostgres);
    // Cached once: the hits below are answered at once, each after its group's COMMIT.
    expect((await call('POST', '/screenings?wait=10', { dot_number: '1000001', tender_id: 'RYW-warm' })).status).toBe(200);
    // Several in flight at once, so they share group commits; each GET follows its own POST's answer.
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        for (let j = 0; j < 5; j++) {
          const tender = `RYW-${i}-${j}`;
          const p = await call('POST', '/screenings', { dot_number: '1000001', tender_id: tender });
          expect(p.status).toBe(200);
          expect((p.json as Screening).source).toBe('cache');
          const g = await call('GET', `/screenings?tender_id=${tender}`);
          expect(g.status).toBe(200);
          expect((g.json.data as Screening[]).map((s) => s.id)).toEqual([(p.json as Screening).id]);
        }
      }),
    );
  });

  it('a decision answered is in GET /reviews at once', async () => {
    const held = await call('POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'RYW-hold' });
    expect(held.json.action).toBe('hold');
    const reviewId = held.json.review.id as string;
    const pending = await call('GET', '/reviews?state=pending&limit=100');
    expect(pending.json.data.map((r: { id: string }) => r.id)).toContain(reviewId);
    const ok = await call('POST', `/reviews/${reviewId}/approve`, { by: 'Dana Dispatcher', note: 'read your writes' });
    expect(ok.status).toBe(200);
    const approved = await call('GET', '/reviews?state=approved&limit=100');
    expect(approved.json.data.map((r: { id: string }) => r.id)).toContain(reviewId);
    const after = await call('GET', '/reviews?state=pending&limit=100');
    expect(after.json.data.map((r: { id: string }) => r.id)).not.toContain(reviewId);
  });
});

describeSqlite('the pool on a store file', () => {
  let store: Store;
  let reader: Reader;
  let cleanup: () => void;
  beforeAll(() => {
    const db = tempDbPath();
    cleanup = db.cleanup;
    store = openStore(db.path);
    reader = openReaderPool(store, { size: 2 });
  });
  afterAll(async () => {
    await reader?.close();
    store?.close();
    cleanup?.();
  });

  const newScreening = (tender: string) =>
    store.insertScreening({ query: { dot_number: '1000001' }, tender_id: tender, priority: 'tender', refresh: false, callback_url: null });

  it('reads in another thread, and sees what the store committed just before', async () => {
    for (let i = 0; i < 20; i++) {
      const s = newScreening(`POOL-${i}`);
      const seen = await reader.read(seeScreening, s.id);
      expect(seen.found).toBe(s.id);
      expect(seen.threadId).not.toBe(threadId);
    }
  });

  it('its connections are read-only', async () => {
    await expect(reader.read(tryWrite, undefined)).rejects.toMatchObject({ name: 'StoreError', code: 'sqlite_readonly' });
  });

  it('a thread that dies fails its read with reader_failed, and the next reads are served by a new one', async () => {
    const err = await reader.read(endThread, undefined).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect(err).toMatchObject({ code: 'reader_failed' });
    // What a route answers for it: 503, in general terms.
    expect(toHttpError(err)).toMatchObject({ statusCode: 503, code: 'storage_unavailable' });
    for (let i = 0; i < 4; i++) {
      const s = newScreening(`POOL-after-${i}`);
      expect((await reader.read(seeScreening, s.id)).found).toBe(s.id);
    }
  });

  it('closed, it refuses reads', async () => {
    const db = tempDbPath();
    const s = openStore(db.path);
    const r = openReaderPool(s, { size: 1 });
    const id = s.insertScreening({
      query: { dot_number: '1000001' },
      tender_id: 'C',
      priority: 'tender',
      refresh: false,
      callback_url: null,
    }).id;
    expect((await r.read(seeScreening, id)).found).toBe(id);
    await r.close();
    await expect(r.read(seeScreening, id)).rejects.toMatchObject({ code: 'store_closed' });
    s.close();
    db.cleanup();
  });
});

describeSqlite('an in-memory store', () => {
  it('has no file to share: jobs run on its own connection', async () => {
    const s = openStore(':memory:');
    const r = openReaderPool(s, { size: 2, warm: 2 });
    try {
      expect(r.threads).toBe(0);
      const id = s.insertScreening({
        query: { dot_number: '1000001' },
        tender_id: 'M',
        priority: 'tender',
        refresh: false,
        callback_url: null,
      }).id;
      expect(await r.read(seeScreening, id)).toEqual({ found: id, threadId });
    } finally {
      await r.close();
      s.close();
    }
  });
});

describeSqlite('shutdown', () => {
  it('a process that closes its pool exits by itself: no thread is left running', async () => {
    await ensureBuilt();
    const dist = (p: string) => fileURLToPath(new URL(`../../dist/${p}`, import.meta.url));
    const db = tempDbPath();
    // Reads on both threads, then close: the threads keep the process alive until the pool ends them.
    const script = `
      const { openStore } = await import(${JSON.stringify(dist('worker/store/sqlite-store.js'))});
      const { openReaderPool } = await import(${JSON.stringify(dist('worker/store/reader-pool.js'))});
      const { reviewsPage } = await import(${JSON.stringify(dist('worker/store/list-reads.js'))});
      const store = openStore(${JSON.stringify(db.path)});
      const reader = openReaderPool(store, { size: 2 });
      await Promise.all([1, 2, 3, 4].map(() => reader.read(reviewsPage, { state: undefined, page: { limit: 10 } })));
      if (process.argv.includes('--close')) await reader.close();
      store.close();
      console.log('done');
    `;
    const run = (close: boolean) =>
      new Promise<{ code: number | null; out: string; killed: boolean }>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, '--', ...(close ? ['--close'] : [])], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        let killed = false;
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          // Printed 'done' and still running after its pool was left open: that is the failure shown.
          if (!close && out.includes('done')) setImmediate(() => ((killed = child.kill('SIGKILL')), undefined));
        });
        child.on('exit', (code) => resolve({ code, out, killed }));
      });
    try {
      const closed = await run(true);
      expect(closed.out).toContain('done');
      expect(closed.code).toBe(0);
      // The control: the same without close() does not end by itself (so the check above can fail).
      const open = await run(false);
      expect(open.out).toContain('done');
      expect(open.killed).toBe(true);
    } finally {
      db.cleanup();
    }
  }, 240_000);
});
