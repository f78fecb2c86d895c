/**
 * Migration 16 (worker/decisions/schema.ts): the reviews table rebuilt to allow `closed`, with
 * its rows, its indexes and what refers to it kept; token ids on decisions and blocks. A real
 * SQLite file taken to version 15, filled, then migrated.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, latestVersion, migrate, openStore } from '../../worker/store/index.js';
import { tempDbPath } from '../helpers/temp-db.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('migration 16: review versions, closed reviews, token ids', () => {
  it('keeps every review as version 1, accepts closed, and keeps the indexes readers name', () => {
    const db = tempDbPath();
    cleanup = db.cleanup;
    const raw = new Database(db.path);
    migrate(
      raw,
      db.path,
      MIGRATIONS.filter((m) => m.version <= 15),
    );
    const at = '2026-03-02T10:00:00.000Z';
    raw
      .prepare(
        "INSERT INTO screenings (id, status, query_kind, query_value, priority, action, hold_reason, created_at) VALUES (?, 'done', 'dot_number', '1000003', 'tender', 'hold', 'manual_review', ?)",
      )
      .run('scr_a', at);
    raw
      .prepare(
        "INSERT INTO screenings (id, status, query_kind, query_value, priority, action, hold_reason, created_at) VALUES (?, 'done', 'dot_number', '1000003', 'tender', 'hold', 'manual_review', ?)",
      )
      .run('scr_b', at);
    raw
      .prepare(
        "INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key) VALUES ('rev_a', 'scr_a', 'pending', 'manual_review', ?, 'sandbox:dot:1000003')",
      )
      .run(at);
    raw
      .prepare(
        "INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id) VALUES ('rev_b', 'scr_b', 'pending', 'manual_review', ?, 'sandbox:dot:1000003', 'rev_a')",
      )
      .run(at);
    raw
      .prepare(
        "INSERT INTO local_blocks (id, carrier_key, dot_number, reason, blocked_by, blocked_at) VALUES ('blk_a', 'dot:1000005', '1000005', 'old', 'Dana', ?)",
      )
      .run(at);

    raw.close();
    // The store migrates it as a worker would, with its own pragmas (foreign keys on).
    const first = openStore(db.path);
    first.close();
    const rawAfter = new Database(db.path);
    // The store takes it on to the newest step; 17 rebuilds reviews again and must keep what 16 made.
    expect(rawAfter.pragma('user_version', { simple: true })).toBe(latestVersion());
    checkMigrated(rawAfter);
    rawAfter.close();

    // The store reads a migrated review: version 1, its own screening as the newest facts.
    const store = openStore(db.path);
    try {
      expect(store.getReview('rev_a')).toMatchObject({
        state: 'pending',
        version: 1,
        latest: { screening_id: 'scr_a', changes: [] },
        closed_by: null,
        token_id: null,
      });
    } finally {
      store.close();
    }
  });
});

function checkMigrated(raw: Database.Database): void {
  expect(
    raw.prepare('SELECT id, state, version, basis_since, facts_screening_id, closed_by, token_id FROM reviews ORDER BY id').all(),
  ).toEqual([
    { id: 'rev_a', state: 'pending', version: 1, basis_since: 1, facts_screening_id: null, closed_by: null, token_id: null },
    { id: 'rev_b', state: 'pending', version: 1, basis_since: 1, facts_screening_id: null, closed_by: null, token_id: null },
  ]);
  const indexes = (
    raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reviews' AND sql IS NOT NULL ORDER BY name")
      .all() as Array<{ name: string }>
  ).map((r) => r.name);
  // 21 adds the indexes the review lists page on (list-indexes-schema.ts).
  expect(indexes).toEqual([
    'reviews_by_decided',
    'reviews_by_parent',
    'reviews_by_state',
    'reviews_by_state_decided',
    'reviews_decided_recent',
    'reviews_open_by_carrier',
    'reviews_top_by_created',
  ]);
  // The screening still owns its review (ON DELETE CASCADE), and the new state and closings are checked.
  raw.prepare("UPDATE reviews SET state = 'closed', closed_by = 'local_block' WHERE id = 'rev_b'").run();
  expect(() => raw.prepare("UPDATE reviews SET closed_by = 'a whim' WHERE id = 'rev_b'").run()).toThrow(/CHECK/);
  expect(() => raw.prepare("UPDATE reviews SET state = 'gone' WHERE id = 'rev_b'").run()).toThrow(/CHECK/);
  raw.pragma('foreign_keys = ON');
  raw.prepare("DELETE FROM screenings WHERE id = 'scr_b'").run();
  expect(raw.prepare("SELECT COUNT(*) AS n FROM reviews WHERE id = 'rev_b'").get()).toEqual({ n: 0 });
  expect(raw.prepare("SELECT token_id, lifted_token_id FROM local_blocks WHERE id = 'blk_a'").get()).toEqual({
    token_id: null,
    lifted_token_id: null,
  });
}
