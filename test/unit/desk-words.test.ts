/**
 * The desk's pure pieces for issue 25: drafts kept per item, how an ended decision reads, and what
 * changed between the review shown and the newest one (a 409 review_stale).
 */
import { describe, expect, it } from 'vitest';
import { Drafts } from '../../electron/renderer/drafts.js';
import { endedText, previousEndedText, readableChange } from '../../electron/renderer/decision-end.js';
import { factsChanged } from '../../electron/renderer/review-facts.js';
import type { PreviousDecision, Review } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';

describe('Drafts', () => {
  it('keeps each item its own draft, forgets empty ones and items no longer open', () => {
    const d = new Drafts();
    d.put('a', ['wrong insurer', true]);
    d.put('b', ['', false]);
    expect(d.get('a')).toEqual(['wrong insurer', true]);
    expect(d.get('b')).toBeUndefined();
    d.put('b', ['ok by phone', false]);
    d.keepOnly(['b']);
    expect(d.get('a')).toBeUndefined();
    expect(d.get('b')).toEqual(['ok by phone', false]);
    d.drop('b');
    expect(d.get('b')).toBeUndefined();
  });
});

describe('ended decisions in words', () => {
  it('revoked by whom, with the note; lapsed with what changed, old worker words read the way they went', () => {
    expect(endedText({ state: 'standing', ended_by: null, end_reason: null })).toBeNull();
    expect(endedText({ state: 'revoked', ended_by: 'Sam', end_reason: 'policy cancelled' })).toEqual({
      state: 'revoked',
      line: 'revoked by Sam',
      note: 'policy cancelled',
    });
    expect(endedText({ state: 'lapsed', ended_by: null, end_reason: 'grade B → D; reason added: BIPD insurance on file' })).toEqual({
      state: 'lapsed',
      line: 'lapsed: grade B → D; check now failing: BIPD insurance on file',
      note: null,
    });
    expect(readableChange('expired 2026-12-02T09:00:00.000Z (SCREEN_DECISION_TTL)')).toBe('its time limit passed on 2026-12-02');
    expect(readableChange('knockout gone: NO_BIPD')).toBe('knockout cleared: NO_BIPD');
    expect(readableChange('check now failing: X')).toBe('check now failing: X');
    const prev = { state: 'lapsed', changes: [], ended_by: null, note: null } as unknown as PreviousDecision;
    expect(previousEndedText(prev).line).toBe('lapsed: it expired');
  });
});

const score = (o: Partial<SvcScore>): SvcScore =>
  ({
    score: 66,
    grade: 'D',
    decision: 'review',
    needs_manual_review: true,
    knockout: { triggered: false, reasons: [] },
    reasons: [],
    ...o,
  }) as SvcScore;
const review = (s: SvcScore, o: Partial<Review> = {}): Review =>
  ({ id: 'rev_1', state: 'pending', screening: { score: s, error: null }, tenders: [{}], decided_by: null, ...o }) as unknown as Review;

describe('factsChanged', () => {
  it('names the score, decision, new knockouts, checks that fail or pass, and the tenders', () => {
    const shown = review(score({ reasons: [{ check: 'Single power unit' }] as SvcScore['reasons'] }));
    const newest = review(
      score({
        score: 31,
        grade: 'F',
        decision: 'rejected',
        knockout: { triggered: true, reasons: [{ code: 'NO_BIPD', message: 'no BIPD' }] },
        reasons: [{ check: 'BIPD insurance on file' }] as SvcScore['reasons'],
      }),
      { tenders: [{}, {}] as Review['tenders'] },
    );
    expect(factsChanged(shown, newest)).toEqual([
      'decision review → rejected',
      'score 66 · D → 31 · F',
      'new knockout NO_BIPD',
      'check now failing: BIPD insurance on file',
      'check passing again: Single power unit',
      '2 tenders wait now (was 1)',
    ]);
    expect(factsChanged(shown, shown)).toEqual([]);
  });
});
