/**
 * A batch's read-ahead of tender heads on PostgreSQL (watch-store.ts `readAheadTenders`): it
 * reads the watch rows by key (`watch_rows_many`) and puts together, for each tender, the row
 * `watch_heads` would have read. Every row it hands the unit to remember is compared here with
 * what PostgreSQL answers to that `watch_heads` read itself: same columns, values, types and
 * order, for entries present and missing, MC-keyed entries waiting or not, and tenders twice.
 * The executor is the pool of a migrated test database, with a `remember` that records what the
 * unit of work would be given.
 */
import type { QueryConfig, QueryResultRow } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PgExecutor } from '../../worker/store/pg/executor.js';
import { pgWatchStoreOf } from '../../worker/store/pg/watch-store.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';

let h: Awaited<ReturnType<typeof migratedPgDatabase>>;
beforeAll(async () => {
  h = await migratedPgDatabase();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const AT = '2026-01-01T00:00:00.000Z';
const entry = (key: string, manual: 0 | 1, dot: string | null, mc: string | null, lastTender: string | null, state: string | null) =>
  h.pool.query(
    `INSERT INTO watch_entries (carrier_key, dot_number, mc_number, manual, added_at, last_tender_at, next_check_at, last_state)
     VALUES ($1, $2, $3, $4, $5, $6, $5, $7)`,
    [key, dot, mc, manual, AT, lastTender, state],
  );

it('every heads row it remembers is the row watch_heads reads', async () => {
  await entry('dot:1', 1, '1', null, null, null);
  await entry('dot:2', 0, '2', '702', AT, '{"action":"tender"}');
  await entry('mc:702', 1, null, '702', null, '{"action":"block"}');
  await entry('mc:709', 0, null, null, null, null);
  await entry('dot:3', 0, null, null, null, '');
  const remembered: Array<{ config: QueryConfig; rows: QueryResultRow[] }> = [];
  const x = {
    inTransaction: true,
    query: (config: QueryConfig) => h.pool.query(config),
    transaction: () => Promise.reject(new Error('not in this test')),
    remember: (config: QueryConfig, rows: QueryResultRow[]) => void remembered.push({ config, rows }),
    remembers: () => false,
    locksSent: () => 0,
  } as unknown as PgExecutor;
  await pgWatchStoreOf(x, { watchDays: 14 }).readAheadTenders!([
    { carrierKey: 'dot:1', keys: ['dot:1'] },
    { carrierKey: 'dot:1', keys: ['dot:1', 'mc:702'] },
    { carrierKey: 'dot:1', keys: ['dot:1', 'mc:700'] },
    { carrierKey: 'dot:2', keys: ['dot:2', 'mc:702'] },
    { carrierKey: 'dot:2', keys: ['dot:2', 'mc:702'] },
    { carrierKey: 'dot:2', keys: ['dot:2', 'dot:2'] },
    { carrierKey: 'dot:404', keys: ['dot:404'] },
    { carrierKey: 'dot:404', keys: ['dot:404', 'mc:709'] },
    { carrierKey: 'mc:702', keys: ['mc:702'] },
    { carrierKey: 'mc:709', keys: ['mc:709', 'dot:1'] },
    { carrierKey: 'dot:3', keys: ['dot:3', 'dot:3'] },
    // A tender whose carrier is not its observation's first key: not read ahead.
    { carrierKey: 'dot:9', keys: ['dot:1', 'mc:702'] },
  ]);
  // Eleven tenders read ahead, one of them twice: ten reads remembered.
  expect(remembered).toHaveLength(10);
  for (const { config, rows } of remembered) {
    expect(config.name).toBe('watch_heads');
    const read = (await h.pool.query(config)).rows;
    expect(rows).toStrictEqual(read);
    // In the same column order, as the row a unit would have read.
    expect(JSON.stringify(rows)).toBe(JSON.stringify(read));
  }
  // Six name a second key with an entry of its own (an MC-keyed entry waiting, or the key again):
  // what sends observe on to settle the keys.
  expect(remembered.filter((r) => r.rows[0]!.other_waiting === true)).toHaveLength(6);
});
