import type { SvcScore } from './svc-contract.js';

/**
 * The tender-action rules: every /v1 answer (or the lack of one) becomes an action the TMS
 * can act on. This file is the only place these rules live.
 */

export type TenderAction = 'tender' | 'hold' | 'block';
export type HoldReason =
  | 'manual_review'
  | 'unknown_decision'
  | 'scoring_unavailable'
  | 'quota_exhausted'
  | 'service_error'
  | (string & {});

export interface ActionVerdict {
  action: TenderAction;
  hold_reason: HoldReason | null;
  /** A hold is for a person: it needs a review item. */
  needs_review: boolean;
}

const BLOCK: ActionVerdict = { action: 'block', hold_reason: null, needs_review: false };
const TENDER: ActionVerdict = { action: 'tender', hold_reason: null, needs_review: false };
const hold = (hold_reason: HoldReason): ActionVerdict => ({ action: 'hold', hold_reason, needs_review: true });

/** Action for a score. Knockout wins over everything; an unknown decision is never guessed. */
export function actionForScore(score: Pick<SvcScore, 'decision' | 'needs_manual_review' | 'knockout'>): ActionVerdict {
  if (score.knockout?.triggered) return BLOCK;
  switch (score.decision) {
    case 'rejected':
    case 'high_risk':
      return BLOCK;
    case 'approved':
      return score.needs_manual_review ? hold('manual_review') : TENDER;
    case 'review':
      return hold('manual_review');
    default:
      return hold('unknown_decision');
  }
}

/** Why no score could be had. */
export type NoScoreCause = 'carrier_not_found' | 'scoring_unavailable' | 'quota_exhausted' | 'service_error';

/** Action when there is no usable score (no fresh answer and no usable cached one). */
export function actionWithoutScore(cause: NoScoreCause): ActionVerdict {
  if (cause === 'carrier_not_found') return BLOCK;
  return hold(cause);
}

/** The screening error code of a local block (the broker's own do-not-use list). */
export const LOCAL_BLOCK_CODE = 'local_block';

/**
 * A carrier on the local do-not-use list is blocked whatever /v1 says (or would say: it is
 * checked before any /v1 call). No hold, no review item; the reason rides in the screening's
 * error `{ code: 'local_block', message }`.
 */
export function actionForLocalBlock(): ActionVerdict {
  return BLOCK;
}
