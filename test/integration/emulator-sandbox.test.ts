/** The spec's sandbox table and our four extra sandbox carriers, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScore, type SvcScore } from '../../shared/svc-contract.js';
import type { RunningEmulator } from '../../emulator/index.js';
import { manualClock, svcGet, withEmulator } from '../helpers/emulator.js';

const SCORE_FIELDS = [
  'object',
  'livemode',
  'carrier',
  'score',
  'grade',
  'decision',
  'verdict',
  'needs_manual_review',
  'knockout',
  'reasons',
  'checks',
  'flags',
  'data_confidence',
  'model_version',
  'calculated_at',
];
const CARRIER_FIELDS = ['dot_number', 'mc_number', 'legal_name', 'dba_name'];
const SIX = ['1000001', '1000002', '1000003', '1000004', '1000005', '1000006'];
const SEVERITY_ORDER = ['critical', 'review', 'medium', 'low'];

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await withEmulator({ mode: 'sandbox' });
});
afterAll(() => emu.close());

async function score(query: string): Promise<SvcScore> {
  const res = await svcGet(emu, `/v1/svc-score?${query}`);
  expect(res.status, res.text).toBe(200);
  return parseScore(res.json);
}

describe('sandbox table', () => {
  it('DOT 1000003: review, 66, D, manual review, no knockout, one medium Safety & Roadside reason', async () => {
    const s = await score('dot_number=1000003');
    expect(s).toMatchObject({
      object: 'svc_score',
      livemode: false,
      carrier: { dot_number: '1000003', mc_number: 'MC1000003' },
      score: 66,
      grade: 'D',
      decision: 'review',
      needs_manual_review: true,
      knockout: { triggered: false, reasons: [] },
      model_version: 'crs-3.5-sandbox',
    });
    expect(s.reasons).toHaveLength(1);
    expect(s.reasons[0]).toMatchObject({ severity: 'medium', area: 'Safety & Roadside' });
    expect(s.reasons[0]!.facts.length).toBeGreaterThan(0);
  });

  it('DOT 1000005: rejected, 18, F, knockouts AUTHORITY_INACTIVE and NO_BIPD, checks 53/2/45/6', async () => {
    const s = await score('dot_number=1000005');
    expect(s).toMatchObject({
      livemode: false,
      carrier: { dot_number: '1000005', mc_number: 'MC1000005' },
      score: 18,
      grade: 'F',
      decision: 'rejected',
      needs_manual_review: false,
      knockout: { triggered: true },
      checks: { total: 53, triggered: 2, passed: 45, not_checked: 6 },
    });
    expect(s.knockout.reasons.map((r) => r.code)).toEqual(['AUTHORITY_INACTIVE', 'NO_BIPD']);
    expect(s.reasons).toHaveLength(2);
    expect(s.reasons.every((r) => r.severity === 'critical')).toBe(true);
  });

  it('every field of the score object is present on 1000003 and 1000005', async () => {
    for (const dot of ['1000003', '1000005']) {
      const s = await score(`dot_number=${dot}`);
      expect(Object.keys(s).sort()).toEqual([...SCORE_FIELDS].sort());
      expect(Object.keys(s.carrier).sort()).toEqual([...CARRIER_FIELDS].sort());
      expect(Object.keys(s.checks!).sort()).toEqual(['not_checked', 'passed', 'total', 'triggered']);
      expect(Date.parse(s.calculated_at)).not.toBeNaN();
      expect(s.calculated_at.endsWith('Z')).toBe(true);
    }
  });

  it('MC numbers resolve to the same carrier as the DOT number', async () => {
    for (const n of ['1000003', '1000005']) {
      expect(await score(`mc_number=MC${n}`)).toEqual(await score(`dot_number=${n}`));
    }
  });

  it('dot_number=4242 is 404 carrier_not_found; so is any other unknown number', async () => {
    for (const q of ['dot_number=4242', 'dot_number=1000007', 'mc_number=MC4242', 'mc_number=MC1000004']) {
      const res = await svcGet(emu, `/v1/svc-score?${q}`);
      expect(res.status, q).toBe(404);
      expect(res.json.error.code).toBe('carrier_not_found');
    }
  });

  it('dot_number=1000503 is 503 scoring_unavailable', async () => {
    const res = await svcGet(emu, '/v1/svc-score?dot_number=1000503');
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe('scoring_unavailable');
    expect(typeof res.json.error.message).toBe('string');
  });
});

describe('the six sandbox carriers', () => {
  let all: SvcScore[];
  beforeAll(async () => {
    all = [];
    for (const dot of SIX) all.push(await score(`dot_number=${dot}`));
  });

  it('show every decision, including approved without manual review, and high_risk', () => {
    expect(new Set(all.map((s) => s.decision))).toEqual(new Set(['approved', 'review', 'high_risk', 'rejected']));
    expect(all.some((s) => s.decision === 'approved' && !s.needs_manual_review)).toBe(true);
  });

  it('include dual/new authority flags, a carrier without MC, one with a DBA name, one with thin data', () => {
    expect(all.some((s) => s.flags!.includes('dual_authority') && s.flags!.includes('new_authority'))).toBe(true);
    expect(all.some((s) => s.carrier.mc_number === null)).toBe(true);
    expect(all.some((s) => typeof s.carrier.dba_name === 'string' && s.carrier.dba_name.length > 0)).toBe(true);
    expect(all.some((s) => s.data_confidence !== null && s.data_confidence < 1)).toBe(true);
  });

  it('are internally consistent: checks add up to 53, one reason per triggered check, most serious first', () => {
    for (const s of all) {
      const c = s.checks!;
      expect(c.total, s.carrier.dot_number).toBe(53);
      expect(c.triggered + c.passed + c.not_checked).toBe(53);
      expect(s.reasons).toHaveLength(c.triggered);
      const ranks = s.reasons.map((r) => SEVERITY_ORDER.indexOf(r.severity));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      expect(s.knockout.triggered).toBe(s.knockout.reasons.length > 0);
      if (s.knockout.triggered) expect(s.decision).toBe('rejected');
      expect(s.model_version).toBe('crs-3.5-sandbox');
      if (s.carrier.mc_number !== null) expect(s.carrier.mc_number).toMatch(/^MC\d+$/);
    }
  });

  it('never change: instances a year apart give the same scores', async () => {
    const clock = manualClock('2027-02-01T08:00:00Z');
    const later = await withEmulator({ mode: 'sandbox', now: clock.now });
    try {
      for (const s of all) {
        const res = await svcGet(later, `/v1/svc-score?dot_number=${s.carrier.dot_number}`);
        const { calculated_at: a, ...rest } = parseScore(res.json);
        const { calculated_at: b, ...expected } = s;
        expect(rest).toEqual(expected);
        expect(a.startsWith('2027-01-31')).toBe(true); // "scored" the previous UTC day
        expect(b).not.toBe(a);
      }
    } finally {
      await later.close();
    }
  });
});

describe('sandbox usage and quota', () => {
  it('score lookups never count: live_requests_used 0, no quota headers', async () => {
    await svcGet(emu, '/v1/svc-score?dot_number=1000001');
    const res = await svcGet(emu, '/v1/usage');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ object: 'usage', livemode: false, live_requests_used: 0, account: { id: 'acct_demo' } });
    expect(res.json.remaining).toBe(res.json.monthly_quota);
    expect(res.json.rate_limit_per_minute).toBe(120);
    expect(res.headers.get('x-quota-limit')).toBeNull();
    expect(res.headers.get('x-quota-remaining')).toBeNull();
  });
});
