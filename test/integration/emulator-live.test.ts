/** Live mode: the synthetic dataset over real HTTP (DOT and MC lookups, determinism, spread). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScore, type SvcScore } from '../../shared/svc-contract.js';
import { dotToMcDigits, liveCarrier, type RunningEmulator } from '../../emulator/index.js';
import { svcGet, withEmulator } from '../helpers/emulator.js';

let live: RunningEmulator;
beforeAll(async () => {
  live = await withEmulator({ mode: 'live', monthlyQuota: 100_000, ratePerMinute: 100_000 });
});
afterAll(() => live.close());

async function lookup(query: string): Promise<{ status: number; body: any }> {
  const res = await svcGet(live, `/v1/svc-score?${query}`);
  return { status: res.status, body: res.json };
}

describe('live dataset over HTTP', () => {
  it('DOT numbers of 1 to 8 digits resolve to a carrier or to 404, the same way every time', async () => {
    for (const dot of ['7', '42', '123456', '1000003', '99999999', '31415926']) {
      const a = await lookup(`dot_number=${dot}`);
      const b = await lookup(`dot_number=${dot}`);
      expect([200, 404]).toContain(a.status);
      expect(b).toEqual(a);
      if (a.status === 200) {
        const s = parseScore(a.body);
        expect(s).toMatchObject({ livemode: true, model_version: 'crs-3.5', carrier: { dot_number: dot } });
      } else {
        expect(a.body.error.code).toBe('carrier_not_found');
      }
    }
  });

  it('sandbox triggers are ordinary numbers in live: 1000503 is not an outage', async () => {
    const res = await lookup('dot_number=1000503');
    expect([200, 404]).toContain(res.status);
  });

  it('across the first 300 DOT numbers: all four decisions, some not found, some knocked out', async () => {
    const decisions = new Set<string>();
    let notFound = 0;
    let knockouts = 0;
    for (let n = 1; n <= 300; n++) {
      const res = await lookup(`dot_number=${n}`);
      if (res.status === 404) {
        notFound++;
        continue;
      }
      expect(res.status).toBe(200);
      const s: SvcScore = parseScore(res.body);
      decisions.add(s.decision);
      if (s.knockout.triggered) knockouts++;
      expect(s.checks!.triggered + s.checks!.passed + s.checks!.not_checked).toBe(53);
    }
    expect(decisions).toEqual(new Set(['approved', 'review', 'high_risk', 'rejected']));
    expect(notFound).toBeGreaterThan(0);
    expect(notFound).toBeLessThan(30);
    expect(knockouts).toBeGreaterThan(0);
  });

  it('an MC number resolves to the carrier that carries it', async () => {
    let checked = 0;
    for (let n = 1; checked < 5; n++) {
      const c = liveCarrier(String(n));
      if (!c?.carrier.mc_number) continue;
      const byMc = await lookup(`mc_number=${c.carrier.mc_number}`);
      const byDot = await lookup(`dot_number=${n}`);
      expect(byMc.status).toBe(200);
      expect(byMc.body).toEqual(byDot.body);
      checked++;
    }
  });

  it('an MC number whose DOT carrier has no MC number is 404', async () => {
    let n = 1;
    while (liveCarrier(String(n)) === undefined || liveCarrier(String(n))!.carrier.mc_number !== null) n++;
    const res = await lookup(`mc_number=MC${dotToMcDigits(String(n))}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('carrier_not_found');
  });

  it('live usage shows the account and the lookups used', async () => {
    const res = await svcGet(live, '/v1/usage');
    expect(res.json).toMatchObject({
      object: 'usage',
      livemode: true,
      account: { id: 'acct_demo', name: 'Demo Freight Brokerage' },
      monthly_quota: 100_000,
    });
    expect(res.json.live_requests_used).toBe(live.stats().scoreLookups);
    expect(res.json.remaining).toBe(100_000 - res.json.live_requests_used);
  });

  it('health answers { status: "ok" }', async () => {
    const res = await svcGet(live, '/v1/health');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'ok', livemode: true });
  });
});
