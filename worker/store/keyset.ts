import type { Database, Statement } from 'better-sqlite3';
import { StoreArgumentError } from './store-error.js';

/**
 * One page of a list read in SQL by keyset (issue 35): the rows after (or before) the cursor's
 * position in the list's order, LIMIT the page plus one. With an index on the order's columns a
 * page costs the same however long the list and however deep the page; a cursor never skips or
 * repeats a row when rows are added between pages. Lists are never read whole and sliced.
 */

export interface KeysetPage {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

export interface KeysetList {
  /** `SELECT <columns> FROM <tables>`: the row the caller maps. */
  select: string;
  /**
   * The page's own select when SQLite would pick another index and sort (`INDEXED BY`); the
   * cursor's lookup keeps `select`, so it finds its row by its own key.
   */
  pageSelect?: string;
  /** Filter terms (ANDed); named parameters only (`@name`). */
  where: string[];
  params: Record<string, unknown>;
  /**
   * The order: a sort expression and a unique tie-break (a rowid or primary key), exactly as an
   * index names them, so SQLite reads the index in order and stops at the page's end.
   */
  key: string;
  tie: string;
  /** The list's own order (newest first: DESC). */
  direction: 'ASC' | 'DESC';
  /** The term that finds the public cursor (an object id, `@cursor_id`) by its own index, e.g. `r.id = @cursor_id`. */
  cursor: string;
  /** Tried when `cursor` finds nothing: a slower term for a rare shape (the watch list's). */
  cursorFallback?: string;
}

export interface KeysetResult<R> {
  rows: R[];
  /** More rows beyond this page in the direction asked. */
  has_more: boolean;
}

/** The SQL of a page: from the cursor (if any), in the list order or (backwards) against it. */
export function keysetSql(l: KeysetList, withCursor: boolean, backwards: boolean): string {
  const forwardDesc = l.direction === 'DESC';
  // Going back reads the other way from the cursor, then the page is turned round.
  const desc = backwards ? !forwardDesc : forwardDesc;
  const terms = [...l.where];
  // A range of the index from the cursor (`key <= c`), read in order; the rows tied with the
  // cursor's key are cut by the tie-break. Spelt so, not as a row value: SQLite bounds an index
  // range by a row value only over plain columns, and a sort key may be an expression.
  if (withCursor) {
    const [cmp, strict] = desc ? ['<=', '<'] : ['>=', '>'];
    terms.push(`${l.key} ${cmp} @cursor_key AND (${l.key} ${strict} @cursor_key OR ${l.tie} ${strict} @cursor_tie)`);
  }
  const order = desc ? 'DESC' : 'ASC';
  return `${l.pageSelect ?? l.select} ${terms.length ? `WHERE ${terms.join(' AND ')}` : ''} ORDER BY ${l.key} ${order}, ${l.tie} ${order} LIMIT @page_limit`;
}

/** The SQL that finds the cursor's position (and that it is in the list with these filters). */
export function cursorSql(l: KeysetList, term = l.cursor): string {
  // The list's own select with the position in front (its columns may hold subqueries of their own).
  const select = l.select.replace(/^\s*SELECT\b/i, `SELECT ${l.key} AS cursor_k, ${l.tie} AS cursor_t,`);
  return `${select} WHERE ${[...l.where, term].join(' AND ')}`;
}

/** Prepared once per connection and SQL text: a list has a handful of shapes. */
const prepared = new WeakMap<Database, Map<string, Statement>>();
function prepare(db: Database, sql: string): Statement {
  let m = prepared.get(db);
  if (!m) prepared.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

export function keysetPage<R>(db: Database, l: KeysetList, p: KeysetPage): KeysetResult<R> {
  const { cursorId, backwards, params } = startPage(l, p);
  if (cursorId !== undefined) {
    const find = (term: string) =>
      prepare(db, cursorSql(l, term)).get({ ...l.params, cursor_id: cursorId }) as { cursor_k: unknown; cursor_t: unknown } | undefined;
    const at = find(l.cursor) ?? (l.cursorFallback === undefined ? undefined : find(l.cursorFallback));
    if (!at) throw cursorMissing(cursorId, backwards);
    params.cursor_key = at.cursor_k;
    params.cursor_tie = at.cursor_t;
  }
  const rows = prepare(db, keysetSql(l, cursorId !== undefined, backwards)).all(params) as R[];
  return endPage(rows, p, backwards);
}

// ---- the steps of a page both backends share (pg/keyset-page.ts): the same refusals, in the same words ----

/** A page request checked: its cursor, whether it goes back, and the parameters of its SQL. */
export function startPage(
  l: KeysetList,
  p: KeysetPage,
): { cursorId: string | undefined; backwards: boolean; params: Record<string, unknown> } {
  if (p.starting_after !== undefined && p.ending_before !== undefined)
    throw new StoreArgumentError('send starting_after or ending_before, not both', 'ending_before');
  if (!Number.isInteger(p.limit) || p.limit < 1) throw new StoreArgumentError('limit must be a whole number of at least 1', 'limit');
  const backwards = p.ending_before !== undefined;
  return { cursorId: p.starting_after ?? p.ending_before, backwards, params: { ...l.params, page_limit: p.limit + 1 } };
}

/** The cursor named no row of the list. */
export function cursorMissing(cursorId: string, backwards: boolean): StoreArgumentError {
  const param = backwards ? 'ending_before' : 'starting_after';
  return new StoreArgumentError(`${param}: ${cursorId} is not in this list (with these filters)`, param);
}

/** The limit + 1 rows read, as a page: the extra row only tells there are more; going back, turned round. */
export function endPage<R>(rows: R[], p: KeysetPage, backwards: boolean): KeysetResult<R> {
  const has_more = rows.length > p.limit;
  const page = rows.slice(0, p.limit);
  if (backwards) page.reverse();
  return { rows: page, has_more };
}
