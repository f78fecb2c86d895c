/**
 * "Changed since" (GET /screenings?updated_since, worker/store/screening-search.ts) on SQLite:
 * its query plan reads indexes, never the whole table, and a screening answered at once stays
 * out of the index of later completions. SQLite's plans and indexes only (vitest.pg.config.ts:
 * SQLITE_FILE); what the search answers, every walk both ways against the definition, is
 * pg-screening-search-contract.test.ts's, on both backends (and PostgreSQL's plans there).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../worker/store/index.js';
import { searchScreenings } from '../../worker/store/screening-search.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';

const t = (minute: number): string => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();

interface Row {
  id: string;
  created: number;
  /** Minutes after creation it finished (0: answered at once), or null: still queued. */
  finishedAfter: number | null;
  /** Minutes after creation its review was decided, or null: no decided review. */
  decidedAfter: number | null;
}

// One file for the file's cases, emptied before each.
let shared: { store: Store; cleanup: () => void } | undefined;
afterAll(() => shared?.cleanup());

function storeWith(rows: Row[]): Store {
  if (!shared) {
    const db = tempDbPath();
    const opened = openStore(db.path);
    shared = {
      store: opened,
      cleanup: () => {
        opened.close();
        db.cleanup();
      },
    };
  }
  const { store } = shared;
  const conn = connectionOf(store);
  conn.exec('DELETE FROM reviews; DELETE FROM screenings;');
  const screening = conn.prepare(`INSERT INTO screenings (id, status, query_kind, query_value, priority, action, created_at, completed_at)
    VALUES (@id, @status, 'dot_number', '1000001', 'tender', @action, @created, @completed)`);
  const review = conn.prepare(`INSERT INTO reviews (id, screening_id, state, hold_reason, decided_by, decided_at, created_at)
    VALUES (@id, @screening, 'approved', 'manual_review', 'Dana', @decided, @created)`);
  for (const r of rows) {
    const done = r.finishedAfter !== null;
    screening.run({
      id: r.id,
      status: done ? 'done' : 'queued',
      action: done ? 'tender' : null,
      created: t(r.created),
      completed: done ? t(r.created + r.finishedAfter!) : null,
    });
    if (r.decidedAfter !== null && done)
      review.run({ id: `rev_${r.id}`, screening: r.id, decided: t(r.created + r.decidedAfter), created: t(r.created) });
  }
  return store;
}

describe('GET /screenings?updated_since on SQLite', () => {
  it('reads ranges of the creation index in order and two small indexes: the table is never scanned or sorted whole', () => {
    const store = storeWith([
      { id: 'scr_1', created: 1, finishedAfter: 0, decidedAfter: null },
      { id: 'scr_2', created: 40, finishedAfter: 0, decidedAfter: null },
    ]);
    const db = connectionOf(store);
    const plans: Array<{ sql: string; plan: string }> = [];
    const prepare = db.prepare.bind(db);
    // The statements the search prepares, explained.
    (db as { prepare: typeof db.prepare }).prepare = ((sql: string) => {
      if (sql.includes('LIMIT ?')) {
        const rows = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(sql.split('?').length - 1).fill(t(0))) as Array<{ detail: string }>;
        plans.push({ sql, plan: rows.map((r) => r.detail).join('\n') });
      }
      return prepare(sql);
    }) as typeof db.prepare;
    try {
      searchScreenings(db, { updated_since: t(30) }, { limit: 10 });
      // A later page: from a cursor inside the range created since T.
      searchScreenings(db, { updated_since: t(30) }, { limit: 10, starting_after: 'scr_2' });
    } finally {
      (db as { prepare: typeof db.prepare }).prepare = prepare;
    }
    const created = plans.filter((p) => p.sql.includes('s.created_at >= ?'));
    expect(created).toHaveLength(2);
    for (const p of created) {
      expect(p.plan).toMatch(/^SEARCH s USING INDEX screenings_by_created \(created_at>\?/);
      // Read in index order up to the page's end, not every row back to T and then sorted.
      expect(p.plan).not.toMatch(/TEMP B-TREE|MULTI-INDEX/);
    }
    const later = plans
      .filter((p) => p.sql.includes('s.created_at < ?'))
      .map((p) => p.plan)
      .join('\n');
    expect(later).toContain('screenings_completed_later (completed_at>?)');
    expect(later).toContain('reviews_by_decided (decided_at>?)');
    expect(plans.some((p) => /^SCAN s\b/m.test(p.plan))).toBe(false);
  });

  it('a screening answered at once has no entry in the index of later completions', () => {
    const store = storeWith([
      { id: 'scr_hit', created: 1, finishedAfter: 0, decidedAfter: null },
      { id: 'scr_lookup', created: 2, finishedAfter: 3, decidedAfter: null },
      { id: 'scr_queued', created: 3, finishedAfter: null, decidedAfter: null },
    ]);
    const indexed = connectionOf(store)
      .prepare('SELECT id FROM screenings INDEXED BY screenings_completed_later WHERE completed_at <> created_at')
      .all();
    expect(indexed).toEqual([{ id: 'scr_lookup' }]);
  });
});
