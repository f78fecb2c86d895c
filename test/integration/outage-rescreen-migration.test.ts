/**
 * Migration 17 (worker/recovery/outage-rescreen-schema.ts): reviews may be `superseded` (the
 * table rebuilt for its CHECK, every row and index kept), screenings get rescreened_at.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../worker/store/migrations.js';
import { connectionOf, openStore } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { integrityOf } from '../helpers/integrity.js';

describe('migration 17 (superseded reviews, re-screens after an outage)', () => {
  it('keeps every review and its columns, allows superseded, keeps the indexes, and adds rescreened_at', () => {
    const file = tempDbPath();
    try {
      const raw = new Database(file.path);
      raw.pragma('journal_mode = WAL');
      // The file as version 16 left it, with a carrier review and a tender waiting on it.
      for (const m of MIGRATIONS.filter((x) => x.version <= 16)) {
        raw.exec(m.sql);
        raw.pragma(`user_version = ${m.version}`);
      }
      expect(() =>
        raw
          .prepare("INSERT INTO reviews (id, screening_id, state, hold_reason, created_at) VALUES ('x', 'y', 'superseded', 'r', 't')")
          .run(),
      ).toThrow(/CHECK/);
      const at = '2026-11-26T08:00:00.000Z';
      const scr = raw.prepare(
        "INSERT INTO screenings (id, status, query_kind, query_value, priority, created_at, action, hold_reason) VALUES (?, 'done', 'dot_number', '1000001', 'tender', ?, 'hold', 'scoring_unavailable')",
      );
      scr.run('scr_a', at);
      scr.run('scr_b', at);
      raw
        .prepare(
          "INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id, previous_decision) VALUES ('rev_a', 'scr_a', 'pending', 'scoring_unavailable', ?, 'sandbox:dot:1000001', NULL, '{\"x\":1}')",
        )
        .run(at);
      raw
        .prepare(
          "INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id) VALUES ('rev_b', 'scr_b', 'pending', 'scoring_unavailable', ?, 'sandbox:dot:1000001', 'rev_a')",
        )
        .run(at);
      const before = raw.prepare('SELECT * FROM reviews ORDER BY id').all();
      const indexes = (db: Database.Database) =>
        db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reviews' AND name NOT LIKE 'sqlite_%' ORDER BY name",
          )
          .all();
      const indexesBefore = indexes(raw);
      raw.close();

      const store = openStore(file.path);
      try {
        const db = connectionOf(store);
        expect(db.prepare('SELECT * FROM reviews ORDER BY id').all()).toEqual(before);
        // The table rebuild of 17 kept every index; later steps (21) add more.
        expect(indexes(db)).toEqual(expect.arrayContaining(indexesBefore));
        db.prepare("UPDATE reviews SET state = 'superseded' WHERE id = 'rev_a'").run();
        expect(store.getReview('rev_a')!.state).toBe('superseded');
        expect(db.prepare("SELECT rescreened_at FROM screenings WHERE id = 'scr_a'").get()).toEqual({ rescreened_at: null });
        expect(integrityOf(store)).toBe('ok');
        expect(db.pragma('foreign_key_check')).toEqual([]);
      } finally {
        store.close();
      }
    } finally {
      file.cleanup();
    }
  });
});
