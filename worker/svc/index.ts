/** The /v1 client and what comes with it. */
export { SvcClient, type SvcClientOptions, type SvcResponse } from './client.js';
export {
  UndiciTransport,
  type HttpTransport,
  type TransportRequest,
  type TransportResponse,
  type UndiciTransportOptions,
} from './transport.js';
export {
  SvcError,
  SvcAuthenticationError,
  SvcNotFoundError,
  SvcRateLimitError,
  SvcQuotaExhaustedError,
  SvcUnavailableError,
  SvcServerError,
  SvcNetworkError,
  SvcInvalidResponseError,
  SvcBadRequestError,
  SvcUnknownError,
  errorFromResponse,
  type SvcErrorKind,
  type SvcErrorInit,
} from './errors.js';
export { isRetryable, backoffMs, sleep, DEFAULT_BACKOFF, type BackoffOptions } from './retry.js';
export { readLimits, retryAfterMs, headerValue, type LimitsSnapshot, type HeaderBag } from './limits.js';
export { verifyKey, environmentMismatch, KeyCheckError, type KeyCheckCode } from './key-check.js';
