/**
 * The score cache and usage on both backends: the same cases through the same interfaces (on
 * SQLite, methods of the Store itself, awaited; on PostgreSQL, score-cache-repo.ts and
 * usage-repo.ts), then what only several hosts on PostgreSQL can do: write one carrier's score
 * at once (the newer stays) and count lookups at once (none lost).
 */
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcScore } from '../../shared/svc-contract.js';
import { StoreArgumentError } from '../../worker/store/store-error.js';
import { connectionOf, openStore } from '../../worker/store/sqlite-store.js';
import type { Store } from '../../worker/store/types.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { poolExecutor, type PgExecutor } from '../../worker/store/pg/executor.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { pgScoreCacheOf, type ScoreCacheRepo } from '../../worker/store/pg/score-cache-repo.js';
import { parsedFetches, type ParsedFetches } from '../../worker/store/pg/score-refs.js';
import { pgUsageOf, type UsageRepo } from '../../worker/store/pg/usage-repo.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

/** The sandbox's review carrier, with fields the spec does not list (they must survive). */
function sampleScore(over: Partial<SvcScore> = {}): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: '1000003', mc_number: 'MC1000003', legal_name: 'Test Carrier 3 LLC', dba_name: null, region: 'NE' },
    score: 66,
    grade: 'D',
    decision: 'review',
    verdict: 'Needs a look',
    needs_manual_review: true,
    knockout: { triggered: false, reasons: [] },
    reasons: [
      {
        check: 'oos_rate',
        area: 'Safety & Roadside',
        severity: 'medium',
        detail: 'Out-of-service rate above national average.',
        facts: [{ label: 'OOS rate', value: '31%', unit_hint: 'percent' }],
        weight: 0.4,
      },
    ],
    checks: { total: 53, triggered: 1, passed: 46, not_checked: 6 },
    flags: ['new_authority', 'some_future_flag'],
    data_confidence: 0.92,
    model_version: 'carrier-risk-3.5-sandbox',
    calculated_at: '2025-03-15T08:00:00Z',
    future_field: { nested: [1, 'two', null] },
    ...over,
  } as SvcScore;
}

const T0 = new Date('2025-03-15T12:00:00.000Z');

type Repos = AsyncRepo<ScoreCacheRepo> & AsyncRepo<UsageRepo>;

/** One backend as a case sees it: the repositories, and a look at the rows they wrote. */
interface Backend {
  repos: Repos;
  /** A caller's unit of work around `fn` that then fails: what `fn` wrote must go with it. */
  failingUnitOfWork(fn: (r: Repos) => Promise<void>): Promise<void>;
  /** The score_fetches row's body, or undefined. */
  fetchBody(id: number): Promise<string | undefined>;
  cacheRow(env: string, dot: string): Promise<{ body: string; fetch_id: number | null } | undefined>;
  close(): Promise<void>;
}

interface Maker {
  beforeAll(): Promise<void>;
  open(now: () => Date): Promise<Backend>;
  afterAll(): Promise<void>;
}

const SCORE_METHODS = ['putScore', 'getScore', 'putNotFound', 'getNotFound'] as const;
const USAGE_METHODS = ['recordLookup', 'dailyLookups', 'putUsageSnapshot', 'latestUsageSnapshot'] as const;

/** The Store's own methods, their sync answers (and throws) as promises. */
function storeRepos(store: Store): Repos {
  const r: Record<string, (...a: unknown[]) => Promise<unknown>> = {};
  for (const m of [...SCORE_METHODS, ...USAGE_METHODS]) {
    const f = store[m] as (...a: unknown[]) => unknown;
    r[m] = async (...a) => f.apply(store, a);
  }
  return r as unknown as Repos;
}

const sqlite: Maker = {
  beforeAll: async () => undefined,
  async open(now) {
    const file = tempDbPath();
    const store = openStore(file.path, { now });
    const db = connectionOf(store);
    return {
      repos: storeRepos(store),
      async failingUnitOfWork(fn) {
        // The store's own transactions nest in this one as savepoints, as in a caller's.
        db.exec('BEGIN IMMEDIATE');
        try {
          await fn(storeRepos(store));
        } finally {
          db.exec('ROLLBACK');
        }
      },
      fetchBody: async (id) => (db.prepare('SELECT body FROM score_fetches WHERE id = ?').get(id) as { body: string } | undefined)?.body,
      cacheRow: async (env, dot) =>
        db.prepare('SELECT body, fetch_id FROM score_cache WHERE env = ? AND dot_number = ?').get(env, dot) as
          { body: string; fetch_id: number | null } | undefined,
      close: async () => {
        store.close();
        file.cleanup();
      },
    };
  },
  afterAll: async () => undefined,
};

const TABLES = 'score_cache, score_fetches, mc_alias, not_found_cache, daily_lookups, usage_snapshots';

let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>> | undefined;

async function pgDatabase(): Promise<NonNullable<typeof pgDb>> {
  if (!pgDb) {
    pgDb = await migratedPgDatabase();
  }
  return pgDb;
}

function pgRepos(x: PgExecutor, now: () => Date, memo: ParsedFetches): Repos {
  return { ...pgScoreCacheOf(x, { now, scores: memo }), ...pgUsageOf(x, { now }) };
}

const postgres: Maker = {
  beforeAll: async () => void (await pgDatabase()),
  async open(now) {
    const { pool } = await pgDatabase();
    // One database per file: each case starts from empty tables (identities go on, as in a record).
    await pool.query(`TRUNCATE ${TABLES}`);
    const x = poolExecutor(pool);
    const memo = parsedFetches();
    return {
      repos: pgRepos(x, now, memo),
      async failingUnitOfWork(fn) {
        const failed = new Error('the unit of work fails');
        await x
          .transaction(async (tx) => {
            await fn(pgRepos(tx, now, memo));
            throw failed;
          })
          .catch((e: unknown) => {
            if (e !== failed) throw e;
          });
      },
      fetchBody: async (id) => (await pool.query<{ body: string }>('SELECT body FROM score_fetches WHERE id = $1', [id])).rows[0]?.body,
      cacheRow: async (env, dot) =>
        (
          await pool.query<{ body: string; fetch_id: number | null }>(
            'SELECT body, fetch_id FROM score_cache WHERE env = $1 AND dot_number = $2',
            [env, dot],
          )
        ).rows[0],
      close: async () => undefined,
    };
  },
  afterAll: async () => {
    await pgDb?.close();
    pgDb = undefined;
  },
};

describe.each([
  ['sqlite', sqlite],
  ['postgres', postgres],
])('score cache and usage on %s', (_name, maker) => {
  let clock: Date;
  let backend: Backend;
  let r: Repos;

  beforeAll(() => maker.beforeAll());
  afterAll(() => maker.afterAll());
  beforeEach(async () => {
    clock = T0;
    backend = await maker.open(() => clock);
    r = backend.repos;
  });
  afterEach(() => backend.close());

  function later(ms: number): Date {
    clock = new Date(clock.getTime() + ms);
    return clock;
  }

  describe('score cache', () => {
    it('finds a score by DOT and by its MC alias, per environment', async () => {
      const id = await r.putScore('sandbox', sampleScore());
      expect(id).toEqual(expect.any(Number));
      const byDot = await r.getScore('sandbox', { dot_number: '1000003' });
      const byMc = await r.getScore('sandbox', { mc_number: 'MC1000003' });
      expect(byDot).toEqual({
        score: sampleScore(),
        fetched_at: T0.toISOString(),
        model_version: 'carrier-risk-3.5-sandbox',
        fetch_id: id,
      });
      expect(Object.keys(byDot!)).toEqual(['score', 'fetched_at', 'model_version', 'fetch_id']);
      expect(byMc).toEqual(byDot);
      expect(await r.getScore('live', { dot_number: '1000003' })).toBeUndefined();
      expect(await r.getScore('sandbox', { dot_number: '1000005' })).toBeUndefined();
      expect(await r.getScore('sandbox', { mc_number: 'MC1000005' })).toBeUndefined();
    });

    it('stores the body once, byte for byte, and the entry refers to it without a copy', async () => {
      const s = sampleScore({ verdict: 'Ünïcödé “quotes” \u2028 and \\ and emoji 🚚' } as Partial<SvcScore>);
      const id = (await r.putScore('live', s))!;
      expect(await backend.fetchBody(id)).toBe(JSON.stringify(s));
      expect(await backend.cacheRow('live', '1000003')).toEqual({ body: '', fetch_id: id });
      expect(JSON.stringify((await r.getScore('live', { dot_number: '1000003' }))!.score)).toBe(JSON.stringify(s));
    });

    it('treats zero-padded and spelled-differently numbers as the same carrier', async () => {
      await r.putScore('sandbox', sampleScore());
      expect((await r.getScore('sandbox', { dot_number: '01000003' }))?.score.score).toBe(66);
      expect((await r.getScore('sandbox', { mc_number: 'mc-001000003' }))?.score.score).toBe(66);
    });

    it('replaces an older entry, moves the MC alias, and ignores a write older than what it holds', async () => {
      const first = await r.putScore('sandbox', sampleScore(), new Date('2025-03-15T10:00:00Z'));
      const newer = sampleScore({
        score: 70,
        model_version: 'carrier-risk-3.6-sandbox',
        carrier: { ...sampleScore().carrier, mc_number: 'MC77' },
      });
      const second = await r.putScore('sandbox', newer, new Date('2025-03-15T11:00:00Z'));
      expect(second).toBeGreaterThan(first!);
      const got = await r.getScore('sandbox', { dot_number: '1000003' });
      expect(got?.score.score).toBe(70);
      expect(got?.model_version).toBe('carrier-risk-3.6-sandbox');
      expect(got?.fetched_at).toBe('2025-03-15T11:00:00.000Z');
      expect(got?.fetch_id).toBe(second);
      expect((await r.getScore('sandbox', { mc_number: 'MC77' }))?.score.score).toBe(70);
      expect(await r.getScore('sandbox', { mc_number: 'MC1000003' })).toBeUndefined();

      // Another process that fetched earlier but writes later must not overwrite the newer score,
      // and keeps no fetch of its own.
      expect(await r.putScore('sandbox', sampleScore({ score: 1 }), new Date('2025-03-15T09:00:00Z'))).toBeNull();
      expect((await r.getScore('sandbox', { dot_number: '1000003' }))?.score.score).toBe(70);
      expect(await backend.fetchBody(second! + 1)).toBeUndefined();
      // The same instant replaces (the later write of two equal fetches).
      const same = await r.putScore('sandbox', sampleScore({ score: 71 }), new Date('2025-03-15T11:00:00Z'));
      expect(same).toEqual(expect.any(Number));
      expect((await r.getScore('sandbox', { dot_number: '1000003' }))?.score.score).toBe(71);
    });

    it('aliases the MC it was asked by too, and an MC moves to the carrier that names it last', async () => {
      await r.putNotFound('live', { mc_number: 'MC555' }, { code: 'carrier_not_found', message: 'no', request_id: 'req_0' });
      await r.putScore('live', sampleScore(), T0, { mc_number: 'mc-555' });
      expect((await r.getScore('live', { mc_number: 'MC555' }))?.score.carrier.dot_number).toBe('1000003');
      expect((await r.getScore('live', { mc_number: 'MC1000003' }))?.score.carrier.dot_number).toBe('1000003');
      expect(await r.getNotFound('live', { mc_number: 'MC555' })).toBeUndefined();
      // Asked by DOT: no alias but the score's.
      const other = sampleScore({ carrier: { dot_number: '42', mc_number: 'MC555', legal_name: null, dba_name: null } });
      await r.putScore('live', other, later(1000), { dot_number: '42' });
      expect((await r.getScore('live', { mc_number: 'MC555' }))?.score.carrier.dot_number).toBe('42');
      expect((await r.getScore('live', { mc_number: 'MC1000003' }))?.score.carrier.dot_number).toBe('1000003');
    });

    it('keeps a score without an MC number reachable by DOT only', async () => {
      await r.putScore('live', sampleScore({ carrier: { dot_number: '42', mc_number: null, legal_name: null, dba_name: null } }));
      expect((await r.getScore('live', { dot_number: '42' }))?.score.carrier.mc_number).toBeNull();
    });

    it('caches not-found answers per query, and a later score clears them', async () => {
      const error = { code: 'carrier_not_found', message: 'No carrier with that number', request_id: 'req_1' };
      await r.putNotFound('sandbox', { dot_number: '4242' }, error);
      await r.putNotFound('sandbox', { mc_number: 'MC1000003' }, error, new Date('2025-03-15T11:59:00Z'));
      await r.putNotFound('sandbox', { dot_number: '01000003' }, error);
      expect(await r.getNotFound('sandbox', { dot_number: '4242' })).toEqual({ fetched_at: T0.toISOString(), error });
      expect(await r.getNotFound('live', { dot_number: '4242' })).toBeUndefined();
      expect((await r.getNotFound('sandbox', { mc_number: 'MC1000003' }))?.fetched_at).toBe('2025-03-15T11:59:00.000Z');
      // A later answer replaces it, whatever its time.
      await r.putNotFound('sandbox', { dot_number: '4242' }, { ...error, request_id: 'req_2' }, new Date('2025-03-15T11:00:00Z'));
      expect(await r.getNotFound('sandbox', { dot_number: '4242' })).toEqual({
        fetched_at: '2025-03-15T11:00:00.000Z',
        error: { ...error, request_id: 'req_2' },
      });
      await r.putScore('sandbox', sampleScore());
      expect(await r.getNotFound('sandbox', { mc_number: 'MC1000003' })).toBeUndefined();
      expect(await r.getNotFound('sandbox', { dot_number: '1000003' })).toBeUndefined();
      expect(await r.getNotFound('sandbox', { dot_number: '4242' })).toBeDefined();
    });

    it('one parsed score per fetch, shared by its hits and frozen so none can change it for the others', async () => {
      await r.putScore('live', sampleScore({ carrier: { dot_number: '21', mc_number: 'MC21', legal_name: 'x', dba_name: null } }));
      const a = (await r.getScore('live', { dot_number: '21' }))!;
      expect((await r.getScore('live', { dot_number: '021' }))!.score).toBe(a.score);
      expect((await r.getScore('live', { mc_number: 'MC21' }))!.score).toBe(a.score);
      expect(Object.isFrozen(a.score.carrier)).toBe(true);
      expect(() => {
        (a.score.carrier as { legal_name: string | null }).legal_name = 'changed';
      }).toThrow(TypeError);
      await r.putScore('live', sampleScore({ score: 40, carrier: a.score.carrier }), later(1000));
      expect((await r.getScore('live', { dot_number: '21' }))!.score.score).toBe(40);
    });

    it('joins a caller’s unit of work: its score goes when the caller fails', async () => {
      await r.putScore('live', sampleScore(), T0);
      await backend.failingUnitOfWork(async (tx) => {
        expect(
          await tx.putScore('live', sampleScore({ score: 5, carrier: { ...sampleScore().carrier, mc_number: 'MC9' } }), later(1000)),
        ).toEqual(expect.any(Number));
        expect((await tx.getScore('live', { mc_number: 'MC9' }))?.score.score).toBe(5);
        await tx.recordLookup('live');
      });
      expect((await r.getScore('live', { dot_number: '1000003' }))?.score.score).toBe(66);
      expect(await r.getScore('live', { mc_number: 'MC9' })).toBeUndefined();
      expect((await r.getScore('live', { mc_number: 'MC1000003' }))?.score.score).toBe(66);
      expect((await r.dailyLookups('live', '2025-03')).at(-1)).toEqual({ day: '2025-03-15', lookups: 0 });
    });

    it('names the bad parameter', async () => {
      await expect(r.getScore('prod' as never, { dot_number: '1' })).rejects.toThrow(StoreArgumentError);
      await expect(r.getScore('prod' as never, { dot_number: '1' })).rejects.toThrow(/env/);
      await expect(r.getScore('live', {} as never)).rejects.toThrow(expect.objectContaining({ param: 'query' }));
      await expect(r.getScore('live', { dot_number: '1', mc_number: 'MC1' } as never)).rejects.toThrow(
        expect.objectContaining({ param: 'query' }),
      );
      await expect(r.putScore('live', { object: 'svc_score' } as never)).rejects.toThrow(expect.objectContaining({ param: 'score' }));
      await expect(r.putScore('live', sampleScore({ model_version: 3 as never }))).rejects.toThrow(
        expect.objectContaining({ param: 'score' }),
      );
      await expect(r.putScore('live', sampleScore(), new Date(Number.NaN))).rejects.toThrow(
        expect.objectContaining({ param: 'fetchedAt' }),
      );
      const error = { code: 'carrier_not_found', message: 'no', request_id: 'r' };
      await expect(r.putNotFound('live', { mc_number: ' ' }, error)).rejects.toThrow(expect.objectContaining({ param: 'query' }));
      await expect(r.putNotFound('live', { dot_number: '1' }, error, new Date('x'))).rejects.toThrow(
        expect.objectContaining({ param: 'at' }),
      );
      await expect(r.getNotFound('nope' as never, { dot_number: '1' })).rejects.toThrow(expect.objectContaining({ param: 'env' }));
    });

    it('property: any score object, unknown fields included, round-trips byte-equal in JSON', async () => {
      const known = new Set(Object.keys(sampleScore()));
      const extra = fc.dictionary(
        fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.has(k) && k !== '__proto__'),
        fc.jsonValue({ maxDepth: 3 }),
        { maxKeys: 5 },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.stringMatching(/^[1-9]\d{0,7}$/),
          fc.integer({ min: 0, max: 100 }),
          fc.string({ unit: 'binary' }),
          extra,
          extra,
          async (dot, score, decision, top, carrierExtra) => {
            const s = {
              ...sampleScore({ score, decision }),
              ...top,
              carrier: { dot_number: dot, mc_number: `MC${dot}`, legal_name: null, dba_name: null, ...carrierExtra },
            } as SvcScore;
            const id = await r.putScore('live', s, later(1000));
            const want = JSON.stringify(s);
            expect(await backend.fetchBody(id!)).toBe(want);
            expect(JSON.stringify((await r.getScore('live', { dot_number: dot }))?.score)).toBe(want);
            expect(JSON.stringify((await r.getScore('live', { mc_number: `MC${dot}` }))?.score)).toBe(want);
          },
        ),
        { numRuns: 60 },
      );
    });

    it('property: a DOT number with any zero padding finds the same entry', async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 9_999_999 }), fc.nat({ max: 7 }), async (n, pad) => {
          const dot = String(n);
          await r.putScore(
            'sandbox',
            sampleScore({ carrier: { dot_number: dot, mc_number: null, legal_name: null, dba_name: null } }),
            later(1),
          );
          expect((await r.getScore('sandbox', { dot_number: '0'.repeat(pad) + dot }))?.score.carrier.dot_number).toBe(dot);
        }),
      );
    });
  });

  describe('usage', () => {
    it('counts lookups per UTC day and lists every day of the month up to today, zeros included', async () => {
      await r.recordLookup('live', new Date('2025-03-01T00:00:00Z'));
      await r.recordLookup('live', new Date('2025-03-01T23:59:59.999Z'));
      await r.recordLookup('live', new Date('2025-03-14T10:00:00Z'));
      await r.recordLookup('live', new Date('2025-02-28T23:59:59Z')); // previous month
      await r.recordLookup('live', new Date('2025-03-15T00:30:00+01:00')); // 14th in UTC
      await r.recordLookup('sandbox', new Date('2025-03-02T10:00:00Z'));
      await r.recordLookup('live'); // now: the 15th

      const days = await r.dailyLookups('live', '2025-03');
      expect(days).toHaveLength(15);
      expect(days[0]).toEqual({ day: '2025-03-01', lookups: 2 });
      expect(days[1]).toEqual({ day: '2025-03-02', lookups: 0 });
      expect(days[13]).toEqual({ day: '2025-03-14', lookups: 2 });
      expect(days[14]).toEqual({ day: '2025-03-15', lookups: 1 });
      expect(days.reduce((n, d) => n + d.lookups, 0)).toBe(5);
      expect((await r.dailyLookups('sandbox', '2025-03'))[1]).toEqual({ day: '2025-03-02', lookups: 1 });

      const feb = await r.dailyLookups('live', '2025-02');
      expect(feb).toHaveLength(28);
      expect(feb.at(-1)).toEqual({ day: '2025-02-28', lookups: 1 });
      expect(await r.dailyLookups('live', '2024-02')).toHaveLength(29);
      expect(await r.dailyLookups('live', '2025-04')).toEqual([]);
      await expect(r.dailyLookups('live', '2025-3')).rejects.toThrow(expect.objectContaining({ param: 'month' }));
      await expect(r.dailyLookups('live', 202503 as never)).rejects.toThrow(expect.objectContaining({ param: 'month' }));
      await expect(r.recordLookup('live', new Date('x'))).rejects.toThrow(expect.objectContaining({ param: 'at' }));
      await expect(r.recordLookup('test' as never)).rejects.toThrow(expect.objectContaining({ param: 'env' }));
    });

    it('keeps the latest usage snapshot per environment', async () => {
      expect(await r.latestUsageSnapshot('live')).toBeUndefined();
      await r.putUsageSnapshot('live', { monthly_quota: 1000, used: 10, remaining: 990, rate_limit_per_minute: 60 });
      later(1000);
      await r.putUsageSnapshot('live', { monthly_quota: 1000, used: 11, remaining: 989, rate_limit_per_minute: null });
      await r.putUsageSnapshot('live', { monthly_quota: 1000, used: 5, remaining: 995, rate_limit_per_minute: 60 }, T0); // older: ignored
      const latest = await r.latestUsageSnapshot('live');
      expect(latest).toEqual({ monthly_quota: 1000, used: 11, remaining: 989, rate_limit_per_minute: null, at: clock.toISOString() });
      // Read as SQLite reads it, in column order: the operator's JSON is the same on both.
      expect(Object.keys(latest!)).toEqual(['monthly_quota', 'used', 'remaining', 'rate_limit_per_minute', 'at']);
      expect(await r.latestUsageSnapshot('sandbox')).toBeUndefined();
      // The same instant replaces; absent figures are null.
      await r.putUsageSnapshot('live', { monthly_quota: 2_000_000_000_000, used: 0 } as never, clock);
      expect(await r.latestUsageSnapshot('live')).toEqual({
        monthly_quota: 2_000_000_000_000,
        used: 0,
        remaining: null,
        rate_limit_per_minute: null,
        at: clock.toISOString(),
      });
      await expect(r.putUsageSnapshot('live', { monthly_quota: '9' } as never)).rejects.toThrow(
        expect.objectContaining({ param: 'monthly_quota' }),
      );
      await expect(r.putUsageSnapshot('live', { used: Number.POSITIVE_INFINITY } as never)).rejects.toThrow(
        expect.objectContaining({ param: 'used' }),
      );
    });
  });
});

describe('several hosts on one PostgreSQL record', () => {
  let pool: pg.Pool;
  /** A second host: its own pool on the same database. */
  let other: pg.Pool;
  const now = () => T0;
  const scoresOn = (x: PgExecutor) => pgScoreCacheOf(x, { now, scores: parsedFetches() });

  beforeAll(async () => {
    pool = (await pgDatabase()).pool;
    other = openPgPool((await pgDatabase()).db.url, { max: 4 });
  });
  afterAll(async () => {
    await other?.end();
    await pgDb?.close();
    pgDb = undefined;
  });
  beforeEach(async () => {
    await pool.query(`TRUNCATE ${TABLES}`);
  });

  /** A writer that says when it has written, then holds its transaction open until released. */
  function gates() {
    let release!: () => void;
    let wrote!: () => void;
    const held = new Promise<void>((res) => (release = res));
    const written = new Promise<void>((res) => (wrote = res));
    return { held, release, written, wrote };
  }

  /** Until a backend of `other` waits on a lock (the second writer has reached the row). */
  async function untilOneWaits(): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const { rows } = await pool.query<{ n: number }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if (rows[0]!.n > 0) return;
      await new Promise((res) => setTimeout(res, 10));
    }
    throw new Error('no writer waited on the lock');
  }

  const fetchedAt = (h: number) => new Date(Date.UTC(2025, 2, 15, h));
  const scoreBy = (mc: string, score: number) => sampleScore({ score, carrier: { ...sampleScore().carrier, mc_number: mc } });

  it.each([
    ['the newer one commits first', 11, 10, null],
    ['the older one commits first', 10, 11, 'replaced'],
  ])('two hosts put one carrier’s score at once: the newer stays (%s)', async (_case, firstAt, secondAt, second) => {
    const { held, release, written, wrote } = gates();
    // Host A writes and holds its transaction open; host B's write must wait for it, then be
    // judged against what A committed.
    const a = poolExecutor(pool).transaction(async (tx) => {
      const id = await scoresOn(tx).putScore('live', scoreBy(`MC${firstAt}`, firstAt), fetchedAt(firstAt));
      wrote();
      await held;
      return id;
    });
    await written;
    const b = scoresOn(poolExecutor(other)).putScore('live', scoreBy(`MC${secondAt}`, secondAt), fetchedAt(secondAt));
    await untilOneWaits();
    release();
    const [idA, idB] = await Promise.all([a, b]);
    expect(idA).toEqual(expect.any(Number));
    expect(idB === null ? null : 'replaced').toBe(second);

    const read = scoresOn(poolExecutor(pool));
    const got = await read.getScore('live', { dot_number: '1000003' });
    expect(got?.fetched_at).toBe(fetchedAt(11).toISOString());
    expect(got?.score.score).toBe(11);
    expect(got?.fetch_id).toBe(firstAt === 11 ? idA : idB);
    // The aliases are the newer score's only.
    expect((await read.getScore('live', { mc_number: 'MC11' }))?.score.score).toBe(11);
    expect(await read.getScore('live', { mc_number: 'MC10' })).toBeUndefined();
  });

  it('many hosts putting one carrier at once leave the newest entry and only its aliases', async () => {
    const hours = [3, 17, 9, 22, 1, 14, 6, 19, 11, 23, 8, 15, 2, 20, 5, 12];
    const hosts = [poolExecutor(pool), poolExecutor(other)];
    const ids = await Promise.all(
      hours.map((h, i) => scoresOn(hosts[i % 2]!).putScore('live', scoreBy(`MC${h}`, h), fetchedAt(h), { mc_number: `MC${100 + h}` })),
    );
    const read = scoresOn(poolExecutor(pool));
    const got = await read.getScore('live', { dot_number: '1000003' });
    expect(got?.score.score).toBe(23);
    expect(got?.fetch_id).toBe(ids[hours.indexOf(23)]);
    const { rows } = await pool.query<{ mc_number: string }>("SELECT mc_number FROM mc_alias WHERE env = 'live' ORDER BY mc_number");
    expect(rows.map((x) => x.mc_number)).toEqual(['MC123', 'MC23']);
    // Every refused write took its fetch back: each fetch left is one an entry held at some time.
    const fetches = (await pool.query<{ n: number }>('SELECT count(*) AS n FROM score_fetches')).rows[0]!.n;
    expect(fetches).toBe(ids.filter((id) => id !== null).length);
  });

  it('hosts racing puts of three carriers whose MCs move between them: no error (no deadlock), the newest entry each', async () => {
    const hosts = [poolExecutor(pool), poolExecutor(other)].map(scoresOn);
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const newest = new Map<string, string>();
    for (let round = 0; round < 5; round++) {
      const puts = Array.from({ length: 40 }, (_, i) => {
        const dot = String(1 + rnd(3));
        const at = new Date(Date.UTC(2025, 2, 15, 0, round, i)).toISOString();
        if ((newest.get(dot) ?? '') < at) newest.set(dot, at);
        const score = sampleScore({ carrier: { dot_number: dot, mc_number: `MC${10 + rnd(4)}`, legal_name: null, dba_name: null } });
        return hosts[i % 2]!.putScore('live', score, new Date(at), { mc_number: `MC${10 + rnd(4)}` });
      });
      await Promise.all(puts);
    }
    const { rows } = await pool.query<{ dot_number: string; fetched_at: string }>(
      "SELECT dot_number, fetched_at FROM score_cache WHERE env = 'live' ORDER BY dot_number",
    );
    expect(rows).toEqual([...newest].sort().map(([dot_number, fetched_at]) => ({ dot_number, fetched_at })));
    // Every alias names a carrier of the cache.
    const orphans = await pool.query(
      'SELECT a.mc_number FROM mc_alias a LEFT JOIN score_cache c USING (env, dot_number) WHERE c.env IS NULL',
    );
    expect(orphans.rows).toEqual([]);
  });

  it('lookups counted from two hosts at once lose no count', async () => {
    const usageOf = (p: pg.Pool) => pgUsageOf(poolExecutor(p), { now });
    const hosts = [usageOf(pool), usageOf(other)];
    await Promise.all(Array.from({ length: 400 }, (_, i) => hosts[i % 2]!.recordLookup('live', T0)));
    // And two transactions that each count, one waiting on the other's row.
    const { held, release, written, wrote } = gates();
    const a = poolExecutor(pool).transaction(async (tx) => {
      await pgUsageOf(tx, { now }).recordLookup('live', T0);
      wrote();
      await held;
    });
    await written;
    const b = hosts[1]!.recordLookup('live', T0);
    await untilOneWaits();
    release();
    await Promise.all([a, b]);
    expect((await hosts[0]!.dailyLookups('live', '2025-03')).at(-1)).toEqual({ day: '2025-03-15', lookups: 402 });
  });
});
