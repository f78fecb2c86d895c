/**
 * The spec's Limits rules: per-account rate limit (shared by the account's keys, every request
 * counts) and the live monthly quota (only 200 score lookups count; resets on the 1st, 00:00 UTC).
 * Windows and months move with an injected clock, so nothing waits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseUsage } from '../../shared/svc-contract.js';
import { DEMO_KEYS, liveCarrier, type EmulatorAccount, type RunningEmulator } from '../../emulator/index.js';
import { manualClock, svcGet, withEmulator } from '../helpers/emulator.js';

const TEAM: EmulatorAccount = {
  id: 'acct_team',
  name: 'Team Logistics',
  keys: ['svc_test_team_one', 'svc_test_team_two', 'svc_live_team_one', 'svc_live_team_two'],
};
const OTHER: EmulatorAccount = { id: 'acct_other', name: 'Other Brokerage', keys: ['svc_test_other_1', 'svc_live_other_1'] };

/** The first live DOT numbers (from 1 up) that have a carrier, and one that has none. */
function liveDots(): { found: string[]; missing: string } {
  const found: string[] = [];
  let missing: string | undefined;
  for (let n = 1; found.length < 10 || missing === undefined; n++) {
    if (liveCarrier(String(n))) found.push(String(n));
    else missing ??= String(n);
  }
  return { found: found, missing: missing! };
}
const { found: FOUND, missing: MISSING } = liveDots();

let running: RunningEmulator[] = [];
async function start(opts: Parameters<typeof withEmulator>[0]): Promise<RunningEmulator> {
  const emu = await withEmulator(opts);
  running.push(emu);
  return emu;
}
afterEach(async () => {
  await Promise.all(running.map((e) => e.close()));
  running = [];
});

describe('rate limit (5 per 1 s window, injected clock)', () => {
  it('the sixth request in a window is 429 rate_limit_exceeded with Retry-After; the next window is open', async () => {
    const clock = manualClock('2026-04-01T09:00:00.250Z');
    const emu = await start({ mode: 'sandbox', ratePerMinute: 5, rateWindowMs: 1000, now: clock.now });
    for (let i = 0; i < 5; i++) expect((await svcGet(emu, '/v1/svc-score?dot_number=1000003')).status).toBe(200);
    const res = await svcGet(emu, '/v1/svc-score?dot_number=1000003');
    expect(res.status).toBe(429);
    expect(res.json.error).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error' });
    expect(res.headers.get('retry-after')).toBe('1'); // 750 ms left, rounded up to whole seconds
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(emu.stats().rateLimited).toBe(1);
    expect(emu.stats().scoreLookups).toBe(5);

    clock.advance(750);
    const next = await svcGet(emu, '/v1/svc-score?dot_number=1000003');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('Retry-After counts whole seconds to the end of a longer window', async () => {
    const clock = manualClock('2026-04-01T09:00:15.500Z');
    const emu = await start({ mode: 'sandbox', ratePerMinute: 2, now: clock.now });
    await svcGet(emu, '/v1/health');
    await svcGet(emu, '/v1/health');
    const res = await svcGet(emu, '/v1/health');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('45');
    expect(res.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-04-01T09:01:00Z') / 1000));
  });

  it('is shared by all keys of one account and separate between accounts', async () => {
    const clock = manualClock('2026-04-01T09:00:00Z');
    const emu = await start({ mode: 'sandbox', ratePerMinute: 5, rateWindowMs: 1000, now: clock.now, accounts: [TEAM, OTHER] });
    for (const key of ['svc_test_team_one', 'svc_test_team_two', 'svc_test_team_one', 'svc_test_team_two', 'svc_test_team_one'])
      expect((await svcGet(emu, '/v1/svc-score?dot_number=1000001', key)).status).toBe(200);
    expect((await svcGet(emu, '/v1/svc-score?dot_number=1000001', 'svc_test_team_two')).status).toBe(429);
    expect((await svcGet(emu, '/v1/svc-score?dot_number=1000001', 'svc_test_other_1')).status).toBe(200);
    expect((await svcGet(emu, '/v1/svc-score?dot_number=1000001')).status).toBe(200); // demo account
  });

  it('counts every authenticated request: usage, health, errors and unknown routes too', async () => {
    const clock = manualClock('2026-04-01T09:00:00Z');
    const emu = await start({ mode: 'sandbox', ratePerMinute: 5, rateWindowMs: 1000, now: clock.now });
    expect((await svcGet(emu, '/v1/usage')).status).toBe(200);
    expect((await svcGet(emu, '/v1/health')).status).toBe(200);
    expect((await svcGet(emu, '/v1/svc-score?dot_number=4242')).status).toBe(404);
    expect((await svcGet(emu, '/v1/svc-score?dot_number=bad')).status).toBe(400);
    expect((await svcGet(emu, '/v1/unknown')).status).toBe(404);
    const res = await svcGet(emu, '/v1/usage');
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe('rate_limit_exceeded');
  });

  it('does not count unauthenticated requests', async () => {
    const clock = manualClock('2026-04-01T09:00:00Z');
    const emu = await start({ mode: 'sandbox', ratePerMinute: 2, rateWindowMs: 1000, now: clock.now });
    for (let i = 0; i < 5; i++) expect((await svcGet(emu, '/v1/usage', null)).status).toBe(401);
    expect((await svcGet(emu, '/v1/usage')).status).toBe(200);
  });

  it("uses an account's own ratePerMinute over the instance default, and shows it in usage", async () => {
    const clock = manualClock('2026-04-01T09:00:00Z');
    const emu = await start({ mode: 'sandbox', ratePerMinute: 5, now: clock.now, accounts: [{ ...OTHER, ratePerMinute: 1 }] });
    const usage = await svcGet(emu, '/v1/usage', 'svc_test_other_1');
    expect(parseUsage(usage.json).rate_limit_per_minute).toBe(1);
    expect(usage.headers.get('x-ratelimit-limit')).toBe('1');
    expect((await svcGet(emu, '/v1/usage', 'svc_test_other_1')).status).toBe(429);
  });

  it('defaults: sandbox 120, live 60 per minute', async () => {
    const sandbox = await start({ mode: 'sandbox' });
    const live = await start({ mode: 'live' });
    expect((await svcGet(sandbox, '/v1/usage')).json.rate_limit_per_minute).toBe(120);
    expect((await svcGet(live, '/v1/usage')).json.rate_limit_per_minute).toBe(60);
    expect((await svcGet(live, '/v1/health')).headers.get('x-ratelimit-limit')).toBe('60');
  });
});

describe('monthly quota (live)', () => {
  it('only 200 score lookups count; errors, usage and health are free', async () => {
    const clock = manualClock('2026-04-10T12:00:00Z');
    const emu = await start({ mode: 'live', monthlyQuota: 3, now: clock.now });
    const first = await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-quota-limit')).toBe('3');
    expect(first.headers.get('x-quota-remaining')).toBe('2');

    for (const path of [`/v1/svc-score?dot_number=${MISSING}`, '/v1/svc-score?dot_number=bad', '/v1/usage', '/v1/health', '/v1/nope']) {
      const res = await svcGet(emu, path);
      expect(res.headers.get('x-quota-remaining'), path).toBe('2');
    }
    const usage = parseUsage((await svcGet(emu, '/v1/usage')).json);
    expect(usage).toMatchObject({ livemode: true, live_requests_used: 1, monthly_quota: 3, remaining: 2 });
  });

  it('when used up: 429 monthly_quota_exceeded (rate_limit_error, no Retry-After); usage still answers', async () => {
    const clock = manualClock('2026-04-10T12:00:00Z');
    const emu = await start({ mode: 'live', monthlyQuota: 2, now: clock.now });
    expect((await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`)).status).toBe(200);
    expect((await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[1]}`)).status).toBe(200);
    const res = await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[2]}`);
    expect(res.status).toBe(429);
    expect(res.json.error).toMatchObject({ code: 'monthly_quota_exceeded', type: 'rate_limit_error' });
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.headers.get('x-quota-remaining')).toBe('0');
    const usage = parseUsage((await svcGet(emu, '/v1/usage')).json);
    expect(usage).toMatchObject({ live_requests_used: 2, remaining: 0 });
    expect(emu.stats()).toMatchObject({ scoreLookups: 2, quotaRejected: 1, byDot: { [FOUND[0]!]: 1, [FOUND[1]!]: 1 } });
  });

  it('is shared by all live keys of one account, not by other accounts', async () => {
    const clock = manualClock('2026-04-10T12:00:00Z');
    const emu = await start({ mode: 'live', now: clock.now, accounts: [{ ...TEAM, monthlyQuota: 2 }, OTHER], monthlyQuota: 10 });
    expect((await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`, 'svc_live_team_one')).status).toBe(200);
    expect((await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`, 'svc_live_team_two')).status).toBe(200);
    expect((await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`, 'svc_live_team_one')).status).toBe(429);
    const other = await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`, 'svc_live_other_1');
    expect(other.status).toBe(200);
    expect(other.headers.get('x-quota-limit')).toBe('10');
    expect(other.headers.get('x-quota-remaining')).toBe('9');
  });

  it('resets on the 1st at 00:00 UTC, not before', async () => {
    const clock = manualClock('2026-04-30T23:59:58Z');
    const emu = await start({ mode: 'live', monthlyQuota: 1, now: clock.now });
    expect((await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`)).status).toBe(200);
    clock.set('2026-04-30T23:59:59.999Z');
    expect((await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`)).status).toBe(429);
    clock.set('2026-05-01T00:00:00.000Z');
    const usage = parseUsage((await svcGet(emu, '/v1/usage')).json);
    expect(usage).toMatchObject({ live_requests_used: 0, remaining: 1 });
    const res = await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-quota-remaining')).toBe('0');
  });

  it('monthlyQuota 0 refuses every lookup', async () => {
    const emu = await start({ mode: 'live', monthlyQuota: 0 });
    expect((await svcGet(emu, `/v1/svc-score?dot_number=${FOUND[0]}`)).json.error.code).toBe('monthly_quota_exceeded');
  });

  it('never applies in the sandbox', async () => {
    const emu = await start({ mode: 'sandbox', monthlyQuota: 1 });
    for (let i = 0; i < 3; i++) expect((await svcGet(emu, '/v1/svc-score?dot_number=1000003')).status).toBe(200);
    expect(parseUsage((await svcGet(emu, '/v1/usage')).json)).toMatchObject({ live_requests_used: 0, remaining: 1 });
  });
});

describe('instance options are checked', () => {
  it('rejects bad limits and keys with a message naming the option', async () => {
    await expect(withEmulator({ ratePerMinute: 0 })).rejects.toThrow(/ratePerMinute/);
    await expect(withEmulator({ rateWindowMs: -1 })).rejects.toThrow(/rateWindowMs/);
    await expect(withEmulator({ monthlyQuota: 1.5 })).rejects.toThrow(/monthlyQuota/);
    await expect(withEmulator({ accounts: [{ id: 'x', name: 'X', keys: ['sk_bad'] }] })).rejects.toThrow(/svc_test_/);
    await expect(withEmulator({ accounts: [{ id: 'x', name: 'X', keys: [DEMO_KEYS.sandbox] }] })).rejects.toThrow(/two accounts/);
  });
});
