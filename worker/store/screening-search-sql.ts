import type { Screening } from '../../shared/screening.js';
import { StoreArgumentError } from './store-error.js';

/**
 * GET /screenings's search without a backend: its filters, its keyset order (created_at, then
 * insertion) and its reads as SQL with `?` parameters, for screening-search.ts (SQLite) and
 * pg/screening-search.ts (PostgreSQL) to run. What differs between the two is the dialect.
 */

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

/** What a backend spells its own way. */
export interface SearchDialect {
  /** rows.ts's SCREENING_COLUMNS (aliases s, r) as the backend spells them. */
  columns: string;
  /** The insertion order, the list's tie-break: SQLite's rowid, PostgreSQL's seq. */
  tie: string;
  /**
   * "Created before T and finished or settled since": a term of `s` with three parameters, all T
   * (created before, completed since, decided since), read through the later-completions and
   * decided indexes, never by walking the old rows.
   */
  changedLater: string;
}

export interface SearchRead {
  sql: string;
  args: unknown[];
}

/** The cursor's position in the order. */
export interface CursorAt {
  created_at: string;
  rid: number;
}

export interface SearchPlan {
  /** The cursor's row, when a cursor was sent: read its position first (`sql`, one parameter: the id). */
  cursor: { id: string; sql: string; notFound(): StoreArgumentError } | undefined;
  /** Rows to read: the page and one more (has_more). */
  want: number;
  /** The page's reads, in order: the first, then each for the rows the page still lacks, until it has `want`. */
  reads(at: CursorAt | undefined): Array<(limit: number) => SearchRead>;
  /** The page from the rows read (in the list order), and whether more follow. */
  page<R>(rows: R[]): { rows: R[]; has_more: boolean };
}

export function searchPlan(d: SearchDialect, f: ScreeningFilter, p: ScreeningPage): SearchPlan {
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
  const order = backwards ? 'ASC' : 'DESC';
  const want = p.limit + 1;

  const reads = (at: CursorAt | undefined): Array<(limit: number) => SearchRead> => {
    const terms = [...where];
    const termArgs = [...args];
    if (at !== undefined) {
      // A row value: a range of the index by time, read in order from the cursor (spelt as an OR,
      // SQLite may read every row between the cursor and a lower bound and sort them).
      terms.push(backwards ? `(s.created_at, s.${d.tie}) > (?, ?)` : `(s.created_at, s.${d.tie}) < (?, ?)`);
      termArgs.push(at.created_at, at.rid);
    }
    const select =
      (extra: string[], extraArgs: unknown[]) =>
      (limit: number): SearchRead => {
        const all = [...terms, ...extra];
        return {
          sql: `SELECT ${d.columns} FROM screenings s LEFT JOIN reviews r ON r.screening_id = s.id
      ${all.length ? `WHERE ${all.join(' AND ')}` : ''} ORDER BY s.created_at ${order}, s.${d.tie} ${order} LIMIT ?`,
          args: [...termArgs, ...extraArgs, limit],
        };
      };
    if (f.updated_since === undefined) return [select([], [])];
    // Changed since T: created since T (a range of the creation index), or created before it and
    // finished or settled since (two small indexes). Newest first, every row of the first kind
    // comes before every row of the second, so each is read only as far as the page needs: the
    // old rows are never scanned (one OR over both would read the whole table when few match).
    const since = f.updated_since;
    const created = select(['s.created_at >= ?'], [since]);
    const changedLater = select([d.changedLater], [since, since, since]);
    return backwards ? [changedLater, created] : [created, changedLater];
  };

  return {
    cursor:
      cursorId === undefined
        ? undefined
        : {
            id: cursorId,
            sql: `SELECT created_at, ${d.tie} AS rid FROM screenings WHERE id = ?`,
            notFound: () => {
              const param = backwards ? 'ending_before' : 'starting_after';
              return new StoreArgumentError(`${param}: no screening ${cursorId}`, param);
            },
          },
    want,
    reads,
    page<R>(rows: R[]) {
      const page = rows.slice(0, p.limit);
      if (backwards) page.reverse();
      return { rows: page, has_more: rows.length > p.limit };
    },
  };
}
