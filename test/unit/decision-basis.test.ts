import { describe, expect, it } from 'vitest';
import { SANDBOX_CARRIERS, scoreBody } from '../../emulator/index.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { basisChanges, basisOf, uncheckableApproval, type Basis } from '../../shared/basis.js';

/** A score with one reason of the given severity, flags and data_confidence. */
function score(over: { severity?: string; flags?: string[]; confidence?: number | null; knockout?: string[] } = {}): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: '1000003', mc_number: 'MC1000003', legal_name: 'X', dba_name: null },
    score: 66,
    grade: 'D',
    decision: 'review',
    verdict: null,
    needs_manual_review: true,
    knockout: { triggered: false, reasons: (over.knockout ?? []).map((code) => ({ code, message: code })) },
    reasons: [{ check: 'vehicle_oos_rate', area: 'Safety & Roadside', severity: over.severity ?? 'medium', detail: 'd', facts: [] }],
    flags: over.flags ?? [],
    data_confidence: over.confidence === undefined ? 0.9 : over.confidence,
    model_version: 'm-3.5',
    calculated_at: '2026-11-26T00:00:00Z',
  } as unknown as SvcScore;
}

describe('what ends a decision (basis)', () => {
  it('the same check escalating medium → critical is a change', () => {
    expect(basisChanges(basisOf(score()), basisOf(score({ severity: 'critical' })))).toEqual([
      'severity of vehicle_oos_rate: medium → critical',
    ]);
  });

  it('a new flag, a knockout reason, a fall of data_confidence are changes; the same facts are not', () => {
    expect(basisChanges(basisOf(score()), basisOf(score()))).toEqual([]);
    expect(basisChanges(basisOf(score()), basisOf(score({ flags: ['new_authority'] })))).toEqual(['flag added: new_authority']);
    expect(basisChanges(basisOf(score()), basisOf(score({ knockout: ['NO_BIPD'] })))).toEqual(['new knockout: NO_BIPD']);
    // A drop of 0.1 or more, or crossing below the floor (0.75), or becoming unknown.
    expect(basisChanges(basisOf(score({ confidence: 0.95 })), basisOf(score({ confidence: 0.85 })))).toEqual([
      'data_confidence 0.95 → 0.85',
    ]);
    expect(basisChanges(basisOf(score({ confidence: 0.78 })), basisOf(score({ confidence: 0.74 })))).toEqual([
      'data_confidence 0.78 → 0.74',
    ]);
    expect(basisChanges(basisOf(score({ confidence: 0.9 })), basisOf(score({ confidence: null })))).toEqual([
      'data_confidence 0.9 → unknown',
    ]);
    // Small moves above the floor, and rises, are not.
    expect(basisChanges(basisOf(score({ confidence: 0.95 })), basisOf(score({ confidence: 0.9 })))).toEqual([]);
    expect(basisChanges(basisOf(score({ confidence: 0.6 })), basisOf(score({ confidence: 0.9 })))).toEqual([]);
  });

  it('a basis stored before version 2: an approval on it cannot be checked against severity and ends; a rejection stands on the old fields', () => {
    const old: Basis = {
      decision: 'review',
      grade: 'D',
      needs_manual_review: true,
      knockout_codes: [],
      reason_checks: ['vehicle_oos_rate'],
    };
    expect(basisChanges(old, basisOf(score({ severity: 'critical' })))).toEqual([]);
    expect(uncheckableApproval('approved', old)).toMatch(/decide again/);
    expect(uncheckableApproval('rejected', old)).toBeUndefined();
    expect(uncheckableApproval('approved', basisOf(score()))).toBeUndefined();
  });

  it("the emulator's sandbox score yields a version-2 basis with its severities", () => {
    const b = basisOf(
      scoreBody(
        SANDBOX_CARRIERS.find((c) => c.carrier.dot_number === '1000003')!,
        'sandbox',
        new Date(),
      ),
    );
    expect(b.version).toBe(2);
    expect(Object.values(b.reason_severities!)).toEqual(['medium']);
  });
});
