import type { CarrierQuery } from '../../../shared/carrier-id.js';
import { StoreArgumentError } from '../store-error.js';
import type { Env } from '../types.js';

/**
 * The SQLite store's argument checks (sqlite-store.ts keeps its own private), spelt the same so a
 * PostgreSQL repository refuses what its SQLite twin refuses, with the same message and `param`.
 */

export function checkEnv(env: unknown): asserts env is Env {
  if (env !== 'sandbox' && env !== 'live')
    throw new StoreArgumentError(`env must be "sandbox" or "live", got ${JSON.stringify(env)}`, 'env');
}

export function iso(d: Date, param: string): string {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new StoreArgumentError(`${param} must be a valid Date`, param);
  return d.toISOString();
}

export function checkQuery(q: unknown): CarrierQuery {
  const o = q as Record<string, unknown> | null;
  if (o && typeof o === 'object') {
    if (typeof o.dot_number === 'string' && o.dot_number.trim() !== '' && o.mc_number === undefined) return { dot_number: o.dot_number };
    if (typeof o.mc_number === 'string' && o.mc_number.trim() !== '' && o.dot_number === undefined) return { mc_number: o.mc_number };
  }
  throw new StoreArgumentError('query must be { dot_number } or { mc_number } with a non-empty string', 'query');
}

/** sqlite-store.ts's `checkLimit` (a list's `limit`: a whole number from 1 to 10 000). */
export function checkLimit(limit: unknown, param = 'limit'): number {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new StoreArgumentError(`${param} must be a whole number from 1 to ${MAX_LIMIT}, got ${String(limit)}`, param);
  return limit;
}
const MAX_LIMIT = 10_000;
