import { createHash } from 'node:crypto';
import { cursorMissing, cursorSql, endPage, keysetSql, startPage, type KeysetList, type KeysetPage, type KeysetResult } from '../keyset.js';
import { statement, type Queryable, type Statement } from './sql.js';

/**
 * One page of a list by keyset on PostgreSQL: the SQL of worker/store/keyset.ts (the same
 * cursor terms and order; `tie` is `seq` where SQLite's is `rowid`), run as prepared statements.
 * A list has a handful of shapes; each shape's statement is named `<prefix>_<hash of its text>`,
 * so one name always stands for one text (sql.ts).
 */

const shapes = new Map<string, Statement<Record<string, unknown>>>();

/** The prepared statement of one shape of a list's SQL (a search's too: pg/screening-search.ts). */
export function shape(prefix: string, sql: string): Statement<Record<string, unknown>> {
  const name = `${prefix}_${createHash('sha256').update(sql).digest('hex').slice(0, 12)}`;
  let s = shapes.get(name);
  if (!s) shapes.set(name, (s = statement<Record<string, unknown>>(name, sql)));
  return s;
}

export async function pgKeysetPage<R extends Record<string, unknown>>(
  q: Queryable,
  prefix: string,
  l: KeysetList,
  p: KeysetPage,
): Promise<KeysetResult<R>> {
  const { cursorId, backwards, params } = startPage(l, p);
  if (cursorId !== undefined) {
    const find = (term: string) =>
      shape(`${prefix}_cursor`, cursorSql(l, term)).get<{ cursor_k: unknown; cursor_t: unknown }>(q, {
        ...l.params,
        cursor_id: cursorId,
      });
    const at = (await find(l.cursor)) ?? (l.cursorFallback === undefined ? undefined : await find(l.cursorFallback));
    if (!at) throw cursorMissing(cursorId, backwards);
    params.cursor_key = at.cursor_k;
    params.cursor_tie = at.cursor_t;
  }
  const rows = await shape(`${prefix}_page`, keysetSql(l, cursorId !== undefined, backwards)).all<R>(q, params);
  return endPage(rows, p, backwards);
}
