import { describe, expect, it } from 'vitest';
import type { SvcScore } from '../../shared/svc-contract.js';
import type { CarrierChange, ChangeTender } from '../../shared/screening.js';
import { beforeInWords, loadStatusText } from '../../electron/shared/change-text.js';
import { diffFindings, findingsOf } from '../../worker/watch/change-detector.js';

/** Findings compared by identity (a reason's check, a knockout's code), and a change's loads in words. */

const reason = (check: string, detail = `${check} detail`, severity = 'medium') => ({ check, area: 'safety', severity, detail, facts: [] });
function score(reasons: ReturnType<typeof reason>[], knockouts: string[] = []): SvcScore {
  return {
    reasons,
    knockout: { triggered: knockouts.length > 0, reasons: knockouts.map((code) => ({ code, message: `${code} message` })) },
  } as unknown as SvcScore;
}

describe('findings added and removed', () => {
  it('compares by check and knockout code, not by words', () => {
    const before = score([reason('mcs150_outdated'), reason('address_change', 'moved 12 days ago')]);
    const after = score(
      [reason('address_change', 'moved 13 days ago'), reason('oos_rate', 'out of service rate high', 'critical')],
      ['AUTHORITY_INACTIVE'],
    );
    const d = diffFindings(before, after)!;
    expect(d.added.map((f) => `${f.kind}:${f.code}`)).toEqual(['reason:oos_rate', 'knockout:AUTHORITY_INACTIVE']);
    expect(d.added[1]).toMatchObject({ severity: 'critical', area: null, detail: 'AUTHORITY_INACTIVE message' });
    expect(d.removed.map((f) => f.code)).toEqual(['mcs150_outdated']);
  });

  it('is unknown without the old score, and tolerates odd items', () => {
    expect(diffFindings(undefined, score([]))).toBeUndefined();
    expect(
      findingsOf({ reasons: [null, { check: 7 }, reason('a'), reason('a')], knockout: { reasons: 'x' } } as unknown as SvcScore).map(
        (f) => f.code,
      ),
    ).toEqual(['a']);
  });
});

describe("a change's loads in words", () => {
  const t = (o: Partial<ChangeTender>): ChangeTender => ({
    tender_id: 'T-1',
    screening_id: 'scr_1',
    screened_at: '2026-03-02T10:00:00.000Z',
    ...o,
  });
  it('says what each load got and what settled it', () => {
    expect(loadStatusText(t({ action: 'tender', settled_by: 'standing_decision' }))).toBe('went out · settled by a standing decision');
    expect(loadStatusText(t({ action: 'tender', settled_by: null }))).toBe('went out');
    expect(loadStatusText(t({ action: 'hold', settled_by: null }))).toBe('waits for a dispatcher');
    expect(loadStatusText(t({ action: 'block', settled_by: 'review' }))).toBe('blocked · decided by a dispatcher');
    expect(loadStatusText(t({ action: null }))).toBe('not answered yet');
    expect(loadStatusText(t({}))).toBe('not recorded');
  });

  it('a hold whose loads went out on a standing decision was tendered, not "hold"', () => {
    const before = { action: 'hold' } as CarrierChange['before'];
    expect(beforeInWords({ before, tenders: [t({ action: 'tender', settled_by: 'standing_decision' })] })).toBe(
      'tendered (settled by a standing decision)',
    );
    expect(beforeInWords({ before, tenders: [t({ action: 'hold', settled_by: null })] })).toBe('hold');
    expect(beforeInWords({ before: { action: 'tender' } as CarrierChange['before'], tenders: [] })).toBe('tender');
  });
});
