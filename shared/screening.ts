import type { CarrierQuery } from './carrier-id.js';
import type { SvcScore } from './svc-contract.js';
import type { HoldReason, TenderAction } from './tender-rules.js';

/** What the TMS gets back, and what the tray shows. The contract is in DESIGN.md ("Screening"). */

/*
 * The vocabulary of the API, once: every set of values a field can take is a list here (the
 * actions and hold reasons in shared/tender-rules.ts), and its type is read from the list. The
 * OpenAPI components (worker/intake/components.ts) build their enums from these lists, the tray
 * keys its words by them (electron/renderer/vocabulary.ts), and test/unit/vocabulary-drift.test.ts
 * fails when a component, a type, a docs table or the tray's words say something else.
 */

export const SCREENING_STATUSES = ['queued', 'active', 'done'] as const;
export type ScreeningStatus = (typeof SCREENING_STATUSES)[number];
/** Where an answer came from (an open set in the API: values may be added within a version). */
export const SCREENING_SOURCES = ['cache', 'service', 'stale_cache', 'none'] as const;
export type ScreeningSource = (typeof SCREENING_SOURCES)[number];
export const PRIORITIES = ['tender', 'background'] as const;
export type Priority = (typeof PRIORITIES)[number];
/** What settled a held screening (an open set in the API). */
export const SETTLED_BY = ['review', 'standing_decision', 'rescreen'] as const;
export type SettledBy = (typeof SETTLED_BY)[number];
/** closed: ended without a person by a blocking score or a local block; superseded: by a re-screen after an outage that gave tender or block. */
export const REVIEW_STATES = ['pending', 'approved', 'rejected', 'closed', 'superseded'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
/** What closed a review without a person (docs/decisions.md): a blocking score, or the carrier put on the do-not-use list. */
export const REVIEW_CLOSED_BY = ['blocking_score', 'local_block'] as const;
export type ReviewClosedBy = (typeof REVIEW_CLOSED_BY)[number];
/** What a dispatcher decided about a carrier (a review's approve or reject; a standing decision). */
export const DISPATCHER_DECISIONS = ['approved', 'rejected'] as const;
export type DispatcherDecision = (typeof DISPATCHER_DECISIONS)[number];
/** How a standing decision ended: its basis changed or its TTL passed (lapsed), or a person revoked it. */
export const ENDED_DECISION_STATES = ['lapsed', 'revoked'] as const;
export type EndedDecisionState = (typeof ENDED_DECISION_STATES)[number];
export const DECISION_STATES = ['standing', ...ENDED_DECISION_STATES] as const;
export type DecisionState = (typeof DECISION_STATES)[number];
/** The roles of intake tokens, least first (worker/tokens/roles.ts says what each may do). */
export const CALLER_ROLES = ['metrics', 'tms', 'desk', 'admin'] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];
/** The quota gate: open, kept for tenders (reserve), or closed until the month resets. */
export const QUOTA_GATES = ['open', 'reserve', 'closed'] as const;
export type QuotaGate = (typeof QUOTA_GATES)[number];
export const ENVIRONMENTS = ['sandbox', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
/** The events of GET /events (an open set: a listener ignores one it does not know). */
export const INTAKE_EVENT_NAMES = [
  'screening.completed',
  'review.created',
  'review.updated',
  'review.resolved',
  'carrier.changed',
  'change.acknowledged',
  'quota.changed',
  'queue.changed',
  'decision.lapsed',
  'decision.revoked',
] as const;
/** Why a watched carrier counts as changed (an open set in the API). */
export const CHANGE_REASONS = ['action_changed', 'decision_changed', 'new_knockout', 'grade_drop', 'model_version_changed'] as const;
export const CHANGE_STATES = ['new', 'acknowledged'] as const;
export type ChangeState = (typeof CHANGE_STATES)[number];
/** A finding of a score: a check that found something (a reason) or a knockout. */
export const FINDING_KINDS = ['reason', 'knockout'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];
export const LOCAL_BLOCK_STATES = ['active', 'lifted'] as const;
export type LocalBlockState = (typeof LOCAL_BLOCK_STATES)[number];

export interface ScreeningError {
  code: string;
  message: string;
  request_id: string | null;
}

export interface ReviewSummary {
  id: string;
  state: ReviewState;
  decided_by: string | null;
  decided_at: string | null;
  note: string | null;
}

/**
 * The load a tender is for, as the TMS sent it with POST /screenings (DESIGN.md "Intake API"):
 * every field optional; `pickup_at` is ISO 8601 with its offset. Shown on the desk for triage;
 * it never changes the action.
 */
export interface LoadDetails {
  pickup_at?: string;
  origin?: string;
  destination?: string;
  equipment?: string;
  customer_ref?: string;
}

export interface Screening {
  object: 'screening';
  id: string;
  tender_id: string | null;
  /** The load details sent with the request, as sent; null when none were. */
  load: LoadDetails | null;
  status: ScreeningStatus;
  query: CarrierQuery;
  priority: Priority;
  /** The request skipped the cache ("re-check now"). */
  refresh: boolean;
  action: TenderAction | null;
  hold_reason: HoldReason | null;
  source: ScreeningSource | null;
  /** The /v1 score object as received: unknown fields kept. */
  score: SvcScore | null;
  /** When the score was fetched from /v1 (its age when served from cache). */
  score_fetched_at: string | null;
  /**
   * How old the score was when the screening was answered, in seconds (completed_at −
   * score_fetched_at); null without a score. With `source: "stale_cache"` it says how old the
   * score /v1's outage left us with was.
   */
  score_age_seconds: number | null;
  review: ReviewSummary | null;
  /**
   * What settled a held screening: its carrier's review, or a standing decision
   * (docs/decisions.md). `action` is what to do now; `hold_reason` stays as why it was held.
   */
  settled_by: SettledBy | null;
  /** The standing decision that settled this screening at once (no new review), as it was then. */
  standing_decision: StandingDecisionRef | null;
  error: ScreeningError | null;
  callback_url: string | null;
  created_at: string;
  completed_at: string | null;
  /** When it last changed: created, completed, or settled by its review (GET /screenings?updated_since=). */
  updated_at: string;
  /**
   * Grows with every change of this screening (its result, its review, what settled it). A TMS
   * applies a callback or a read only when its version is newer than the one it holds (docs/callbacks.md).
   */
  version: number;
}

export interface ScreeningRequest {
  query: CarrierQuery;
  tender_id?: string | null;
  load?: LoadDetails | null;
  callback_url?: string | null;
  priority?: Priority;
  /** Skip the cache and ask /v1 now. */
  refresh?: boolean;
}

export interface Review {
  object: 'review';
  id: string;
  screening_id: string;
  state: ReviewState;
  hold_reason: HoldReason;
  decided_by: string | null;
  decided_at: string | null;
  note: string | null;
  created_at: string;
  /** When it last changed: opened, a tender joined it, newer facts shown, decided or closed. */
  updated_at: string;
  /** The screening that opened the review (the carrier's first held tender). */
  screening: Screening;
  /** Every held tender of this carrier waiting on (or settled by) this review, oldest first. */
  tenders: ReviewTender[];
  /** Set on a tender's own review item that waits on its carrier's open review: that review's id. */
  waits_on: string | null;
  /** A review opened after the carrier's decision lapsed: that decision and what changed. */
  previous_decision: PreviousDecision | null;
  /**
   * The version of the facts the review shows: 1 when opened, +1 whenever they change (a newer
   * score attached, the review closed). A decision names the version it saw (`review_version`).
   * A tender's own item shows its carrier's review's.
   */
  version: number;
  /** The newest facts about the carrier: the screening whose score the review shows now. */
  latest: ReviewFacts;
  /** Set when state is `closed`: what closed it, in words too. */
  closed_by: ReviewClosedBy | null;
  closed_reason: string | null;
  /** The credential that decided (an intake token's id, or `intake_token`); null until decided or when closed. */
  token_id: string | null;
}

/** The newest facts a review shows (docs/decisions.md). */
export interface ReviewFacts {
  /** The screening the newest score came with (the review's own until a newer one arrives). */
  screening_id: string;
  score: SvcScore | null;
  score_fetched_at: string | null;
  /** What differs between the score the review was opened on and this one (basis.ts); empty when none. */
  changes: string[];
}

/** Who a bearer token is (GET /me); `token_id` and `name` are null for INTAKE_TOKEN. */
export interface Caller {
  object: 'caller';
  token_id: string | null;
  name: string | null;
  role: CallerRole;
}

export interface ReviewTender {
  screening_id: string;
  tender_id: string | null;
  /** The tender's load details as sent (its pickup, lane, equipment); null when none were. */
  load: LoadDetails | null;
  action: TenderAction | null;
  created_at: string;
}

/** A dispatcher's decision about a carrier, standing for later screenings while the basis holds. */
export interface StandingDecisionRef {
  id: string;
  review_id: string;
  decision: DispatcherDecision;
  decided_by: string;
  /** The credential that decided (absent on decisions made before token ids were recorded). */
  token_id?: string | null;
  decided_at: string;
  expires_at: string;
  model_version: string | null;
}

/** The carrier's last decision, shown on a review opened after it ended. */
export interface PreviousDecision extends StandingDecisionRef {
  /** lapsed (the score's basis changed, or the TTL passed) or revoked. Absent on reviews opened before 2026-11-25. */
  state?: EndedDecisionState;
  ended_at?: string | null;
  ended_by?: string | null;
  /** A revoke's note. */
  note?: string | null;
  /** What changed in the basis (a lapse); empty for a revoke. */
  changes: string[];
}

export interface Decision extends StandingDecisionRef {
  object: 'decision';
  dot_number: string | null;
  mc_number: string | null;
  /** The carrier's name as the decided score gave it (legal, else DBA). */
  legal_name: string | null;
  state: DecisionState;
  /** What the decision rests on: decision, grade, needs_manual_review, knockout codes, reason checks. */
  basis: Record<string, unknown>;
  ended_at: string | null;
  ended_by: string | null;
  /** The credential that revoked it; null for a lapse. */
  ended_token_id: string | null;
  /** Why it ended: what changed in the score's basis, the TTL, or a revoke's note. */
  end_reason: string | null;
  updated_at: string;
}

export interface QuotaStatus {
  livemode: boolean;
  monthly_quota: number | null;
  used: number | null;
  remaining: number | null;
  /** When the quota gate reopens / the month resets (ISO, UTC). */
  resets_at: string;
  /** closed: no live score calls until resets_at (or usage shows room). */
  gate: QuotaGate;
  reserve: number | null;
  updated_at: string | null;
}

export interface StatusReport {
  object: 'status';
  environment: Environment;
  queue: { waiting: number; active: number; delayed: number; failed: number; completed: number; paused: boolean };
  quota: QuotaStatus;
  rate_limit: { per_minute: number | null; remaining: number | null; resets_at: string | null };
  /** pending: carriers waiting for a dispatcher; oldest_pending_at: when the longest-waiting one was held. */
  reviews: { pending: number; oldest_pending_at?: string | null };
  /** The callback outbox: owed, delivered (kept a while), given up (POST /callbacks/:id/retry); absent from older workers. */
  callbacks?: { pending: number; delivered: number; dead: number; cancelled?: number };
  /**
   * hold_off_until: /v1 asked (Retry-After) for no calls until then; none are made (at most 1 h ahead).
   * environment_mismatch: an answer came from the other environment than the key's; no calls until restarted with a matching key and URL.
   */
  service: {
    reachable: boolean;
    checked_at: string | null;
    last_error: string | null;
    key_rejected: boolean;
    hold_off_until?: string | null;
    environment_mismatch?: string | null;
  };
}

export interface DailyUsage {
  object: 'usage_daily';
  month: string;
  monthly_quota: number | null;
  days: Array<{ day: string; lookups: number }>;
}

export type IntakeEventName = (typeof INTAKE_EVENT_NAMES)[number] | (string & {});

export interface IntakeEvent<T = unknown> {
  id: number;
  event: IntakeEventName;
  data: T;
}

/** Error body of the intake API. */
export interface IntakeErrorBody {
  /**
   * `resource_id`: on a 409 conflict, the object that is already in the state asked for.
   * `review`: on a 409 review_stale, the review as it is now (its newest facts and version).
   */
  error: { code: string; message: string; param?: string; resource_id?: string; review?: Review };
}

// ---- watch list, carrier changes, local do-not-use list (docs/watchlist.md) ----

/** What one scored screening said about a carrier: the state a change is measured against. */
export interface CarrierSnapshot {
  /** The tender action the /v1 score alone leads to (shared/tender-rules.ts), local blocks aside. */
  action: TenderAction;
  hold_reason: HoldReason | null;
  decision: string;
  score: number | null;
  grade: string | null;
  knockout_codes: string[];
  model_version: string;
  screening_id: string;
  /** When /v1 produced the score (the screening's score_fetched_at). */
  fetched_at: string;
}

export interface WatchEntry {
  object: 'watch_entry';
  dot_number: string | null;
  /** Known when added by MC number or seen in a score. */
  mc_number: string | null;
  note: string | null;
  /** Added by the TMS (POST /watchlist): watched until removed. */
  manual: boolean;
  added_at: string;
  last_tender_at: string | null;
  /** last_tender_at + SCREEN_WATCH_DAYS; null for a manual entry never tendered. */
  watch_until: string | null;
  last_checked_at: string | null;
  /** When the daily re-screen of this carrier is next due. */
  next_check_at: string;
  /** The latest scored state; null until one is seen. */
  last: CarrierSnapshot | null;
  updated_at: string;
}

export type ChangeReason = (typeof CHANGE_REASONS)[number] | (string & {});

export interface ChangeTender {
  tender_id: string;
  screening_id: string;
  screened_at: string;
  /**
   * What the tender got, as its screening stood when the change was found: `tender` went out,
   * `hold` waits for a dispatcher, `block`; null when not yet answered. Absent on changes found
   * before it was recorded (read as unknown).
   */
  action?: TenderAction | null;
  hold_reason?: HoldReason | null;
  /** What settled a held tender: its review, a standing decision, or a re-screen; null when nothing did. */
  settled_by?: Screening['settled_by'];
}

/** One finding of a score: a check that found something (by `check`) or a knockout (by `code`). */
export interface ChangeFinding {
  kind: FindingKind;
  /** Its identity: the reason's check, or the knockout's code. */
  code: string;
  /** The reason's severity; `critical` for a knockout. */
  severity: string;
  area: string | null;
  detail: string;
}

/** The findings the new score has that the old one had not (added), and the other way round (removed). */
export interface ChangeFindings {
  added: ChangeFinding[];
  removed: ChangeFinding[];
}

export interface CarrierChange {
  object: 'carrier_change';
  id: string;
  dot_number: string | null;
  mc_number: string | null;
  legal_name: string | null;
  reasons: ChangeReason[];
  before: CarrierSnapshot;
  after: CarrierSnapshot;
  /** The screening that saw the change. */
  screening_id: string;
  /** Tenders of the last SCREEN_WATCH_DAYS days that used this carrier. */
  tenders: ChangeTender[];
  /** Findings added and removed between the old score and the new (absent from a worker older than migration 29); null when not known (the old score is gone, or a change found before they were recorded). */
  findings?: ChangeFindings | null;
  state: ChangeState;
  acknowledged_by: string | null;
  acknowledged_at: string | null;
  /** Why it was acknowledged, as the dispatcher wrote it (at most 500 characters); null without one. */
  ack_note?: string | null;
  detected_at: string;
  updated_at: string;
}

export interface LocalBlock {
  object: 'local_block';
  id: string;
  dot_number: string | null;
  mc_number: string | null;
  reason: string;
  state: LocalBlockState;
  blocked_by: string;
  blocked_at: string;
  /** The credentials that blocked and lifted it (null on blocks made before token ids were recorded). */
  token_id: string | null;
  lifted_by: string | null;
  lifted_at: string | null;
  lifted_token_id: string | null;
  /** Why it was lifted (null: no note, or lifted before notes were kept). */
  lift_note: string | null;
  updated_at: string;
}
