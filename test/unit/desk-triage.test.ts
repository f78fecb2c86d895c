/**
 * Triage of the review desk (issue 30): the one-line why, the critical marker, loads (a re-check is
 * not one), the earliest pickup when a screening carries it, and the orders and filters.
 */
import { describe, expect, it } from 'vitest';
import { filterDesk, sortDesk, triageOf } from '../../electron/renderer/triage.js';
import type { Review } from '../../shared/screening.js';
import type { SvcReason, SvcScore } from '../../shared/svc-contract.js';

const reason = (severity: string, detail: string): SvcReason => ({ check: detail, area: 'Safety & Roadside', severity, detail, facts: [] }) as unknown as SvcReason;
const score = (o: Partial<SvcScore> = {}): SvcScore =>
  ({ score: 66, grade: 'D', decision: 'review', needs_manual_review: true, verdict: null, knockout: { triggered: false, reasons: [] }, reasons: [], ...o }) as SvcScore;
const tender = (id: string | null) => ({ screening_id: `scr_${id}`, tender_id: id, action: 'hold', created_at: '2026-11-26T10:00:00Z' });
function review(id: string, created: string, s: SvcScore | null, tenders: Array<string | null>, o: { hold?: string; pickup?: string } = {}): Review {
  return {
    id,
    created_at: created,
    hold_reason: o.hold ?? 'manual_review',
    screening: { tender_id: tenders[0] ?? null, score: s, error: null, ...(o.pickup ? { load: { pickup_at: o.pickup } } : {}) },
    latest: { score: s },
    tenders: tenders.map(tender),
  } as unknown as Review;
}

describe('triageOf', () => {
  it('says the worst finding in words, marks a knockout or a critical one, and counts loads without re-checks', () => {
    const ko = triageOf(review('a', '1', score({ knockout: { triggered: true, reasons: [{ code: 'NO_BIPD', message: 'No liability insurance on file' }] } }), ['T1']));
    expect(ko).toMatchObject({ why: 'Knockout: No liability insurance on file', critical: true, worstLabel: 'Knockout', rank: 0, loads: 1 });
    const crit = triageOf(review('b', '1', score({ reasons: [reason('low', 'Old MCS-150'), reason('critical', 'Two fatal crashes in 12 months')] }), ['T1', null, 'T2']));
    expect(crit).toMatchObject({ why: 'Two fatal crashes in 12 months (+1 more)', critical: true, worstLabel: 'Critical', rank: 1, loads: 2 });
    // A severity this app does not know ranks with critical (a person must see it) but is not called critical.
    expect(triageOf(review('c', '1', score({ reasons: [reason('advisory', 'Something new')] }), ['T1']))).toMatchObject({ rank: 1, critical: false });
    expect(triageOf(review('d', '1', null, ['T1'], { hold: 'scoring_unavailable' })).why).toMatch(/^No score: /);
  });

  it('reads a pickup time when the screening carries one, and none otherwise', () => {
    expect(triageOf(review('a', '1', score(), ['T1'], { pickup: '2026-11-27T08:00:00Z' })).pickup).toBe('2026-11-27T08:00:00Z');
    expect(triageOf(review('a', '1', score(), ['T1'])).pickup).toBeNull();
  });
});

describe('sortDesk and filterDesk', () => {
  const oldOne = review('old', '2026-11-26T08:00:00Z', score({ reasons: [reason('medium', 'm')] }), ['T1'], { pickup: '2026-11-28T08:00:00Z' });
  const busy = review('busy', '2026-11-26T09:00:00Z', score({ reasons: [reason('low', 'l')] }), ['T2', 'T3', 'T4', null]);
  const bad = review('bad', '2026-11-26T10:00:00Z', score({ reasons: [reason('critical', 'c')] }), ['T5', 'T6'], { pickup: '2026-11-27T06:00:00Z' });
  const down = review('down', '2026-11-26T11:00:00Z', null, ['T7'], { hold: 'scoring_unavailable' });
  const all = [down, bad, busy, oldOne];
  const ids = (rs: Review[]) => rs.map((r) => r.id);

  it('orders by waiting longest, most loads, worst finding or earliest pickup (none last); ties wait longest first', () => {
    expect(ids(sortDesk(all, 'oldest'))).toEqual(['old', 'busy', 'bad', 'down']);
    expect(ids(sortDesk(all, 'loads'))).toEqual(['busy', 'bad', 'old', 'down']);
    expect(ids(sortDesk(all, 'worst'))).toEqual(['bad', 'old', 'busy', 'down']);
    expect(ids(sortDesk(all, 'pickup'))).toEqual(['bad', 'old', 'busy', 'down']);
  });

  it('filters by hold reason or critical findings only', () => {
    expect(ids(filterDesk(all, ''))).toEqual(ids(all));
    expect(ids(filterDesk(all, 'critical'))).toEqual(['bad']);
    expect(ids(filterDesk(all, 'scoring_unavailable'))).toEqual(['down']);
  });
});
