/**
 * The synthetic "live" dataset: every DOT number of 1–8 digits maps, through a hash of the
 * number, to a carrier (or to none, for about 3%), scored by the model in score-model.ts.
 * MC numbers map to DOT numbers through a fixed bijection, so both lookups agree.
 */
import { CHECKS, type CheckDef, type CheckSeverity } from './check-catalog.js';
import { hash32, seededRng, type Rng } from './prng.js';
import type { CarrierProfile } from './score-object.js';
import { dataConfidenceFor, decisionFor, gradeFor, modelScore, needsManualReview, sortReasons, verdictFor } from './score-model.js';

/** Share of DOT numbers with no carrier behind them. */
export const NOT_FOUND_SHARE = 0.03;
/** Share of found carriers with at least one knockout. */
export const KNOCKOUT_SHARE = 0.06;
/** Share of found carriers that have an MC number. */
const MC_SHARE = 0.85;
const DBA_SHARE = 0.18;
/** Chance a non-knockout check fires for an average carrier, by severity (scaled by risk). */
const BASE_RATE: Record<CheckSeverity, number> = { critical: 0.006, review: 0.035, medium: 0.05, low: 0.08 };

// MC ↔ DOT: dot = (mc · A + B) mod 10^8, a bijection because A is coprime with 10^8.
const MOD = 100_000_000n;
const A = 48_271n;
const B = 3_000_017n;
const A_INV = modInverse(A, MOD);

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

/** The DOT number an MC docket number (digits only, no leading zeros needed) belongs to. */
export function mcDigitsToDot(mcDigits: string): string {
  return ((BigInt(mcDigits) * A + B) % MOD).toString();
}

/** The MC docket digits that map to this DOT number (0 means none). */
export function dotToMcDigits(dot: string): string {
  return ((((((BigInt(dot) - B) % MOD) + MOD) % MOD) * A_INV) % MOD).toString();
}

const FIRST = [
  'Prairie',
  'Summit',
  'Coastal',
  'Iron',
  'Golden',
  'Red River',
  'Silver',
  'Northern',
  'Eagle',
  'Lakeshore',
  'Cascade',
  'Heartland',
  'Desert',
  'Pioneer',
  'Liberty',
  'Granite',
  'Bluewater',
  'Timber',
  'Keystone',
  'Frontier',
];
const SECOND = ['Wind', 'Star', 'Line', 'Horse', 'Peak', 'Valley', 'Bridge', 'Road', 'Trail', 'Gate', 'Point', 'Creek'];
const KIND = ['Logistics', 'Transport', 'Trucking', 'Freight', 'Carriers', 'Express', 'Hauling', 'Freight Lines'];
const SUFFIX = ['LLC', 'Inc', 'Co', 'Corp', 'LLC', 'Inc'];

function companyName(r: Rng): string {
  return `${r.pick(FIRST)} ${r.pick(SECOND)} ${r.pick(KIND)} ${r.pick(SUFFIX)}`;
}

const KNOCKOUT_CHECKS = CHECKS.filter((c) => c.knockout);
/** How often each knockout is the first one to fire, in KNOCKOUT_CHECKS order. */
const KNOCKOUT_WEIGHTS: Record<string, number> = {
  authority_active: 0.45,
  bipd_on_file: 0.3,
  out_of_service_order: 0.15,
  safety_rating_unsatisfactory: 0.1,
};
/** Pairs that cannot both fire: the second is skipped when the first did. */
const EXCLUDES: Record<string, string> = {
  bipd_on_file: 'bipd_below_required',
  safety_rating_unsatisfactory: 'safety_rating_conditional',
  single_power_unit: 'drivers_fewer_than_units',
};

function pickKnockout(r: Rng): CheckDef {
  let u = r.next();
  for (const c of KNOCKOUT_CHECKS) {
    u -= KNOCKOUT_WEIGHTS[c.id] ?? 0;
    if (u < 0) return c;
  }
  return KNOCKOUT_CHECKS[0] as CheckDef;
}

/** Canonical DOT number: digits without leading zeros ("0" stays "0"). */
export function canonicalDot(dot: string): string {
  return String(Number(dot));
}

/** The live carrier with this (canonical) DOT number, or undefined when there is none. */
export function liveCarrier(dot: string): CarrierProfile | undefined {
  if (dot === '0') return undefined;
  const r = seededRng(hash32(`crs-3.5:${dot}`));
  if (r.chance(NOT_FOUND_SHARE)) return undefined;

  const legalName = companyName(r);
  const dbaName = r.chance(DBA_SHARE) ? `${r.pick(FIRST)} ${r.pick(KIND)}` : null;
  const mcDigits = dotToMcDigits(dot);
  const mcNumber = r.chance(MC_SHARE) && mcDigits !== '0' ? `MC${mcDigits}` : null;

  // One risk level per carrier makes problems cluster, as they do in real data.
  const risk = r.next();
  const scale = 0.2 + 3.5 * risk ** 3;

  const fired = new Set<string>();
  if (r.chance(KNOCKOUT_SHARE)) {
    fired.add(pickKnockout(r).id);
    if (r.chance(0.3)) fired.add(pickKnockout(r).id);
  }
  for (const c of CHECKS) {
    if (c.knockout) continue;
    const p = Math.min(0.9, BASE_RATE[c.severity] * scale);
    if (r.chance(p)) fired.add(c.id);
  }
  for (const [first, second] of Object.entries(EXCLUDES)) if (fired.has(first)) fired.delete(second);

  const canSkip = CHECKS.filter((c) => !c.knockout && !fired.has(c.id));
  const wantSkipped = r.chance(0.6) ? 0 : r.chance(0.75) ? r.int(1, 3) : r.int(4, 10);
  const skipped = new Set<string>();
  while (skipped.size < Math.min(wantSkipped, canSkip.length)) skipped.add(r.pick(canSkip).id);

  const firedChecks = CHECKS.filter((c) => fired.has(c.id));
  const reasons = sortReasons(
    firedChecks.map((c) => {
      const f = c.finding(r);
      return { check: c.name, area: c.area, severity: c.severity, detail: f.detail, facts: f.facts };
    }),
  );
  const knockouts = firedChecks.filter((c) => c.knockout).map((c) => ({ code: c.knockout!.code, message: c.knockout!.message }));
  const knockedOut = knockouts.length > 0;
  const notChecked = skipped.size;
  const score = modelScore(
    firedChecks.map((c) => c.severity),
    notChecked,
    knockedOut,
  );
  const decision = decisionFor(score, knockedOut);
  const dataConfidence = dataConfidenceFor(notChecked);
  const review = needsManualReview(decision, reasons, dataConfidence);
  const flags: string[] = [];
  if (fired.has('dual_authority')) flags.push('dual_authority');
  if (fired.has('authority_age')) flags.push('new_authority');

  return {
    carrier: { dot_number: dot, mc_number: mcNumber, legal_name: legalName, dba_name: dbaName },
    score,
    grade: gradeFor(score),
    decision,
    verdict: verdictFor(decision, firedChecks.length, review),
    needs_manual_review: review,
    knockout: { triggered: knockedOut, reasons: knockouts },
    reasons,
    checks: {
      total: CHECKS.length,
      triggered: firedChecks.length,
      passed: CHECKS.length - firedChecks.length - notChecked,
      not_checked: notChecked,
    },
    flags,
    data_confidence: dataConfidence,
  };
}

/** The live carrier with this MC number (digits), or undefined. */
export function liveCarrierByMc(mcDigits: string): CarrierProfile | undefined {
  const dot = mcDigitsToDot(mcDigits);
  const c = liveCarrier(dot);
  return c && c.carrier.mc_number === `MC${String(Number(mcDigits))}` ? c : undefined;
}
