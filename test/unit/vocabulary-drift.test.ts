/**
 * One vocabulary (issues 25 and 33): every set of values the API names is one exported list
 * (the actions and hold reasons in shared/tender-rules.ts, the rest in shared/screening.ts,
 * shared/svc-contract.ts, worker/callbacks/ and the error codes in worker/intake/components.ts).
 * The OpenAPI components, shared/screening.ts's types, the docs tables and the tray's words must
 * say exactly the same; each check here fails when one of them drifts (a value added in one place
 * and not the others, or an enum written out by hand in a component).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Static } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CALLER_ROLES,
  CHANGE_REASONS,
  CHANGE_STATES,
  DECISION_STATES,
  DISPATCHER_DECISIONS,
  ENDED_DECISION_STATES,
  ENVIRONMENTS,
  FINDING_KINDS,
  INTAKE_EVENT_NAMES,
  LOCAL_BLOCK_STATES,
  PRIORITIES,
  QUOTA_GATES,
  REVIEW_CLOSED_BY,
  REVIEW_STATES,
  SCREENING_SOURCES,
  SCREENING_STATUSES,
  SETTLED_BY,
  type CarrierChange,
  type CarrierSnapshot,
  type Caller,
  type ChangeFinding,
  type Decision,
  type LocalBlock,
  type PreviousDecision,
  type Review,
  type ReviewTender,
  type Screening,
  type StandingDecisionRef,
  type StatusReport,
} from '../../shared/screening.js';
import { KNOWN_DECISIONS, KNOWN_GRADES, KNOWN_SEVERITIES } from '../../shared/svc-contract.js';
import { HOLD_REASONS, TENDER_ACTIONS, type HoldReason, type TenderAction } from '../../shared/tender-rules.js';
import { CHANGE_REASON_TEXT } from '../../electron/shared/change-text.js';
import {
  ACTION_TERMS,
  HOLD_REASON_TERMS,
  changeReasonTerm,
  decisionTerm,
  holdReasonTerm,
  severityTerm,
  sourceTerm,
} from '../../electron/renderer/vocabulary.js';
import { CALLBACK_STATES, DELIVERY_FAILURES, type CallbackRecord } from '../../worker/callbacks/index.js';
import * as C from '../../worker/intake/components.js';
import { COMPONENTS, ERROR_CODES, SCREENING_CALLBACK_EVENTS } from '../../worker/intake/components.js';
import { ReviewListQuery } from '../../worker/intake/schemas.js';

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

/** The rows of the first markdown table in `file` whose header matches, as cells. */
function tableRows(file: string, header: RegExp): string[][] {
  const lines = readFileSync(resolve(root, file), 'utf8').split('\n');
  const start = lines.findIndex((l) => header.test(l));
  expect(start, `${file} has the table ${String(header)}`).toBeGreaterThan(-1);
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
/** The `code`s of a cell. */
const codesIn = (cell: string | undefined): string[] => [...(cell ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

/** The rows of the README's "/v1 said | action | hold_reason" table, as cells. */
const readmeRuleTable = (): string[][] => tableRows('README.md', /^\|\s*\/v1 said\s*\|\s*action\s*\|\s*hold_reason\s*\|/);

/**
 * Every enumeration in the components, by where it is (`Review.tenders[].action`; the three
 * screening variants as `Screening.…`): a closed set (`anyOf` of `const`s, null aside) or an open
 * one (`x-extensible-enum`).
 */
function componentEnums(): Map<string, { values: string[]; open: boolean }> {
  const out = new Map<string, { values: string[]; open: boolean }>();
  const put = (path: string, values: string[], open: boolean): void => {
    const key = path.replace(/^Screening(Queued|Active|Done)\./, 'Screening.');
    const was = out.get(key);
    if (was) expect({ values, open }, `${path} as its sibling variants`).toEqual(was);
    out.set(key, { values, open });
  };
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, path));
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    const anyOf = o.anyOf as Array<Record<string, unknown>> | undefined;
    if (Array.isArray(anyOf) && anyOf.some((x) => typeof x.const === 'string'))
      put(
        path,
        anyOf.filter((x) => x.type !== 'null').map((x) => String(x.const)),
        false,
      );
    if (Array.isArray(o['x-extensible-enum'])) put(path, o['x-extensible-enum'] as string[], true);
    for (const [k, x] of Object.entries(o)) {
      if (k === 'properties') for (const [name, p] of Object.entries(x as object)) walk(p, `${path}.${name}`);
      else if (k === 'items') walk(x, `${path}[]`);
      else walk(x, path);
    }
  };
  for (const c of COMPONENTS) {
    const id = String((c as unknown as { $id: string }).$id);
    if (id !== 'StreamEvent') walk(JSON.parse(JSON.stringify(c)), id);
  }
  return out;
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

/** Where each enumeration of the components comes from: the one list, closed or open. */
const closed = (list: readonly string[]) => ({ values: [...list], open: false });
const open = (list: readonly string[]) => ({ values: [...list], open: true });
const EXPECTED: Record<string, { values: string[]; open: boolean }> = {
  'ErrorEnvelope.error.code': open(ERROR_CODES),
  'Score.grade': open(KNOWN_GRADES),
  'Score.decision': open(KNOWN_DECISIONS),
  'Score.reasons[].severity': open(KNOWN_SEVERITIES),
  'StandingDecisionRef.decision': closed(DISPATCHER_DECISIONS),
  'Screening.priority': closed(PRIORITIES),
  'Screening.action': closed(TENDER_ACTIONS),
  'Screening.hold_reason': open(HOLD_REASONS),
  'Screening.source': open(SCREENING_SOURCES),
  'Screening.review.state': closed(REVIEW_STATES),
  'Screening.settled_by': open(SETTLED_BY),
  'Review.state': closed(REVIEW_STATES),
  'Review.closed_by': closed(REVIEW_CLOSED_BY),
  'Review.hold_reason': open(HOLD_REASONS),
  'Review.tenders[].action': closed(TENDER_ACTIONS),
  'Review.previous_decision.decision': closed(DISPATCHER_DECISIONS),
  'Review.previous_decision.state': closed(ENDED_DECISION_STATES),
  'Decision.decision': closed(DISPATCHER_DECISIONS),
  'Decision.state': closed(DECISION_STATES),
  'WatchEntry.last.action': closed(TENDER_ACTIONS),
  'WatchEntry.last.hold_reason': open(HOLD_REASONS),
  'CarrierChange.reasons[]': open(CHANGE_REASONS),
  'CarrierChange.before.action': closed(TENDER_ACTIONS),
  'CarrierChange.before.hold_reason': open(HOLD_REASONS),
  'CarrierChange.after.action': closed(TENDER_ACTIONS),
  'CarrierChange.after.hold_reason': open(HOLD_REASONS),
  'CarrierChange.tenders[].action': closed(TENDER_ACTIONS),
  'CarrierChange.tenders[].hold_reason': open(HOLD_REASONS),
  'CarrierChange.tenders[].settled_by': open(SETTLED_BY),
  'CarrierChange.findings.added[].kind': closed(FINDING_KINDS),
  'CarrierChange.findings.added[].severity': open(KNOWN_SEVERITIES),
  'CarrierChange.findings.removed[].kind': closed(FINDING_KINDS),
  'CarrierChange.findings.removed[].severity': open(KNOWN_SEVERITIES),
  'CarrierChange.state': closed(CHANGE_STATES),
  'LocalBlock.state': closed(LOCAL_BLOCK_STATES),
  'Callback.state': closed(CALLBACK_STATES),
  'Callback.last_error': open(DELIVERY_FAILURES),
  'Status.environment': closed(ENVIRONMENTS),
  'Status.quota.gate': closed(QUOTA_GATES),
  'Caller.role': closed(CALLER_ROLES),
  'ScreeningCallback.event': closed(SCREENING_CALLBACK_EVENTS),
};

describe('one vocabulary for every enumeration of the API', () => {
  it('every enum in the OpenAPI components is one of the exported lists, in its order; none is written out by hand', () => {
    const found = componentEnums();
    expect(sorted(found.keys()), 'the enumerations of the components (a new one needs its list here)').toEqual(
      sorted(Object.keys(EXPECTED)),
    );
    for (const [path, want] of Object.entries(EXPECTED)) expect(found.get(path), path).toEqual(want);
  });

  it('the screening variants are the statuses; the stream events are INTAKE_EVENT_NAMES, each with its own shape', () => {
    const variants = (C.Screening as unknown as { discriminator: { mapping: Record<string, string> } }).discriminator.mapping;
    expect(Object.keys(variants)).toEqual([...SCREENING_STATUSES]);
    const events = (C.StreamEvent as unknown as { oneOf: Array<{ properties: { event: { const: string } } }> }).oneOf;
    expect(events.map((e) => e.properties.event.const)).toEqual([...INTAKE_EVENT_NAMES]);
    expect(C.STREAM_EVENT_NAMES).toEqual(INTAKE_EVENT_NAMES);
    // What the worker appends for an ended decision (decisions/review-news.ts: `decision.${state}`).
    for (const s of ENDED_DECISION_STATES) expect(INTAKE_EVENT_NAMES).toContain(`decision.${s}`);
  });

  it('the list filters take every state of their list (plus their own words)', () => {
    const q = JSON.parse(JSON.stringify(ReviewListQuery)) as { properties: { state: { anyOf: Array<{ const: string }> } } };
    const states = q.properties.state.anyOf.map((x) => x.const);
    expect(sorted(states)).toEqual(sorted([...REVIEW_STATES, 'decided', 'all']));
  });

  it("the components' closed sets have the types of shared/screening.ts (Static<> of the component = the hand-written field)", () => {
    expectTypeOf<Static<typeof C.ScreeningDone>['action']>().toEqualTypeOf<TenderAction>();
    expectTypeOf<Static<typeof C.ScreeningQueued>['action']>().toEqualTypeOf<Screening['action']>();
    expectTypeOf<Static<typeof C.ScreeningDone>['priority']>().toEqualTypeOf<Screening['priority']>();
    expectTypeOf<
      Static<typeof C.ScreeningDone>['status'] | Static<typeof C.ScreeningQueued>['status'] | Static<typeof C.ScreeningActive>['status']
    >().toEqualTypeOf<Screening['status']>();
    expectTypeOf<NonNullable<Static<typeof C.ScreeningDone>['review']>['state']>().toEqualTypeOf<
      NonNullable<Screening['review']>['state']
    >();
    expectTypeOf<Static<typeof C.StandingDecisionRef>['decision']>().toEqualTypeOf<StandingDecisionRef['decision']>();
    expectTypeOf<Static<typeof C.Review>['state']>().toEqualTypeOf<Review['state']>();
    expectTypeOf<Static<typeof C.Review>['closed_by']>().toEqualTypeOf<Review['closed_by']>();
    expectTypeOf<Static<typeof C.Review>['tenders'][number]['action']>().toEqualTypeOf<ReviewTender['action']>();
    expectTypeOf<NonNullable<Static<typeof C.Review>['previous_decision']>['state']>().toEqualTypeOf<PreviousDecision['state']>();
    expectTypeOf<Static<typeof C.Decision>['decision']>().toEqualTypeOf<Decision['decision']>();
    expectTypeOf<Static<typeof C.Decision>['state']>().toEqualTypeOf<Decision['state']>();
    expectTypeOf<NonNullable<Static<typeof C.WatchEntry>['last']>['action']>().toEqualTypeOf<CarrierSnapshot['action']>();
    expectTypeOf<Static<typeof C.CarrierChange>['state']>().toEqualTypeOf<CarrierChange['state']>();
    expectTypeOf<Static<typeof C.CarrierChange>['tenders'][number]['action']>().toEqualTypeOf<CarrierChange['tenders'][number]['action']>();
    expectTypeOf<NonNullable<Static<typeof C.CarrierChange>['findings']>['added'][number]['kind']>().toEqualTypeOf<ChangeFinding['kind']>();
    expectTypeOf<Static<typeof C.LocalBlock>['state']>().toEqualTypeOf<LocalBlock['state']>();
    expectTypeOf<Static<typeof C.Callback>['state']>().toEqualTypeOf<CallbackRecord['state']>();
    expectTypeOf<Static<typeof C.Status>['environment']>().toEqualTypeOf<StatusReport['environment']>();
    expectTypeOf<Static<typeof C.Status>['quota']['gate']>().toEqualTypeOf<StatusReport['quota']['gate']>();
    expectTypeOf<Static<typeof C.Caller>['role']>().toEqualTypeOf<Caller['role']>();
  });

  it('the docs tables name exactly the lists: error codes, roles, callback states and last_error', () => {
    const errors = tableRows('docs/api.md', /^\|\s*status\s*\|\s*code\s*\|\s*when\s*\|/);
    expect(sorted(errors.flatMap((r) => codesIn(r[1])))).toEqual(sorted(ERROR_CODES));
    const roles = tableRows('docs/api.md', /^\|\s*role\s*\|\s*may\s*\|/);
    expect(roles.flatMap((r) => codesIn(r[0]))).toEqual([...CALLER_ROLES]);
    const callbacks = tableRows('docs/api.md', /^\|\s*route\s*\|\s*role\s*\|/).find((r) => r[0]!.startsWith('`GET /callbacks?state='));
    const cell = callbacks?.[2] ?? '';
    const states = /deliveries \(([^)]*)\)/.exec(cell)?.[1];
    const failures = cell.split('as a category')[1];
    expect(codesIn(states)).toEqual([...CALLBACK_STATES, 'all']);
    expect(sorted(codesIn(failures))).toEqual(sorted(DELIVERY_FAILURES));
  });

  it("the tray has words for every known value of the open sets it shows (source, /v1's decision and severity, change reasons)", () => {
    for (const v of SCREENING_SOURCES) expect(sourceTerm(v).known, v).toBe(true);
    for (const v of KNOWN_DECISIONS) expect(decisionTerm(v).known, v).toBe(true);
    for (const v of KNOWN_SEVERITIES) expect(severityTerm(v).known, v).toBe(true);
    expect(sorted(Object.keys(CHANGE_REASON_TEXT))).toEqual(sorted(CHANGE_REASONS));
    for (const v of CHANGE_REASONS) expect(changeReasonTerm(v), v).toMatchObject({ known: true, hint: expect.any(String) });
    for (const t of [sourceTerm('x_new'), decisionTerm('x_new'), severityTerm('x_new'), changeReasonTerm('x_new')])
      expect(t.known).toBe(false);
  });
});
