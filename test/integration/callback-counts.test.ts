/**
 * The outbox's rows per state (/status `callbacks`, the carrier_screen_callbacks gauge) are kept
 * by triggers beside the outbox (migration 23), so reading them costs four rows however many
 * deliveries are kept: filled from the rows a database already has, then exact through inserts,
 * changes of state and deletes.
 */
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { callbackCounts } from '../../worker/callbacks/outbox.js';
import { migrate, MIGRATIONS, openStore, type Store, recordOf } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';

const STATES = ['pending', 'delivered', 'dead', 'cancelled'] as const;
let store: Store | undefined;
let cleanup: (() => void) | undefined;
afterEach(() => {
  store?.close();
  cleanup?.();
});

function insert(db: Database.Database, i: number, state: string): void {
  db.prepare(
    `INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, body, state, next_attempt_at, retry_since, created_at, updated_at)
    VALUES (?, ?, 'screening.completed', 'http://127.0.0.1:9/cb', 'http://127.0.0.1:9', '{}', ?, 0, 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
  ).run(`cb_${i}`, `dlv_${i}`, state);
}

function counted(db: Database.Database): Record<string, number> {
  const out: Record<string, number> = { pending: 0, delivered: 0, dead: 0, cancelled: 0 };
  for (const r of db.prepare('SELECT state, COUNT(*) AS n FROM callback_outbox GROUP BY state').all() as Array<{
    state: string;
    n: number;
  }>)
    out[r.state] = r.n;
  return out;
}

it('are filled from the rows already there, then stay exact through inserts, state changes and deletes', async () => {
  const file = tempDbPath();
  cleanup = file.cleanup;
  const raw = new Database(file.path);
  migrate(
    raw,
    file.path,
    MIGRATIONS.filter((m) => m.version <= 20),
  );
  for (let i = 0; i < 40; i++) insert(raw, i, STATES[i % 3]!);
  raw.close();
  store = openStore(file.path);
  const db = connectionOf(store);
  expect(await callbackCounts(recordOf(store))).toEqual(counted(db));
  expect(await callbackCounts(recordOf(store))).toMatchObject({ pending: 14, delivered: 13, dead: 13, cancelled: 0 });

  // A seeded walk of the outbox's own kinds of change.
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  let next = 40;
  for (let step = 0; step < 300; step++) {
    const op = rnd(4);
    if (op === 0) insert(db, next++, 'pending');
    else if (op === 1)
      db.prepare('UPDATE callback_outbox SET state = ?, updated_at = ? WHERE id = ?').run(
        STATES[rnd(4)]!,
        `2026-01-02T00:00:${String(step % 60).padStart(2, '0')}Z`,
        `cb_${rnd(next)}`,
      );
    else if (op === 2) db.prepare('UPDATE callback_outbox SET attempts = attempts + 1 WHERE id = ?').run(`cb_${rnd(next)}`);
    else db.prepare('DELETE FROM callback_outbox WHERE id = ?').run(`cb_${rnd(next)}`);
    // A repeated delivery id inserts nothing.
    if (step % 50 === 0)
      db.prepare(
        `INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, body, state, next_attempt_at, retry_since, created_at, updated_at)
      VALUES ('cb_dup', 'dlv_0', 'x', 'u', 'd', '{}', 'pending', 0, 0, 't', 't') ON CONFLICT (delivery_id) DO NOTHING`,
      ).run();
    expect(await callbackCounts(recordOf(store))).toEqual(counted(db));
  }
});

it('are read from the kept counts, not counted from the outbox', async () => {
  const file = tempDbPath();
  cleanup = file.cleanup;
  store = openStore(file.path);
  const db = connectionOf(store);
  insert(db, 1, 'dead');
  db.prepare("UPDATE callback_counts SET n = 1000 WHERE state = 'delivered'").run();
  expect(await callbackCounts(recordOf(store))).toEqual({ pending: 0, delivered: 1000, dead: 1, cancelled: 0 });
});
