import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { actionForScore, actionForStaleScore, actionWithoutScore } from '../../shared/tender-rules.js';

const knockout = (triggered: boolean) => ({ triggered, reasons: [] });

describe('tender-action rules', () => {
  it.each([
    ['approved', false, 'tender', null],
    ['approved', true, 'hold', 'manual_review'],
    ['review', false, 'hold', 'manual_review'],
    ['review', true, 'hold', 'manual_review'],
    ['high_risk', false, 'block', null],
    ['high_risk', true, 'block', null],
    ['rejected', false, 'block', null],
    ['probation', false, 'hold', 'unknown_decision'],
  ] as const)('%s (manual review %s) → %s', (decision, manual, action, reason) => {
    const v = actionForScore({ decision, needs_manual_review: manual, knockout: knockout(false) });
    expect(v.action).toBe(action);
    expect(v.hold_reason).toBe(reason);
    expect(v.needs_review).toBe(action === 'hold');
  });

  it('knockout reasons with triggered: false still block (the score contradicts itself: read it the safe way)', () => {
    const v = actionForScore({
      decision: 'approved',
      needs_manual_review: false,
      knockout: { triggered: false, reasons: [{ code: 'AUTHORITY_INACTIVE', message: 'inactive' }] },
    });
    expect([v.action, v.hold_reason]).toEqual(['block', null]);
  });

  it('a stale score never tenders by itself: approved is held for the outage; blocks and holds stay as they are', () => {
    const k = knockout(false);
    for (const cause of ['scoring_unavailable', 'quota_exhausted', 'quota_reserved'] as const) {
      expect(actionForStaleScore({ decision: 'approved', needs_manual_review: false, knockout: k }, cause)).toEqual({
        action: 'hold',
        hold_reason: cause,
        needs_review: true,
      });
    }
    expect(actionForStaleScore({ decision: 'rejected', needs_manual_review: false, knockout: k }, 'scoring_unavailable').action).toBe(
      'block',
    );
    expect(actionForStaleScore({ decision: 'review', needs_manual_review: true, knockout: k }, 'scoring_unavailable').hold_reason).toBe(
      'manual_review',
    );
  });

  it('a knockout blocks whatever the decision says', () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), (decision, manual) => {
        expect(actionForScore({ decision, needs_manual_review: manual, knockout: knockout(true) }).action).toBe('block');
      }),
    );
  });

  it('an unknown decision is never tendered', () => {
    fc.assert(
      fc.property(
        fc.string().filter((d) => !['approved', 'review', 'high_risk', 'rejected'].includes(d)),
        fc.boolean(),
        (decision, manual) => {
          const v = actionForScore({ decision, needs_manual_review: manual, knockout: knockout(false) });
          expect(v).toEqual({ action: 'hold', hold_reason: 'unknown_decision', needs_review: true });
        },
      ),
    );
  });

  it('without a score: not found blocks, the rest hold saying why', () => {
    expect(actionWithoutScore('carrier_not_found')).toEqual({ action: 'block', hold_reason: null, needs_review: false });
    for (const cause of ['scoring_unavailable', 'quota_exhausted', 'service_error'] as const)
      expect(actionWithoutScore(cause)).toEqual({ action: 'hold', hold_reason: cause, needs_review: true });
  });
});
