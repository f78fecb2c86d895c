import type { Screening } from '../../../shared/screening.js';
import type { ScreeningRow } from '../rows.js';
import { searchPlan, type CursorAt, type ScreeningFilter, type ScreeningPage, type SearchDialect } from '../screening-search-sql.js';
import type { PgExecutor } from './executor.js';
import { shape } from './keyset-page.js';
import type { ParsedFetches } from './score-refs.js';
import { PG_SCREENING_COLUMNS, screeningsOfRows } from './screenings-repo.js';

/**
 * GET /screenings on PostgreSQL: screening-search.ts's search (its filters, order, cursor and
 * reads: screening-search-sql.ts) with `seq` for the rowid and no INDEXED BY. Each shape of the
 * SQL is one prepared statement (keyset-page.ts's `shape`). Not pgKeysetPage: this list's cursor
 * may be any screening (it gives a position, not a row of the list), and "changed since" is read
 * in two ranges.
 */

export interface PgSearchOptions {
  /** The parsed-score memo of the record (pg/score-refs.ts). */
  scores: ParsedFetches;
}

const PG_SEARCH: SearchDialect = {
  columns: PG_SCREENING_COLUMNS,
  tie: 'seq',
  // The changed rows' positions as one array, read first (an InitPlan), then each row by seq. As
  // `s.seq IN (…)`, the generic plan (a prepared statement's after five runs) read every row
  // created before T (a Seq Scan, or the time index's whole range) and hashed it against the
  // set: the scan SQLite's INDEXED BY prevents there.
  changedLater: `s.created_at < ? AND s.seq = ANY (ARRAY(
             SELECT seq FROM screenings WHERE completed_at >= ? AND completed_at <> created_at
             UNION SELECT s2.seq FROM reviews r2 JOIN screenings s2 ON s2.id = r2.screening_id WHERE r2.decided_at >= ?))`,
};

/** `?` parameters as sql.ts's `@names` (p1, p2, …, in order); the search's SQL quotes no `?`. */
function named(sql: string, args: unknown[]): { sql: string; params: Record<string, unknown> } {
  let n = 0;
  const text = sql.replace(/\?/g, () => `@p${++n}`);
  if (n !== args.length) throw new Error(`screening search: ${n} parameters for ${args.length} values`);
  return { sql: text, params: Object.fromEntries(args.map((a, i) => [`p${i + 1}`, a])) };
}

export async function pgSearchScreenings(
  x: PgExecutor,
  f: ScreeningFilter,
  p: ScreeningPage,
  opts: PgSearchOptions,
): Promise<{ data: Screening[]; has_more: boolean }> {
  const plan = searchPlan(PG_SEARCH, f, p);
  let at: CursorAt | undefined;
  if (plan.cursor) {
    const c = named(plan.cursor.sql, [plan.cursor.id]);
    at = await shape('screening_search_cursor', c.sql).get<CursorAt & Record<string, unknown>>(x, c.params);
    if (!at) throw plan.cursor.notFound();
  }
  let rows: ScreeningRow[] = [];
  for (const [i, read] of plan.reads(at).entries()) {
    if (i > 0 && rows.length >= plan.want) break;
    const r = read(plan.want - rows.length);
    const q = named(r.sql, r.args);
    rows = rows.concat(await shape('screening_search', q.sql).all<ScreeningRow & Record<string, unknown>>(x, q.params));
  }
  const page = plan.page(rows);
  return { data: await screeningsOfRows(x, opts.scores, page.rows), has_more: page.has_more };
}
