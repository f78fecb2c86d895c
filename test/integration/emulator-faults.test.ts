/** Fault injection: each fault over real HTTP, and the seeded PRNG's reproducibility. */
import { afterEach, describe, expect, it } from 'vitest';
import { parseScore } from '../../shared/svc-contract.js';
import { UNKNOWN_VALUES, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.js';
import { svcGet, withEmulator } from '../helpers/emulator.js';

let running: RunningEmulator[] = [];
async function start(opts: EmulatorOptions): Promise<RunningEmulator> {
  const emu = await withEmulator(opts);
  running.push(emu);
  return emu;
}
afterEach(async () => {
  await Promise.all(running.map((e) => e.close()));
  running = [];
});

describe('faults', () => {
  it('error503Share: 503 scoring_unavailable, counted as an error, not as a lookup', async () => {
    const emu = await start({ mode: 'live', faults: { error503Share: 1 } });
    const res = await svcGet(emu, '/v1/svc-score?dot_number=1000003');
    expect(res.status).toBe(503);
    expect(res.json.error).toMatchObject({ code: 'scoring_unavailable', type: 'api_error' });
    expect(emu.stats()).toMatchObject({ errors: 1, scoreLookups: 0, scoreRequests: 1 });
    expect(res.headers.get('x-quota-remaining')).toBe('1000');
  });

  it('faults touch only score lookups: usage and health answer normally', async () => {
    const emu = await start({ mode: 'sandbox', faults: { error500Share: 1 } });
    expect((await svcGet(emu, '/v1/usage')).status).toBe(200);
    expect((await svcGet(emu, '/v1/health')).status).toBe(200);
  });

  it('malformedShare: 200 with a body that is not JSON, not counted against the quota', async () => {
    const emu = await start({ mode: 'live', faults: { malformedShare: 1 } });
    const res = await svcGet(emu, '/v1/svc-score?dot_number=1000003');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(() => JSON.parse(res.text)).toThrow();
    expect(res.text.startsWith('{"object":"svc_score"')).toBe(true);
    expect(res.headers.get('x-quota-remaining')).toBe('1000');
    expect(emu.stats()).toMatchObject({ errors: 1, scoreLookups: 0 });
  });

  it('rateLimitShare: forced 429 rate_limit_exceeded with Retry-After; retryAfterSeconds overrides it', async () => {
    const emu = await start({ mode: 'sandbox', faults: { rateLimitShare: 1, retryAfterSeconds: 7 } });
    const res = await svcGet(emu, '/v1/svc-score?dot_number=1000003');
    expect(res.status).toBe(429);
    expect(res.json.error).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error' });
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(emu.stats().rateLimited).toBe(1);
  });

  it('unknownFieldsShare: the body still parses, with unknown fields and values kept', async () => {
    const emu = await start({ mode: 'sandbox', faults: { unknownFieldsShare: 1 } });
    const review = parseScore((await svcGet(emu, '/v1/svc-score?dot_number=1000003')).json);
    expect(review.decision).toBe(UNKNOWN_VALUES.decision);
    expect(review.risk_trend).toBeDefined();
    expect(review.carrier.country).toBe('US');
    expect(review.flags).toContain(UNKNOWN_VALUES.flag);
    expect(review.reasons.map((r) => r.severity)).toContain(UNKNOWN_VALUES.severity);
    const c = review.checks!;
    expect(c.triggered + c.passed + c.not_checked).toBe(c.total);

    const rejected = parseScore((await svcGet(emu, '/v1/svc-score?dot_number=1000005')).json);
    expect(rejected.decision).toBe('rejected');
    expect(rejected.knockout.reasons.map((r) => r.code)).toContain(UNKNOWN_VALUES.knockoutCode);
    expect(emu.stats().scoreLookups).toBe(2);
  });

  it('hangShare: the answer comes after a client time-out; close() does not wait for it', async () => {
    const emu = await start({ mode: 'sandbox', faults: { hangShare: 1, hangMs: 60_000 } });
    await expect(svcGet(emu, '/v1/svc-score?dot_number=1000003', undefined, { signal: AbortSignal.timeout(200) })).rejects.toThrow(
      /abort|timeout/i,
    );
    await emu.close();
    running = [];
  });

  it('latencyMs: answers still arrive normally', async () => {
    const emu = await start({ mode: 'sandbox', faults: { latencyMs: 5 } });
    expect((await svcGet(emu, '/v1/svc-score?dot_number=1000001')).status).toBe(200);
  });

  it('the same seed gives the same sequence of faults', async () => {
    const faults = { seed: 42, error500Share: 0.2, error503Share: 0.2, rateLimitShare: 0.2 };
    const run = async (): Promise<number[]> => {
      const emu = await start({ mode: 'sandbox', ratePerMinute: 1000, faults });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await svcGet(emu, '/v1/svc-score?dot_number=1000001')).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 429, 500, 503]));
  });

  it('bad fault options are refused, naming the option', async () => {
    await expect(withEmulator({ faults: { error500Share: 1.5 } })).rejects.toThrow(/faults\.error500Share/);
    await expect(withEmulator({ faults: { error500Share: 0.6, error503Share: 0.6 } })).rejects.toThrow(/must not exceed 1/);
    await expect(withEmulator({ faults: { hangMs: -1 } })).rejects.toThrow(/faults\.hangMs/);
  });
});
