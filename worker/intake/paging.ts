import { Type } from 'typebox';
import { badRequest } from './http-error.js';

/**
 * Cursor lists, the Stripe way: `limit` (1–100), `starting_after` / `ending_before` (an object id
 * from the previous page), answered `{ object: "list", data, has_more }` in a stable order. Every
 * list is paged in SQL by keyset on an index (worker/store/keyset.ts): never read whole and sliced.
 */

export const PAGE_LIMIT_MAX = 100;

export const PageQueryFields = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, description: `a whole number from 1 to ${PAGE_LIMIT_MAX} (default 50)` }),
  ),
  starting_after: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 80,
      description: 'an id from the list: the page after it (the next page: the last id of this one)',
    }),
  ),
  ending_before: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 80,
      description: 'an id from the list: the page before it (the previous page: the first id of this one)',
    }),
  ),
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
  if (q.starting_after !== undefined && q.ending_before !== undefined)
    throw badRequest('send starting_after or ending_before, not both', 'ending_before');
  return {
    limit: q.limit ?? defaultLimit,
    ...(q.starting_after === undefined ? {} : { starting_after: q.starting_after }),
    ...(q.ending_before === undefined ? {} : { ending_before: q.ending_before }),
  };
}
