import { createHash } from 'node:crypto';
import { cursorSql, keysetSql, type KeysetList, type KeysetPage, type KeysetResult } from '../keyset.js';
import { StoreArgumentError } from '../store-error.js';
import { statement, type Queryable, type Statement } from './sql.js';

/**
 * keyset.ts's `keysetPage` on PostgreSQL: the same SQL (keysetSql, cursorSql; the list's `tie` is
 * its `seq` where SQLite's is the rowid, and no `pageSelect`: INDEXED BY is SQLite's), the same
 * checks and errors. Each shape is one prepared statement, named by its text.
 */
const shapes = new Map<string, Statement<Record<string, unknown>>>();
function shape(sql: string): Statement<Record<string, unknown>> {
  let s = shapes.get(sql);
  if (!s) shapes.set(sql, (s = statement(`keyset_${createHash('sha256').update(sql).digest('hex').slice(0, 20)}`, sql)));
  return s;
}

export async function pgKeysetPage<R>(q: Queryable, l: KeysetList, p: KeysetPage): Promise<KeysetResult<R>> {
  if (l.pageSelect !== undefined) throw new TypeError('pgKeysetPage: pageSelect is SQLite INDEXED BY; a PostgreSQL list has none');
  if (p.starting_after !== undefined && p.ending_before !== undefined)
    throw new StoreArgumentError('send starting_after or ending_before, not both', 'ending_before');
  if (!Number.isInteger(p.limit) || p.limit < 1) throw new StoreArgumentError('limit must be a whole number of at least 1', 'limit');
  const cursorId = p.starting_after ?? p.ending_before;
  const backwards = p.ending_before !== undefined;
  const params: Record<string, unknown> = { ...l.params, page_limit: p.limit + 1 };
  if (cursorId !== undefined) {
    const find = (term: string) =>
      shape(cursorSql(l, term)).get<{ cursor_k: unknown; cursor_t: unknown }>(q, { ...l.params, cursor_id: cursorId });
    const at = (await find(l.cursor)) ?? (l.cursorFallback === undefined ? undefined : await find(l.cursorFallback));
    const param = backwards ? 'ending_before' : 'starting_after';
    if (!at) throw new StoreArgumentError(`${param}: ${cursorId} is not in this list (with these filters)`, param);
    params.cursor_key = at.cursor_k;
    params.cursor_tie = at.cursor_t;
  }
  const rows = await shape(keysetSql(l, cursorId !== undefined, backwards)).all<R & Record<string, unknown>>(q, params);
  const has_more = rows.length > p.limit;
  const page = rows.slice(0, p.limit);
  if (backwards) page.reverse();
  return { rows: page, has_more };
}
