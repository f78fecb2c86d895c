/**
 * The outbox's rows per state (/status `callbacks`, the carrier_screen_callbacks gauge) are kept
 * by triggers beside the outbox (migration 23; on PostgreSQL its initial schema, sharded), so
 * reading them costs a few rows however many deliveries are kept: filled from the rows an older
 * SQLite file already has, then exact through inserts, changes of state and deletes, on the
 * record of the pass (SCREEN_TEST_DB).
 */
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { callbackCounts } from '../../worker/callbacks/outbox.js';
import { migrate, MIGRATIONS, openStore, type Store, recordOf } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { itSqlite, onPostgres } from '../helpers/test-db.js';
import { openTestRecord, type OpenedTestRecord, type SqlRow } from '../helpers/test-record-sql.js';

const STATES = ['pending', 'delivered', 'dead', 'cancelled'] as const;
let store: Store | undefined;
let cleanup: (() => void) | undefined;
let opened: OpenedTestRecord | undefined;
afterEach(async () => {
  store?.close();
  cleanup?.();
  await opened?.close();
  store = undefined;
  cleanup = undefined;
  opened = undefined;
});

const INSERT = `INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, body, state, next_attempt_at, retry_since, created_at, updated_at)
    VALUES (@id, @delivery_id, 'screening.completed', 'http://127.0.0.1:9/cb', 'http://127.0.0.1:9', '{}', @state, 0, 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`;
const row = (i: number, state: string) => ({ id: `cb_${i}`, delivery_id: `dlv_${i}`, state });

function counted(rows: SqlRow[]): Record<string, number> {
  const out: Record<string, number> = { pending: 0, delivered: 0, dead: 0, cancelled: 0 };
  for (const r of rows) out[r.state as string] = Number(r.n);
  return out;
}
const COUNT = 'SELECT state, COUNT(*) AS n FROM callback_outbox GROUP BY state';

itSqlite('are filled from the rows an older SQLite file already has (migration 23)', async () => {
  const file = tempDbPath();
  cleanup = file.cleanup;
  const raw = new Database(file.path);
  migrate(
    raw,
    file.path,
    MIGRATIONS.filter((m) => m.version <= 20),
  );
  for (let i = 0; i < 40; i++) raw.prepare(INSERT).run(row(i, STATES[i % 3]!));
  raw.close();
  store = openStore(file.path);
  expect(await callbackCounts(recordOf(store))).toEqual(counted(connectionOf(store).prepare(COUNT).all() as SqlRow[]));
  expect(await callbackCounts(recordOf(store))).toMatchObject({ pending: 14, delivered: 13, dead: 13, cancelled: 0 });
});

it('stay exact through inserts, state changes and deletes', async () => {
  opened = await openTestRecord();
  const { record, sql } = opened;
  for (let i = 0; i < 40; i++) await sql(INSERT, row(i, STATES[i % 3]!));
  expect(await callbackCounts(record)).toEqual(counted(await sql(COUNT)));
  expect(await callbackCounts(record)).toMatchObject({ pending: 14, delivered: 13, dead: 13, cancelled: 0 });

  // A seeded walk of the outbox's own kinds of change.
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  let next = 40;
  for (let step = 0; step < 300; step++) {
    const op = rnd(4);
    if (op === 0) await sql(INSERT, row(next++, 'pending'));
    else if (op === 1)
      await sql('UPDATE callback_outbox SET state = @state, updated_at = @at WHERE id = @id', {
        state: STATES[rnd(4)]!,
        at: `2026-01-02T00:00:${String(step % 60).padStart(2, '0')}Z`,
        id: `cb_${rnd(next)}`,
      });
    else if (op === 2) await sql('UPDATE callback_outbox SET attempts = attempts + 1 WHERE id = @id', { id: `cb_${rnd(next)}` });
    else await sql('DELETE FROM callback_outbox WHERE id = @id', { id: `cb_${rnd(next)}` });
    // A repeated delivery id inserts nothing.
    if (step % 50 === 0)
      await sql(
        `INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, body, state, next_attempt_at, retry_since, created_at, updated_at)
      VALUES ('cb_dup', 'dlv_0', 'x', 'u', 'd', '{}', 'pending', 0, 0, 't', 't') ON CONFLICT (delivery_id) DO NOTHING`,
      );
    expect(await callbackCounts(record)).toEqual(counted(await sql(COUNT)));
  }
});

it('are read from the kept counts, not counted from the outbox', async () => {
  opened = await openTestRecord();
  const { record, sql } = opened;
  await sql(INSERT, row(1, 'dead'));
  // PostgreSQL keeps each state's count in shards (one per backend process's pid % 8): set one.
  await sql(`UPDATE callback_counts SET n = 1000 WHERE state = 'delivered'${onPostgres ? ' AND shard = 0' : ''}`);
  expect(await callbackCounts(record)).toEqual({ pending: 0, delivered: 1000, dead: 1, cancelled: 0 });
});
