/**
 * One error class per way a /v1 call can fail, all built by one factory (`errorFromResponse`)
 * for HTTP answers, plus network and invalid-response errors built by the client.
 * Every error carries the HTTP status and the request id when there was one; messages read
 * "<what happened> (request <id>)". The API key is never part of an error.
 */
import { parseErrorBody } from '../../shared/svc-contract.js';
import { readLimits, retryAfterMs, untilResetMs, type HeaderBag, type HeaderWarning, type LimitsSnapshot } from './limits.js';

export type SvcErrorKind =
  | 'authentication'
  | 'not_found'
  | 'rate_limit'
  | 'quota_exhausted'
  | 'unavailable'
  | 'server'
  | 'network'
  | 'invalid_response'
  | 'bad_request'
  | 'unknown';

export interface SvcErrorInit {
  message: string;
  status?: number | null;
  code?: string | null;
  requestId?: string | null;
  retryAfterMs?: number | null;
  limits?: LimitsSnapshot;
  cause?: unknown;
  /**
   * Whether the request may have reached the service (and, on live, been counted). False only
   * for a failure while connecting; an HTTP answer and a time-out after sending are true.
   */
  sent?: boolean;
  /** The request timed out after it was sent (headers and body share one deadline). */
  timedOut?: boolean;
}

export class SvcError extends Error {
  readonly kind: SvcErrorKind = 'unknown';
  readonly status: number | null;
  readonly code: string | null;
  readonly requestId: string | null;
  readonly retryAfterMs: number | null;
  readonly limits?: LimitsSnapshot;
  readonly sent: boolean;
  readonly timedOut: boolean;
  /** How many requests were made before this error was thrown (set by the client). */
  attempts = 1;
  /** An earlier attempt of the same call timed out (set by the client): no attempt is left. */
  afterTimeout = false;

  constructor(init: SvcErrorInit) {
    const suffix = init.requestId ? ` (request ${init.requestId})` : '';
    super(init.message + suffix, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status ?? null;
    this.code = init.code ?? null;
    this.requestId = init.requestId ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.sent = init.sent ?? true;
    this.timedOut = init.timedOut ?? false;
    if (init.limits) this.limits = init.limits;
  }
}

export class SvcAuthenticationError extends SvcError {
  override readonly kind = 'authentication';
}
export class SvcNotFoundError extends SvcError {
  override readonly kind = 'not_found';
}
export class SvcRateLimitError extends SvcError {
  override readonly kind = 'rate_limit';
}
export class SvcQuotaExhaustedError extends SvcError {
  override readonly kind = 'quota_exhausted';
}
export class SvcUnavailableError extends SvcError {
  override readonly kind = 'unavailable';
}
export class SvcServerError extends SvcError {
  override readonly kind = 'server';
}
export class SvcNetworkError extends SvcError {
  override readonly kind = 'network';
}
export class SvcInvalidResponseError extends SvcError {
  override readonly kind = 'invalid_response';
}
export class SvcBadRequestError extends SvcError {
  override readonly kind = 'bad_request';
}
export class SvcUnknownError extends SvcError {
  override readonly kind = 'unknown';
}

/**
 * The code a screening shows for a failed lookup (Screening.error.code): the service's own code
 * when it answered with one, else a stable name of ours. Never a transport's raw code
 * (ECONNREFUSED, UND_ERR_…): those differ by platform and library version, and stay in the
 * message for people.
 */
export function screeningErrorCode(e: SvcError): string {
  if (e instanceof SvcNetworkError) return e.timedOut || e.code === 'UND_ERR_CONNECT_TIMEOUT' ? 'deadline_exceeded' : 'service_unreachable';
  if (e instanceof SvcInvalidResponseError) return 'invalid_response';
  return e.code ?? e.kind;
}

type SvcErrorClass = new (init: SvcErrorInit) => SvcError;

/** Which class and what to say, by status (and, for 429, by code). */
function classify(status: number, code: string | null): { cls: SvcErrorClass; what: string } {
  if (status === 400) return { cls: SvcBadRequestError, what: 'the service refused the request as malformed' };
  if (status === 401) return { cls: SvcAuthenticationError, what: 'the API key was refused' };
  // Only the documented codes carry their documented meaning. Another code on 404 or 429 (a
  // proxy's answer, a code added later) is an error we do not know: guessing "not found" would
  // block a carrier, guessing "rate limit" would spend requests on retries.
  if (status === 404) {
    if (code === 'carrier_not_found') return { cls: SvcNotFoundError, what: 'carrier not found' };
    return { cls: SvcUnknownError, what: 'unexpected 404 (not carrier_not_found)' };
  }
  if (status === 429) {
    if (code === 'monthly_quota_exceeded') return { cls: SvcQuotaExhaustedError, what: 'monthly quota exhausted' };
    if (code === 'rate_limit_exceeded') return { cls: SvcRateLimitError, what: 'rate limit exceeded' };
    return { cls: SvcUnknownError, what: 'unexpected 429 (neither rate_limit_exceeded nor monthly_quota_exceeded)' };
  }
  if (status === 503) return { cls: SvcUnavailableError, what: 'scoring unavailable' };
  if (status >= 500 && status <= 599) return { cls: SvcServerError, what: `server error ${status}` };
  return { cls: SvcUnknownError, what: `unexpected HTTP ${status}` };
}

/**
 * The error for a non-2xx answer. Decided by status, and by `error.code` on 404 and 429, where
 * only the documented codes mean what the spec says (anything else there is SvcUnknownError);
 * on other statuses an unknown code is handled by its status, an unknown status gives
 * SvcUnknownError. The server's `error.message` is kept in the message
 * because it is what tells a mistyped key from a wrong-environment one.
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: HeaderBag,
  now: Date = new Date(),
  warn?: HeaderWarning,
): SvcError {
  const parsed = parseErrorBody(body);
  const code = parsed?.code ?? null;
  const limits = readLimits(headers, now, warn);
  const { cls, what } = classify(status, code);
  const detail = parsed ? `: ${parsed.code}: ${parsed.message}` : ` (HTTP ${status}, no error body)`;
  // A rate-limit refusal without a readable Retry-After: the window's reset says when (then the backoff).
  const retryAfter = retryAfterMs(headers, now) ?? (cls === SvcRateLimitError ? untilResetMs(limits, now) : null);
  return new cls({
    message: what + detail,
    status,
    code,
    requestId: limits.requestId,
    retryAfterMs: retryAfter,
    limits,
  });
}
