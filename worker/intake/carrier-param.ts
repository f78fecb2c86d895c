import { Type } from 'typebox';
import { normalizeDot, normalizeMc, type CarrierQuery } from '../../shared/carrier-id.js';
import { WatchConflictError } from '../store/store-error.js';
import { badRequest, conflict } from './http-error.js';

/**
 * What the carrier resources (/watchlist, /blocks) share: the `:dot` path parameter (a DOT or an
 * MC number) and its parse, who did it (`by`), and their 409 answer.
 */

export const CarrierParams = Type.Object({
  dot: Type.String({
    pattern: '^(\\d{1,8}|[Mm][Cc][-\\s]?\\d{1,8})$',
    description: 'a DOT number (1 to 8 digits) or an MC number ("MC" and 1 to 8 digits)',
  }),
});

/** A carrier path parameter: DOT digits, or an MC number. */
export function carrierOfParam(value: string): CarrierQuery {
  try {
    return /^\d+$/.test(value) ? { dot_number: normalizeDot(value) } : { mc_number: normalizeMc(value) };
  } catch {
    throw badRequest('path parameter "dot" must be a DOT number (1 to 8 digits) or an MC number', 'dot');
  }
}

/** Who did it, in a body or the query (actorOf: a scoped token's name unless admin). */
export const By = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description: "who did it: 1 to 100 characters, not only spaces (default: the token's name)",
});

/** A repeated state change (a change acknowledged, a block lifted, a carrier blocked): 409 naming the object. */
export function rethrowConflict(e: unknown): never {
  if (e instanceof WatchConflictError) throw conflict(e.code, e.message, e.resourceId);
  throw e;
}
