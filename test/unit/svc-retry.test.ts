import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SvcError, SvcInvalidResponseError, SvcNetworkError, errorFromResponse } from '../../worker/svc/errors.js';
import { DEFAULT_BACKOFF, backoffMs, isRetryable, sleep } from '../../worker/svc/retry.js';

const err = (status: number, code: string): SvcError => errorFromResponse(status, { error: { code, message: 'm' } }, {});

describe('isRetryable', () => {
  it('retries the spec set: 429 rate_limit_exceeded, 5xx, network failures and time-outs', () => {
    expect(isRetryable(err(429, 'rate_limit_exceeded'))).toBe(true);
    expect(isRetryable(err(503, 'scoring_unavailable'))).toBe(true);
    expect(isRetryable(err(500, 'whatever'))).toBe(true);
    expect(isRetryable(new SvcNetworkError({ message: 'timed out', code: 'UND_ERR_HEADERS_TIMEOUT' }))).toBe(true);
  });

  it('does not retry what fails the same way again', () => {
    expect(isRetryable(err(401, 'missing_api_key'))).toBe(false);
    expect(isRetryable(err(404, 'carrier_not_found'))).toBe(false);
    expect(isRetryable(err(400, 'invalid_request'))).toBe(false);
    expect(isRetryable(err(429, 'monthly_quota_exceeded'))).toBe(false);
    expect(isRetryable(err(429, 'some_new_code'))).toBe(false);
    // A 200 whose body breaks the contract: not in the spec's retry set.
    expect(isRetryable(new SvcInvalidResponseError({ message: 'bad body', status: 200 }))).toBe(false);
  });

  it('property: true exactly for 429 rate_limit_exceeded and 5xx among HTTP answers', () => {
    const codes = fc.oneof(
      fc.constantFrom('rate_limit_exceeded', 'monthly_quota_exceeded', 'scoring_unavailable', 'carrier_not_found', 'missing_api_key'),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 599 }), codes, (status, code) => {
        const expected = (status >= 500 && status <= 599) || (status === 429 && code === 'rate_limit_exceeded');
        expect(isRetryable(err(status, code))).toBe(expected);
      }),
    );
  });
});

const opts = fc.record({
  baseMs: fc.integer({ min: 0, max: 10_000 }),
  capMs: fc.integer({ min: 0, max: 120_000 }),
  jitterMs: fc.integer({ min: 0, max: 5_000 }),
});
const retryAfter = fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: null });
const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const attempt = fc.integer({ min: 1, max: 64 });

describe('backoffMs', () => {
  it('follows the schedule: exponential from base, Retry-After wins when larger, jitter on top', () => {
    const o = { baseMs: 1000, capMs: 30_000, jitterMs: 100 };
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(a, null, () => 0, o))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000]);
    expect(backoffMs(1, 5000, () => 0, o)).toBe(5000);
    expect(backoffMs(4, 5000, () => 0, o)).toBe(8000);
    expect(backoffMs(1, null, () => 0.5, o)).toBe(1050);
    expect(backoffMs(1, null, () => 0)).toBe(DEFAULT_BACKOFF.baseMs);
  });

  it('property: never below Retry-After', () => {
    fc.assert(
      fc.property(attempt, retryAfter, unit, opts, (a, ra, r, o) => {
        expect(backoffMs(a, ra, () => r, o)).toBeGreaterThanOrEqual(ra ?? 0);
      }),
    );
  });

  it('property: never above the cap (or a larger Retry-After) plus jitter', () => {
    fc.assert(
      fc.property(attempt, retryAfter, unit, opts, (a, ra, r, o) => {
        const w = backoffMs(a, ra, () => r, o);
        expect(w).toBeLessThanOrEqual(Math.max(o.capMs, ra ?? 0) + o.jitterMs);
        if (ra === null || ra <= o.capMs) expect(w).toBeLessThanOrEqual(o.capMs + o.jitterMs);
      }),
    );
  });

  it('property: monotone in attempt for the same jitter draw', () => {
    fc.assert(
      fc.property(attempt, retryAfter, unit, opts, (a, ra, r, o) => {
        expect(backoffMs(a + 1, ra, () => r, o)).toBeGreaterThanOrEqual(backoffMs(a, ra, () => r, o));
      }),
    );
  });

  it('property: strictly growing before the cap when there is no Retry-After', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), unit, opts, (a, r, o) => {
        fc.pre(o.baseMs > 0 && o.baseMs * 2 ** a <= o.capMs);
        expect(backoffMs(a + 1, null, () => r, o)).toBeGreaterThan(backoffMs(a, null, () => r, o));
      }),
    );
  });

  it('rejects bad input naming the parameter', () => {
    expect(() => backoffMs(0, null, Math.random)).toThrow(/attempt/);
    expect(() => backoffMs(1.5, null, Math.random)).toThrow(/attempt/);
    expect(() => backoffMs(1, -1, Math.random)).toThrow(/retryAfterMs/);
    expect(() => backoffMs(1, null, Math.random, { baseMs: -1 })).toThrow(/backoff\.baseMs/);
    expect(() => backoffMs(1, null, Math.random, { capMs: Number.NaN })).toThrow(/backoff\.capMs/);
    expect(() => backoffMs(1, null, Math.random, { jitterMs: Infinity })).toThrow(/backoff\.jitterMs/);
  });
});

describe('sleep', () => {
  it('resolves', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it('rejects with the reason when aborted, before or during the wait', async () => {
    const pre = AbortSignal.abort(new Error('stop now'));
    await expect(sleep(10, pre)).rejects.toThrow('stop now');
    const ac = new AbortController();
    const p = sleep(60_000, ac.signal);
    ac.abort(new Error('stopped'));
    await expect(p).rejects.toThrow('stopped');
  });
});
