/**
 * Carrier locks on PostgreSQL (docs/design/postgres.md, section 4): a unit of work takes every
 * carrier lock it may need first, in one statement, in one global order (lockCarriers). Shown on
 * the race that made the rule: carrier-decisions' #openReviewOf looks a carrier up under each of
 * its keys in turn (reviewLookupKeys), each openReviewId locking its key, so a screening by MC whose
 * score names the DOT locks mc: then dot:, one by DOT locks dot: then mc:. Without the locks taken
 * up front, two hosts doing these at once deadlock (40P01, the control case); with them, one waits
 * for the other's COMMIT and both commit. PostgreSQL only: SQLite's one writer has no such race.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carrierLockSet, reviewLookupKeys, type LockedScreening } from '../../worker/decisions/carrier-decisions.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { pgDecisionsOf } from '../../worker/store/pg/decisions-repo.js';
import { pgLocalBlocksOf } from '../../worker/store/pg/local-blocks-repo.js';
import { blockLockNames } from '../../worker/store/block-rows.js';
import { WatchConflictError } from '../../worker/store/store-error.js';
import { poolExecutor, type PgExecutor } from '../../worker/store/pg/executor.js';
import { ADVISORY_NAMESPACES } from '../../worker/store/pg/advisory-keys.js';
import { pgWatchStoreOf } from '../../worker/store/pg/watch-store.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { definedStatements } from '../../worker/store/pg/sql.js';

const ENV = 'sandbox';

let database: Awaited<ReturnType<typeof migratedPgDatabase>>;
let x: PgExecutor;
beforeAll(async () => {
  database = await migratedPgDatabase();
  x = poolExecutor(database.pool);
});
afterAll(async () => {
  await database?.close();
});

let unique = 0;
/** A carrier of its own per case: its DOT and MC numbers, and the score /v1 gives for it. */
function carrier() {
  const u = ++unique;
  const dot = String(3_000_000 + u * 7919);
  const mc = `MC${800_000 + u * 104_729}`;
  const score = { carrier: { dot_number: dot, mc_number: mc } } as unknown as SvcScore;
  return { u, dot, mc, score };
}

/** True once a session of this database waits on a lock. */
async function someoneWaits(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()',
  );
  return rows[0]!.n > 0;
}

/**
 * Two hosts at once, each a unit of work about one screening: `upFront`, the locks carrier-decisions'
 * callers take first (carrierLockSet, as CarrierDecisions.lockCarriers builds it); then the open
 * review looked for as #openReviewOf looks (reviewLookupKeys, each key's openReviewId locking it).
 * Each stops after its first look until both have looked or one waits on a lock, so the race is the
 * one meant (both holding their first key), not a lucky order; then `after` runs in the unit.
 */
async function twoHosts(
  screenings: [LockedScreening, LockedScreening],
  o: { upFront: boolean; watch?: [string[], string[]]; after?: (tx: PgExecutor, i: number) => Promise<void> },
): Promise<PromiseSettledResult<unknown>[]> {
  let looked = 0;
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let done = false;
  const watcher = (async () => {
    while (!done) {
      if (looked === 2 || (looked > 0 && (await someoneWaits(database.pool)))) return open();
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const host = (s: LockedScreening, i: number) =>
    x.transaction(async (tx) => {
      const r = pgDecisionsOf(tx);
      if (o.upFront) await r.lockCarriers(carrierLockSet(ENV, [s], { watch: o.watch?.[i] ?? [] }));
      let first = true;
      for (const key of reviewLookupKeys(ENV, s.query, s.score)) {
        await r.openReviewId(key);
        if (first) {
          first = false;
          looked++;
          await gate;
        }
      }
      await o.after?.(tx, i);
    });
  const results = await Promise.allSettled(screenings.map(host));
  done = true;
  open();
  await watcher;
  return results;
}

/**
 * Two units of work at once, each `first` then `then`, each stopping after its `first` until both
 * got there or one waits on a lock (the race meant, not a lucky order).
 */
async function race(units: Array<{ first: (tx: PgExecutor) => Promise<unknown>; then: (tx: PgExecutor) => Promise<unknown> }>) {
  let arrived = 0;
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let done = false;
  const watcher = (async () => {
    while (!done) {
      if (arrived === units.length || (arrived > 0 && (await someoneWaits(database.pool)))) return open();
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const results = await Promise.allSettled(
    units.map((u) =>
      x.transaction(async (tx) => {
        await u.first(tx);
        arrived++;
        await gate;
        return u.then(tx);
      }),
    ),
  );
  done = true;
  open();
  await watcher;
  return results;
}

describe('postgres: carrier locks taken up front, in one order', () => {
  for (const upFront of [false, true]) {
    it(`a screening by MC whose score names the DOT, and one by DOT, at once: ${upFront ? 'locked up front, both commit' : 'locked as looked up (the control), PostgreSQL ends one with 40P01'}`, async () => {
      const c = carrier();
      const byMc: LockedScreening = { id: `scr_${c.u}_mc`, query: { mc_number: c.mc }, score: c.score };
      const byDot: LockedScreening = { id: `scr_${c.u}_dot`, query: { dot_number: c.dot }, score: c.score };
      // The two look under the same keys in opposite orders: that is the race.
      expect(reviewLookupKeys(ENV, byMc.query, byMc.score)).toEqual([`${ENV}:mc:${c.mc}`, `${ENV}:dot:${c.dot}`]);
      expect(reviewLookupKeys(ENV, byDot.query, byDot.score)).toEqual([`${ENV}:dot:${c.dot}`, `${ENV}:mc:${c.mc}`]);
      const results = await twoHosts([byMc, byDot], { upFront });
      if (upFront) expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      else {
        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: '40P01' });
      }
    });
  }

  it('the review locks and then the watch store own locks (the pipeline unit: decisions, then the watch record): both commit', async () => {
    // Each host's watch record locks its carrier's watch keys in the watch store's own order; taken
    // up front with the review keys (lockCarriers), they are re-entrant there.
    const c = carrier();
    const watch = pgWatchStoreOf(x, { watchDays: 30 });
    const keys = [`dot:${c.dot}`, `mc:${c.mc}`];
    const byMc: LockedScreening = { query: { mc_number: c.mc }, score: c.score };
    const byDot: LockedScreening = { query: { dot_number: c.dot }, score: c.score };
    const results = await twoHosts([byMc, byDot], {
      upFront: true,
      watch: [keys, [...keys].reverse()],
      after: async (tx) => void (await pgWatchStoreOf(tx, { watchDays: 30 }).removeEntry(keys, new Date().toISOString())),
    });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    await watch.removeEntry(keys, new Date().toISOString());
  });

  it('lockCarriers holds exactly the locks asked for: a review lock per review key, a watch lock per watch key', async () => {
    const c = carrier();
    const set = carrierLockSet(ENV, [{ query: { mc_number: c.mc }, score: c.score }], { watch: [`dot:${c.dot}`, `mc:${c.mc}`] });
    const n = await x.transaction(async (tx) => {
      await pgDecisionsOf(tx).lockCarriers(set);
      const { rows } = await tx.query<{ missing: number; extra: number; n: number }>({
        text: `WITH want AS (
             SELECT DISTINCT ns::bigint AS ns, (hashtext(k)::bigint + 4294967296) % 4294967296 AS h
             FROM (SELECT $1::int AS ns, unnest($2::text[]) AS k UNION ALL SELECT $3::int, unnest($4::text[])) AS a),
           held AS (SELECT classid::bigint AS ns, objid::bigint AS h FROM pg_locks
             WHERE locktype = 'advisory' AND objsubid = 2 AND granted AND pid = pg_backend_pid())
           SELECT (SELECT count(*) FROM (SELECT * FROM want EXCEPT SELECT * FROM held) AS m)::int AS missing,
                  (SELECT count(*) FROM (SELECT * FROM held EXCEPT SELECT * FROM want) AS e)::int AS extra,
                  (SELECT count(*) FROM want)::int AS n`,
        values: [ADVISORY_NAMESPACES.review, set.review, ADVISORY_NAMESPACES.watch, set.watch],
      });
      expect(rows[0]).toMatchObject({ missing: 0, extra: 0 });
      return rows[0]!.n;
    });
    expect(n).toBe(4);
  });

  it("with 1 500 reviews on record (where one OR of both lookups was planned as a scan), a batch's locks read no review they do not name", async () => {
    // A database of its own: review rows alone (their screenings' foreign key is the schema's
    // trigger, off for this session), which the other cases must not meet.
    const own = await migratedPgDatabase();
    const x = poolExecutor(own.pool);
    try {
      await x.transaction(async (tx) => {
        await tx.query({ text: 'SET LOCAL session_replication_role = replica' });
        await tx.query({
          text: `INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id)
               SELECT 'rev_scan_' || g, 'scr_scan_' || g, 'pending', 'manual_review', '2026-01-01T00:00:00.000Z', 'sandbox:dot:' || (g % 300),
                 CASE WHEN g % 300 = g THEN NULL ELSE 'rev_scan_' || (g % 300) END
               FROM generate_series(1, 1500) AS g`,
        });
      });
      await x.query({ text: 'ANALYZE reviews' });
      const plans: Record<string, string[]> = {};
      const texts = new Map(definedStatements().map((d) => [d.name, d.text]));
      await x.transaction(async (tx) => {
        for (const [name, params] of [
          ['carrier_locks_take_named', "'{}', '{sandbox:dot:1}', '{dot:1}'"],
          ['carrier_locks_take', "'{}', '{sandbox:dot:1}', '{dot:1}', '{rev_scan_7}', '{}'"],
        ] as const) {
          const types = params.split(',').map(() => 'text[]');
          await tx.query({ text: `PREPARE plan_${name}(${types.join(', ')}) AS ${texts.get(name)!}` });
          // Both plans PostgreSQL may use: planned for these values, and the one it keeps for any.
          for (const mode of ['force_custom_plan', 'force_generic_plan']) {
            await tx.query({ text: `SET LOCAL plan_cache_mode = ${mode}` });
            const { rows } = await tx.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN EXECUTE plan_${name}(${params})` });
            (plans[name] ??= []).push(rows.map((r) => r['QUERY PLAN']).join('\n'));
          }
        }
        await tx.query({ text: 'DEALLOCATE ALL' });
      });
      expect(plans['carrier_locks_take_named']!.join('\n')).not.toContain('reviews');
      for (const plan of plans['carrier_locks_take']!) {
        expect(plan).toContain('reviews');
        expect(plan).not.toMatch(/Seq Scan on reviews/);
      }
    } finally {
      await own.close();
    }
  });

  for (const upFront of [false, true]) {
    it(`reject and block on the desk while a person blocks the carrier by hand: ${upFront ? 'locked up front, both commit (one block, the other a conflict)' : 'the control: the review, then the block names, against the names, then the review: 40P01'}`, async () => {
      const c = carrier();
      const key = `${ENV}:dot:${c.dot}`;
      await database.pool.query(
        `INSERT INTO screenings (id, status, query_kind, query_value, priority, action, created_at, completed_at)
         VALUES ($1, 'done', 'dot_number', $2, 'tender', 'hold', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`,
        [`scr_${c.u}_r`, c.dot],
      );
      await pgDecisionsOf(x).insertReview({
        id: `rev_${c.u}`,
        screening_id: `scr_${c.u}_r`,
        hold_reason: 'manual_review',
        created_at: '2026-11-01T00:00:00.000Z',
        carrier_key: key,
        parent_id: null,
        previous_decision: null,
      });
      const block = {
        carrierKey: `dot:${c.dot}`,
        dot_number: c.dot,
        mc_number: c.mc,
        reason: 'r',
        by: 'D',
        at: '2026-11-01T00:01:00.000Z',
      };
      // What LocalBlocks.blockFor names and CarrierDecisions.onLocalBlock then looks under.
      const queries = [{ dot_number: c.dot }, { mc_number: c.mc }];
      // The second block is refused (block_conflict): an answer, not a failure of the unit.
      const blocked = (tx: PgExecutor) =>
        pgLocalBlocksOf(tx)
          .addBlock(block)
          .catch((e: unknown) => {
            if (e instanceof WatchConflictError) return e;
            throw e;
          });
      const results = await race([
        {
          // The desk (ReviewService.decide, reject + block): resolve's review read, then the block.
          first: async (tx) => {
            if (upFront)
              await pgDecisionsOf(tx).lockCarriers(
                carrierLockSet(
                  ENV,
                  queries.map((query) => ({ query, score: null })),
                  { block: blockLockNames(block), reviews: [`rev_${c.u}`] },
                ),
              );
            await pgDecisionsOf(tx).reviewHead(`rev_${c.u}`);
          },
          then: blocked,
        },
        {
          // By hand (LocalBlocks.addBlock): the block, then onLocalBlock's review look-up.
          first: blocked,
          then: async (tx) => {
            const r = pgDecisionsOf(tx);
            await r.lockCarriers(
              carrierLockSet(
                ENV,
                queries.map((query) => ({ query, score: null })),
              ),
            );
            for (const q of queries) for (const k of reviewLookupKeys(ENV, q, null)) await r.openReviewId(k);
          },
        },
      ]);
      if (upFront) expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      else {
        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: '40P01' });
      }
      const { rows } = await database.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM local_blocks WHERE lifted_at IS NULL AND dot_number = $1',
        [c.dot],
      );
      expect(rows[0]!.n).toBe(1);
    });
  }
});
