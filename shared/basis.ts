import type { SvcScore } from './svc-contract.js';

/**
 * A score's basis: what a dispatcher's decision about a carrier rests on (docs/decisions.md,
 * "What ends a decision"). While a fresh score has the same basis, the decision stands; any
 * difference ends it. `model_version` is recorded with a decision but is not part of the basis:
 * a model update that leaves a carrier's decision, grade and reasons as they were must not
 * reopen every review.
 */
export interface Basis {
  decision: string;
  grade: string;
  needs_manual_review: boolean;
  knockout_codes: string[];
  /** The checks that found a problem (reasons[].check), as a set. */
  reason_checks: string[];
  /**
   * Since basis version 2: each check's severity (`critical`, `review`, `medium`, `low`, or a
   * value /v1 adds later; several reasons of one check: their severities, sorted, joined by ",").
   */
  reason_severities?: Record<string, string>;
  /** Since version 2: the score's flags, as a set. */
  flags?: string[];
  /** Since version 2: the share of core inputs /v1 had (0–1), or null when it did not say. */
  data_confidence?: number | null;
  /** 2 for bases with severities, flags and data_confidence; absent on older ones. */
  version?: 2;
}

/** A decision ends when data_confidence falls below this (from at or above it)… */
export const DATA_CONFIDENCE_FLOOR = 0.75;
/** …or falls by this much or more from what was decided on (0.95 → 0.85). */
export const DATA_CONFIDENCE_DROP = 0.1;

const sortedSet = (xs: string[]): string[] => [...new Set(xs)].sort();

export function basisOf(score: SvcScore): Basis {
  const severities: Record<string, string> = {};
  for (const check of sortedSet(score.reasons.map((r) => r.check)))
    severities[check] = sortedSet(score.reasons.filter((r) => r.check === check).map((r) => String(r.severity))).join(',');
  return {
    decision: score.decision,
    grade: score.grade,
    needs_manual_review: score.needs_manual_review,
    knockout_codes: sortedSet(score.knockout.reasons.map((r) => r.code)),
    reason_checks: sortedSet(score.reasons.map((r) => r.check)),
    reason_severities: severities,
    flags: sortedSet(score.flags ?? []),
    data_confidence: typeof score.data_confidence === 'number' ? score.data_confidence : null,
    version: 2,
  };
}

/** What differs between two bases, in words a dispatcher reads; empty when they are the same. */
export function basisChanges(before: Basis, after: Basis): string[] {
  const out: string[] = [];
  if (before.decision !== after.decision) out.push(`decision ${before.decision} → ${after.decision}`);
  if (before.grade !== after.grade) out.push(`grade ${before.grade} → ${after.grade}`);
  if (before.needs_manual_review !== after.needs_manual_review)
    out.push(after.needs_manual_review ? 'now needs manual review' : 'no longer needs manual review');
  // Said in the direction it went. A reason is a check that found a problem, named for what it
  // looks at ("BIPD insurance on file"): a reason appearing is that check failing, not the thing added.
  const diff = (a: string[], b: string[], appeared: string, went: string): void => {
    const added = b.filter((x) => !a.includes(x));
    const removed = a.filter((x) => !b.includes(x));
    if (added.length) out.push(`${appeared}: ${added.join(', ')}`);
    if (removed.length) out.push(`${went}: ${removed.join(', ')}`);
  };
  diff(before.knockout_codes, after.knockout_codes, 'new knockout', 'knockout cleared');
  diff(before.reason_checks, after.reason_checks, 'check now failing', 'check passing again');
  // An older basis kept none of these: the caller decides what that means (basisCheckable).
  if (before.version !== 2 || after.version !== 2) return out;
  for (const check of before.reason_checks.filter((c) => after.reason_checks.includes(c))) {
    const a = before.reason_severities?.[check];
    const b = after.reason_severities?.[check];
    if (a !== b) out.push(`severity of ${check}: ${a ?? '?'} → ${b ?? '?'}`);
  }
  diff(before.flags ?? [], after.flags ?? [], 'flag added', 'flag gone');
  const c0 = before.data_confidence ?? null;
  const c1 = after.data_confidence ?? null;
  if (c0 !== null && c1 === null) out.push(`data_confidence ${c0} → unknown`);
  else if (c0 !== null && c1 !== null) {
    // Rounded: 0.95 → 0.85 is a drop of 0.1, not of 0.0999….
    const drop = Math.round((c0 - c1) * 1e6) / 1e6;
    if (drop >= DATA_CONFIDENCE_DROP || (c0 >= DATA_CONFIDENCE_FLOOR && c1 < DATA_CONFIDENCE_FLOOR))
      out.push(`data_confidence ${c0} → ${c1}`);
  }
  return out;
}

/**
 * A basis recorded before version 2 has no severities, flags or data_confidence: an escalation
 * of a check cannot be seen against it. An approval on such a basis ends at its next comparison
 * (it would otherwise tender on facts nobody checked); a rejection still stands on the older
 * fields (keeping a block cannot tender anyone).
 */
export function uncheckableApproval(decision: 'approved' | 'rejected', before: Basis): string | undefined {
  return decision === 'approved' && before.version !== 2
    ? 'basis recorded before severities, flags and data_confidence were kept: decide again'
    : undefined;
}
