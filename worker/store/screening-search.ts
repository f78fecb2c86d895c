import type { Database } from 'better-sqlite3';
import type { Screening } from '../../shared/screening.js';
import { SCREENING_COLUMNS, toScreening, type ScreeningRow } from './rows.js';
import { scoresOf } from './score-refs.js';
import { StoreArgumentError } from './store-error.js';

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

export interface ScreeningFilter {
  tender_id?: string;
  /** Canonical DOT number: screenings asked by it or whose score names it. */
  dot_number?: string;
  /** Canonical MC number: screenings asked by it or whose score names it. */
  mc_number?: string;
  status?: Screening['status'];
  action?: string;
  /** ISO timestamp: changed (created, completed or settled) at or after it. */
  updated_since?: string;
}

export interface ScreeningPage {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

export function searchScreenings(db: Database, f: ScreeningFilter, p: ScreeningPage): { data: Screening[]; has_more: boolean } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (f.tender_id !== undefined) {
    where.push('s.tender_id = ?');
    args.push(f.tender_id);
  }
  // The carrier columns (carrier-columns.ts): asked by that number or named by the score,
  // read through their own index by time, never by parsing scores.
  if (f.dot_number !== undefined) {
    where.push('s.carrier_dot = ?');
    args.push(f.dot_number);
  }
  if (f.mc_number !== undefined) {
    where.push('s.carrier_mc = ?');
    args.push(f.mc_number);
  }
  if (f.status !== undefined) {
    // Spelt with the partial index's own term too: queued or active rows are few, and walking the
    // time index for them would read every finished row (screenings_unfinished holds just those).
    where.push(f.status === 'done' ? 's.status = ?' : "s.status IN ('queued', 'active') AND s.status = ?");
    args.push(f.status);
  }
  if (f.action !== undefined) {
    // Any action but tender: spelt with the partial index's own term (screenings_by_action), so
    // a page reads that action's rows only. Tenders are most rows: read by time. With a load or a
    // carrier too, not so: their indexes hold a few rows, and the action's could hold every block.
    const narrower = f.tender_id !== undefined || f.dot_number !== undefined || f.mc_number !== undefined;
    where.push(f.action === 'tender' || narrower ? 's.action = ?' : "s.action <> 'tender' AND s.action = ?");
    args.push(f.action);
  }
  const cursorId = p.starting_after ?? p.ending_before;
  const backwards = p.ending_before !== undefined;
  if (cursorId !== undefined) {
    const at = db.prepare('SELECT created_at, rowid AS rid FROM screenings WHERE id = ?').get(cursorId) as
      { created_at: string; rid: number } | undefined;
    const param = backwards ? 'ending_before' : 'starting_after';
    if (!at) throw new StoreArgumentError(`${param}: no screening ${cursorId}`, param);
    // A row value: a range of the index by time, read in order from the cursor (spelt as an OR,
    // SQLite may read every row between the cursor and a lower bound and sort them).
    where.push(backwards ? '(s.created_at, s.rowid) > (?, ?)' : '(s.created_at, s.rowid) < (?, ?)');
    args.push(at.created_at, at.rid);
  }
  const order = backwards ? 'ASC' : 'DESC';
  const select = (extra: string[], limit: number, extraArgs: unknown[]): ScreeningRow[] => {
    const terms = [...where, ...extra];
    const sql = `SELECT ${SCREENING_COLUMNS} FROM screenings s LEFT JOIN reviews r ON r.screening_id = s.id
      ${terms.length ? `WHERE ${terms.join(' AND ')}` : ''} ORDER BY s.created_at ${order}, s.rowid ${order} LIMIT ?`;
    return db.prepare(sql).all(...args, ...extraArgs, limit) as ScreeningRow[];
  };
  const want = p.limit + 1;
  let rows: ScreeningRow[];
  if (f.updated_since === undefined) rows = select([], want, []);
  else {
    // Changed since T: created since T (a range of the creation index), or created before it and
    // finished or settled since (two small indexes). Newest first, every row of the first kind
    // comes before every row of the second, so each is read only as far as the page needs: the
    // old rows are never scanned (one OR over both would read the whole table when few match).
    const since = f.updated_since;
    const created = (limit: number) => select(['s.created_at >= ?'], limit, [since]);
    const changedLater = (limit: number) =>
      select(
        [
          // Named: SQLite 3.54 (better-sqlite3 13) plans a scan of screenings here without it.
          `s.created_at < ? AND s.rowid IN (
             SELECT rowid FROM screenings INDEXED BY screenings_completed_later WHERE completed_at >= ? AND completed_at <> created_at
             UNION SELECT s2.rowid FROM reviews r2 JOIN screenings s2 ON s2.id = r2.screening_id WHERE r2.decided_at >= ?)`,
        ],
        limit,
        [since, since, since],
      );
    const [first, second] = backwards ? [changedLater, created] : [created, changedLater];
    rows = first(want);
    if (rows.length < want) rows = rows.concat(second(want - rows.length));
  }
  const has_more = rows.length > p.limit;
  const page = rows.slice(0, p.limit);
  if (backwards) page.reverse();
  const scoreOf = scoresOf(db);
  return { data: page.map((row) => toScreening(row, scoreOf)), has_more };
}
