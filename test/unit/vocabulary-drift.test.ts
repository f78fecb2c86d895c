/**
 * One vocabulary (issue 25): the actions and hold reasons of shared/tender-rules.ts are the only
 * list. The OpenAPI components, the README table and the tray's words must say exactly the same;
 * each check here fails when one of them drifts (a reason added in one place and not the others).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CarrierSnapshot, Review, ReviewTender, Screening } from '../../shared/screening.js';
import { HOLD_REASONS, TENDER_ACTIONS, type HoldReason, type TenderAction } from '../../shared/tender-rules.js';
import { ACTION_TERMS, HOLD_REASON_TERMS, holdReasonTerm } from '../../electron/renderer/vocabulary.js';
import { COMPONENTS } from '../../worker/intake/components.js';

const root = resolve(import.meta.dirname, '../..');
const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

/** Every schema under a property named `name`, anywhere in the components. */
function propertySchemas(name: string): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    const props = o.properties as Record<string, unknown> | undefined;
    if (props && typeof props === 'object' && name in props) out.push(props[name]);
    for (const x of Object.values(o)) walk(x);
  };
  walk(JSON.parse(JSON.stringify(COMPONENTS)));
  return out;
}

/** The values a schema names: `const` literals of an enum, or the known values of an open set. */
function valuesOf(schema: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    if (typeof o.const === 'string') out.push(o.const);
    if (Array.isArray(o['x-extensible-enum'])) out.push(...(o['x-extensible-enum'] as string[]));
    for (const x of Object.values(o)) walk(x);
  };
  walk(schema);
  return sorted(out);
}

/** The rows of the README's "/v1 said | action | hold_reason" table, as cells. */
function readmeRuleTable(): string[][] {
  const lines = readFileSync(resolve(root, 'README.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => /^\|\s*\/v1 said\s*\|\s*action\s*\|\s*hold_reason\s*\|/.test(l));
  expect(start, 'README has the tender-action table').toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    rows.push(
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

describe('one vocabulary of actions and hold reasons', () => {
  it('the lists are what the rules give: no local_block (a block, not a hold), quota_reserved included', () => {
    expect(HOLD_REASONS).toContain('quota_reserved');
    expect(HOLD_REASONS).not.toContain('local_block');
    expect(sorted(TENDER_ACTIONS)).toEqual(['block', 'hold', 'tender']);
  });

  it('every hold_reason and action in the OpenAPI components names exactly the exported lists', () => {
    const reasons = propertySchemas('hold_reason');
    const actions = propertySchemas('action');
    // Screening, Review, the watch snapshot; Screening, a review's tenders, the watch snapshot.
    expect(reasons.length).toBeGreaterThanOrEqual(3);
    expect(actions.length).toBeGreaterThanOrEqual(3);
    for (const s of reasons) expect(valuesOf(s)).toEqual(sorted(HOLD_REASONS));
    for (const s of actions) expect(valuesOf(s)).toEqual(sorted(TENDER_ACTIONS));
  });

  it('the README table lists exactly the exported hold reasons and actions', () => {
    const rows = readmeRuleTable();
    const reasons = rows.flatMap((r) => [...(r[2] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
    expect(sorted(reasons)).toEqual(sorted(HOLD_REASONS));
    const actions = rows.map((r) => /^(tender|hold|block)\b/.exec(r[1] ?? '')?.[1]);
    expect(
      actions.every((a) => a !== undefined),
      `every row starts its action with one of ${TENDER_ACTIONS.join(', ')}`,
    ).toBe(true);
    expect(sorted(actions as string[])).toEqual(sorted(TENDER_ACTIONS));
  });

  it('the tray has words for every hold reason and action, and none it cannot get', () => {
    expect(sorted(Object.keys(HOLD_REASON_TERMS))).toEqual(sorted(HOLD_REASONS));
    expect(sorted(Object.keys(ACTION_TERMS))).toEqual(sorted(TENDER_ACTIONS));
    for (const r of HOLD_REASONS) {
      const t = holdReasonTerm(r);
      expect(t.known, r).toBe(true);
      // Words for a dispatcher, not the code.
      expect(t.label, r).not.toContain('_');
      expect(t.hint, r).toBeTruthy();
    }
    expect(holdReasonTerm('quota_reserved').label).toBe('Quota kept for tenders');
    // A value from a newer worker is still shown, by its name, as unknown.
    expect(holdReasonTerm('something_new')).toMatchObject({ label: 'something_new', known: false });
    expect(holdReasonTerm('constructor').known).toBe(false);
  });

  it('shared/screening.ts types its fields with the same lists', () => {
    expectTypeOf<Screening['hold_reason']>().toEqualTypeOf<HoldReason | null>();
    expectTypeOf<Screening['action']>().toEqualTypeOf<TenderAction | null>();
    expectTypeOf<Review['hold_reason']>().toEqualTypeOf<HoldReason>();
    expectTypeOf<ReviewTender['action']>().toEqualTypeOf<TenderAction | null>();
    expectTypeOf<CarrierSnapshot['hold_reason']>().toEqualTypeOf<HoldReason | null>();
  });
});
