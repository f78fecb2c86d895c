import type { SvcScore } from './svc-contract.js';

/**
 * The tender-action rules: every /v1 answer (or the lack of one) becomes an action the TMS
 * can act on. This file is the only place these rules live.
 */

/**
 * The vocabulary, once: every action and hold reason the worker can give. The OpenAPI enums
 * (worker/intake/components.ts), shared/screening.ts, the README table and the tray's words
 * (electron/renderer/vocabulary.ts) derive from these lists; test/unit/vocabulary-drift.test.ts
 * fails when one of them drifts.
 */
export const TENDER_ACTIONS = ['tender', 'hold', 'block'] as const;
export type TenderAction = (typeof TENDER_ACTIONS)[number];

export const HOLD_REASONS = [
  'manual_review',
  'unknown_decision',
  'scoring_unavailable',
  'quota_exhausted',
  'quota_reserved',
  'service_error',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export interface ActionVerdict {
  action: TenderAction;
  hold_reason: HoldReason | null;
  /** A hold is for a person: it needs a review item. */
  needs_review: boolean;
}

const BLOCK: ActionVerdict = { action: 'block', hold_reason: null, needs_review: false };
const TENDER: ActionVerdict = { action: 'tender', hold_reason: null, needs_review: false };
const hold = (hold_reason: HoldReason): ActionVerdict => ({ action: 'hold', hold_reason, needs_review: true });

/**
 * Action for a score. Knockout wins over everything; an unknown decision is never guessed.
 * A knockout is `triggered: true` or any entry in `knockout.reasons` (the /v1 document: "one
 * entry per knockout"; a triggered knockout makes the decision `rejected`). A score that lists a
 * knockout but says `triggered: false` contradicts itself, and is read the safe way: block.
 */
export function actionForScore(score: Pick<SvcScore, 'decision' | 'needs_manual_review' | 'knockout'>): ActionVerdict {
  if (score.knockout?.triggered || (score.knockout?.reasons?.length ?? 0) > 0) return BLOCK;
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

/** Why no score could be had. `quota_reserved`: background work refused below the quota's reserve. */
export type NoScoreCause = 'carrier_not_found' | 'scoring_unavailable' | 'quota_exhausted' | 'quota_reserved' | 'service_error';

/** Action when there is no usable score (no fresh answer and no usable cached one). */
export function actionWithoutScore(cause: NoScoreCause): ActionVerdict {
  if (cause === 'carrier_not_found') return BLOCK;
  return hold(cause);
}

/**
 * Action for a stale score: /v1 gave no answer (`cause`) and the last score is past
 * SCREEN_CACHE_TTL but within SCREEN_STALE_IF_ERROR. It may block or hold as it says, but it
 * never tenders by itself: past the broker's own freshness bound nobody has checked the
 * carrier, so an `approved` stale score is held for `cause` (re-screened when /v1 or the quota
 * returns). Only a dispatcher's standing decision on the same basis settles it as `tender`.
 */
export function actionForStaleScore(
  score: Pick<SvcScore, 'decision' | 'needs_manual_review' | 'knockout'>,
  cause: 'scoring_unavailable' | 'quota_exhausted' | 'quota_reserved',
): ActionVerdict {
  const v = actionForScore(score);
  return v.action === 'tender' ? hold(cause) : v;
}

/**
 * Whether a hold goes to a person (a review item, a desk card). Not a background screening that
 * no tender waits on and that has no score: there is no load and nothing to decide on (a roster
 * screening refused by the quota reserve); it stays listed as held and is screened again later.
 */
export function holdOpensReview(
  s: { priority: 'tender' | 'background'; tender_id: string | null },
  r: { action: TenderAction; score: unknown },
): boolean {
  if (r.action !== 'hold') return false;
  return !(s.priority === 'background' && s.tender_id === null && r.score === null);
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
