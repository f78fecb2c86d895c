import type { SvcScore } from '../../shared/svc-contract.js';

/**
 * A score's basis: what a dispatcher's decision about a carrier rests on (docs/decisions.md).
 * While a fresh score has the same basis, the decision stands; any difference ends it.
 * `model_version` is recorded with a decision but is not part of the basis: a model update
 * that leaves a carrier's decision, grade and reasons as they were must not reopen every review.
 */
export interface Basis {
  decision: string;
  grade: string;
  needs_manual_review: boolean;
  knockout_codes: string[];
  /** The checks that found a problem (reasons[].check), as a set. */
  reason_checks: string[];
}

const sortedSet = (xs: string[]): string[] => [...new Set(xs)].sort();

export function basisOf(score: SvcScore): Basis {
  return {
    decision: score.decision,
    grade: score.grade,
    needs_manual_review: score.needs_manual_review,
    knockout_codes: sortedSet(score.knockout.reasons.map((r) => r.code)),
    reason_checks: sortedSet(score.reasons.map((r) => r.check)),
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
  return out;
}
