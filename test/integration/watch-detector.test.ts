import { describe, expect, it } from 'vitest';
import type { CarrierSnapshot } from '../../shared/screening.js';
import { detectChanges } from '../../worker/watch/index.js';

/** What counts as a change of a watched carrier (docs/watchlist.md, "What counts as a change"). */

const base: CarrierSnapshot = {
  action: 'tender',
  hold_reason: null,
  decision: 'approved',
  score: 94,
  grade: 'A',
  knockout_codes: [],
  model_version: 'crs-3.5',
  screening_id: 'scr_a',
  fetched_at: '2026-01-01T00:00:00.000Z',
};
const next = (o: Partial<CarrierSnapshot>): CarrierSnapshot => ({
  ...base,
  screening_id: 'scr_b',
  fetched_at: '2026-01-02T00:00:00.000Z',
  ...o,
});

describe('change detection', () => {
  it('a score moving within the good grades is no change', () => {
    expect(detectChanges(base, next({ score: 81, grade: 'B' }))).toEqual([]);
    expect(detectChanges(base, next({}))).toEqual([]);
  });

  it('falling from A/B/C to D/F (or an unknown grade) is a grade drop', () => {
    expect(
      detectChanges(
        next({ grade: 'C', score: 70, decision: 'review', action: 'hold' }),
        next({ grade: 'D', score: 69, decision: 'review', action: 'hold' }),
      ),
    ).toEqual(['grade_drop']);
    expect(
      detectChanges(next({ grade: 'C', decision: 'review', action: 'hold' }), next({ grade: 'E+', decision: 'review', action: 'hold' })),
    ).toEqual(['grade_drop']);
    // Climbing back is no drop (and the action did not change).
    expect(
      detectChanges(next({ grade: 'D', decision: 'review', action: 'hold' }), next({ grade: 'C', decision: 'review', action: 'hold' })),
    ).toEqual([]);
  });

  it('a new knockout code is a change even when the decision already was rejected', () => {
    const rejected = next({ decision: 'rejected', action: 'block', grade: 'F', knockout_codes: ['NO_BIPD'] });
    expect(detectChanges(rejected, { ...rejected, knockout_codes: ['AUTHORITY_INACTIVE', 'NO_BIPD'] })).toEqual(['new_knockout']);
    expect(detectChanges(rejected, { ...rejected, knockout_codes: [] })).toEqual([]);
  });

  it('a new model version alone is no change; with a different decision it is, and says so', () => {
    expect(detectChanges(base, next({ model_version: 'crs-3.6', score: 90 }))).toEqual([]);
    expect(detectChanges(base, next({ model_version: 'crs-3.6', decision: 'review', action: 'hold', score: 75, grade: 'C' }))).toEqual([
      'action_changed',
      'decision_changed',
      'model_version_changed',
    ]);
  });

  it('an action change by the rules (needs_manual_review) is a change with the same decision', () => {
    expect(detectChanges(base, next({ action: 'hold', hold_reason: 'manual_review' }))).toEqual(['action_changed']);
  });
});
