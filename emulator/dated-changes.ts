/**
 * Dated changes of the live dataset: from a given day a carrier's record gets worse (its
 * authority is revoked, its insurance lapses, or its safety record is downgraded), so with
 * the injected clock its score and decision change from that day on. Either an explicit list
 * (`datedChanges` option; `[]` turns changes off) or, by default, a deterministic few percent
 * of carriers change on a day 1–30 days after the instance started.
 */
import { checkById, CHECKS, type CheckDef } from './check-catalog.js';
import { canonicalDot } from './live-carriers.js';
import { hash32, seededRng } from './prng.js';
import { dataConfidenceFor, decisionFor, gradeFor, modelScore, needsManualReview, sortReasons, verdictFor } from './score-model.js';
import type { CarrierProfile } from './score-object.js';

export type DatedChangeKind = 'authority_revoked' | 'insurance_lapsed' | 'safety_downgrade';
export const DATED_CHANGE_KINDS: readonly DatedChangeKind[] = ['authority_revoked', 'insurance_lapsed', 'safety_downgrade'];

export interface DatedChange {
  dot: string;
  /** ISO date or timestamp; the change applies from then on (injected clock). */
  from: string;
  change: DatedChangeKind;
}

/** Share of live carriers that change by default. */
export const DEFAULT_CHANGE_SHARE = 0.03;
/** Default changes fall on whole days 1..this many after the instance started. */
export const DEFAULT_CHANGE_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** The checks each change fires (a check already fired stays as it was). */
export const CHANGE_CHECKS: Record<DatedChangeKind, readonly string[]> = {
  // Knockout AUTHORITY_INACTIVE: decision rejected.
  authority_revoked: ['authority_active'],
  // Knockout NO_BIPD (replaces "BIPD below required", which cannot fire with it).
  insurance_lapsed: ['bipd_on_file'],
  // 36 points of Safety & Roadside findings: approved carriers fall to review or high_risk.
  safety_downgrade: ['safety_rating_conditional', 'serious_violations', 'vehicle_oos_rate', 'driver_oos_rate'],
};
/** Checks that cannot fire together with the first (as in live-carriers.ts). */
const EXCLUDES: Record<string, string> = { bipd_on_file: 'bipd_below_required', safety_rating_unsatisfactory: 'safety_rating_conditional' };

/** The change the default generator gives this DOT number for an instance started at `startedAt`, if any. */
export function defaultDatedChange(dot: string, startedAt: Date): DatedChange | undefined {
  const d = canonicalDot(dot);
  const r = seededRng(hash32(`dated-change:${d}`));
  if (!r.chance(DEFAULT_CHANGE_SHARE)) return undefined;
  const days = r.int(1, DEFAULT_CHANGE_WINDOW_DAYS);
  return { dot: d, from: new Date(startedAt.getTime() + days * DAY_MS).toISOString(), change: r.pick(DATED_CHANGE_KINDS) };
}

/** The carrier's profile after `kind`: findings added, then score, grade, decision… recomputed. */
export function applyDatedChange(profile: CarrierProfile, kind: DatedChangeKind): CarrierProfile {
  const byName = new Map(CHECKS.map((c) => [c.name, c]));
  const fired = new Set(profile.reasons.map((r) => byName.get(r.check)?.id).filter((id): id is string => id !== undefined));
  const r = seededRng(hash32(`dated-change:${kind}:${profile.carrier.dot_number}`));
  const reasons = [...profile.reasons];
  for (const id of CHANGE_CHECKS[kind]) {
    if (fired.has(id)) continue;
    const c = checkById(id);
    fired.add(id);
    const f = c.finding(r);
    reasons.push({ check: c.name, area: c.area, severity: c.severity, detail: f.detail, facts: f.facts });
  }
  for (const [first, second] of Object.entries(EXCLUDES)) {
    if (!fired.has(first) || !fired.has(second)) continue;
    fired.delete(second);
    const name = checkById(second).name;
    const i = reasons.findIndex((x) => x.check === name);
    if (i >= 0) reasons.splice(i, 1);
  }
  const firedChecks = CHECKS.filter((c) => fired.has(c.id));
  const knockouts = firedChecks.filter((c): c is CheckDef & { knockout: NonNullable<CheckDef['knockout']> } => c.knockout !== undefined);
  const knockedOut = knockouts.length > 0;
  const notChecked = Math.min(profile.checks.not_checked, CHECKS.length - firedChecks.length);
  const sorted = sortReasons(reasons);
  const score = modelScore(
    firedChecks.map((c) => c.severity),
    notChecked,
    knockedOut,
  );
  const decision = decisionFor(score, knockedOut);
  const dataConfidence = dataConfidenceFor(notChecked);
  const review = needsManualReview(decision, sorted, dataConfidence);
  return {
    ...structuredClone(profile),
    score,
    grade: gradeFor(score),
    decision,
    verdict: verdictFor(decision, firedChecks.length, review),
    needs_manual_review: review,
    knockout: { triggered: knockedOut, reasons: knockouts.map((c) => ({ code: c.knockout.code, message: c.knockout.message })) },
    reasons: sorted,
    checks: {
      total: CHECKS.length,
      triggered: firedChecks.length,
      passed: CHECKS.length - firedChecks.length - notChecked,
      not_checked: notChecked,
    },
    data_confidence: dataConfidence,
  };
}

function validate(list: readonly DatedChange[]): DatedChange[] {
  return list.map((c, i) => {
    if (typeof c?.dot !== 'string' || !/^\d{1,8}$/.test(c.dot))
      throw new Error(`datedChanges[${i}].dot must be a DOT number of 1 to 8 digits`);
    if (typeof c.from !== 'string' || Number.isNaN(Date.parse(c.from))) throw new Error(`datedChanges[${i}].from must be an ISO date`);
    if (!DATED_CHANGE_KINDS.includes(c.change))
      throw new Error(`datedChanges[${i}].change must be one of ${DATED_CHANGE_KINDS.join(', ')}`);
    return { dot: canonicalDot(c.dot), from: new Date(Date.parse(c.from)).toISOString(), change: c.change };
  });
}

/** The changes of one emulator instance. */
export class DatedChanges {
  readonly #explicit: DatedChange[] | undefined;

  constructor(
    list: readonly DatedChange[] | undefined,
    private readonly startedAt: Date,
  ) {
    this.#explicit = list === undefined ? undefined : validate(list);
  }

  /** The changes of this DOT number in effect at `now`, oldest first. */
  inEffect(dot: string, now: Date): DatedChange[] {
    const d = canonicalDot(dot);
    const all = this.#explicit
      ? this.#explicit.filter((c) => c.dot === d)
      : [defaultDatedChange(d, this.startedAt)].filter((c) => c !== undefined);
    return all.filter((c) => Date.parse(c.from) <= now.getTime()).sort((a, b) => a.from.localeCompare(b.from));
  }

  /** The profile as it is at `now`. */
  apply(profile: CarrierProfile, now: Date): CarrierProfile {
    return this.inEffect(profile.carrier.dot_number, now).reduce((p, c) => applyDatedChange(p, c.change), profile);
  }
}
