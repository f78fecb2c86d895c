import { canonicalDot, queryKey, type CarrierQuery } from '../../shared/carrier-id.js';

/**
 * The key a carrier's reviews and standing decisions go by, per environment: `<env>:dot:<n>`
 * once its DOT number is known (a score names it, or the cache links the MC number to one),
 * else the number it was asked by (`<env>:mc:MC<n>`). One home: the running code
 * (carrier-decisions.ts) and migration 24 (review-carrier-schema.ts) key a carrier alike.
 */
export function reviewCarrierKey(env: string, query: CarrierQuery, dot: string | null | undefined): string {
  return `${env}:${dot ? `dot:${canonicalDot(dot)}` : queryKey(query)}`;
}
