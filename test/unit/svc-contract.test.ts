/**
 * shared/svc-contract.ts against the emulator's bodies: every sandbox score and a sample of
 * live scores parse; unknown fields and enum values are kept; non-scores are refused with a
 * ContractError naming the path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContractError, parseErrorBody, parseScore, parseUsage, type SvcScore } from '../../shared/svc-contract.js';
import {
  SANDBOX_CARRIERS,
  UNKNOWN_VALUES,
  buildEmulator,
  dotToMcDigits,
  liveCarrier,
  liveCarrierByMc,
  mcDigitsToDot,
  scoreBody,
  DEMO_KEYS,
} from '../../emulator/index.js';
import { addUnknownFields } from '../../emulator/unknown-fields.js';
import { decisionFor, gradeFor } from '../../emulator/score-model.js';

const NOW = new Date('2026-03-15T12:00:00Z');
/** What a client receives: the body after a trip through JSON. */
const wire = (body: unknown): unknown => JSON.parse(JSON.stringify(body));
const dotArb = fc.integer({ min: 0, max: 99_999_999 }).map(String);
const SEVERITY_ORDER = ['critical', 'review', 'medium', 'low'];

function sandboxBodies(): unknown[] {
  return SANDBOX_CARRIERS.map((c) => wire(scoreBody(c, 'sandbox', NOW)));
}

describe('parseScore accepts every emulator score', () => {
  it('the six sandbox carriers', () => {
    const bodies = sandboxBodies();
    expect(bodies).toHaveLength(6);
    for (const b of bodies) expect(parseScore(b)).toBe(b);
  });

  it('every live DOT number gives a valid, self-consistent score (or none)', () => {
    fc.assert(
      fc.property(dotArb, (dot) => {
        const c = liveCarrier(dot);
        if (!c) return;
        const s = parseScore(wire(scoreBody(c, 'live', NOW)));
        expect(s.livemode).toBe(true);
        expect(s.model_version).toBe('crs-3.5');
        const k = s.checks!;
        expect(k.total).toBe(53);
        expect(k.triggered + k.passed + k.not_checked).toBe(53);
        expect(s.reasons).toHaveLength(k.triggered);
        if (s.knockout.triggered) expect(s.decision).toBe('rejected');
        expect(s.knockout.triggered).toBe(s.knockout.reasons.length > 0);
        expect(s.grade).toBe(gradeFor(s.score));
        expect(s.decision).toBe(decisionFor(s.score, s.knockout.triggered));
        if (s.decision === 'review') expect(s.needs_manual_review).toBe(true);
        if (s.decision === 'rejected' || s.decision === 'high_risk') expect(s.needs_manual_review).toBe(false);
        const ranks = s.reasons.map((r) => SEVERITY_ORDER.indexOf(r.severity));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        expect(s.data_confidence).toBeGreaterThanOrEqual(0);
        expect(s.data_confidence).toBeLessThanOrEqual(1);
        if (s.carrier.mc_number !== null) expect(s.carrier.mc_number).toMatch(/^MC\d+$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('live MC numbers and DOT numbers map to each other', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }).map(String), (mc) => {
        expect(dotToMcDigits(mcDigitsToDot(mc))).toBe(mc);
        const byMc = liveCarrierByMc(mc);
        if (byMc) expect(byMc.carrier.mc_number).toBe(`MC${mc}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('the same DOT number always gives the same carrier', () => {
    fc.assert(
      fc.property(dotArb, (dot) => {
        expect(liveCarrier(dot)).toEqual(liveCarrier(dot));
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseScore keeps unknown fields and enum values', () => {
  it('on every sandbox carrier with the unknown-fields fault applied', () => {
    for (const c of SANDBOX_CARRIERS) {
      const body = wire(addUnknownFields(scoreBody(c, 'sandbox', NOW))) as Record<string, any>;
      const s = parseScore(body);
      expect(s).toBe(body); // the same object: nothing dropped
      expect(s.risk_trend).toEqual({ direction: 'worsening', window_days: 90 });
      expect(s.carrier.power_units).toBe(12);
      expect(s.flags).toContain(UNKNOWN_VALUES.flag);
      expect(s.reasons.at(-1)!.severity).toBe(UNKNOWN_VALUES.severity);
      expect(s.reasons.at(-1)!.facts[0]!.source).toBe('registry');
      if (c.knockout.triggered) expect(s.knockout.reasons.map((r) => r.code)).toContain(UNKNOWN_VALUES.knockoutCode);
      else expect(s.decision).toBe(UNKNOWN_VALUES.decision);
    }
  });

  it('the shortened form (no checks, no flags) parses', () => {
    const body = wire(scoreBody(SANDBOX_CARRIERS[2]!, 'sandbox', NOW)) as Record<string, unknown>;
    delete body.checks;
    delete body.flags;
    expect(parseScore(body).checks).toBeUndefined();
  });
});

describe('parseScore reads an omitted "or null" field as null', () => {
  it('carrier mc_number, legal_name, dba_name, verdict and data_confidence, one or all at once', () => {
    const nullable: [string | null, string][] = [
      ['carrier', 'mc_number'],
      ['carrier', 'legal_name'],
      ['carrier', 'dba_name'],
      [null, 'verdict'],
      [null, 'data_confidence'],
    ];
    const omit = (b: Record<string, any>, [parent, key]: [string | null, string]): void => {
      delete (parent ? b[parent] : b)[key];
    };
    for (const field of nullable) {
      const b = wire(scoreBody(SANDBOX_CARRIERS[0]!, 'sandbox', NOW)) as Record<string, any>;
      omit(b, field);
      const s = parseScore(b) as unknown as Record<string, any>;
      expect((field[0] ? s[field[0]] : s)[field[1]]).toBeNull();
    }
    const all = wire(scoreBody(SANDBOX_CARRIERS[0]!, 'sandbox', NOW)) as Record<string, any>;
    for (const field of nullable) omit(all, field);
    const s = parseScore(all);
    expect([s.carrier.mc_number, s.carrier.legal_name, s.carrier.dba_name, s.verdict, s.data_confidence]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('parseScore rejects what is not a score, naming the path', () => {
  const base = (): Record<string, any> => wire(scoreBody(SANDBOX_CARRIERS[4]!, 'sandbox', NOW)) as Record<string, any>;

  function rejects(body: unknown, path: string): ContractError {
    let caught: unknown;
    try {
      parseScore(body);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ContractError);
    const err = caught as ContractError;
    expect(err.path).toBe(path);
    if (path) expect(err.message).toContain(path);
    return err;
  }

  it('bodies that are no score at all', () => {
    rejects(null, '');
    rejects('{"object":"svc_score"', '');
    rejects([], '');
    rejects({ error: { code: 'carrier_not_found', message: 'No carrier' } }, 'object');
    rejects({ object: 'usage', livemode: false }, 'object');
  });

  it('a missing or mistyped required field, at any depth', () => {
    const cases: [(b: Record<string, any>) => void, string][] = [
      [(b) => delete b.livemode, 'livemode'],
      [(b) => (b.carrier = 'x'), 'carrier'],
      [(b) => delete b.carrier.dot_number, 'carrier.dot_number'],
      [(b) => (b.carrier.mc_number = 1000005), 'carrier.mc_number'],
      [(b) => (b.score = '18'), 'score'],
      [(b) => (b.score = 101), 'score'],
      [(b) => (b.score = 18.5), 'score'],
      [(b) => delete b.decision, 'decision'],
      [(b) => (b.needs_manual_review = 'no'), 'needs_manual_review'],
      [(b) => (b.reasons[1] = 'x'), 'reasons[1]'],
      [(b) => delete b.model_version, 'model_version'],
      [(b) => (b.calculated_at = 12), 'calculated_at'],
      [(b) => (b.knockout.triggered = 'yes'), 'knockout.triggered'],
    ];
    for (const [mutate, path] of cases) {
      const b = base();
      mutate(b);
      rejects(b, path);
    }
  });

  it('display fields that drift are kept as they came, each with a warning naming its path', () => {
    const cases: [(b: Record<string, any>) => void, string][] = [
      [(b) => (b.knockout.reasons[1].code = null), 'knockout.reasons[1].code'],
      [(b) => (b.reasons[0].facts[0].value = 143), 'reasons[0].facts[0].value'],
      [(b) => (b.checks.total = '53'), 'checks.total'],
      [(b) => (b.flags = [1]), 'flags[0]'],
      [(b) => (b.flags = null), 'flags'],
      [(b) => (b.data_confidence = 1.0000001), 'data_confidence'],
      [(b) => (b.calculated_at = '20250310T120000Z'), 'calculated_at'],
      [(b) => (b.calculated_at = 'yesterday'), 'calculated_at'],
      [(b) => (b.carrier.legal_name = 7), 'carrier.legal_name'],
    ];
    for (const [mutate, path] of cases) {
      const b = base();
      mutate(b);
      const copy = structuredClone(b);
      const warnings: ContractError[] = [];
      const out = parseScore(b, (w) => warnings.push(w));
      expect(out).toEqual(copy);
      expect(warnings.map((w) => w.path)).toEqual([path]);
    }
  });

  it('deleting any one required top-level field fails on that field', () => {
    const required = [
      'livemode',
      'carrier',
      'score',
      'grade',
      'decision',
      'needs_manual_review',
      'knockout',
      'reasons',
      'model_version',
      'calculated_at',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...required), (field) => {
        const b = base();
        delete b[field];
        rejects(b, field);
      }),
    );
  });
});

describe('usage and error bodies of the emulator', () => {
  it('parseUsage accepts /v1/usage; parseErrorBody reads every error; neither takes the other', async () => {
    const app = buildEmulator({ mode: 'live' });
    try {
      const auth = { authorization: `Bearer ${DEMO_KEYS.live}` };
      const usage = await app.inject({ url: '/v1/usage', headers: auth });
      expect(parseUsage(usage.json())).toMatchObject({ object: 'usage', livemode: true });
      expect(parseErrorBody(usage.json())).toBeUndefined();
      for (const url of ['/v1/svc-score?dot_number=x', '/v1/svc-score?dot_number=1', '/v1/none']) {
        const res = await app.inject({ url, headers: url.includes('dot_number=1') ? {} : auth });
        const err = parseErrorBody(res.json());
        expect(err, url).toBeDefined();
        expect(() => parseUsage(res.json())).toThrow(ContractError);
        expect(() => parseScore(res.json())).toThrow(ContractError);
      }
    } finally {
      await app.close();
    }
  });
});

describe('the sandbox fixtures follow the documented mapping', () => {
  it('grade and decision match the score for all six', () => {
    for (const c of SANDBOX_CARRIERS) {
      const s = scoreBody(c, 'sandbox', NOW) as SvcScore;
      expect(s.grade, s.carrier.dot_number).toBe(gradeFor(s.score));
      expect(s.decision).toBe(decisionFor(s.score, s.knockout.triggered));
    }
  });
});
