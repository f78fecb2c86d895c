/**
 * Migration 26 (worker/store/load-schema.ts): `screenings.load`, the load details as POST
 * /screenings sent them. A real SQLite file taken to version 25 with a held screening and its
 * review, then opened by the store: the old rows read `load: null` and keep their version;
 * a new screening's load is read back exactly as written.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, latestVersion, migrate, openStore } from '../../worker/store/index.js';
import { tempDbPath } from '../helpers/temp-db.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('migration 26: the load a tender is for', () => {
  it('adds screenings.load: rows from before read load null, unchanged otherwise; a new load is read back as written', () => {
    const db = tempDbPath();
    cleanup = db.cleanup;
    const raw = new Database(db.path);
    migrate(
      raw,
      db.path,
      MIGRATIONS.filter((m) => m.version <= 25),
    );
    expect(raw.prepare("SELECT COUNT(*) AS n FROM pragma_table_info('screenings') WHERE name = 'load'").get()).toEqual({ n: 0 });
    const at = '2026-03-02T10:00:00.000Z';
    raw
      .prepare(
        "INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, action, hold_reason, created_at, completed_at) VALUES ('scr_old', 'T-old', 'done', 'dot_number', '1000003', 'tender', 'hold', 'manual_review', ?, ?)",
      )
      .run(at, at);
    raw
      .prepare(
        "INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key) VALUES ('rev_old', 'scr_old', 'pending', 'manual_review', ?, 'sandbox:dot:1000003')",
      )
      .run(at);
    const versionBefore = (raw.prepare("SELECT version FROM screenings WHERE id = 'scr_old'").get() as { version: number }).version;
    raw.close();

    const store = openStore(db.path);
    try {
      const after = new Database(db.path, { readonly: true });
      expect(after.pragma('user_version', { simple: true })).toBe(latestVersion());
      expect(after.prepare("SELECT load, version FROM screenings WHERE id = 'scr_old'").get()).toEqual({
        load: null,
        version: versionBefore,
      });
      after.close();

      expect(store.getScreening('scr_old')).toMatchObject({
        id: 'scr_old',
        tender_id: 'T-old',
        load: null,
        action: 'hold',
        version: versionBefore,
      });
      const review = store.getReview('rev_old')!;
      expect(review.screening.load).toBeNull();
      expect(review.tenders).toEqual([{ screening_id: 'scr_old', tender_id: 'T-old', load: null, action: 'hold', created_at: at }]);

      // As sent: the offset kept, fields not sent stay absent (not null).
      const load = { pickup_at: '2026-11-28T08:00:00-06:00', origin: 'Dallas, TX', equipment: '53 ft dry van' };
      const s = store.insertScreening({
        query: { dot_number: '1000007' },
        tender_id: 'T-new',
        load,
        priority: 'tender',
        refresh: false,
        callback_url: null,
      });
      expect(s.load).toEqual(load);
      expect(store.getScreening(s.id)!.load).toEqual(load);
      expect(Object.keys(store.getScreening(s.id)!.load!)).toEqual(['pickup_at', 'origin', 'equipment']);
      const none = store.insertScreening({
        query: { dot_number: '1000007' },
        tender_id: null,
        priority: 'background',
        refresh: false,
        callback_url: null,
      });
      expect(none.load).toBeNull();
      expect(store.getScreening(none.id)!.load).toBeNull();
    } finally {
      store.close();
    }
  });
});
