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

/** A header we could not use, ignored: what a caller logs as a warning. */
export type HeaderWarning = (message: string) => void;

/** A non-negative whole number, or null: a malformed header is treated as absent, not as 0. */
function count(headers: HeaderBag, name: string, warn: HeaderWarning): number | null {
  const v = headerValue(headers, name);
  if (v === null) return null;
  if (!/^\d{1,15}$/.test(v)) {
    warn(`${name}: ${JSON.stringify(v.slice(0, 40))} is not a whole number ≥ 0; ignored`);
    return null;
  }
  return Number(v);
}

/**
 * How far X-RateLimit-Reset may lie from now: a minute window's end is seconds away, so
 * anything beyond a day is a broken header (and past ~8.6e12 not even a Date), ignored.
 */
const RESET_SPAN_S = 24 * 60 * 60;

export function readLimits(headers: HeaderBag, now: Date, warn: HeaderWarning = () => {}): LimitsSnapshot {
  let reset = count(headers, SvcHeader.rateLimitReset, warn);
  if (reset !== null && Math.abs(reset - now.getTime() / 1000) > RESET_SPAN_S) {
    warn(`${SvcHeader.rateLimitReset}: ${reset} is more than a day from now; ignored`);
    reset = null;
  }
  return {
    environment: headerValue(headers, SvcHeader.environment),
    apiVersion: headerValue(headers, SvcHeader.apiVersion),
    requestId: headerValue(headers, SvcHeader.requestId),
    rateLimit: count(headers, SvcHeader.rateLimitLimit, warn),
    rateRemaining: count(headers, SvcHeader.rateLimitRemaining, warn),
    rateResetAt: reset === null ? null : new Date(reset * 1000).toISOString(),
    quotaLimit: count(headers, SvcHeader.quotaLimit, warn),
    quotaRemaining: count(headers, SvcHeader.quotaRemaining, warn),
    at: now.toISOString(),
  };
}

/**
 * Retry-After as milliseconds: delta-seconds (fractions accepted: "2.5") or an HTTP date
 * (RFC 9110). Null when absent or unreadable; a date in the past gives 0.
 */
export function retryAfterMs(headers: HeaderBag, now: Date): number | null {
  const v = headerValue(headers, SvcHeader.retryAfter);
  if (v === null) return null;
  if (/^\d{1,10}(\.\d{1,6})?$/.test(v)) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at) || /^[\d.\s-]+$/.test(v)) return null;
  return Math.max(0, at - now.getTime());
}

/** Until the rate window resets (X-RateLimit-Reset), in ms, or null when the header gave none. */
export function untilResetMs(limits: LimitsSnapshot, now: Date): number | null {
  if (limits.rateResetAt === null) return null;
  return Math.max(0, Date.parse(limits.rateResetAt) - now.getTime());
}
