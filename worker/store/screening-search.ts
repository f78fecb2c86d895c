import type { Database } from 'better-sqlite3';
import type { Screening } from '../../shared/screening.js';
import { SCREENING_COLUMNS, toScreening, type ScreeningRow } from './rows.js';
import { scoresOf } from './score-refs.js';
import { searchPlan, type CursorAt, type ScreeningFilter, type ScreeningPage, type SearchDialect } from './screening-search-sql.js';

/**
 * Find screenings for an integrator (GET /screenings): by load, carrier, status, action or
 * "changed since", newest first, paged by keyset on (created_at, rowid) so a page costs the
 * same however deep it is and a cursor never skips or repeats a row.
 */

export const SCREENING_SEARCH_MIGRATION_SQL = `
  CREATE INDEX screenings_by_tender ON screenings (tender_id, created_at) WHERE tender_id IS NOT NULL;
  CREATE INDEX screenings_by_query ON screenings (query_kind, query_value, created_at);
  CREATE INDEX screenings_by_completed ON screenings (completed_at) WHERE completed_at IS NOT NULL;
  CREATE INDEX reviews_by_decided ON reviews (decided_at) WHERE decided_at IS NOT NULL;
`;

/**
 * Migration 10: the status index kept every finished screening (nearly all of them) for the one
 * reader that needs it, the reconciler's unfinished ones; a partial index holds just those, and a
 * cache hit writes one index entry fewer.
 */
export const UNFINISHED_INDEX_MIGRATION_SQL = `
  DROP INDEX screenings_by_status;
  CREATE INDEX screenings_unfinished ON screenings (created_at) WHERE status IN ('queued', 'active');
`;

/**
 * Migration 11: no query reads screenings_by_query (a DOT or MC filter also matches the number
 * the score names, so it scans by time), yet every screening wrote an entry to it, on a page
 * picked by the carrier: one page more per cache hit's commit.
 */
export const DROP_QUERY_INDEX_MIGRATION_SQL = `
  DROP INDEX screenings_by_query;
`;

/**
 * Migration 28: GET /screenings?action= on an index (issue 35). Read through the time index, a
 * rare action (a hold or a block, a few per cent of screenings) walked every screening between
 * two matches, and one never taken walked the whole table. Partial: tenders, nearly every row
 * and every cache hit, are dense on the time index and write no entry here.
 */
export const ACTION_INDEX_MIGRATION_SQL = `
  CREATE INDEX screenings_by_action ON screenings (action, created_at) WHERE action <> 'tender';
`;

export type { ScreeningFilter, ScreeningPage } from './screening-search-sql.js';

const SQLITE_SEARCH: SearchDialect = {
  columns: SCREENING_COLUMNS,
  tie: 'rowid',
  changedLater:
    // Named: SQLite 3.54 (better-sqlite3 13) plans a scan of screenings here without it.
    `s.created_at < ? AND s.rowid IN (
             SELECT rowid FROM screenings INDEXED BY screenings_completed_later WHERE completed_at >= ? AND completed_at <> created_at
             UNION SELECT s2.rowid FROM reviews r2 JOIN screenings s2 ON s2.id = r2.screening_id WHERE r2.decided_at >= ?)`,
};

export function searchScreenings(db: Database, f: ScreeningFilter, p: ScreeningPage): { data: Screening[]; has_more: boolean } {
  // The filters, the order and the reads: screening-search-sql.ts (PostgreSQL runs the same).
  const plan = searchPlan(SQLITE_SEARCH, f, p);
  let at: CursorAt | undefined;
  if (plan.cursor) {
    at = db.prepare(plan.cursor.sql).get(plan.cursor.id) as CursorAt | undefined;
    if (!at) throw plan.cursor.notFound();
  }
  let rows: ScreeningRow[] = [];
  for (const [i, read] of plan.reads(at).entries()) {
    if (i > 0 && rows.length >= plan.want) break;
    const r = read(plan.want - rows.length);
    rows = rows.concat(db.prepare(r.sql).all(...r.args) as ScreeningRow[]);
  }
  const page = plan.page(rows);
  const scoreOf = scoresOf(db);
  return { data: page.rows.map((row) => toScreening(row, scoreOf)), has_more: page.has_more };
}
