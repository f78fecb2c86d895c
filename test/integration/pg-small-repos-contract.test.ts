import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idempotencyOf, type IdempotencyRow } from '../../worker/store/idempotency-repo.js';
import { openStore } from '../../worker/store/index.js';
import { operatorStateOf, type OperatorStateRepo } from '../../worker/store/operator-state-repo.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { poolExecutor, type PgExecutor } from '../../worker/store/pg/executor.js';
import { pgIdempotencyOf, type PgIdempotencyRepo } from '../../worker/store/pg/idempotency-repo.js';
import { pgOperatorStateOf } from '../../worker/store/pg/operator-state-repo.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { pgRescreenHoldsOf } from '../../worker/store/pg/rescreen-holds-repo.js';
import { pgTokensOf } from '../../worker/store/pg/tokens-repo.js';
import {
  lastRefusalOf as pgLastRefusalOf,
  notePgStoreFailure,
  notePgStoreWrite,
  pgProbeCodeOf,
  probeCommit as pgProbeCommit,
} from '../../worker/store/pg/write-probe.js';
import { rescreenHoldsOf, type RescreenHoldsRepo } from '../../worker/store/rescreen-holds-repo.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tokensOf, type TokensRepo } from '../../worker/store/tokens-repo.js';
import { lastRefusalOf, probeCommit } from '../../worker/store/write-probe.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

/**
 * The small repositories (tokens, operator state, idempotency keys, the write probe, rescreen
 * holds): the same cases on SQLite and on PostgreSQL, through the repository interfaces; then
 * what only PostgreSQL must show, several hosts at once.
 */

type Row = Record<string, string | number | null>;

interface Backend {
  tokens: AsyncRepo<TokensRepo>;
  operatorState: AsyncRepo<OperatorStateRepo>;
  idempotency: PgIdempotencyRepo;
  holds(retryMs: number, limit: number): AsyncRepo<RescreenHoldsRepo>;
  probeCommit(at: string): Promise<string | undefined>;
  lastRefusal(): unknown;
  /** The code the probe gives when another session holds the write lock. */
  busyCode: string;
  /** Another session takes the lock a write needs and keeps it until the returned function runs. */
  holdWriteLock(): Promise<() => Promise<void>>;
  /** Fixture rows, written with plain SQL (screenings and reviews come from other repositories). */
  insert(table: 'screenings' | 'reviews', row: Row): Promise<void>;
  clear(table: 'screenings' | 'intake_tokens'): Promise<void>;
  close(): Promise<void>;
}

/** A sync repository answering Promises, as its PG twin does. */
function async<R extends object>(repo: R): AsyncRepo<R> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(repo))
    out[k] = typeof v === 'function' ? async (...a: unknown[]) => (v as (...a: unknown[]) => unknown)(...a) : v;
  return out as AsyncRepo<R>;
}

function makeSqlite(): Backend {
  const tmp = tempDbPath();
  const store = openStore(tmp.path);
  const db = connectionOf(store);
  return {
    tokens: async(tokensOf(store)),
    operatorState: async(operatorStateOf(store)),
    idempotency: async(idempotencyOf(store)) as PgIdempotencyRepo,
    holds: (retryMs, limit) => async(rescreenHoldsOf(retryMs, limit)(store)),
    probeCommit: async (at) => probeCommit(store, at),
    lastRefusal: () => lastRefusalOf(store),
    busyCode: 'sqlite_busy',
    holdWriteLock: async () => {
      const other = new Database(tmp.path);
      other.exec('BEGIN IMMEDIATE');
      return async () => {
        other.exec('ROLLBACK');
        other.close();
      };
    },
    insert: async (table, row) => {
      const cols = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(row);
    },
    clear: async (table) => void db.exec(`DELETE FROM ${table}`),
    close: async () => {
      store.close();
      tmp.cleanup();
    },
  };
}

async function makePg(): Promise<Backend & { pool: pg.Pool; x: PgExecutor; url: string; name: string }> {
  const { db, pool, close } = await migratedPgDatabase();
  const x = poolExecutor(pool);
  return {
    pool,
    x,
    url: db.url,
    name: db.name,
    tokens: pgTokensOf(x),
    operatorState: pgOperatorStateOf(x),
    idempotency: pgIdempotencyOf(x),
    holds: (retryMs, limit) => pgRescreenHoldsOf(retryMs, limit)(x),
    probeCommit: (at) => pgProbeCommit(x, at),
    lastRefusal: () => pgLastRefusalOf(x),
    busyCode: 'db_busy',
    holdWriteLock: async () => {
      const c = await pool.connect();
      await c.query('BEGIN');
      await c.query('LOCK TABLE operator_state IN EXCLUSIVE MODE');
      return async () => {
        await c.query('ROLLBACK');
        c.release();
      };
    },
    insert: async (table, row) => {
      const cols = Object.keys(row);
      await pool.query(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(row),
      );
    },
    clear: async (table) => void (await pool.query(`DELETE FROM ${table}`)),
    close,
  };
}

const T0 = Date.parse('2026-11-27T06:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const SEC = 1000;
const MIN = 60 * SEC;

/** worker/decisions/idempotency.ts's rules, as a `decide` (that class is bound to the SQLite Store). */
function idempotencyRules(hash: string, nowMs: number, seen: (IdempotencyRow | undefined)[] = []) {
  return (row: IdempotencyRow | undefined) => {
    seen.push(row);
    const live = row && nowMs - Date.parse(row.created_at) < 24 * 3_600_000;
    if (row && live) {
      if (row.request_hash !== hash) return { result: 'conflict' as const };
      if (row.resource_id !== null) return { result: `replay ${row.resource_id}` };
      if (nowMs - Date.parse(row.created_at) < MIN) return { result: 'in_progress' as const };
    }
    return { result: 'new' as const, take: { hash, at: new Date(nowMs).toISOString() } };
  };
}

describe.each([
  ['sqlite', async () => makeSqlite()],
  ['postgres', makePg],
] as const)('small repositories on %s', (_name, make) => {
  let b: Backend;
  beforeAll(async () => {
    b = await make();
  });
  afterAll(async () => {
    await b?.close();
  });

  describe('tokens', () => {
    const token = (n: number, created: string) => ({
      id: `tok_${n}`,
      name: `token ${n}`,
      role: 'tms',
      hash: `hash-${n}`,
      prefix: `cs_${n}`,
      created_at: created,
      api_version: '2026-11-25',
    });
    beforeEach(async () => b.clear('intake_tokens'));

    it('finds an active token by hash; an unknown hash finds none', async () => {
      await b.tokens.insert(token(1, iso(0)));
      expect(await b.tokens.byHash('hash-1')).toEqual({
        id: 'tok_1',
        name: 'token 1',
        role: 'tms',
        prefix: 'cs_1',
        created_at: iso(0),
        revoked_at: null,
        last_used_at: null,
        api_version: '2026-11-25',
      });
      expect(await b.tokens.byHash('hash-2')).toBeUndefined();
      expect([await b.tokens.isActive('tok_1'), await b.tokens.isActive('tok_2')]).toEqual([true, false]);
    });

    it('lists newest first, tokens made in one millisecond newest-made first', async () => {
      await b.tokens.insert(token(1, iso(0)));
      await b.tokens.insert(token(2, iso(SEC)));
      await b.tokens.insert(token(3, iso(0)));
      expect((await b.tokens.list()).map((t) => t.id)).toEqual(['tok_2', 'tok_3', 'tok_1']);
    });

    it('revokes by id or prefix, once; a revoked token is no longer found but still listed', async () => {
      await b.tokens.insert(token(1, iso(0)));
      await b.tokens.insert(token(2, iso(0)));
      expect(await b.tokens.revoke('tok_1', iso(MIN))).toBe(true);
      expect(await b.tokens.revoke('cs_2', iso(MIN))).toBe(true);
      expect(await b.tokens.revoke('tok_1', iso(2 * MIN))).toBe(false);
      expect(await b.tokens.revoke('nothing', iso(2 * MIN))).toBe(false);
      expect(await b.tokens.byHash('hash-1')).toBeUndefined();
      expect(await b.tokens.isActive('tok_2')).toBe(false);
      expect((await b.tokens.list()).map((t) => [t.id, t.revoked_at])).toEqual([
        ['tok_2', iso(MIN)],
        ['tok_1', iso(MIN)],
      ]);
    });

    it('touches at most once per window', async () => {
      await b.tokens.insert(token(1, iso(0)));
      const used = async () => (await b.tokens.byHash('hash-1'))?.last_used_at;
      await b.tokens.touch('tok_1', iso(10 * SEC), iso(10 * SEC - MIN));
      expect(await used()).toBe(iso(10 * SEC));
      await b.tokens.touch('tok_1', iso(30 * SEC), iso(30 * SEC - MIN));
      expect(await used()).toBe(iso(10 * SEC));
      await b.tokens.touch('tok_1', iso(71 * SEC), iso(71 * SEC - MIN));
      expect(await used()).toBe(iso(71 * SEC));
    });

    it('refuses a second token with the same hash', async () => {
      await b.tokens.insert(token(1, iso(0)));
      await expect(b.tokens.insert({ ...token(2, iso(0)), hash: 'hash-1' })).rejects.toThrow();
      expect((await b.tokens.list()).map((t) => t.id)).toEqual(['tok_1']);
    });
  });

  describe('operator state', () => {
    it('keeps a value; updated_at moves only when the value changes', async () => {
      expect(await b.operatorState.get('queue_paused')).toBeUndefined();
      await b.operatorState.put('queue_paused', 'true', iso(0));
      await b.operatorState.put('queue_paused', 'true', iso(MIN));
      expect(await b.operatorState.get('queue_paused')).toEqual({ value: 'true', updated_at: iso(0) });
      await b.operatorState.put('queue_paused', 'false', iso(2 * MIN));
      expect(await b.operatorState.get('queue_paused')).toEqual({ value: 'false', updated_at: iso(2 * MIN) });
    });
  });

  describe('idempotency keys', () => {
    const S = 'intake_token POST /screenings';
    it('takes a new key; the next claim sees it working, then its resource once completed', async () => {
      const seen: (IdempotencyRow | undefined)[] = [];
      expect(await b.idempotency.claim(S, 'k1', idempotencyRules('h1', T0, seen))).toBe('new');
      expect(await b.idempotency.claim(S, 'k1', idempotencyRules('h1', T0 + SEC, seen))).toBe('in_progress');
      expect(await b.idempotency.claim(S, 'k1', idempotencyRules('h2', T0 + SEC))).toBe('conflict');
      await b.idempotency.complete(S, 'k1', 'scr_1');
      expect(await b.idempotency.claim(S, 'k1', idempotencyRules('h1', T0 + 2 * SEC, seen))).toBe('replay scr_1');
      expect(seen).toEqual([
        undefined,
        { request_hash: 'h1', resource_id: null, created_at: iso(0) },
        { request_hash: 'h1', resource_id: 'scr_1', created_at: iso(0) },
      ]);
      // Keys are per scope.
      expect(await b.idempotency.claim('other scope', 'k1', idempotencyRules('h1', T0))).toBe('new');
    });

    it('a claim that takes nothing writes nothing; a throwing decide writes nothing and throws', async () => {
      const seen: unknown[] = [];
      expect(await b.idempotency.claim(S, 'k2', (row) => (seen.push(row), { result: 'looked' }))).toBe('looked');
      await expect(
        b.idempotency.claim(S, 'k2', () => {
          throw new Error('decide failed');
        }),
      ).rejects.toThrow('decide failed');
      await b.idempotency.claim(S, 'k2', (row) => (seen.push(row), { result: 'looked' }));
      expect(seen).toEqual([undefined, undefined]);
    });

    it('an abandoned or expired key is taken again, made nothing yet', async () => {
      expect(await b.idempotency.claim(S, 'k3', idempotencyRules('h1', T0))).toBe('new');
      // Abandoned: a minute without completing.
      expect(await b.idempotency.claim(S, 'k3', idempotencyRules('h1', T0 + MIN))).toBe('new');
      await b.idempotency.complete(S, 'k3', 'scr_3');
      // Expired after 24 h: even another request takes it.
      const seen: (IdempotencyRow | undefined)[] = [];
      expect(await b.idempotency.claim(S, 'k3', idempotencyRules('h9', T0 + MIN + 24 * 60 * MIN, seen))).toBe('new');
      expect(await b.idempotency.claim(S, 'k3', idempotencyRules('h9', T0 + MIN + SEC + 24 * 60 * MIN, seen))).toBe('in_progress');
      expect(seen[1]).toEqual({ request_hash: 'h9', resource_id: null, created_at: iso(MIN + 24 * 60 * MIN) });
    });

    it('release frees a key that made nothing, never one that made its resource', async () => {
      await b.idempotency.claim(S, 'k4', idempotencyRules('h1', T0));
      await b.idempotency.release(S, 'k4');
      expect(await b.idempotency.claim(S, 'k4', idempotencyRules('h2', T0 + SEC))).toBe('new');
      await b.idempotency.complete(S, 'k4', 'scr_4');
      await b.idempotency.release(S, 'k4');
      expect(await b.idempotency.claim(S, 'k4', idempotencyRules('h2', T0 + 2 * SEC))).toBe('replay scr_4');
    });
  });

  describe('write probe', () => {
    it('commits its row and reports no refusal', async () => {
      expect(await b.probeCommit(iso(0))).toBeUndefined();
      expect(await b.operatorState.get('health_probe')).toEqual({ value: iso(0), updated_at: iso(0) });
      expect(await b.probeCommit(iso(SEC))).toBeUndefined();
      expect(await b.operatorState.get('health_probe')).toEqual({ value: iso(SEC), updated_at: iso(SEC) });
      expect(b.lastRefusal()).toBeUndefined();
    });

    it("waits about 250 ms for another session's write lock, then says busy", async () => {
      const release = await b.holdWriteLock();
      try {
        const started = performance.now();
        expect(await b.probeCommit(iso(2 * SEC))).toBe(b.busyCode);
        const ms = performance.now() - started;
        expect(ms).toBeGreaterThanOrEqual(200);
        expect(ms).toBeLessThan(3000);
      } finally {
        await release();
      }
      // The lock gone, the probe commits again.
      expect(await b.probeCommit(iso(3 * SEC))).toBeUndefined();
      expect((await b.operatorState.get('health_probe'))?.value).toBe(iso(3 * SEC));
    });
  });

  describe('rescreen holds', () => {
    let n = 0;
    const screening = async (created: number, over: Row = {}) => {
      const id = `scr_${++n}`;
      await b.insert('screenings', {
        id,
        status: 'done',
        query_kind: 'dot_number',
        query_value: '1000001',
        priority: 'tender',
        action: 'hold',
        hold_reason: 'scoring_unavailable',
        created_at: iso(created),
        completed_at: iso(created),
        ...over,
      });
      return id;
    };
    const review = (screeningId: string, state: string) =>
      b.insert('reviews', {
        id: `rev_${screeningId}`,
        screening_id: screeningId,
        state,
        hold_reason: 'scoring_unavailable',
        created_at: iso(0),
      });
    beforeEach(async () => b.clear('screenings'));

    it('only outage holds since `since`, done, unsettled, whose review still waits; oldest first, with their priority', async () => {
      const now = iso(60 * MIN);
      const since = iso(0);
      const a = await screening(5 * MIN);
      const bg = await screening(2 * MIN, { hold_reason: 'quota_exhausted', priority: 'background' });
      const reserved = await screening(3 * MIN, { hold_reason: 'quota_reserved' });
      const pending = await screening(4 * MIN);
      await review(pending, 'pending');
      await screening(-SEC); // before since
      await screening(6 * MIN, { hold_reason: 'low_score' });
      await screening(6 * MIN, { action: 'tender', hold_reason: null });
      await screening(6 * MIN, { settled_by: 'rescreen' });
      await screening(6 * MIN, { status: 'active', action: null, hold_reason: null });
      await screening(6 * MIN, { status: 'queued', action: null, hold_reason: null });
      const decided = await screening(6 * MIN);
      await review(decided, 'approved');
      const closed = await screening(6 * MIN);
      await review(closed, 'closed');
      expect(await b.holds(MIN, 500).due(since, now)).toEqual([
        { id: bg, priority: 'background' },
        { id: reserved, priority: 'tender' },
        { id: pending, priority: 'tender' },
        { id: a, priority: 'tender' },
      ]);
      // At `since` exactly: included.
      expect((await b.holds(MIN, 500).due(iso(5 * MIN), now)).map((h) => h.id)).toEqual([a]);
    });

    it('at most `limit`, oldest first; one millisecond kept in the order they were made', async () => {
      const first = await screening(MIN);
      const second = await screening(MIN);
      await screening(2 * MIN);
      expect(await b.holds(MIN, 2).due(iso(0), iso(60 * MIN))).toEqual([
        { id: first, priority: 'tender' },
        { id: second, priority: 'tender' },
      ]);
    });

    it('a re-screened hold waits max(retry, the wait before its last try) after that try', async () => {
      // Made at 0; tried after 10 s: waits the retry (60 s) from then.
      const quick = await screening(0, { rescreened_at: iso(10 * SEC) });
      // Made at 0; tried after 120 s: waits 120 s from then.
      const slow = await screening(0, { rescreened_at: iso(120 * SEC) });
      const due = async (at: number) => (await b.holds(MIN, 500).due(iso(-MIN), iso(at))).map((h) => h.id).sort();
      // A millisecond either side of each boundary: SQLite's julianday arithmetic is a few µs
      // off (60 s is 59999.996 ms there), PostgreSQL's is exact, so at the boundary itself they differ.
      expect(await due(70 * SEC - 1)).toEqual([]);
      expect(await due(70 * SEC + 1)).toEqual([quick]);
      expect(await due(240 * SEC - 1)).toEqual([quick]);
      expect(await due(240 * SEC + 1)).toEqual([quick, slow].sort());
      // A retry longer than the last wait wins.
      expect((await b.holds(5 * MIN, 500).due(iso(-MIN), iso(240 * SEC))).map((h) => h.id)).toEqual([]);
      expect((await b.holds(5 * MIN, 500).due(iso(-MIN), iso(310 * SEC + 1))).map((h) => h.id)).toEqual([quick]);
    });
  });
});

describe('PostgreSQL only: several hosts at once', () => {
  let p: Awaited<ReturnType<typeof makePg>>;
  beforeAll(async () => {
    p = await makePg();
  });
  afterAll(async () => {
    await p?.close();
  });

  /** Until some other backend of this database waits for a lock. */
  async function someoneWaitsForALock(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await p.pool.query<{ n: number }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (rows[0]!.n > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no session ever waited for a lock');
  }

  it('one new key claimed by several clients at once: exactly one is new, the others see it working', async () => {
    const S = 'POST /screenings';
    const same = await Promise.all([1, 2, 3, 4].map(() => p.idempotency.claim(S, 'race-1', idempotencyRules('h1', T0))));
    expect(same.sort()).toEqual(['in_progress', 'in_progress', 'in_progress', 'new']);
    const other = await Promise.all([
      p.idempotency.claim(S, 'race-2', idempotencyRules('h1', T0)),
      p.idempotency.claim(S, 'race-2', idempotencyRules('h2', T0)),
    ]);
    expect(other.filter((r) => r === 'new')).toHaveLength(1);
    expect(other.filter((r) => r === 'conflict')).toHaveLength(1);
  });

  it("a claim waits for another host's uncommitted one: after its commit it sees that row, after its rollback it takes the key", async () => {
    const S = 'POST /screenings';
    for (const end of ['commit', 'rollback'] as const) {
      const key = `held-${end}`;
      let finish!: () => void;
      const hold = new Promise<void>((r) => (finish = r));
      let taken!: () => void;
      const tookIt = new Promise<void>((r) => (taken = r));
      const first = p.x.transaction(async (tx) => {
        const r = await pgIdempotencyOf(tx).claim(S, key, idempotencyRules('h1', T0));
        taken();
        await hold;
        if (end === 'rollback') throw new Error('the first host failed');
        return r;
      });
      await tookIt;
      const seen: (IdempotencyRow | undefined)[] = [];
      const second = p.idempotency.claim(S, key, idempotencyRules('h1', T0 + SEC, seen));
      await someoneWaitsForALock();
      finish();
      if (end === 'commit') {
        expect(await first).toBe('new');
        expect(await second).toBe('in_progress');
        // It read no row, lost the insert to the first host, and decided again on that host's row.
        expect(seen).toEqual([undefined, { request_hash: 'h1', resource_id: null, created_at: iso(0) }]);
      } else {
        await expect(first).rejects.toThrow('the first host failed');
        expect(await second).toBe('new');
        expect(seen).toEqual([undefined]);
      }
    }
  });

  it('a claim inside a unit of work is a savepoint: rolled back with it', async () => {
    const S = 'POST /reviews/:id/approve';
    await expect(
      p.x.transaction(async (tx) => {
        expect(await pgIdempotencyOf(tx).claim(S, 'in-tx', idempotencyRules('h1', T0))).toBe('new');
        throw new Error('the unit of work failed');
      }),
    ).rejects.toThrow('the unit of work failed');
    expect(await p.idempotency.claim(S, 'in-tx', idempotencyRules('h1', T0))).toBe('new');
  });

  it('the probe on a read-only server says so at once; it refuses to run inside a unit of work', async () => {
    await p.pool.query(`ALTER DATABASE ${p.name} SET default_transaction_read_only = on`);
    const ro = openPgPool(p.url, { max: 1 });
    try {
      expect(await pgProbeCommit(poolExecutor(ro), iso(0))).toBe('db_readonly');
    } finally {
      await ro.end();
      await p.pool.query(`ALTER DATABASE ${p.name} RESET default_transaction_read_only`);
    }
    await expect(p.x.transaction((tx) => pgProbeCommit(tx, iso(0)))).rejects.toThrow(/on the pool/);
  });

  it("the probe's timeouts end with its transaction: the pool's connection waits as before, committed or not", async () => {
    const one = openPgPool(p.url, { max: 1 });
    const x = poolExecutor(one);
    try {
      const settings = async () =>
        (await one.query('SELECT current_setting($1) AS l, current_setting($2) AS s', ['lock_timeout', 'statement_timeout'])).rows[0];
      const before = await settings();
      expect(await pgProbeCommit(x, iso(0))).toBeUndefined();
      expect(await settings()).toEqual(before);
      const release = await (async () => {
        const c = await p.pool.connect();
        await c.query('BEGIN');
        await c.query('LOCK TABLE operator_state IN EXCLUSIVE MODE');
        return async () => {
          await c.query('ROLLBACK');
          c.release();
        };
      })();
      try {
        expect(await pgProbeCommit(x, iso(SEC))).toBe('db_busy');
      } finally {
        await release();
      }
      expect(await settings()).toEqual(before);
    } finally {
      await one.end();
    }
  });

  it('operator state put by several hosts at once: no conflict error, one value kept', async () => {
    await Promise.all(['true', 'false', 'true', 'false'].map((v, i) => p.operatorState.put('race_key', v, iso(i * SEC))));
    const kept = await p.operatorState.get('race_key');
    expect(['true', 'false']).toContain(kept?.value);
  });

  it('names what a failed statement or connection says about writing', async () => {
    const { DatabaseError } = (await import('pg')).default;
    const dbErr = (code: string) => Object.assign(Object.create(DatabaseError.prototype) as Error, { code });
    expect(['55P03', '57014', '53100', '25006', '58030', '57P03', '08006', '23505'].map((c) => pgProbeCodeOf(dbErr(c)))).toEqual([
      'db_busy',
      'db_busy',
      'db_full',
      'db_readonly',
      'db_ioerr',
      'db_unavailable',
      'db_unavailable',
      'db_error',
    ]);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(pgProbeCodeOf(refused)).toBe('db_unavailable');
    expect(pgProbeCodeOf(new Error('timeout exceeded when trying to connect'))).toBe('db_busy');
    expect(pgProbeCodeOf(new Error('Connection terminated due to connection timeout'))).toBe('db_unavailable');
    // A server that is not there, for real.
    const gone = openPgPool('postgres://postgres@127.0.0.1:1/none', { max: 1 });
    try {
      expect(await pgProbeCommit(poolExecutor(gone), iso(0))).toBe('db_unavailable');
    } finally {
      await gone.end();
    }
  });

  it("a refused store write is remembered until a store write succeeds, and the probe's own commit does not end it", async () => {
    const full = Object.assign(Object.create((await import('pg')).default.DatabaseError.prototype) as Error, { code: '53100' });
    notePgStoreFailure(p.x, new Error('not a refusal'), T0);
    expect(pgLastRefusalOf(p.x)).toBeUndefined();
    notePgStoreFailure(p.x, full, T0);
    expect(pgLastRefusalOf(p.x)).toEqual({ at: T0, code: 'db_full' });
    expect(await pgProbeCommit(p.x, iso(0))).toBeUndefined();
    expect(pgLastRefusalOf(p.x)).toEqual({ at: T0, code: 'db_full' });
    notePgStoreWrite(p.x);
    expect(pgLastRefusalOf(p.x)).toBeUndefined();
  });
});
