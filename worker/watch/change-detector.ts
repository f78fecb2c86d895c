import type { CarrierSnapshot, ChangeFinding, ChangeFindings, ChangeReason, Screening } from '../../shared/screening.js';
import { actionForScore } from '../../shared/tender-rules.js';

/**
 * What counts as a change of a watched carrier (docs/watchlist.md):
 * - the tender action its score leads to changed (tender / hold / block), or
 * - the /v1 decision changed, or
 * - a knockout code appeared that was not there before, or
 * - the grade fell across the threshold: from A, B or C to D, F (or a grade we do not know).
 * `model_version_changed` is added as context when one of the above came with a new model.
 * A score moving within a band (94 → 91) is not a change.
 */

/** Grades at or above the threshold; anything else (D, F, a new grade) is below it. */
export const GOOD_GRADES: ReadonlySet<string> = new Set(['A', 'B', 'C']);

/** The scored state a finished screening shows, or undefined when it carries no score. */
export function snapshotOf(s: Screening): CarrierSnapshot | undefined {
  const score = s.score;
  if (!score || s.status !== 'done') return undefined;
  const v = actionForScore(score);
  return {
    action: v.action,
    hold_reason: v.hold_reason,
    decision: String(score.decision),
    score: typeof score.score === 'number' ? score.score : null,
    grade: typeof score.grade === 'string' ? score.grade : null,
    knockout_codes: knockoutCodes(score.knockout),
    model_version: String(score.model_version),
    screening_id: s.id,
    fetched_at: s.score_fetched_at ?? s.completed_at ?? s.created_at,
  };
}

function knockoutCodes(k: unknown): string[] {
  const reasons = (k as { triggered?: unknown; reasons?: unknown } | null)?.reasons;
  if (!Array.isArray(reasons)) return [];
  const codes = reasons.map((r) => (r as { code?: unknown } | null)?.code).filter((c): c is string => typeof c === 'string');
  return [...new Set(codes)].sort();
}

/** Why `after` is a change from `before`; empty when it is not one. */
export function detectChanges(before: CarrierSnapshot, after: CarrierSnapshot): ChangeReason[] {
  const reasons: ChangeReason[] = [];
  if (before.action !== after.action) reasons.push('action_changed');
  if (before.decision !== after.decision) reasons.push('decision_changed');
  if (after.knockout_codes.some((c) => !before.knockout_codes.includes(c))) reasons.push('new_knockout');
  const wasGood = before.grade !== null && GOOD_GRADES.has(before.grade);
  const isGood = after.grade !== null && GOOD_GRADES.has(after.grade);
  if (wasGood && !isGood) reasons.push('grade_drop');
  if (reasons.length > 0 && before.model_version !== after.model_version) reasons.push('model_version_changed');
  return reasons;
}

/** A score's findings: its reasons by check, its knockouts by code (the first of each identity). */
export function findingsOf(score: Screening['score']): ChangeFinding[] {
  if (!score) return [];
  const out = new Map<string, ChangeFinding>();
  const reasons: unknown = score.reasons;
  if (Array.isArray(reasons))
    for (const r of reasons as Array<Record<string, unknown> | null>) {
      if (!r || typeof r.check !== 'string') continue;
      const id = `reason:${r.check}`;
      if (!out.has(id))
        out.set(id, {
          kind: 'reason',
          code: r.check,
          severity: typeof r.severity === 'string' ? r.severity : 'unknown',
          area: typeof r.area === 'string' ? r.area : null,
          detail: typeof r.detail === 'string' ? r.detail : '',
        });
    }
  const kos: unknown = (score.knockout as { reasons?: unknown } | null)?.reasons;
  if (Array.isArray(kos))
    for (const k of kos as Array<Record<string, unknown> | null>) {
      if (!k || typeof k.code !== 'string') continue;
      const id = `knockout:${k.code}`;
      if (!out.has(id))
        out.set(id, {
          kind: 'knockout',
          code: k.code,
          severity: 'critical',
          area: null,
          detail: typeof k.message === 'string' ? k.message : '',
        });
    }
  return [...out.values()];
}

/**
 * The findings `after` has that `before` had not, and those it no longer has, compared by
 * identity (a reason's check, a knockout's code), not by wording: a reworded detail is no change.
 * Undefined when the old score is not known.
 */
export function diffFindings(before: Screening['score'] | undefined, after: Screening['score']): ChangeFindings | undefined {
  if (!before || !after) return undefined;
  const id = (f: ChangeFinding): string => `${f.kind}:${f.code}`;
  const b = findingsOf(before);
  const a = findingsOf(after);
  const had = new Set(b.map(id));
  const has = new Set(a.map(id));
  return { added: a.filter((f) => !had.has(id(f))), removed: b.filter((f) => !has.has(id(f))) };
}
