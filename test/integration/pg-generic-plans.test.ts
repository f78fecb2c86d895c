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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../worker/store/pg/decisions-repo.js';
import '../../worker/store/pg/score-cache-repo.js';
import { definedStatements } from '../../worker/store/pg/sql.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';

/** Each read, with values of its parameters in the order of their $n. */
const READS = {
  score_cache_hit_many: ["'{7000001,7000002,7000003}'", "'live'", "'{MC7000004}'"],
  decisions_standing_and_open_review_many: ["'{live:dot:7000001,live:dot:7000002}'"],
} as const;
type Read = keyof typeof READS;

/** What the generic plan of each read must find by an index once its tables have grown. */
const INDEXED: Record<Read, string[]> = {
  score_cache_hit_many: ['score_cache', 'mc_alias'],
  decisions_standing_and_open_review_many: ['decisions', 'reviews'],
};

let database: Awaited<ReturnType<typeof migratedPgDatabase>>;
const texts = new Map(definedStatements().map((d) => [d.name, d.text]));
beforeAll(async () => {
  database = await migratedPgDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The tables of a year's traffic (once per file): rows alone, the foreign keys' triggers off for this session. */
let growing: Promise<void> | undefined;
const grown = (): Promise<void> =>
  (growing ??= (async () => {
    const client = await database.pool.connect();
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
      await client.query('ANALYZE score_cache, mc_alias, decisions, reviews');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  })());

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
        for (const table of INDEXED[name]) {
          expect(after, `${name}: ${table}`).toMatch(new RegExp(`Index (Only )?Scan using \\w+ on ${table}\\b`));
          expect(after, `${name}: ${table}`).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
        }
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
});
