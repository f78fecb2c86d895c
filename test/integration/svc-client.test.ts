/**
 * The /v1 client against the real emulator over real HTTP. Waits between attempts are
 * recorded by an injected sleep instead of being slept (the HTTP is real; only the waiting
 * is skipped), so retry schedules are checked without slow tests.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_CARRIERS, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.js';
import {
  KeyCheckError,
  SvcAuthenticationError,
  SvcClient,
  SvcError,
  SvcInvalidResponseError,
  SvcNetworkError,
  SvcNotFoundError,
  SvcRateLimitError,
  SvcUnavailableError,
  verifyKey,
  type SvcClientOptions,
} from '../../worker/svc/index.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function emulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ port: 0, ...opts });
  cleanup.push(() => emu.close());
  return emu;
}

function client(emu: RunningEmulator, opts: Partial<SvcClientOptions> = {}): { c: SvcClient; waits: number[] } {
  const waits: number[] = [];
  const c = new SvcClient({
    baseUrl: emu.baseUrl,
    apiKey: emu.mode === 'live' ? emu.keys.live : emu.keys.sandbox,
    random: () => 0,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...opts,
  });
  cleanup.push(() => c.close());
  return { c, waits };
}

async function caught(p: Promise<unknown>): Promise<SvcError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(SvcError);
  return e as SvcError;
}

/** The key (or any 12-character piece of its secret part) in no message, stack or inspect output. */
function expectNoKey(e: unknown, key: string): void {
  const secret = key.slice(key.indexOf('_', 4) + 1);
  const texts = [(e as Error).message, String((e as Error).stack), inspect(e, { depth: 10, showHidden: true }), JSON.stringify(e)];
  for (const t of texts) {
    expect(t).not.toContain(key);
    expect(t).not.toContain(secret);
  }
}

describe('SvcClient against the sandbox emulator', () => {
  it('1000003 by DOT and by MC: review, 66, D, one medium Safety & Roadside reason', async () => {
    const emu = await emulator();
    const { c } = client(emu);
    for (const q of [{ dot_number: '1000003' }, { mc_number: 'MC1000003' }]) {
      const r = await c.getScore(q);
      expect(r.attempts).toBe(1);
      expect(r.body).toMatchObject({
        object: 'svc_score',
        livemode: false,
        score: 66,
        grade: 'D',
        decision: 'review',
        needs_manual_review: true,
        knockout: { triggered: false },
      });
      expect(r.body.reasons).toHaveLength(1);
      expect(r.body.reasons[0]).toMatchObject({ severity: 'medium', area: 'Safety & Roadside' });
      expect(r.limits.environment).toBe('sandbox');
      expect(r.limits.requestId).toMatch(/\S/);
      expect(r.limits.rateLimit).toBe(120);
      expect(r.limits.quotaLimit).toBeNull();
    }
  });

  it('1000005: rejected by knockout (AUTHORITY_INACTIVE, NO_BIPD)', async () => {
    const emu = await emulator();
    const { c } = client(emu);
    const { body } = await c.getScore({ dot_number: '1000005' });
    expect(body).toMatchObject({ decision: 'rejected', score: 18, grade: 'F', needs_manual_review: false });
    expect(body.knockout.triggered).toBe(true);
    expect(body.knockout.reasons.map((r) => r.code).sort()).toEqual(['AUTHORITY_INACTIVE', 'NO_BIPD']);
    expect(body.checks).toEqual({ total: 53, triggered: 2, passed: 45, not_checked: 6 });
  });

  it('every sandbox carrier scores as its fixture', async () => {
    const emu = await emulator();
    const { c } = client(emu);
    for (const fixture of SANDBOX_CARRIERS) {
      const { body } = await c.getScore({ dot_number: fixture.carrier.dot_number });
      expect(body.carrier.dot_number).toBe(fixture.carrier.dot_number);
      expect({ score: body.score, grade: body.grade, decision: body.decision }).toEqual({
        score: fixture.score,
        grade: fixture.grade,
        decision: fixture.decision,
      });
    }
    expect(emu.stats().scoreRequests).toBe(SANDBOX_CARRIERS.length);
  });

  it('4242: SvcNotFoundError after exactly one request', async () => {
    const emu = await emulator();
    const { c, waits } = client(emu);
    const e = await caught(c.getScore({ dot_number: '4242' }));
    expect(e).toBeInstanceOf(SvcNotFoundError);
    expect(e.status).toBe(404);
    expect(e.code).toBe('carrier_not_found');
    expect(e.attempts).toBe(1);
    expect(e.message).toMatch(/\(request \S+\)$/);
    expect(e.requestId).toMatch(/\S/);
    expect(emu.stats().scoreRequests).toBe(1);
    expect(waits).toEqual([]);
  });

  it('1000503: five attempts with exponential waits, then SvcUnavailableError', async () => {
    const emu = await emulator();
    const { c, waits } = client(emu, { backoff: { baseMs: 1000, capMs: 30_000, jitterMs: 0 } });
    const e = await caught(c.getScore({ dot_number: '1000503' }));
    expect(e).toBeInstanceOf(SvcUnavailableError);
    expect(e.status).toBe(503);
    expect(e.code).toBe('scoring_unavailable');
    expect(e.attempts).toBe(5);
    expect(emu.stats().scoreRequests).toBe(5);
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
  });

  it('a 429 rate_limit_exceeded is retried after Retry-After; the retry then succeeds', async () => {
    // A clock shared by the emulator and the client's sleep: waiting advances it, so the
    // retry lands in the next rate window only if the client honoured Retry-After.
    let clock = Date.UTC(2025, 5, 10, 12, 0, 0);
    const emu = await emulator({ ratePerMinute: 1, rateWindowMs: 60_000, now: () => new Date(clock) });
    const waits: number[] = [];
    const { c } = client(emu, {
      backoff: { baseMs: 10, jitterMs: 0 },
      now: () => new Date(clock),
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    });
    await c.getScore({ dot_number: '1000003' }); // uses the window's one request
    const r = await c.getScore({ dot_number: '1000005' });
    expect(r.attempts).toBe(2);
    expect(r.body.decision).toBe('rejected');
    expect(waits).toEqual([60_000]); // Retry-After: 60 s, far above the 10 ms exponential
    expect(emu.stats().rateLimited).toBe(1);
  });

  it('every wait is at least Retry-After; after five 429s the SvcRateLimitError is thrown', async () => {
    const emu = await emulator({ faults: { rateLimitShare: 1, retryAfterSeconds: 7 } });
    const { c, waits } = client(emu, { backoff: { baseMs: 1000, capMs: 30_000, jitterMs: 0 } });
    const e = await caught(c.getScore({ dot_number: '1000003' }));
    expect(e).toBeInstanceOf(SvcRateLimitError);
    expect(e.code).toBe('rate_limit_exceeded');
    expect(e.retryAfterMs).toBe(7000);
    expect(e.attempts).toBe(5);
    expect(waits).toEqual([7000, 7000, 7000, 8000]);
    expect(emu.stats().rateLimited).toBe(5);
  });

  it('retryRateLimited=false: the 429 is thrown at once, with retryAfterMs, for the queue to pause', async () => {
    const emu = await emulator({ faults: { rateLimitShare: 1, retryAfterSeconds: 12 } });
    const { c, waits } = client(emu, { retryRateLimited: false });
    const e = await caught(c.getScore({ dot_number: '1000003' }));
    expect(e).toBeInstanceOf(SvcRateLimitError);
    expect(e.retryAfterMs).toBe(12_000);
    expect(e.attempts).toBe(1);
    expect(e.limits?.rateRemaining).toBe(0);
    expect(emu.stats().scoreRequests).toBe(1);
    expect(waits).toEqual([]);
  });

  it('retryRateLimited=false still retries 5xx', async () => {
    const emu = await emulator();
    const { c } = client(emu, { retryRateLimited: false });
    const e = await caught(c.getScore({ dot_number: '1000503' }));
    expect(e.attempts).toBe(5);
  });

  it('a live key against the sandbox: SvcAuthenticationError with the server message, not retried, key not shown', async () => {
    const emu = await emulator();
    const { c, waits } = client(emu, { apiKey: emu.keys.live });
    const e = await caught(c.getScore({ dot_number: '1000003' }));
    expect(e).toBeInstanceOf(SvcAuthenticationError);
    expect(e.status).toBe(401);
    expect(e.message).toMatch(/live key .* sent to the sandbox environment/);
    expect(e.attempts).toBe(1);
    expect(emu.stats().scoreRequests).toBe(1);
    expect(waits).toEqual([]);
    expectNoKey(e, emu.keys.live);
  });

  it('a mistyped key: SvcAuthenticationError saying so, not retried, key not shown', async () => {
    const emu = await emulator();
    const typo = `${emu.keys.sandbox.slice(0, -1)}X`;
    const { c, waits } = client(emu, { apiKey: typo });
    const e = await caught(c.getUsage());
    expect(e).toBeInstanceOf(SvcAuthenticationError);
    expect(e.message).toMatch(/not recognised.*mistyped/);
    expect(e.attempts).toBe(1);
    expect(waits).toEqual([]);
    expectNoKey(e, typo);
  });

  it('hang fault with a short timeoutMs: SvcNetworkError after one more attempt (the first may have been counted)', async () => {
    const emu = await emulator({ faults: { hangShare: 1, hangMs: 60_000 } });
    const { c, waits } = client(emu, { timeoutMs: 100, maxAttempts: 3 });
    const e = await caught(c.getScore({ dot_number: '1000003' }));
    expect(e).toBeInstanceOf(SvcNetworkError);
    expect(e.status).toBeNull();
    expect(e.code).toBe('deadline_exceeded');
    expect(e.message).toMatch(/timed out after 100 ms \(headers and body together\)/);
    expect(e.attempts).toBe(2);
    expect(waits).toHaveLength(1);
    expect(emu.stats().scoreRequests).toBe(2);
    expectNoKey(e, emu.keys.sandbox);
  });

  it('a malformed 200 body: SvcInvalidResponseError, not retried', async () => {
    const emu = await emulator({ faults: { malformedShare: 1 } });
    const { c, waits } = client(emu);
    const e = await caught(c.getScore({ dot_number: '1000003' }));
    expect(e).toBeInstanceOf(SvcInvalidResponseError);
    expect(e.status).toBe(200);
    expect(e.attempts).toBe(1);
    expect(e.requestId).toMatch(/\S/);
    expect(waits).toEqual([]);
    expect(emu.stats().scoreRequests).toBe(1);
  });

  it('unknown fields and enum values are kept, not rejected', async () => {
    const emu = await emulator({ faults: { unknownFieldsShare: 1 } });
    const { c } = client(emu);
    const { body } = await c.getScore({ dot_number: '1000003' });
    expect(body.risk_trend).toEqual({ direction: 'worsening', window_days: 90 });
    expect(body.carrier.country).toBe('US');
    expect(body.reasons.map((r) => r.severity)).toContain('advisory');
  });

  it('usage and health work with the sandbox key', async () => {
    const emu = await emulator();
    const { c } = client(emu);
    const u = await c.getUsage();
    expect(u.body).toMatchObject({ object: 'usage', livemode: false, rate_limit_per_minute: 120 });
    const h = await c.health();
    expect(h.body).toMatchObject({ status: 'ok' });
  });

  it('the key is in no error message, stack or util.inspect output of any failure', async () => {
    const emu = await emulator();
    const { c } = client(emu);
    const errors = [await caught(c.getScore({ dot_number: '4242' })), await caught(c.getScore({ dot_number: '1000503' }))];
    for (const e of errors) expectNoKey(e, emu.keys.sandbox);
    expect(inspect(c, { depth: 10, showHidden: true })).not.toContain(emu.keys.sandbox);
  });
});

describe('verifyKey', () => {
  it('accepts a sandbox key with a sandbox service and a live key with a live service', async () => {
    for (const mode of ['sandbox', 'live'] as const) {
      const emu = await emulator({ mode });
      const key = mode === 'live' ? emu.keys.live : emu.keys.sandbox;
      const { c } = client(emu, { apiKey: key });
      const r = await verifyKey(c, key);
      expect(r.environment).toBe(mode);
      expect(r.usage.livemode).toBe(mode === 'live');
      expect(r.limits.environment).toBe(mode);
      if (mode === 'live') expect(r.limits.quotaLimit).toBe(r.usage.monthly_quota);
    }
  });

  it('refuses a live key against a sandbox service, saying which environments disagree', async () => {
    const emu = await emulator({ mode: 'sandbox' });
    const { c } = client(emu, { apiKey: emu.keys.live });
    const e = await verifyKey(c, emu.keys.live).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KeyCheckError);
    expect((e as KeyCheckError).code).toBe('environment_mismatch');
    expect((e as KeyCheckError).message).toMatch(/\(sandbox\) refused a live key \(svc_live_…\)/);
    expectNoKey(e, emu.keys.live);
  });

  it('refuses a sandbox key against a live service', async () => {
    const emu = await emulator({ mode: 'live' });
    const { c } = client(emu, { apiKey: emu.keys.sandbox });
    const e = await verifyKey(c, emu.keys.sandbox).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KeyCheckError);
    expect((e as KeyCheckError).code).toBe('environment_mismatch');
    expectNoKey(e, emu.keys.sandbox);
  });

  it('a mistyped key is key_rejected; a key without a known prefix is key_prefix; no service is service_unreachable', async () => {
    const emu = await emulator();
    const typo = `${emu.keys.sandbox}0`;
    const { c } = client(emu, { apiKey: typo });
    const rejected = await verifyKey(c, typo).catch((x: unknown) => x);
    expect((rejected as KeyCheckError).code).toBe('key_rejected');
    expectNoKey(rejected, typo);

    const prefix = await verifyKey(c, 'sk_test_whatever').catch((x: unknown) => x);
    expect((prefix as KeyCheckError).code).toBe('key_prefix');
    expect((prefix as Error).message).not.toContain('whatever');

    const port = emu.port;
    await emu.close();
    const { c: gone } = client({ ...emu, baseUrl: `http://127.0.0.1:${port}` }, { maxAttempts: 1 });
    const unreachable = await verifyKey(gone, emu.keys.sandbox).catch((x: unknown) => x);
    expect((unreachable as KeyCheckError).code).toBe('service_unreachable');
  });
});
