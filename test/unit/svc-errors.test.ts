import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  SvcAuthenticationError,
  SvcBadRequestError,
  SvcError,
  SvcNotFoundError,
  SvcQuotaExhaustedError,
  SvcRateLimitError,
  SvcServerError,
  SvcUnavailableError,
  SvcInvalidResponseError,
  SvcNetworkError,
  SvcUnknownError,
  errorFromResponse,
  screeningErrorCode,
} from '../../worker/svc/errors.js';

const now = new Date('2025-03-10T12:00:00Z');
const headers = {
  'x-request-id': 'req_abc123',
  'svc-environment': 'sandbox',
  'svc-api-version': '2025-01-01',
  'x-ratelimit-limit': '120',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset': '1741608060',
};
const body = (code: string, message = 'words for people') => ({ error: { code, message } });

describe('errorFromResponse', () => {
  it.each([
    [400, 'invalid_request', SvcBadRequestError, 'bad_request'],
    [401, 'missing_api_key', SvcAuthenticationError, 'authentication'],
    [401, 'invalid_api_key', SvcAuthenticationError, 'authentication'],
    [404, 'carrier_not_found', SvcNotFoundError, 'not_found'],
    [429, 'rate_limit_exceeded', SvcRateLimitError, 'rate_limit'],
    [429, 'monthly_quota_exceeded', SvcQuotaExhaustedError, 'quota_exhausted'],
    [503, 'scoring_unavailable', SvcUnavailableError, 'unavailable'],
    [503, 'maintenance', SvcUnavailableError, 'unavailable'],
    [500, 'internal_error', SvcServerError, 'server'],
    [502, 'bad_gateway', SvcServerError, 'server'],
    [418, 'teapot', SvcUnknownError, 'unknown'],
    [302, 'moved', SvcUnknownError, 'unknown'],
  ] as const)('%i %s → %s', (status, code, cls, kind) => {
    const err = errorFromResponse(status, body(code), headers, now);
    expect(err).toBeInstanceOf(cls);
    expect(err).toBeInstanceOf(SvcError);
    expect(err.kind).toBe(kind);
    expect(err.name).toBe(cls.name);
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
    expect(err.requestId).toBe('req_abc123');
    expect(err.message).toContain('words for people');
    expect(err.message).toMatch(/ \(request req_abc123\)$/);
    expect(err.limits?.environment).toBe('sandbox');
    expect(err.limits?.rateResetAt).toBe('2025-03-10T12:01:00.000Z');
  });

  it('on 404 and 429 only the documented codes mean what the spec says; any other is unknown', () => {
    // A 404 from a proxy or a new code must not block a carrier as "not found".
    for (const b of [body('brand_new_code'), undefined, 'Not Found'])
      expect(errorFromResponse(404, b, {}, now)).toBeInstanceOf(SvcUnknownError);
    // A 429 we do not know is not a rate limit to retry, nor an exhausted quota.
    for (const b of [body('daily_cap'), undefined]) expect(errorFromResponse(429, b, {}, now)).toBeInstanceOf(SvcUnknownError);
    expect(errorFromResponse(404, body('brand_new_code'), {}, now).message).toMatch(/^unexpected 404.*brand_new_code/);
  });

  it('an unknown code on another known status is handled by the status', () => {
    expect(errorFromResponse(503, body('brand_new_code'), {}, now)).toBeInstanceOf(SvcUnavailableError);
    expect(errorFromResponse(401, body('brand_new_code'), {}, now)).toBeInstanceOf(SvcAuthenticationError);
  });

  it('keeps the server message: it is what tells a mistyped key from a wrong-environment one', () => {
    const err = errorFromResponse(401, body('invalid_api_key', 'A live key was sent to the sandbox.'), headers, now);
    expect(err.message).toBe('the API key was refused: invalid_api_key: A live key was sent to the sandbox. (request req_abc123)');
  });

  it('a body that is not an error object still gives the class of its status', () => {
    for (const b of [undefined, null, 'Bad Gateway', { error: 'x' }, { error: { code: 5, message: 'm' } }]) {
      const err = errorFromResponse(502, b, {}, now);
      expect(err).toBeInstanceOf(SvcServerError);
      expect(err.code).toBeNull();
      expect(err.requestId).toBeNull();
      expect(err.message).toBe('server error 502 (HTTP 502, no error body)');
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(errorFromResponse(429, body('rate_limit_exceeded'), { 'retry-after': '7' }, now).retryAfterMs).toBe(7000);
    const date = new Date(now.getTime() + 30_000).toUTCString();
    expect(errorFromResponse(429, body('rate_limit_exceeded'), { 'retry-after': date }, now).retryAfterMs).toBe(30_000);
    expect(errorFromResponse(429, body('rate_limit_exceeded'), { 'retry-after': 'soon' }, now).retryAfterMs).toBeNull();
    expect(errorFromResponse(429, body('rate_limit_exceeded'), {}, now).retryAfterMs).toBeNull();
  });

  it('property: every status gives exactly one class, a status and the request id', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }).filter((s) => s < 200 || s > 299),
        fc.string(),
        fc.string(),
        (status, code, id) => {
          const reqId = id.trim() === '' ? null : id.trim();
          const err = errorFromResponse(status, body(code), { 'x-request-id': id }, now);
          expect(err.status).toBe(status);
          expect(err.requestId).toBe(reqId);
          expect(err.code).toBe(code);
          const expected =
            status === 400
              ? 'bad_request'
              : status === 401
                ? 'authentication'
                : status === 404
                  ? code === 'carrier_not_found'
                    ? 'not_found'
                    : 'unknown'
                  : status === 429
                    ? code === 'monthly_quota_exceeded'
                      ? 'quota_exhausted'
                      : code === 'rate_limit_exceeded'
                        ? 'rate_limit'
                        : 'unknown'
                    : status === 503
                      ? 'unavailable'
                      : status >= 500
                        ? 'server'
                        : 'unknown';
          expect(err.kind).toBe(expected);
        },
      ),
    );
  });
});

describe('how long a rate-limit refusal asks us to wait', () => {
  const now = new Date('2025-03-10T12:00:00Z');
  const body = { error: { code: 'rate_limit_exceeded', message: 'slow down', type: 'rate_limit_error' } };
  const reset = String(now.getTime() / 1000 + 7);

  it('a fractional Retry-After is read ("2.5" is 2.5 s)', () => {
    expect(errorFromResponse(429, body, { 'retry-after': '2.5', 'x-ratelimit-reset': reset }, now).retryAfterMs).toBe(2500);
  });

  it('without a readable Retry-After, the window reset (X-RateLimit-Reset) says when', () => {
    expect(errorFromResponse(429, body, { 'x-ratelimit-reset': reset }, now).retryAfterMs).toBe(7000);
    expect(errorFromResponse(429, body, { 'retry-after': 'soon', 'x-ratelimit-reset': reset }, now).retryAfterMs).toBe(7000);
  });

  it('with neither, nothing (the backoff decides); a 503 does not take the rate window for its wait', () => {
    expect(errorFromResponse(429, body, {}, now).retryAfterMs).toBeNull();
    const e503 = { error: { code: 'scoring_unavailable', message: 'down' } };
    expect(errorFromResponse(503, e503, { 'x-ratelimit-reset': reset }, now).retryAfterMs).toBeNull();
  });
});

describe('the code a screening shows for a failed lookup', () => {
  it("is stable for transport failures (never a raw ECONNREFUSED or UND_ERR_…), the service's own otherwise", () => {
    const net = (code: string | null, timedOut = false) => new SvcNetworkError({ message: 'x', code, timedOut });
    expect(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'UND_ERR_SOCKET', null].map((c) => screeningErrorCode(net(c)))).toEqual(
      Array(5).fill('service_unreachable'),
    );
    expect(screeningErrorCode(net('UND_ERR_HEADERS_TIMEOUT', true))).toBe('deadline_exceeded');
    expect(screeningErrorCode(net('UND_ERR_CONNECT_TIMEOUT'))).toBe('deadline_exceeded');
    expect(screeningErrorCode(net('deadline_exceeded', true))).toBe('deadline_exceeded');
    expect(screeningErrorCode(new SvcInvalidResponseError({ message: 'x', code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' }))).toBe(
      'invalid_response',
    );
    expect(screeningErrorCode(new SvcNotFoundError({ message: 'x', code: 'carrier_not_found' }))).toBe('carrier_not_found');
    expect(screeningErrorCode(new SvcServerError({ message: 'x' }))).toBe('server');
  });
});
