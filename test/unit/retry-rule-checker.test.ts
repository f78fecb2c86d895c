import { describe, expect, it } from 'vitest';
import type { ScoreRequest } from '../faults/support/recording-emulator.js';
import { checkRetryRule } from '../faults/support/retry-rule.js';
import type { ScreeningLookups } from '../faults/support/store-inspect.js';

/**
 * The hostile-service fault scenario's checker (test/faults/support/retry-rule.ts) on small
 * hand-made logs: it tells an outage re-screen from a retry, and still finds every break.
 */

const T0 = Date.parse('2026-01-05T10:00:00.000Z');
const iso = (ms: number): string => new Date(T0 + ms).toISOString();
const req = (at: number, status: number, more: Partial<ScoreRequest> = {}): ScoreRequest => ({
  carrier: 'dot:5000371',
  at: T0 + at,
  answeredAt: T0 + at + 1,
  status,
  ...(status === 503 ? { code: 'scoring_unavailable' } : {}),
  ...more,
});
const malformed = (at: number): ScoreRequest => req(at, 200, { malformed: true });
/** Another carrier's good answer: /v1 answered. */
const other = (at: number): ScoreRequest => req(at, 200, { carrier: `dot:${at}` });
const screening = (s: Partial<ScreeningLookups> = {}): ScreeningLookups => ({
  id: 'scr_1',
  carrier: 'dot:5000371',
  created_at: iso(0),
  completed_at: iso(6_100),
  rescreened_at: null,
  held_for: 'scoring_unavailable',
  ...s,
});
const others = [20_000, 100_000];
const otherScreenings = others.map((at) => ({
  ...screening(),
  id: `scr_${at}`,
  carrier: `dot:${at}`,
  completed_at: iso(at + 10),
  held_for: null,
}));
const check = (rs: ScoreRequest[], s: ScreeningLookups, cutShort = false) =>
  checkRetryRule([...rs, ...others.map(other)], [], [s, ...otherScreenings], { cutShort });

/** The first lookup of the case seen on PostgreSQL: 503, 503 (1.2 s), a malformed 200 (2.2 s), held. */
const held = [req(2_600, 503), req(3_800, 503), malformed(6_000)];

describe('the retry-rule checker of the hostile-service scenario', () => {
  it('a held screening looked up again by the recovery path, after /v1 answered, is a re-screen, not a retry', () => {
    const r = check([...held, req(29_000, 503), req(30_100, 200)], screening({ rescreened_at: iso(30_200) }));
    expect(r).toEqual({ breaks: [], rescreens: { screenings: 1, tries: 1, requests: 2 } });
  });

  it('a retry inside the first lookup is still held to the backoff', () => {
    const r = check([req(2_600, 503), req(3_000, 503), malformed(6_000)], screening());
    expect(r.breaks).toEqual(['dot:5000371: retry 1 after 400 ms, less than 1000 ms']);
  });

  it('asking again before the screening was done, after a final answer, is a break', () => {
    const r = check([req(2_600, 404, { code: 'carrier_not_found' }), req(4_000, 404)], screening({ completed_at: iso(4_100) }));
    expect(r.breaks).toEqual(['dot:5000371: asked again after a final 404 carrier_not_found']);
  });

  it('a re-screen is held to its own promises', () => {
    // Of a hold a person must decide.
    expect(check([...held, req(29_000, 200)], screening({ held_for: 'manual_review', rescreened_at: iso(29_100) })).breaks).toEqual([
      'dot:5000371: asked again after its screening ended held for manual_review',
    ]);
    // Three requests in one try, the last too soon.
    expect(
      check([...held, req(29_000, 503), req(30_100, 503), req(30_600, 503)], screening({ rescreened_at: iso(30_700) })).breaks,
    ).toEqual(['dot:5000371: request 3 in one re-screen', 'dot:5000371: re-screen retry 2 after 500 ms, less than 2000 ms']);
    // A second try less than a minute after the first.
    expect(
      check([...held, req(29_000, 503), req(30_100, 503), req(50_000, 200)], screening({ rescreened_at: iso(50_100) })).breaks,
    ).toEqual(['dot:5000371: request 3 in one re-screen']);
    // A second try a minute after the first, but the hold had waited longer.
    expect(
      check([...held, req(70_000, 503), req(71_100, 503), req(135_000, 200)], screening({ rescreened_at: iso(135_100) })).breaks,
    ).toEqual(['dot:5000371: re-screen try 2 63900 ms after the last, less than 71100 ms']);
    // Not marked in the record: not the recovery path's (unless the stop cut the try short).
    const unmarked = [...held, req(29_000, 200)];
    expect(check(unmarked, screening()).breaks).toEqual([
      'dot:5000371: asked again after it was done, but the record shows no re-screen since (rescreened_at null)',
    ]);
    expect(check(unmarked, screening(), true).breaks).toEqual([]);
  });

  it('a re-screen before /v1 answered again is a break; a health check that answered counts', () => {
    const rs = [...held, req(9_000, 200)];
    const s = screening({ rescreened_at: iso(9_100) });
    expect(checkRetryRule(rs, [], [s], { cutShort: false }).breaks).toEqual(['dot:5000371: re-screen before /v1 answered again']);
    expect(checkRetryRule(rs, [{ at: T0 + 8_000, answeredAt: T0 + 8_001, status: 200 }], [s], { cutShort: false }).breaks).toEqual([]);
  });
});
