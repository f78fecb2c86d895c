/**
 * What ended a decision, in words (issue 25): the direction must read right. A reason is a check
 * that found a problem, named for what it looks at, so losing BIPD insurance makes the reason
 * "BIPD insurance on file" appear: that is the check failing, never "BIPD insurance added".
 */
import { describe, expect, it } from 'vitest';
import { basisChanges, type Basis } from '../../shared/basis.js';

const base: Basis = {
  decision: 'approved',
  grade: 'B',
  needs_manual_review: false,
  knockout_codes: [],
  reason_checks: ['Single power unit'],
};

describe('basisChanges', () => {
  it('an insurance loss reads as a check now failing and a new knockout', () => {
    const after: Basis = {
      ...base,
      decision: 'rejected',
      grade: 'F',
      knockout_codes: ['NO_BIPD'],
      reason_checks: ['BIPD insurance on file', 'Single power unit'],
    };
    const text = basisChanges(base, after);
    expect(text).toEqual([
      'decision approved → rejected',
      'grade B → F',
      'new knockout: NO_BIPD',
      'check now failing: BIPD insurance on file',
    ]);
    expect(text.join('; ')).not.toMatch(/added/);
  });

  it('a problem that went away reads as passing again, and a knockout as cleared', () => {
    const before: Basis = { ...base, knockout_codes: ['NO_BIPD'], reason_checks: ['BIPD insurance on file', 'Single power unit'] };
    expect(basisChanges(before, base)).toEqual(['knockout cleared: NO_BIPD', 'check passing again: BIPD insurance on file']);
  });

  it('the same basis: nothing', () => {
    expect(basisChanges(base, { ...base })).toEqual([]);
  });
});
