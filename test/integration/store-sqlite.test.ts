import { recordOf } from '../../worker/store/index.js';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcScore } from '../../shared/svc-contract.js';
import { latestVersion, migrate, MIGRATIONS, openStore, StoreError, toStoreError, type Store } from '../../worker/store/index.js';
import { CarrierDecisions, type ReviewOutcome } from '../../worker/decisions/carrier-decisions.js';
import { BACKSTOP_CHECKPOINT_PAGES } from '../../worker/store/checkpointer.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { integrityOf } from '../helpers/integrity.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function score(dot: string, over: Partial<SvcScore> = {}): SvcScore {
  return {
    object: 'svc_score',
    livemode: true,
    carrier: { dot_number: dot, mc_number: `MC${dot}`, legal_name: null, dba_name: null },
    score: 90,
    grade: 'A',
    decision: 'approved',
    verdict: null,
    needs_manual_review: false,
    knockout: { triggered: false, reasons: [] },
    reasons: [],
    data_confidence: 1,
    model_version: 'carrier-risk-3.5',
    calculated_at: '2025-03-15T08:00:00Z',
    ...over,
  };
}

// ---- other processes: the store bundled to CommonJS, run by plain `node` ----

/** better-sqlite3 as it loads at run time (JS, the compiled addon) and what it requires. */
function copyRuntimeModules(from: string, to: string): void {
  const parts = ['better-sqlite3/package.json', 'better-sqlite3/lib', 'better-sqlite3/prebuilds'];
  for (const part of parts) cpSync(join(from, part), join(to, part), { recursive: true });
}

let bundleDir: string;
let bundle: string;

beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'cs-store-bundle-'));
  chmodSync(bundleDir, 0o755); // readable by the unprivileged child below
  bundle = join(bundleDir, 'store.cjs');
  // The child may run as "nobody", who cannot enter a checkout in a private (mode 700) home:
  // give it its own copy of what the bundle requires at run time, beside the bundle.
  copyRuntimeModules(join(ROOT, 'node_modules'), join(bundleDir, 'node_modules'));
  await build({
    entryPoints: [join(ROOT, 'worker/store/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: bundle,
    external: ['better-sqlite3'],
    logLevel: 'silent',
  });
});

afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

/** Run `body` (JS with `openStore`, `args` in scope; its return value is printed) in a new node process. */
function inChild(body: string, args: unknown, opts: { uid?: number; gid?: number } = {}): Promise<unknown> {
  const script = `
    const { openStore } = require(${JSON.stringify(bundle)});
    const args = JSON.parse(process.argv[1]);
    (async () => { ${body} })().then(
      (out) => process.stdout.write(JSON.stringify({ ok: out === undefined ? null : out })),
      (err) => process.stdout.write(JSON.stringify({ err: { name: err.name, code: err.code, message: err.message } })),
    );`;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['-e', script, JSON.stringify(args)], {
      env: { ...process.env, NODE_PATH: join(bundleDir, 'node_modules') },
      cwd: bundleDir,
      ...opts,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || out === '') return reject(new Error(`child exited ${code}: ${err}`));
      resolvePromise(JSON.parse(out));
    });
  });
}

let db: ReturnType<typeof tempDbPath>;
const open: Store[] = [];
function track(s: Store): Store {
  open.push(s);
  return s;
}

beforeEach(() => {
  db = tempDbPath();
});

afterEach(() => {
  for (const s of open.splice(0)) s.close();
  db.cleanup();
});

describe('the file', () => {
  it('creates missing parent directories and uses WAL', () => {
    const path = join(db.dir, 'a', 'b', 'screen.db');
    const store = track(openStore(path));
    expect(store.path).toBe(path);
    expect(existsSync(path)).toBe(true);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
    expect(integrityOf(store)).toBe('ok');
  });

  it('keeps data across close and reopen', () => {
    const a = openStore(db.path);
    const s = a.insertScreening({ query: { dot_number: '7' }, tender_id: null, priority: 'background', refresh: true, callback_url: null });
    a.putScore('live', score('7'));
    a.close();
    const b = track(openStore(db.path));
    expect(b.getScreening(s.id)).toEqual(s);
    expect(b.getScore('live', { mc_number: 'MC7' })?.score).toEqual(score('7'));
  });

  it('refuses calls after close with a StoreError, and close twice is harmless', () => {
    const store = openStore(db.path);
    store.close();
    store.close();
    expect(() => store.countPendingReviews()).toThrow(expect.objectContaining({ name: 'StoreError', code: 'store_closed' }));
  });
});

describe('a screening written done in one insert (a cache hit)', () => {
  it('reads back exactly as returned, and as a queued screening completed the same way would', () => {
    const db = tempDbPath();
    const store = openStore(db.path);
    try {
      const fetchId = store.putScore('live', score('21'), new Date('2026-11-01T00:00:00Z'));
      const result = {
        action: 'tender' as const,
        hold_reason: null,
        source: 'cache' as const,
        score: score('21'),
        score_fetched_at: '2026-11-01T00:00:00.000Z',
        error: null,
        score_fetch_id: fetchId,
      };
      const n = {
        query: { dot_number: '21' },
        tender_id: 'L-1',
        priority: 'tender' as const,
        refresh: false,
        callback_url: 'https://tms.example/cb',
      };
      const done = store.insertScreening(n, result);
      expect(done.status).toBe('done');
      expect(store.getScreening(done.id)).toEqual(done);
      const queued = store.insertScreening(n);
      const completed = store.completeScreening(queued.id, result).screening;
      // The same screening, but for its version: one change written at once against two (queued, then done).
      const shape = (s: typeof done) => ({ ...s, id: '', created_at: '', completed_at: '', updated_at: '', version: 0 });
      expect(shape(done)).toEqual(shape(completed));
      expect([done.version, completed.version]).toEqual([1, 2]);
      // Not in the reconciler's list of unfinished work, and completing it again changes nothing.
      expect(store.listUnfinished().map((s) => s.id)).toEqual([]);
      expect(store.completeScreening(done.id, { ...result, action: 'block' }).changed).toBe(false);
      expect(() => store.insertScreening(n, { ...result, action: 'maybe' as never })).toThrow(/action/);
      // One parsed score per fetch, shared by its hits and frozen so none can change it for the others.
      const a = store.getScore('live', { dot_number: '21' })!;
      expect(store.getScore('live', { dot_number: '021' })!.score).toBe(a.score);
      expect(Object.isFrozen(a.score.carrier)).toBe(true);
      expect(() => {
        (a.score.carrier as { legal_name: string | null }).legal_name = 'changed';
      }).toThrow(TypeError);
      store.putScore('live', score('21', { score: 40 }), new Date('2026-11-02T00:00:00Z'));
      expect(store.getScore('live', { dot_number: '21' })!.score.score).toBe(40);
    } finally {
      store.close();
      db.cleanup();
    }
  });
});

describe('background checkpoints', () => {
  const bigRows = (store: Store, n: number): void => {
    const body = 'x'.repeat(3000);
    store.transaction(() => {
      for (let i = 0; i < n; i++) store.appendEvent('screening.completed', { i, body });
    });
  };
  const fileSize = (path: string): number => statSync(path).size;

  it('a thread copies the WAL into the database file; commits never do it themselves below the backstop', async () => {
    const store = track(openStore(db.path, { backgroundCheckpoints: true }));
    const before = fileSize(db.path);
    bigRows(store, 2000); // ~2000 pages: past SQLite's default threshold, well below the backstop
    // Wait (bounded) for the thread's next pass.
    const deadline = Date.now() + 10_000;
    while (fileSize(db.path) < before + 4_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fileSize(db.path)).toBeGreaterThan(before + 4_000_000);
    expect(integrityOf(store)).toBe('ok');
  });

  it("leaves the store's own connection only the backstop; without the option, SQLite's default", () => {
    const bg = track(openStore(db.path, { backgroundCheckpoints: true }));
    expect(connectionOf(bg).pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_CHECKPOINT_PAGES);
    const plain = track(openStore(db.path));
    expect(connectionOf(plain).pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});

describe('several processes on one file', () => {
  it('two Store instances see each other’s writes', async () => {
    const a = track(openStore(db.path));
    const b = track(openStore(db.path));
    a.putScore('live', score('11'));
    expect(b.getScore('live', { dot_number: '11' })?.score.score).toBe(90);
    const s = b.insertScreening({ query: { dot_number: '11' }, tender_id: 'x', priority: 'tender', refresh: false, callback_url: null });
    const hold = {
      action: 'hold',
      hold_reason: 'manual_review',
      source: 'cache',
      score: score('11'),
      score_fetched_at: null,
      error: null,
    } as const;
    // The review opened as the pipeline opens it (CarrierDecisions, in the store's transaction);
    // the other instance sees it there and opens no second one.
    const decisionsOn = (store: Store) =>
      new CarrierDecisions({ store: recordOf(store), env: 'live', ttlMs: 3_600_000, now: () => new Date() });
    const opened = await recordOf(b).unitOfWork((tx) => decisionsOn(b).onHold(tx, s, hold));
    expect(opened).toMatchObject({ kind: 'review', created: true, joined: false });
    const again = await recordOf(a).unitOfWork((tx) => decisionsOn(a).onHold(tx, s, hold));
    expect(again).toEqual({ ...opened, created: false });
    a.completeScreening(s.id, hold);
    const review = a.getReview((opened as ReviewOutcome).reviewId)!;
    expect(b.getReview(review.id)).toEqual(review);
    a.resolveReview(review.id, 'approved', 'dana', null);
    expect(() => b.resolveReview(review.id, 'rejected', 'eve', null)).toThrow(expect.objectContaining({ name: 'ReviewConflictError' }));
    const e1 = a.appendEvent('review.created', { id: review.id });
    const e2 = b.appendEvent('review.resolved', { id: review.id });
    expect(e2.id).toBeGreaterThan(e1.id);
    expect(a.eventsSince(0)).toEqual([e1, e2]);
    expect(b.lastEventId()).toBe(e2.id);
  });

  it('real child processes write concurrently with this one; event ids stay unique and increasing', async () => {
    const parent = track(openStore(db.path));
    parent.putScore('live', score('21'));
    const writer = `
      const store = openStore(args.path);
      const seen = store.getScore('live', { dot_number: '21' }) !== undefined;
      const ids = [];
      for (let i = 0; i < args.n; i++) ids.push(store.appendEvent('queue.changed', { who: args.who, i }).id);
      const s = store.insertScreening({ query: { dot_number: args.who }, tender_id: null, priority: 'tender', refresh: false, callback_url: null });
      store.close();
      return { seen, ids, screening: s.id };`;
    const children = ['31', '32'].map((who) => inChild(writer, { path: db.path, n: 200, who }));
    const mine: number[] = [];
    for (let i = 0; i < 200; i++) {
      mine.push(parent.appendEvent('queue.changed', { who: 'parent', i }).id);
      if (i % 20 === 0) await new Promise((r) => setImmediate(r));
    }
    const results = (await Promise.all(children)) as Array<{ ok: { seen: boolean; ids: number[]; screening: string } }>;

    const all = parent.eventsSince(0, 10_000);
    expect(all).toHaveLength(600);
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(600);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    for (const { ok } of results) {
      expect(ok.seen).toBe(true);
      expect(ok.ids).toEqual([...ok.ids].sort((x, y) => x - y));
      expect(parent.getScreening(ok.screening)?.status).toBe('queued');
    }
    expect(mine).toEqual([...mine].sort((x, y) => x - y));
    expect(integrityOf(parent)).toBe('ok');
  });

  it('processes opening a fresh file at once apply each migration exactly once', async () => {
    const opener = `const s = openStore(args.path); const n = s.lastEventId(); s.close(); return n;`;
    const results = await Promise.all([1, 2, 3, 4].map(() => inChild(opener, { path: db.path })));
    expect(results).toEqual([{ ok: 0 }, { ok: 0 }, { ok: 0 }, { ok: 0 }]);
    const raw = new Database(db.path, { readonly: true });
    expect(raw.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version })),
    );
    raw.close();
  });
});

describe('migrations', () => {
  it('a new file is at the latest version with every step recorded; reopening applies nothing again', () => {
    openStore(db.path, { now: () => new Date('2025-01-01T00:00:00Z') }).close();
    openStore(db.path, { now: () => new Date('2026-01-01T00:00:00Z') }).close();
    const raw = new Database(db.path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(latestVersion());
    const rows = raw.prepare('SELECT version, applied_at FROM schema_migrations').all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, applied_at: '2025-01-01T00:00:00.000Z' })));
    raw.close();
  });

  it('an older database gets the newer steps, in order, with its data kept', () => {
    const raw = new Database(db.path);
    migrate(raw, db.path, MIGRATIONS);
    raw.prepare("INSERT INTO events (event, data, created_at) VALUES ('queue.changed', '{}', '2025-01-01T00:00:00Z')").run();
    const next = [
      ...MIGRATIONS,
      { version: MIGRATIONS.length + 1, name: 'add a column', sql: 'ALTER TABLE events ADD COLUMN origin TEXT' },
      { version: MIGRATIONS.length + 2, name: 'fill it', sql: "UPDATE events SET origin = 'old'" },
    ];
    expect(migrate(raw, db.path, next)).toBe(MIGRATIONS.length + 2);
    expect(raw.prepare('SELECT id, origin FROM events').all()).toEqual([{ id: 1, origin: 'old' }]);
    expect(raw.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length + 2 });
    raw.close();
  });

  it('a failing step rolls back whole and leaves the version where it was', () => {
    const raw = new Database(db.path);
    migrate(raw, db.path, MIGRATIONS);
    const broken = [
      ...MIGRATIONS,
      { version: MIGRATIONS.length + 1, name: 'broken', sql: 'CREATE TABLE half (x); SELECT * FROM no_such_table;' },
    ];
    expect(() => migrate(raw, db.path, broken)).toThrow(/no_such_table/);
    expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    raw.close();
  });

  it('a database from a newer program is refused with schema_too_new', () => {
    const raw = new Database(db.path);
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openStore(db.path)).toThrow(expect.objectContaining({ name: 'StoreError', code: 'schema_too_new' }));
  });
});

describe('failures are StoreErrors with a code', () => {
  function storeErrorOf(fn: () => unknown): StoreError {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(StoreError);
      return err as StoreError;
    }
    throw new Error('expected a StoreError, nothing was thrown');
  }

  // 0o755: not even the -wal/-shm files can be made; 0o777: they can, only the database file is read-only.
  it.each([0o755, 0o777])(
    'a read-only file (directory mode %o): opening it gives sqlite_readonly, in an unprivileged process',
    async (dirMode) => {
      openStore(db.path).close();
      chmodSync(db.path, 0o444);
      chmodSync(db.dir, dirMode);
      // Root ignores file modes: run the attempt as "nobody" then (spawn can drop privileges as root).
      const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const result = (await inChild('openStore(args.path);', { path: db.path }, asUser)) as {
        err?: { name: string; code: string; message: string };
      };
      expect(result.err).toMatchObject({ name: 'StoreError', code: 'sqlite_readonly' });
      expect(result.err?.message).toContain(db.path);
      expect(result.err?.message).not.toMatch(/\n\s+at /); // no stack trace in the message
    },
  );

  it('a store opened read-only reads, and a write gives sqlite_readonly', () => {
    const w = openStore(db.path);
    w.putScore('live', score('5'));
    w.close();
    const r = track(openStore(db.path, { readonly: true }));
    expect(r.getScore('live', { dot_number: '5' })?.score.score).toBe(90);
    const err = storeErrorOf(() => r.putScore('live', score('6')));
    expect(err.code).toBe('sqlite_readonly');
    expect(err.message).toContain(db.path);
  });

  it('read-only on a database not yet migrated gives schema_outdated', () => {
    new Database(db.path).close();
    expect(storeErrorOf(() => openStore(db.path, { readonly: true })).code).toBe('schema_outdated');
  });

  it('read-only on a missing file gives sqlite_cantopen', () => {
    expect(storeErrorOf(() => openStore(join(db.dir, 'missing.db'), { readonly: true })).code).toBe('sqlite_cantopen');
  });

  it('a file that is not a database gives sqlite_corrupt', () => {
    writeFileSync(db.path, Buffer.alloc(8192, 'not a database '));
    const err = storeErrorOf(() => openStore(db.path));
    expect(err.code).toBe('sqlite_corrupt');
    expect(err.detail).toBe('SQLITE_NOTADB');
  });

  it('a parent path that is a file gives sqlite_cantopen naming the path', () => {
    writeFileSync(join(db.dir, 'plain-file'), 'x');
    const path = join(db.dir, 'plain-file', 'screen.db');
    const err = storeErrorOf(() => openStore(path));
    expect(err.code).toBe('sqlite_cantopen');
    expect(err.message).toContain(path);
  });

  it('a lock held by another connection gives sqlite_busy once the busy timeout runs out', () => {
    const store = track(openStore(db.path, { busyTimeoutMs: 20 }));
    const other = new Database(db.path);
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(storeErrorOf(() => store.appendEvent('queue.changed', {})).code).toBe('sqlite_busy');
      expect(storeErrorOf(() => openStore(db.path, { busyTimeoutMs: 20 })).code).toBe('sqlite_busy');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(store.appendEvent('queue.changed', {}).id).toBe(1);
  });

  it('a full database maps to sqlite_full', () => {
    const raw = new Database(db.path);
    raw.exec('CREATE TABLE blob (b BLOB)');
    raw.pragma(`max_page_count = ${raw.pragma('page_count', { simple: true }) as number}`);
    let caught: unknown;
    try {
      raw.prepare('INSERT INTO blob VALUES (zeroblob(100000))').run();
    } catch (err) {
      caught = err;
    }
    raw.close();
    expect(toStoreError(caught, db.path)).toMatchObject({ name: 'StoreError', code: 'sqlite_full', detail: 'SQLITE_FULL' });
  });

  it('bad arguments are not disguised as storage errors', () => {
    const store = track(openStore(db.path));
    expect(() => store.eventsSince(-1)).toThrow(expect.objectContaining({ name: 'StoreArgumentError', param: 'lastId' }));
    expect(() => openStore('')).toThrow(expect.objectContaining({ param: 'path' }));
  });
});
