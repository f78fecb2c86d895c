import { canonicalDot, canonicalMc, type CarrierQuery } from '../../shared/carrier-id.js';
import type { RecordRepos } from '../store/record.js';
import type { Env } from '../store/types.js';

/**
 * One key per carrier for the watch list, changes and local blocks (worker/blocks/ uses them too): `dot:<n>` with leading
 * zeros dropped, or `mc:MC<n>` while only the MC number is known. "0001234" and "1234" are
 * one carrier, as in the score cache.
 */

export { canonicalDot, canonicalMc };

export const dotKey = (dot: string): string => `dot:${canonicalDot(dot)}`;
export const mcKey = (mc: string): string => `mc:${canonicalMc(mc)}`;

export interface CarrierIds {
  dot_number: string | null;
  mc_number: string | null;
}

/** The key of what is known: the DOT number when there is one. */
export function keyOf(ids: CarrierIds): string {
  if (ids.dot_number) return dotKey(ids.dot_number);
  if (ids.mc_number) return mcKey(ids.mc_number);
  throw new RangeError('a carrier needs a dot_number or an mc_number');
}

/** Every key the carrier may be stored under (DOT key first). */
export function keysOf(ids: CarrierIds): string[] {
  const keys: string[] = [];
  if (ids.dot_number) keys.push(dotKey(ids.dot_number));
  if (ids.mc_number) keys.push(mcKey(ids.mc_number));
  return keys;
}

export function idsOfQuery(q: CarrierQuery): CarrierIds {
  return 'dot_number' in q
    ? { dot_number: canonicalDot(q.dot_number), mc_number: null }
    : { dot_number: null, mc_number: canonicalMc(q.mc_number) };
}

/** What to ask /v1 for: the DOT number when known. */
export function queryOf(ids: CarrierIds): CarrierQuery {
  if (ids.dot_number) return { dot_number: ids.dot_number };
  if (ids.mc_number) return { mc_number: ids.mc_number };
  throw new RangeError('a carrier needs a dot_number or an mc_number');
}

/**
 * Both ids when the score cache knows the other one (MC ↔ DOT). `scores`: the unit's handle
 * inside a unit of work, the store's outside one.
 */
export async function resolveIds(scores: Pick<RecordRepos['scores'], 'getScore'>, env: Env, ids: CarrierIds): Promise<CarrierIds> {
  if (ids.dot_number && ids.mc_number) return ids;
  const q: CarrierQuery = ids.dot_number ? { dot_number: ids.dot_number } : { mc_number: ids.mc_number! };
  const cached = (await scores.getScore(env, q))?.score.carrier;
  return {
    dot_number: ids.dot_number ?? (typeof cached?.dot_number === 'string' ? canonicalDot(cached.dot_number) : null),
    mc_number: ids.mc_number ?? (typeof cached?.mc_number === 'string' && cached.mc_number !== '' ? canonicalMc(cached.mc_number) : null),
  };
}
