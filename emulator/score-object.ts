/** Turns a carrier's scored profile into the /v1 score object (`object` = `svc_score`). */
import type { SvcScore } from '../shared/svc-contract.js';
import { hash32 } from './prng.js';

/** Everything about a scored carrier that does not depend on the instance or the clock. */
export interface CarrierProfile {
  carrier: { dot_number: string; mc_number: string | null; legal_name: string | null; dba_name: string | null };
  score: number;
  grade: string;
  decision: string;
  verdict: string | null;
  needs_manual_review: boolean;
  knockout: { triggered: boolean; reasons: { code: string; message: string }[] };
  reasons: { check: string; area: string; severity: string; detail: string; facts: { label: string; value: string }[] }[];
  checks: { total: number; triggered: number; passed: number; not_checked: number };
  flags: string[];
  data_confidence: number | null;
}

export const MODEL_VERSION = { live: 'crs-3.5', sandbox: 'crs-3.5-sandbox' } as const;

const DAY_MS = 86_400_000;

/**
 * Scores change at most daily: the score was "calculated" yesterday (UTC) at a time of day
 * fixed per carrier, so it is always in the past and stable for a whole day.
 */
export function calculatedAt(dot: string, now: Date): string {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return new Date(today - DAY_MS + (hash32(`calc:${dot}`) % 86_400) * 1000).toISOString();
}

/** A fresh, deep copy every time: callers (fault injection) may change it. */
export function scoreBody(profile: CarrierProfile, mode: 'sandbox' | 'live', now: Date): SvcScore {
  const p = structuredClone(profile);
  return {
    object: 'svc_score',
    livemode: mode === 'live',
    carrier: p.carrier,
    score: p.score,
    grade: p.grade,
    decision: p.decision,
    verdict: p.verdict,
    needs_manual_review: p.needs_manual_review,
    knockout: p.knockout,
    reasons: p.reasons,
    checks: p.checks,
    flags: p.flags,
    data_confidence: p.data_confidence,
    model_version: MODEL_VERSION[mode],
    calculated_at: calculatedAt(p.carrier.dot_number, now),
  };
}
