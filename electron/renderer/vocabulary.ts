import type { CHANGE_REASONS, ScreeningSource } from '../../shared/screening.js';
import type { KNOWN_DECISIONS, KNOWN_SEVERITIES, SvcReason } from '../../shared/svc-contract.js';
import type { HoldReason, TenderAction } from '../../shared/tender-rules.js';
import { CHANGE_REASON_TEXT } from '../shared/change-text.js';

/**
 * Words for the values the service and the worker send. Every enumeration is open: a
 * value we do not know is shown by its own name with an "unknown" look, never hidden.
 * Each table has words for exactly the known values of its list (shared/screening.ts,
 * shared/svc-contract.ts, shared/tender-rules.ts): `satisfies` makes a missing or extra one a
 * compile error, and test/unit/vocabulary-drift.test.ts checks them against the API's enums.
 */

type KnownSeverity = (typeof KNOWN_SEVERITIES)[number];

export interface Term {
  /** What to print. */
  label: string;
  /** CSS modifier: a known tone, or 'unknown'. */
  tone: string;
  known: boolean;
  /** Longer explanation, for a tooltip or a sentence. */
  hint?: string;
}

function unknown(value: string, what: string): Term {
  return { label: value, tone: 'unknown', known: false, hint: `${what} "${value}" is new to this app; read the details` };
}

const SEVERITY_RANK: Record<string, number> = { critical: 1, review: 2, medium: 3, low: 4 } satisfies Record<KnownSeverity, number>;

/**
 * "review" has one meaning on the desk: a dispatcher deciding a carrier. The service's own
 * "review" (a decision, a severity) is said as "needs a look".
 */
const SEVERITY_LABEL: Record<string, string> = {
  critical: 'critical',
  review: 'needs a look',
  medium: 'medium',
  low: 'low',
} satisfies Record<KnownSeverity, string>;

export function severityTerm(severity: string): Term {
  if (severity in SEVERITY_RANK) return { label: SEVERITY_LABEL[severity] ?? severity, tone: `sev-${severity}`, known: true };
  return unknown(severity, 'Severity');
}

/**
 * Most serious first. A severity we do not know goes to the top: we cannot tell how
 * serious it is, so a person must see it. The sort is stable (service order within a rank).
 */
export function sortReasons(reasons: readonly SvcReason[]): SvcReason[] {
  const rank = (r: SvcReason): number => SEVERITY_RANK[r.severity] ?? 0;
  return reasons
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map((x) => x.r);
}

const DECISIONS: Record<string, Term> = {
  approved: { label: 'approved', tone: 'ok', known: true },
  review: { label: 'needs a look', tone: 'warn', known: true, hint: 'The scoring service is not sure: a person decides.' },
  high_risk: { label: 'high risk', tone: 'bad', known: true },
  rejected: { label: 'rejected', tone: 'bad', known: true },
} satisfies Record<(typeof KNOWN_DECISIONS)[number], Term>;

export function decisionTerm(decision: string): Term {
  return DECISIONS[decision] ?? unknown(decision, 'Decision');
}

/** Words for every hold reason of shared/tender-rules.ts (the type makes a missing one a compile error). */
export const HOLD_REASON_TERMS: Readonly<Record<HoldReason, Term>> = {
  manual_review: {
    label: 'Service asks a person',
    tone: 'warn',
    known: true,
    hint: 'The scoring service asks a person to look before booking.',
  },
  unknown_decision: {
    label: 'Decision not known to this app',
    tone: 'unknown',
    known: true,
    hint: 'The service sent a decision this app does not know, so it is never guessed: a person decides.',
  },
  scoring_unavailable: {
    label: 'Scoring unavailable',
    tone: 'bad',
    known: true,
    hint: 'The scoring service was unavailable and no usable cached score exists.',
  },
  quota_exhausted: {
    label: 'Quota used up',
    tone: 'bad',
    known: true,
    hint: 'The monthly quota is used up and no usable cached score exists.',
  },
  quota_reserved: {
    label: 'Quota kept for tenders',
    tone: 'warn',
    known: true,
    hint: 'Background work (a roster or re-screen) may not spend the last part of the monthly quota, which is kept for tenders; no lookup was made. Screen it again when the quota allows.',
  },
  service_error: {
    label: 'Service error',
    tone: 'bad',
    known: true,
    hint: 'The scoring service refused the request (for example the API key was rejected).',
  },
};

export function holdReasonTerm(reason: string | null): Term {
  if (reason === null) return { label: 'not held', tone: 'muted', known: true };
  return Object.hasOwn(HOLD_REASON_TERMS, reason) ? HOLD_REASON_TERMS[reason as HoldReason] : unknown(reason, 'Hold reason');
}

const FLAGS: Record<string, Term> = {
  dual_authority: { label: 'dual authority', tone: 'warn', known: true, hint: 'Holds both carrier and broker authority.' },
  new_authority: { label: 'new authority', tone: 'warn', known: true, hint: 'Operating authority granted recently.' },
};

export function flagTerm(flag: string): Term {
  return FLAGS[flag] ?? unknown(flag, 'Flag');
}

export const ACTION_TERMS: Readonly<Record<TenderAction, Term>> = {
  tender: { label: 'tender', tone: 'ok', known: true, hint: 'Book it.' },
  hold: { label: 'hold', tone: 'warn', known: true, hint: 'A dispatcher decides.' },
  block: { label: 'block', tone: 'bad', known: true, hint: 'Do not book.' },
};

export function actionTerm(action: string | null): Term {
  if (action === null) return { label: 'pending', tone: 'muted', known: true };
  return Object.hasOwn(ACTION_TERMS, action) ? ACTION_TERMS[action as TenderAction] : unknown(action, 'Action');
}

const SOURCES: Record<string, Term> = {
  service: { label: 'fresh from the scoring service', tone: 'ok', known: true },
  cache: { label: 'saved score', tone: 'muted', known: true, hint: 'A recent score kept by this app, not asked again.' },
  stale_cache: {
    label: 'OLD saved score',
    tone: 'bad',
    known: true,
    hint: 'An old saved score, because the scoring service could not be asked.',
  },
  none: { label: 'no score', tone: 'bad', known: true },
} satisfies Record<ScreeningSource, Term>;

export function sourceTerm(source: string | null): Term {
  if (source === null) return { label: '—', tone: 'muted', known: true };
  return SOURCES[source] ?? unknown(source, 'Source');
}

const CHANGE_REASON_TONE: Record<string, string> = {
  action_changed: 'bad',
  decision_changed: 'bad',
  new_knockout: 'bad',
  grade_drop: 'warn',
  model_version_changed: 'muted',
} satisfies Record<(typeof CHANGE_REASONS)[number], string>;
const CHANGE_REASON_HINT: Record<string, string> = {
  action_changed: 'What the score leads to (tender, hold, block) is different now.',
  decision_changed: 'The scoring service decides differently now.',
  new_knockout: 'A knockout check fired that did not before.',
  grade_drop: 'The grade fell from A–C to D, F or a grade this app does not know.',
  model_version_changed: 'The change came with a new scoring model version.',
} satisfies Record<(typeof CHANGE_REASONS)[number], string>;

/** Why a watched carrier counts as changed (docs/watchlist.md); a reason we do not know is shown by name. */
export function changeReasonTerm(reason: string): Term {
  const label = CHANGE_REASON_TEXT[reason];
  if (label === undefined) return unknown(reason, 'Change reason');
  return {
    label,
    tone: CHANGE_REASON_TONE[reason] ?? 'muted',
    known: true,
    ...(CHANGE_REASON_HINT[reason] ? { hint: CHANGE_REASON_HINT[reason] } : {}),
  };
}
