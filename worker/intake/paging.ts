import { Type } from 'typebox';
import { badRequest } from './http-error.js';

/**
 * Cursor lists, the Stripe way: `limit` (1–100), `starting_after` / `ending_before` (an object id
 * from the previous page), answered `{ object: "list", data, has_more }` in a stable order.
 */

export const PAGE_LIMIT_MAX = 100;
/** Lists other than screenings are read whole in their order (bounded by retention and the watch window), then paged. */
export const LIST_CAP = 10_000;

export const PageQueryFields = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, description: `a whole number from 1 to ${PAGE_LIMIT_MAX} (default 50)` })),
  starting_after: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'an id from the list: the page after it (the next page: the last id of this one)' })),
  ending_before: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'an id from the list: the page before it (the previous page: the first id of this one)' })),
};

export interface PageParams {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

export interface Page<T> {
  object: 'list';
  data: T[];
  /** More objects beyond this page in the direction asked. */
  has_more: boolean;
}

export function pageParams(q: { limit?: number; starting_after?: string; ending_before?: string }, defaultLimit = 50): PageParams {
  if (q.starting_after !== undefined && q.ending_before !== undefined) throw badRequest('send starting_after or ending_before, not both', 'ending_before');
  return {
    limit: q.limit ?? defaultLimit,
    ...(q.starting_after === undefined ? {} : { starting_after: q.starting_after }),
    ...(q.ending_before === undefined ? {} : { ending_before: q.ending_before }),
  };
}

/** A page of a list read whole in its order (lists bounded by retention and SCREEN_WATCH_DAYS). */
export function pageOf<T>(all: readonly T[], key: (item: T) => string, p: PageParams): Page<T> {
  const cursor = p.starting_after ?? p.ending_before;
  if (cursor === undefined) return { object: 'list', data: all.slice(0, p.limit), has_more: all.length > p.limit };
  const at = all.findIndex((x) => key(x) === cursor);
  const param = p.starting_after !== undefined ? 'starting_after' : 'ending_before';
  if (at === -1) throw badRequest(`${param}: ${cursor} is not in this list (with these filters)`, param);
  if (p.starting_after !== undefined) {
    const rest = all.slice(at + 1);
    return { object: 'list', data: rest.slice(0, p.limit), has_more: rest.length > p.limit };
  }
  const before = all.slice(0, at);
  return { object: 'list', data: before.slice(Math.max(0, before.length - p.limit)), has_more: before.length > p.limit };
}
