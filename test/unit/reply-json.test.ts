import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replyJson } from '../../worker/intake/reply-json.js';

describe('answer JSON', () => {
  const score = Object.freeze({
    object: 'svc_score',
    carrier: { dot_number: '1000003', legal_name: 'A "quoted" \u2028 name' },
    score: 71,
    reasons: [{ code: 'x', text: 'score: null' }],
  });
  const screening = (over: Record<string, unknown> = {}) => ({
    object: 'screening',
    id: 'scr_x',
    tender_id: 'T-1',
    score,
    error: null,
    ...over,
  });

  it('is exactly JSON.stringify, with the score shared between answers', () => {
    expect(replyJson(screening())).toBe(JSON.stringify(screening()));
    // Again, from the kept text of the same score object.
    expect(replyJson(screening({ tender_id: '"score":null' }))).toBe(JSON.stringify(screening({ tender_id: '"score":null' })));
    expect(replyJson(screening({ score: null }))).toBe(JSON.stringify(screening({ score: null })));
    expect(replyJson({ object: 'list', data: [screening()] })).toBe(JSON.stringify({ object: 'list', data: [screening()] }));
    expect(replyJson({ error: { code: 'x' } })).toBe('{"error":{"code":"x"}}');
  });

  it('whatever the other fields hold', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (extra, tender) => {
        const s = { ...extra, ...screening({ tender_id: tender }) };
        expect(replyJson(s)).toBe(JSON.stringify(s));
      }),
      { numRuns: 300 },
    );
  });
});
