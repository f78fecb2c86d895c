/**
 * Triage of the review desk (issue 30): the one-line why, the critical marker, loads (a re-check is
 * not one), the earliest pickup when a screening carries it, and the orders and filters.
 */
import { describe, expect, it } from 'vitest';
import { filterDesk, sortDesk, triageOf, waitingLoads } from '../../electron/renderer/triage.js';
import type { Review } from '../../shared/screening.js';
import type { SvcReason, SvcScore } from '../../shared/svc-contract.js';

const reason = (severity: string, detail: string): SvcReason =>
  ({ check: detail, area: 'Safety & Roadside', severity, detail, facts: [] }) as unknown as SvcReason;
const score = (o: Partial<SvcScore> = {}): SvcScore =>
  ({
    score: 66,
    grade: 'D',
    decision: 'review',
    needs_manual_review: true,
    verdict: null,
    knockout: { triggered: false, reasons: [] },
    reasons: [],
    ...o,
  }) as SvcScore;
const tender = (id: string | null, pickup?: string) => ({
  screening_id: `scr_${id}`,
  tender_id: id,
  load: pickup ? { pickup_at: pickup } : null,
  action: 'hold',
  created_at: '2026-11-26T10:00:00Z',
});
/** `pickup`: the first tender's load pickup, or one per tender (the review's tenders carry their loads). */
function review(
  id: string,
  created: string,
  s: SvcScore | null,
  tenders: Array<string | null>,
  o: { hold?: string; pickup?: string | Array<string | undefined> } = {},
): Review {
  const pickups = Array.isArray(o.pickup) ? o.pickup : [o.pickup];
  return {
    id,
    created_at: created,
    hold_reason: o.hold ?? 'manual_review',
    screening: { tender_id: tenders[0] ?? null, score: s, error: null, load: pickups[0] ? { pickup_at: pickups[0] } : null },
    latest: { score: s },
    tenders: tenders.map((t, i) => tender(t, pickups[i])),
  } as unknown as Review;
}

describe('triageOf', () => {
  it('says the worst finding in words, marks a knockout or a critical one, and counts loads without re-checks', () => {
    const ko = triageOf(
      review(
        'a',
        '1',
        score({ knockout: { triggered: true, reasons: [{ code: 'NO_BIPD', message: 'No liability insurance on file' }] } }),
        ['T1'],
      ),
    );
    expect(ko).toMatchObject({
      why: 'Knockout: No liability insurance on file',
      critical: true,
      worstLabel: 'Knockout',
      rank: 0,
      loads: 1,
    });
    const crit = triageOf(
      review('b', '1', score({ reasons: [reason('low', 'Old MCS-150'), reason('critical', 'Two fatal crashes in 12 months')] }), [
        'T1',
        null,
        'T2',
      ]),
    );
    expect(crit).toMatchObject({
      why: 'Two fatal crashes in 12 months (+1 more)',
      critical: true,
      worstLabel: 'Critical',
      rank: 1,
      loads: 2,
    });
    // A severity this app does not know ranks with critical (a person must see it) but is not called critical.
    expect(triageOf(review('c', '1', score({ reasons: [reason('advisory', 'Something new')] }), ['T1']))).toMatchObject({
      rank: 1,
      critical: false,
    });
    expect(triageOf(review('d', '1', null, ['T1'], { hold: 'scoring_unavailable' })).why).toMatch(/^No score: /);
  });

  it('reads a pickup time when the screening carries one, and none otherwise', () => {
    expect(triageOf(review('a', '1', score(), ['T1'], { pickup: '2026-11-27T08:00:00Z' })).pickup).toBe('2026-11-27T08:00:00Z');
    expect(triageOf(review('a', '1', score(), ['T1'])).pickup).toBeNull();
  });

  it('takes the earliest pickup of the waiting tenders by the instant, not the text (offsets differ)', () => {
    // 09:00+05:00 is 04:00 UTC: earlier than 06:00Z although its text sorts later.
    const r = review('a', '1', score(), ['T1', 'T2', 'T3'], { pickup: ['2026-11-28T06:00:00Z', undefined, '2026-11-28T09:00:00+05:00'] });
    expect(triageOf(r).pickup).toBe('2026-11-28T09:00:00+05:00');
    expect(waitingLoads(r).map((t) => t.tender_id)).toEqual(['T3', 'T1', 'T2']);
  });

  it('counts a tender with load details as a load even without a tender id; a re-check (neither) is not one', () => {
    const r = review('a', '1', score(), ['T1', null, null], { pickup: [undefined, '2026-11-28T06:00:00Z'] });
    expect(triageOf(r)).toMatchObject({ loads: 2, pickup: '2026-11-28T06:00:00Z' });
  });

  it('an older worker sends tenders without load: no pickup, nothing thrown', () => {
    const r = review('a', '1', score(), ['T1']);
    for (const t of r.tenders) delete (t as { load?: unknown }).load;
    expect(triageOf(r)).toMatchObject({ loads: 1, pickup: null });
  });
});

describe('sortDesk and filterDesk', () => {
  const oldOne = review('old', '2026-11-26T08:00:00Z', score({ reasons: [reason('medium', 'm')] }), ['T1'], {
    pickup: '2026-11-28T08:00:00Z',
  });
  const busy = review('busy', '2026-11-26T09:00:00Z', score({ reasons: [reason('low', 'l')] }), ['T2', 'T3', 'T4', null]);
  const bad = review('bad', '2026-11-26T10:00:00Z', score({ reasons: [reason('critical', 'c')] }), ['T5', 'T6'], {
    pickup: '2026-11-27T06:00:00Z',
  });
  const down = review('down', '2026-11-26T11:00:00Z', null, ['T7'], { hold: 'scoring_unavailable' });
  const all = [down, bad, busy, oldOne];
  const ids = (rs: Review[]) => rs.map((r) => r.id);

  it('orders by waiting longest, most loads, worst finding or earliest pickup (none last); ties wait longest first', () => {
    expect(ids(sortDesk(all, 'oldest'))).toEqual(['old', 'busy', 'bad', 'down']);
    expect(ids(sortDesk(all, 'loads'))).toEqual(['busy', 'bad', 'old', 'down']);
    expect(ids(sortDesk(all, 'worst'))).toEqual(['bad', 'old', 'busy', 'down']);
    expect(ids(sortDesk(all, 'pickup'))).toEqual(['bad', 'old', 'busy', 'down']);
  });

  it('earliest pickup compares instants across offsets: 2026-11-28T00:30-08:00 (08:30 UTC) comes after 2026-11-28T08:00Z', () => {
    const west = review('west', '2026-11-26T07:00:00Z', score(), ['W1'], { pickup: '2026-11-28T00:30:00-08:00' });
    const utc = review('utc', '2026-11-26T12:00:00Z', score(), ['U1'], { pickup: '2026-11-28T08:00:00Z' });
    expect(ids(sortDesk([west, utc], 'pickup'))).toEqual(['utc', 'west']);
  });

  it('filters by hold reason or critical findings only', () => {
    expect(ids(filterDesk(all, ''))).toEqual(ids(all));
    expect(ids(filterDesk(all, 'critical'))).toEqual(['bad']);
    expect(ids(filterDesk(all, 'scoring_unavailable'))).toEqual(['down']);
  });
});
