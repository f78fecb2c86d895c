/**
 * GET /screenings?action= on an index (migration 28, issue 35): a hold or a block is read from
 * screenings_by_action in the list's order, from the cursor, never by walking every screening
 * by time. SQLite's query plans, so SQLite only; the pages themselves (each row once, newest
 * first, rows added between pages) are pg-screening-search-contract.test.ts's "GET
 * /screenings?action=" case on both backends, and PostgreSQL's plans its "postgres only: each
 * filter reads its index".
 */
import type { Database } from 'better-sqlite3';
import { afterEach, expect } from 'vitest';
import { openStore, type Store } from '../../worker/store/index.js';
import { searchScreenings } from '../../worker/store/screening-search.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { itSqlite } from '../helpers/test-db.js';

let store: Store | undefined;
let cleanup: (() => void) | undefined;
afterEach(() => {
  store?.close();
  cleanup?.();
});

const t = (m: number) => new Date(Date.UTC(2026, 0, 1) + m * 60_000).toISOString();

function add(db: Database, id: string, action: string, m: number): void {
  db.prepare(
    `INSERT INTO screenings (id, status, query_kind, query_value, priority, action, created_at, completed_at)
    VALUES (?, 'done', 'dot_number', '1000001', 'tender', ?, ?, ?)`,
  ).run(id, action, t(m), t(m));
}

itSqlite("pages of one action read SQLite's screenings_by_action in the list's order, from the cursor", () => {
  const db0 = tempDbPath();
  cleanup = db0.cleanup;
  store = openStore(db0.path);
  const db = connectionOf(store);
  const blocks: string[] = [];
  // Mostly tenders; a block every 7th minute, a hold every 11th (same minute: the rowid breaks the tie).
  for (let m = 0; m < 700; m++) {
    add(db, `scr_t${m}`, 'tender', m);
    if (m % 7 === 0) {
      add(db, `scr_b${m}`, 'block', m);
      blocks.push(`scr_b${m}`);
    }
    if (m % 11 === 0) add(db, `scr_h${m}`, 'hold', m);
  }
  // The plans: the action's index, read in the list's order (no sort), from the cursor (a range).
  const plans: string[] = [];
  const prepare = db.prepare.bind(db);
  (db as { prepare: typeof db.prepare }).prepare = ((sql: string) => {
    if (/ORDER BY s\.created_at/.test(sql)) {
      const n = (sql.match(/\?/g) ?? []).length;
      const values: unknown[] = (/carrier_dot/.test(sql) ? ['1000001', 'block', 10] : ['block', t(5), 3, 10]).slice(0, n);
      while (values.length < n) values.push(10);
      plans.push((prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as Array<{ detail: string }>).map((r) => r.detail).join('\n'));
    }
    return prepare(sql);
  }) as typeof db.prepare;
  try {
    searchScreenings(db, { action: 'block' }, { limit: 3 });
    searchScreenings(db, { action: 'block' }, { limit: 3, starting_after: blocks[50]! });
    searchScreenings(db, { action: 'hold' }, { limit: 3, ending_before: 'scr_h22' });
    // With a carrier too: the carrier's index (a few rows), never a walk of every block.
    searchScreenings(db, { action: 'block', dot_number: '1000001' }, { limit: 3 });
  } finally {
    (db as { prepare: typeof db.prepare }).prepare = prepare;
  }
  expect(plans).toHaveLength(4);
  expect(plans[3]).toMatch(/SEARCH s USING INDEX screenings_by_carrier_dot \(carrier_dot=\?/);
  for (const p of plans.slice(0, 3)) {
    expect(p).toMatch(/SEARCH s USING INDEX screenings_by_action \(action=\?/);
    expect(p).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
  }
  expect(plans[1]).toMatch(/screenings_by_action \(action=\? AND created_at<\?\)/);
  expect(plans[2]).toMatch(/screenings_by_action \(action=\? AND created_at>\?\)/);
});
