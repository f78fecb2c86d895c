import type { DecisionState } from '../../shared/screening.js';

/** The decisions' list filter, as both backends spell it (decisions-repo.ts, pg/decisions-repo.ts). */

/** Which decisions a list reads: values as stored (a DOT number canonical). `ended`: lapsed or revoked. */
export interface DecisionRowFilter {
  dot_number?: string;
  state?: DecisionState | 'ended';
}

/**
 * The filter's WHERE terms and named parameters (`@dot`, `@state`); `ended` (lapsed or revoked) is
 * spelt as the partial index's own term (decisions_ended_by_ended), so the planner may read it.
 */
export function decisionFilter(f: DecisionRowFilter): { where: string[]; params: Record<string, unknown>; ended: boolean } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (f.dot_number !== undefined) {
    where.push('dot_number = @dot');
    params.dot = f.dot_number;
  }
  const ended = f.state === 'ended';
  if (ended) where.push("state IN ('lapsed', 'revoked')");
  else if (f.state !== undefined) {
    where.push('state = @state');
    params.state = f.state;
  }
  return { where, params, ended };
}
