/**
 * What the /v1 service tells us about our limits on every response: environment, API release,
 * request id, the per-minute rate window and (live only) the monthly quota.
 */
import { SvcHeader } from '../../shared/svc-contract.js';

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface LimitsSnapshot {
  environment: string | null;
  apiVersion: string | null;
  requestId: string | null;
  rateLimit: number | null;
  rateRemaining: number | null;
  /** ISO 8601, from the Unix seconds in X-RateLimit-Reset. */
  rateResetAt: string | null;
  quotaLimit: number | null;
  quotaRemaining: number | null;
  /** When the response was read. */
  at: string;
}

/** First value of a header, trimmed; null when absent or empty. Node lower-cases names. */
export function headerValue(headers: HeaderBag, name: string): string | null {
  const raw = headers[name.toLowerCase()];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === undefined) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** A non-negative whole number, or null: a malformed header is treated as absent, not as 0. */
function count(headers: HeaderBag, name: string): number | null {
  const v = headerValue(headers, name);
  if (v === null || !/^\d{1,15}$/.test(v)) return null;
  return Number(v);
}

export function readLimits(headers: HeaderBag, now: Date): LimitsSnapshot {
  const reset = count(headers, SvcHeader.rateLimitReset);
  return {
    environment: headerValue(headers, SvcHeader.environment),
    apiVersion: headerValue(headers, SvcHeader.apiVersion),
    requestId: headerValue(headers, SvcHeader.requestId),
    rateLimit: count(headers, SvcHeader.rateLimitLimit),
    rateRemaining: count(headers, SvcHeader.rateLimitRemaining),
    rateResetAt: reset === null ? null : new Date(reset * 1000).toISOString(),
    quotaLimit: count(headers, SvcHeader.quotaLimit),
    quotaRemaining: count(headers, SvcHeader.quotaRemaining),
    at: now.toISOString(),
  };
}

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110). Null when absent or
 * unreadable; a date in the past gives 0.
 */
export function retryAfterMs(headers: HeaderBag, now: Date): number | null {
  const v = headerValue(headers, SvcHeader.retryAfter);
  if (v === null) return null;
  if (/^\d{1,10}$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at) || /^[\d.\s-]+$/.test(v)) return null;
  return Math.max(0, at - now.getTime());
}
