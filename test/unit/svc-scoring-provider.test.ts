/**
 * The /v1 adapter behind the scoring-provider seam (worker/queue/svc-scoring-provider.ts): which
 * /v1 answer or failure becomes which answer for the pipeline, and what it records of the
 * service (reachable, key refused, wrong environment, hold-off, quota, pacing). The client is a
 * stand-in returning what SvcClient returns or throws; the client itself is met over real HTTP
 * in test/integration/svc-client*.test.ts, and the whole path in screener-*.test.ts.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { SvcScoringProvider } from '../../worker/queue/svc-scoring-provider.js';
import type { SvcResponse } from '../../worker/svc/client.js';
import { SvcError, SvcInvalidResponseError, SvcNetworkError, errorFromResponse } from '../../worker/svc/errors.js';
import type { LimitsSnapshot } from '../../worker/svc/limits.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const headers = {
  'x-request-id': 'req_1',
  'svc-environment': 'sandbox',
  'x-ratelimit-limit': '120',
  'x-ratelimit-remaining': '50',
  'x-ratelimit-reset': String(NOW.getTime() / 1000 + 30),
};
const limits = (over: Partial<LimitsSnapshot> = {}): LimitsSnapshot => ({
  environment: 'sandbox',
  apiVersion: null,
  requestId: 'req_1',
  rateLimit: 120,
  rateRemaining: 50,
  rateResetAt: new Date(NOW.getTime() + 30_000).toISOString(),
  quotaLimit: null,
  quotaRemaining: null,
  at: NOW.toISOString(),
  ...over,
});
const score = (livemode = false): SvcScore =>
  ({ object: 'svc_score', livemode, carrier: { dot_number: '1000001' }, decision: 'approved' }) as unknown as SvcScore;
const failure = (status: number, code: string, h: Record<string, string> = headers, attempts = 1, afterTimeout = false): SvcError => {
  const e = errorFromResponse(status, { error: { code, message: 'words' } }, h, NOW);
  e.attempts = attempts;
  e.afterTimeout = afterTimeout;
  return e;
};

function adapter(answer: () => Promise<SvcResponse<SvcScore>>, o: { paceBelow?: number } = {}) {
  const told: string[] = [];
  const blocked = { holdOffUntil: null as number | null, envMismatch: null as string | null, keyRejected: null as string | null };
  const asked: Array<{ query: CarrierQuery; maxAttempts: number | undefined }> = [];
  const provider = new SvcScoringProvider({
    env: 'sandbox',
    client: {
      getScore: async (query: CarrierQuery, opts: { maxAttempts?: number } = {}) => {
        asked.push({ query, maxAttempts: opts.maxAttempts });
        return answer();
      },
    },
    gate: {
      observe: async (limit, remaining) => void told.push(`gate.observe ${limit} ${remaining}`),
      closeUntilMonthEnd: async () => void told.push('gate.close'),
    },
    service: {
      callsBlocked: async () => blocked,
      reachable: async () => void told.push('reachable'),
      unreachable: async (m) => void told.push(`unreachable: ${m}`),
      keyRejected: async (m) => void told.push(`key rejected: ${m}`),
      limits: async (l) => void told.push(`limits ${l.rateRemaining}`),
      holdOff: async (until) => (told.push(`hold off until ${new Date(until).toISOString()}`), until),
      environmentMismatch: async (m) => void told.push(`environment: ${m}`),
    },
    now: () => NOW,
    logger: pino({ level: 'silent' }),
    onQuota: () => void told.push('onQuota'),
    pauseQueue: async (ms) => void told.push(`pause ${ms}`),
    paceBelow: o.paceBelow ?? 1,
    backoff: { baseMs: 1_000, capMs: 8_000, jitterMs: 0 },
  });
  return { provider, told, blocked, asked };
}

const q = { dot_number: '1000001' };

describe("SvcScoringProvider: /v1 → the pipeline's answers", () => {
  it('a score: the answer at once, its headers recorded as bookkeeping the caller waits for', async () => {
    const a = adapter(
      async () => ({ body: score(), limits: limits({ quotaLimit: 1000, quotaRemaining: 10, rateRemaining: 2 }), attempts: 2 }),
      { paceBelow: 4 },
    );
    const bookkeeping: Array<Promise<unknown>> = [];
    expect(await a.provider.lookup(q, { maxAttempts: 3, bookkeeping })).toEqual({ kind: 'score', score: score(), attempts: 2 });
    expect(a.asked).toEqual([{ query: q, maxAttempts: 3 }]);
    expect(bookkeeping.length).toBe(1);
    await Promise.all(bookkeeping);
    // Two requests left in the window, four may be in flight: the queue waits for its reset.
    expect(a.told.sort()).toEqual(['gate.observe 1000 10', 'limits 2', 'onQuota', 'pause 30000', 'reachable']);
  });

  it('a score from the other environment: no score, lookups stopped', async () => {
    const a = adapter(async () => ({ body: score(true), limits: limits({ environment: 'live' }), attempts: 1 }));
    const bookkeeping: Array<Promise<unknown>> = [];
    const r = await a.provider.lookup(q, { maxAttempts: 5, bookkeeping });
    expect(r).toMatchObject({
      kind: 'failed',
      cause: 'service_error',
      error: { code: 'environment_mismatch', request_id: 'req_1' },
      attempts: 1,
    });
    expect(bookkeeping).toEqual([]);
    expect(a.told).toEqual([expect.stringMatching(/^environment: /)]);
  });

  it.each([
    [404, 'carrier_not_found', { kind: 'not_found', error: { code: 'carrier_not_found' } }, ['limits 50', 'reachable']],
    [
      429,
      'monthly_quota_exceeded',
      { kind: 'failed', cause: 'quota_exhausted', error: { code: 'monthly_quota_exceeded' } },
      ['limits 50', 'gate.close', 'onQuota'],
    ],
    [
      401,
      'invalid_api_key',
      { kind: 'failed', cause: 'service_error', error: { code: 'invalid_api_key' } },
      ['limits 50', expect.stringMatching(/^key rejected: .*invalid_api_key/)],
    ],
    [
      503,
      'scoring_unavailable',
      { kind: 'failed', cause: 'scoring_unavailable', error: { code: 'scoring_unavailable' } },
      ['limits 50', expect.stringMatching(/^unreachable: .*scoring_unavailable/)],
    ],
    [
      500,
      'internal_error',
      { kind: 'failed', cause: 'scoring_unavailable', error: { code: 'internal_error' } },
      ['limits 50', expect.stringMatching(/^unreachable: .*internal_error/)],
    ],
    [400, 'invalid_request', { kind: 'failed', cause: 'service_error', error: { code: 'invalid_request' } }, ['limits 50', 'reachable']],
    [418, 'teapot', { kind: 'failed', cause: 'service_error', error: { code: 'teapot' } }, ['limits 50', 'reachable']],
  ])('HTTP %i %s → %o', async (status, code, answer, told) => {
    const a = adapter(async () => Promise.reject(failure(status, code, headers, 3)));
    expect(await a.provider.lookup(q, { maxAttempts: 5, bookkeeping: [] })).toMatchObject({ ...answer, attempts: 3 });
    expect(a.told).toEqual(told);
  });

  it('no answer at all (network, deadline, a body that is not a score): unavailable', async () => {
    for (const e of [
      new SvcNetworkError({ message: 'connection failed', code: 'ECONNREFUSED', sent: false }),
      new SvcNetworkError({ message: 'timed out', code: 'deadline_exceeded', sent: true, timedOut: true }),
      new SvcInvalidResponseError({ message: 'not JSON', status: 200 }),
    ]) {
      const a = adapter(async () => Promise.reject(e));
      const r = await a.provider.lookup(q, { maxAttempts: 5, bookkeeping: [] });
      expect(r).toMatchObject({ kind: 'failed', cause: 'scoring_unavailable' });
      expect(a.told).toEqual([`unreachable: ${e.message}`]);
    }
  });

  it('rate limited: the wait to ask again, unless a time-out came first; a Retry-After past a minute holds every process off', async () => {
    const h = { ...headers, 'retry-after': '7', 'x-ratelimit-remaining': '0' };
    let a = adapter(async () => Promise.reject(failure(429, 'rate_limit_exceeded', h)));
    expect(await a.provider.lookup(q, { maxAttempts: 5, bookkeeping: [] })).toMatchObject({ kind: 'rate_limited', retryAfterMs: 7_000 });
    // A 429's window headers are not a pacing signal (its Retry-After is): no pause, though none are left.
    expect(a.told).toEqual(['limits 0']);
    a = adapter(async () => Promise.reject(failure(429, 'rate_limit_exceeded', h, 2, true)));
    expect(await a.provider.lookup(q, { maxAttempts: 5, bookkeeping: [] })).toMatchObject({
      kind: 'failed',
      cause: 'scoring_unavailable',
      attempts: 2,
    });
    a = adapter(async () => Promise.reject(failure(503, 'scoring_unavailable', { ...headers, 'retry-after': '600' })));
    expect(await a.provider.lookup(q, { maxAttempts: 5, bookkeeping: [] })).toMatchObject({ kind: 'failed', cause: 'scoring_unavailable' });
    expect(a.told).toContain(`hold off until ${new Date(NOW.getTime() + 600_000).toISOString()}`);
  });

  it('what is not a /v1 failure is handed back as it is', async () => {
    const a = adapter(async () => Promise.reject(new TypeError('bug')));
    await expect(a.provider.lookup(q, { maxAttempts: 5, bookkeeping: [] })).rejects.toThrow(TypeError);
  });

  it('blocked(): a wrong environment or a refused key stops lookups; a hold-off holds them', async () => {
    const a = adapter(async () => Promise.reject(new Error('not asked')));
    expect(await a.provider.blocked()).toEqual({ stopped: null, holdOff: null });
    a.blocked.keyRejected = 'the API key was refused';
    expect((await a.provider.blocked()).stopped).toMatchObject({
      cause: 'service_error',
      error: { code: 'key_rejected' },
      rescreenWaits: false,
    });
    a.blocked.envMismatch = 'livemode true';
    expect((await a.provider.blocked()).stopped).toMatchObject({
      cause: 'service_error',
      error: { code: 'environment_mismatch' },
      rescreenWaits: true,
    });
    a.blocked.holdOffUntil = NOW.getTime() + HOUR;
    expect((await a.provider.blocked()).holdOff).toMatchObject({
      cause: 'scoring_unavailable',
      error: { code: 'rate_limit_exceeded', message: expect.stringContaining(new Date(NOW.getTime() + HOUR).toISOString()) },
    });
  });

  it("retryWait(): the client's schedule, never under the Retry-After", () => {
    const a = adapter(async () => Promise.reject(new Error('not asked')));
    expect([
      a.provider.retryWait(1, 10),
      a.provider.retryWait(3, 10),
      a.provider.retryWait(9, 10),
      a.provider.retryWait(1, 20_000),
    ]).toEqual([1_000, 4_000, 8_000, 20_000]);
  });
});

const HOUR = 3_600_000;
