/**
 * The reads a batch of cache hits makes of tables that grow keep one generic plan (sql.ts,
 * `batchArray`): planned at every bind, each cost as much as running it (bench/README.md). Shown
 * here on PostgreSQL itself, for each such read:
 * - PostgreSQL uses a generic plan for it (pg_prepared_statements), where the same statement with
 *   its array in view (the control) is planned again at every run;
 * - the plan it keeps is made again once the tables' statistics change: a plan made on empty
 *   tables does not outlive their growth, and on grown tables it finds each row by an index.
 * PostgreSQL only: SQLite plans a statement once.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../worker/store/pg/decisions-repo.js';
import '../../worker/store/pg/score-cache-repo.js';
import { openPgPool, PG_CONNECTION_LIFETIME_S } from '../../worker/store/pg/pg-pool.js';
import { definedStatements } from '../../worker/store/pg/sql.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';

/** Each read, with values of its parameters in the order of their $n. */
const READS = {
  score_cache_hit_many: ["'{7000001,7000002,7000003}'", "'live'", "'{MC7000004}'"],
  decisions_standing_and_open_review_many: ["'{live:dot:7000001,live:dot:7000002}'"],
} as const;
type Read = keyof typeof READS;

/** How each read finds each row by its key (an index condition on the batch's key), once its tables have grown. */
const KEYED: Record<Read, RegExp[]> = {
  score_cache_hit_many: [
    /Index Scan using score_cache_pkey on score_cache c\s+\(.*\)\n\s+Index Cond: \(\(env = \$2\) AND \(dot_number = q\.dot\)\)/,
    /Index Scan using mc_alias_pkey on mc_alias a\s+\(.*\)\n\s+Index Cond: \(\(env = \(\$2\)::text\) AND \(mc_number = q_1\.mc\)\)/,
  ],
  decisions_standing_and_open_review_many: [
    /Index Scan using decisions_one_standing on decisions d\s+\(.*\)\n\s+Index Cond: \(carrier_key = q\.key\)/,
    /Index Scan using reviews_open_by_carrier on reviews r\s+\(.*\)\n\s+Index Cond: \(carrier_key = q\.key\)/,
  ],
};
const keyed = (name: Read, plan: string): boolean => KEYED[name].every((re) => re.test(plan));

let database: Awaited<ReturnType<typeof migratedPgDatabase>>;
const texts = new Map(definedStatements().map((d) => [d.name, d.text]));
beforeAll(async () => {
  database = await migratedPgDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** Rows of a year's traffic in the four tables the reads read (the foreign keys' triggers off for this session). */
async function growTables(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(`INSERT INTO score_cache (env, dot_number, body, model_version, fetched_at, fetch_id)
          SELECT 'live', (7000000 + g)::text, '{}', 'm1', '2026-01-01T00:00:00.000Z', g FROM generate_series(1, 20000) AS g`);
    await client.query(`INSERT INTO mc_alias (env, mc_number, dot_number)
          SELECT 'live', 'MC' || (7000000 + g), (7000000 + g)::text FROM generate_series(1, 20000) AS g`);
    await client.query(`INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id, version, basis_since)
          SELECT 'rev_' || g, 'scr_' || g, CASE WHEN g % 4 = 0 THEN 'pending' ELSE 'approved' END, 'manual_review', '2026-01-01T00:00:00.000Z',
            'live:dot:' || (7000000 + g), NULL, 1, 1 FROM generate_series(1, 20000) AS g`);
    await client.query(`INSERT INTO decisions (id, carrier_key, dot_number, review_id, decision, basis, decided_by, decided_at, expires_at, state)
          SELECT 'dec_' || g, 'live:dot:' || (7000000 + g), (7000000 + g)::text, 'rev_' || g, 'approved', '{}', 'ops', '2026-01-01T00:00:00.000Z',
            '2027-01-01T00:00:00.000Z', CASE WHEN g % 2 = 0 THEN 'standing' ELSE 'lapsed' END FROM generate_series(1, 20000) AS g`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/** The file's database grown and analyzed (once per file). */
let growing: Promise<void> | undefined;
const grown = (): Promise<void> =>
  (growing ??= (async () => {
    const client = await database.pool.connect();
    try {
      await growTables(client);
      await client.query('ANALYZE score_cache, mc_alias, decisions, reviews');
    } finally {
      client.release();
    }
  })());

/** The connection lifetime a pool of openPgPool's gets by default. */
function openPgPoolDefaults(url: string): number | undefined {
  const pool = openPgPool(url);
  const seconds = pool.options.maxLifetimeSeconds;
  void pool.end();
  return seconds;
}

/** The statement's text with the batch's arrays in the planner's view, as before batchArray. */
const arraysInView = (text: string): string => text.replace(/\(SELECT (\$\d+::text\[\])\)::text\[\]/g, '$1');

describe('generic plans of the hit batch reads of growing tables (PostgreSQL)', () => {
  it('the generic plan made on empty tables is made again after they grow and are analyzed, and finds each row by an index', async () => {
    const client = await database.pool.connect();
    const genericPlan = async (name: Read): Promise<string> => {
      await client.query('SET plan_cache_mode = force_generic_plan');
      try {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE plan_${name}(${READS[name].join(', ')})`);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await client.query('RESET plan_cache_mode');
      }
    };
    try {
      await client.query('ANALYZE score_cache, mc_alias, decisions, reviews');
      const before: Partial<Record<Read, string>> = {};
      for (const name of Object.keys(READS) as Read[]) {
        await client.query(`PREPARE plan_${name} AS ${texts.get(name)!}`);
        before[name] = await genericPlan(name);
      }
      await grown();
      await client.query('ANALYZE score_cache, mc_alias, decisions, reviews');
      for (const name of Object.keys(READS) as Read[]) {
        const after = await genericPlan(name);
        expect(after, name).not.toEqual(before[name]);
        expect(keyed(name, after), `${name}:\n${after}`).toBe(true);
      }
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      await client.query('DEALLOCATE ALL');
      client.release();
    }
  });

  it('on grown tables, each is run with one generic plan after its first runs; with its arrays in view, it is planned at every run', async () => {
    await grown();
    const client = await database.pool.connect();
    try {
      for (const [name, values] of Object.entries(READS) as Array<[Read, readonly string[]]>) {
        const text = texts.get(name)!;
        expect(text, name).toContain('(SELECT $1::text[])::text[]');
        await client.query(`PREPARE kept_${name} AS ${text}`);
        await client.query(`PREPARE control_${name} AS ${arraysInView(text)}`);
        for (let i = 0; i < 10; i++) {
          await client.query(`EXECUTE kept_${name}(${values.join(', ')})`);
          await client.query(`EXECUTE control_${name}(${values.join(', ')})`);
        }
      }
      const { rows } = await client.query<{ name: string; generic_plans: string; custom_plans: string }>(
        `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'kept\\_%' OR name LIKE 'control\\_%' ORDER BY name`,
      );
      const plans = Object.fromEntries(rows.map((r) => [r.name, { generic: Number(r.generic_plans), custom: Number(r.custom_plans) }]));
      for (const name of Object.keys(READS)) {
        // PostgreSQL's rule: five custom plans, then the generic one when it costs no more.
        expect(plans[`kept_${name}`], name).toEqual({ generic: 5, custom: 5 });
        expect(plans[`control_${name}`], name).toEqual({ generic: 0, custom: 10 });
      }
    } finally {
      await client.query('DEALLOCATE ALL');
      client.release();
    }
  });

  it('with no ANALYZE (autovacuum off), a connection keeps the plan it made on empty tables, a new one plans with the tables as they are; a connection lives PG_CONNECTION_LIFETIME_S', async () => {
    const own = await migratedPgDatabase();
    const explain = async (client: pg.PoolClient, name: Read): Promise<string> => {
      await client.query('SET plan_cache_mode = force_generic_plan');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE plan_${name}(${READS[name].join(', ')})`);
      await client.query('RESET plan_cache_mode');
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    const kept = await own.pool.connect();
    try {
      // No ANALYZE from autovacuum either, wherever this runs: the tables' statistics stay as made.
      for (const t of ['score_cache', 'mc_alias', 'decisions', 'reviews'])
        await kept.query(`ALTER TABLE ${t} SET (autovacuum_enabled = false)`);
      const before: Partial<Record<Read, string>> = {};
      for (const name of Object.keys(READS) as Read[]) {
        await kept.query(`PREPARE plan_${name} AS ${texts.get(name)!}`);
        before[name] = await explain(kept, name);
        expect(keyed(name, before[name]!), `${name}:\n${before[name]}`).toBe(false);
      }
      // From another connection: growTables' session_replication_role resets its own connection's plans.
      const other = await own.pool.connect();
      try {
        await growTables(other);
      } finally {
        other.release();
      }
      const fresh = await own.pool.connect();
      try {
        for (const name of Object.keys(READS) as Read[]) {
          // The plan made on empty tables, still (without ANALYZE nothing tells the connection).
          expect(await explain(kept, name), name).toEqual(before[name]);
          await fresh.query(`PREPARE plan_${name} AS ${texts.get(name)!}`);
          const now = await explain(fresh, name);
          expect(keyed(name, now), `${name}:\n${now}`).toBe(true);
        }
      } finally {
        fresh.release();
      }
    } finally {
      kept.release();
    }
    // So the product's pool ends each connection once it is PG_CONNECTION_LIFETIME_S old (shown at 1 s).
    expect(PG_CONNECTION_LIFETIME_S).toBeGreaterThan(0);
    const pool = openPgPool(own.db.url, { lifetimeSeconds: 1, max: 1 });
    try {
      expect(pool.options.maxLifetimeSeconds).toBe(1);
      expect(openPgPoolDefaults(own.db.url)).toBe(PG_CONNECTION_LIFETIME_S);
      const pid = async (): Promise<number> => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const first = await pid();
      expect(await pid()).toBe(first);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await pid()).not.toBe(first);
    } finally {
      await pool.end();
      await own.close();
    }
  });
});
