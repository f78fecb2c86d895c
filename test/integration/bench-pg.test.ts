import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from '../../bench/harness.js';
import { HIT_VARIANTS, PG_TARGETS, pgTargets, renderPg, runPgScenario, type PgScenario } from '../../bench/scenarios/pg.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { PG_ADMIN_URL, runPrefix } from '../helpers/pg-db.js';

// The bench's PostgreSQL scenario (npm run bench -- --pg) for a moment: every target answers,
// every answer is a committed row, and the database it made is gone. Sane figures, no timings.
describe('bench --pg', () => {
  const h = new Harness(
    { durationS: 0.5, concurrency: 4, stream: 10, repeats: 1, drain: 10, missSamples: 1, profileDir: undefined, quick: true },
    () => {},
  );
  let r: PgScenario;

  beforeAll(async () => {
    await h.start();
    r = await runPgScenario(
      h,
      {
        adminUrl: PG_ADMIN_URL,
        dots: 20,
        firstDot: 7_000_000,
        repeats: 1,
        poolMax: 4,
        dbPrefix: runPrefix(),
        twoWorkers: { fromDot: 8_000_000 },
      },
      () => {},
    );
  }, 120_000);
  afterAll(() => h.close());

  it('measures every target: requests answered 200 only, and CPU per request', () => {
    if ('skipped' in r) throw new Error(r.skipped);
    expect(r.runs.map((x) => x.target)).toEqual([...PG_TARGETS]);
    for (const run of r.runs) {
      expect(run.completed, run.target).toBeGreaterThan(0);
      expect(run.rps, run.target).toBeGreaterThan(0);
      expect(Object.keys(run.statuses), run.target).toEqual(['200']);
      expect(run.errors, run.target).toEqual({});
      expect(run.p99Ms, run.target).toBeGreaterThanOrEqual(run.p50Ms);
      expect(run.nodeUsPerReq, run.target).toBeGreaterThan(0);
      expect(Number.isFinite(run.pgUsPerReq), run.target).toBe(true);
    }
  });

  it('measures the worker process on both backends: every answer a cache hit, beside its own floor', () => {
    if ('skipped' in r) throw new Error(r.skipped);
    for (const t of ['sqlite-worker', 'pg-worker'] as const) {
      const run = r.runs.find((x) => x.target === t)!;
      expect(Object.keys(run.tally), t).toEqual(['cache']);
      expect(run.tally.cache, t).toBe(run.completed);
    }
    // The worker on PostgreSQL is metered with its pool's backends.
    expect(r.runs.find((x) => x.target === 'pg-worker')!.pgUsPerReq).toBeGreaterThan(0);
    const targets = pgTargets(r);
    expect(targets.map((x) => x.id)).toEqual(['2a', '2b', '2a-pg', '2b-pg', '7a', '7a-pg']);
    for (const x of targets.filter((y) => y.id.startsWith('2a'))) expect(x.value, x.id).toMatch(/^\d+\.\d %$/);
    const table = renderPg(r, 4);
    for (const id of ['2a-pg', '7a-pg']) expect(table).toMatch(new RegExp(`^${id}\\s.*(met|NOT MET)$`, 'm'));
  });

  it('two workers on either backend look each carrier up once', () => {
    if ('skipped' in r) throw new Error(r.skipped);
    for (const e of [r.twoWorkers!.sqlite, r.twoWorkers!.pg]) {
      expect(e.withoutScore).toBe(0);
      expect(e.lookups).toBe(e.distinct);
      expect(e.maxLookupsPerCarrier).toBe(1);
      expect(e.rateLimited).toBe(0);
    }
    expect(
      pgTargets(r)
        .filter((x) => x.id.startsWith('7a'))
        .every((x) => x.met),
    ).toBe(true);
  });

  it('commits one row per answer (and one event per PostgreSQL hit), in group commits', () => {
    if ('skipped' in r) throw new Error(r.skipped);
    const { floor, hit } = r.counts;
    expect(floor.answered).toBeGreaterThan(0);
    expect(floor.committed).toBe(floor.answered);
    const pgAnswered = HIT_VARIANTS.filter((v) => v !== 'sqlite').reduce((n, v) => n + hit.stats[v].answered, 0);
    for (const v of HIT_VARIANTS) expect(hit.stats[v].answered, v).toBeGreaterThan(0);
    expect(hit.pg.screenings).toBe(pgAnswered);
    expect(hit.pg.events).toBe(pgAnswered);
    // Every variant wrote the same row for a carrier, and each event names its screening.
    expect(hit.pg.mixed).toBe(0);
    expect(hit.pg.dangling).toBe(0);
    expect(hit.sqlite.screenings).toBe(hit.stats.sqlite.answered);
    expect(hit.sqlite.events).toBe(hit.stats.sqlite.answered);
    for (const v of HIT_VARIANTS.filter((x) => x !== 'sqlite')) {
      expect(hit.stats[v].pieces, v).toBe(hit.stats[v].answered);
      expect(hit.stats[v].batches, v).toBeGreaterThan(0);
      expect(hit.stats[v].batches, v).toBeLessThanOrEqual(hit.stats[v].pieces);
    }
  });

  it('drops the databases it created', async () => {
    if ('skipped' in r) throw new Error(r.skipped);
    const names = [r.database, ...r.productDatabases];
    expect(names).toHaveLength(3);
    for (const n of names) expect(n.startsWith(runPrefix())).toBe(true);
    const admin = openPgPool(PG_ADMIN_URL, { max: 1 });
    try {
      const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = ANY($1)', [names]);
      expect(rows).toHaveLength(0);
    } finally {
      await admin.end();
    }
  });
});
