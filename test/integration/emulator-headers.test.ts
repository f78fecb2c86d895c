/** The spec's response-header table: which headers every response carries. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcHeader } from '../../shared/svc-contract.js';
import { SVC_API_VERSION, type RunningEmulator } from '../../emulator/index.js';
import { manualClock, svcGet, withEmulator, type SvcResponse } from '../helpers/emulator.js';

const clock = manualClock('2026-05-12T10:00:20Z');
let sandbox: RunningEmulator;
let live: RunningEmulator;
beforeAll(async () => {
  sandbox = await withEmulator({ mode: 'sandbox', now: clock.now, ratePerMinute: 8 });
  live = await withEmulator({ mode: 'live', now: clock.now, ratePerMinute: 8, monthlyQuota: 50 });
});
afterAll(async () => {
  await sandbox.close();
  await live.close();
});

/** Requests that give each kind of answer: 200, 400, 401, 404 (carrier and route), 503. */
const REQUESTS: { path: string; key?: null; status: number }[] = [
  { path: '/v1/svc-score?dot_number=1000003', status: 200 },
  { path: '/v1/svc-score?dot_number=x', status: 400 },
  { path: '/v1/svc-score?dot_number=1000003', key: null, status: 401 },
  { path: '/v1/nowhere', status: 404 },
  { path: '/v1/usage', status: 200 },
  { path: '/v1/health', status: 200 },
];

function expectCommonHeaders(res: SvcResponse, env: 'sandbox' | 'live'): void {
  expect(res.headers.get(SvcHeader.requestId)).toMatch(/^req_[0-9a-f]{24}$/);
  expect(res.headers.get(SvcHeader.environment)).toBe(env);
  expect(res.headers.get(SvcHeader.apiVersion)).toBe(SVC_API_VERSION);
  expect(res.headers.get(SvcHeader.rateLimitLimit)).toBe('8');
  expect(Number(res.headers.get(SvcHeader.rateLimitRemaining))).toBeGreaterThanOrEqual(0);
  // The window of 60 s holding 10:00:20 ends at 10:01:00.
  expect(res.headers.get(SvcHeader.rateLimitReset)).toBe(String(Date.parse('2026-05-12T10:01:00Z') / 1000));
}

describe('response headers', () => {
  it('sandbox: every response carries id, environment, version and rate-limit headers, never quota headers', async () => {
    const ids = new Set<string>();
    for (const r of REQUESTS) {
      const res = await svcGet(sandbox, r.path, r.key);
      expect(res.status, r.path).toBe(r.status);
      expectCommonHeaders(res, 'sandbox');
      expect(res.headers.get(SvcHeader.quotaLimit)).toBeNull();
      expect(res.headers.get(SvcHeader.quotaRemaining)).toBeNull();
      ids.add(res.headers.get(SvcHeader.requestId)!);
    }
    expect(ids.size).toBe(REQUESTS.length);
  });

  it('X-RateLimit-Remaining counts down per authenticated request', async () => {
    clock.advance(60_000); // a fresh window (10:01:20); reset is then 10:02:00
    const a = await svcGet(sandbox, '/v1/usage');
    const b = await svcGet(sandbox, '/v1/svc-score?dot_number=1000001');
    expect(a.headers.get(SvcHeader.rateLimitRemaining)).toBe('7');
    expect(b.headers.get(SvcHeader.rateLimitRemaining)).toBe('6');
    clock.advance(-60_000);
  });

  it('live: the same headers plus X-Quota-Limit/Remaining on every authenticated response', async () => {
    for (const r of REQUESTS.filter((x) => x.key !== null)) {
      const res = await svcGet(live, r.path, r.key);
      expect(res.status, r.path).toBeLessThan(500);
      expectCommonHeaders(res, 'live');
      expect(res.headers.get(SvcHeader.quotaLimit)).toBe('50');
      expect(Number(res.headers.get(SvcHeader.quotaRemaining))).toBeLessThanOrEqual(50);
    }
    const unauth = await svcGet(live, '/v1/usage', null);
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get(SvcHeader.environment)).toBe('live');
    expect(unauth.headers.get(SvcHeader.rateLimitLimit)).toBe('8');
  });

  it('429 answers carry the headers too, and Retry-After', async () => {
    clock.advance(120_000); // fresh window at 10:02:20, ends 10:03:00
    for (let i = 0; i < 8; i++) expect((await svcGet(sandbox, '/v1/health')).status).toBe(200);
    const res = await svcGet(sandbox, '/v1/health');
    expect(res.status).toBe(429);
    expect(res.headers.get(SvcHeader.rateLimitRemaining)).toBe('0');
    expect(res.headers.get(SvcHeader.retryAfter)).toBe('40');
    expect(res.headers.get(SvcHeader.requestId)).toMatch(/^req_/);
    expect(res.headers.get(SvcHeader.environment)).toBe('sandbox');
    clock.advance(-120_000);
  });
});
