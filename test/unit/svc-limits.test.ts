import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readLimits, retryAfterMs } from '../../worker/svc/limits.js';

const now = new Date('2025-03-10T12:00:00Z');

describe('readLimits', () => {
  it('reads every /v1 header of a live response', () => {
    const s = readLimits(
      {
        'x-request-id': 'req_1',
        'svc-environment': 'live',
        'svc-api-version': '2025-01-01',
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '59',
        'x-ratelimit-reset': '1741608060',
        'x-quota-limit': '10000',
        'x-quota-remaining': '9998',
      },
      now,
    );
    expect(s).toEqual({
      environment: 'live',
      apiVersion: '2025-01-01',
      requestId: 'req_1',
      rateLimit: 60,
      rateRemaining: 59,
      rateResetAt: '2025-03-10T12:01:00.000Z',
      quotaLimit: 10000,
      quotaRemaining: 9998,
      at: '2025-03-10T12:00:00.000Z',
    });
  });

  it('gives null for absent or malformed headers, never 0 or NaN', () => {
    const s = readLimits({ 'x-ratelimit-limit': 'lots', 'x-quota-remaining': '-1', 'x-ratelimit-reset': '' }, now);
    expect(s.rateLimit).toBeNull();
    expect(s.quotaRemaining).toBeNull();
    expect(s.rateResetAt).toBeNull();
    expect(s.quotaLimit).toBeNull();
    expect(s.environment).toBeNull();
  });

  it('takes the first of repeated headers', () => {
    expect(readLimits({ 'x-request-id': ['a', 'b'] }, now).requestId).toBe('a');
  });

  it('property: counts round-trip', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e12 }), (n) => {
        expect(readLimits({ 'x-quota-remaining': String(n) }, now).quotaRemaining).toBe(n);
      }),
    );
  });
});

describe('readLimits: headers out of range', () => {
  it('an X-RateLimit-Reset past what a Date holds (or more than a day off) is ignored with a warning, not a RangeError', () => {
    const now = new Date('2025-03-10T12:00:00Z');
    const warnings: string[] = [];
    const l = readLimits({ 'x-ratelimit-reset': '9000000000000', 'x-ratelimit-limit': '60' }, now, (m) => warnings.push(m));
    expect([l.rateResetAt, l.rateLimit]).toEqual([null, 60]);
    expect(warnings).toEqual(['x-ratelimit-reset: 9000000000000 is more than a day from now; ignored']);
    expect(readLimits({ 'x-ratelimit-reset': String(now.getTime() / 1000 + 30) }, now).rateResetAt).toBe('2025-03-10T12:00:30.000Z');
  });
});

describe('retryAfterMs', () => {
  it('seconds, HTTP date, past date, garbage', () => {
    expect(retryAfterMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(retryAfterMs({ 'retry-after': 'Mon, 10 Mar 2025 12:00:45 GMT' }, now)).toBe(45_000);
    expect(retryAfterMs({ 'retry-after': 'Mon, 10 Mar 2025 11:00:00 GMT' }, now)).toBe(0);
    expect(retryAfterMs({ 'retry-after': '1.5' }, now)).toBe(1500);
    expect(retryAfterMs({ 'retry-after': '2.5' }, now)).toBe(2500);
    expect(retryAfterMs({ 'retry-after': '1.' }, now)).toBeNull();
    expect(retryAfterMs({ 'retry-after': 'later' }, now)).toBeNull();
    expect(retryAfterMs({}, now)).toBeNull();
  });
});
