import type { CarrierQuery } from './carrier-id.js';
import type { SvcScore } from './svc-contract.js';
import type { HoldReason, TenderAction } from './tender-rules.js';

/** What the TMS gets back, and what the tray shows. The contract is in DESIGN.md ("Screening"). */

export type ScreeningStatus = 'queued' | 'active' | 'done';
export type ScreeningSource = 'cache' | 'service' | 'stale_cache' | 'none';
export type Priority = 'tender' | 'background';
export type ReviewState = 'pending' | 'approved' | 'rejected';

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

export interface Screening {
  object: 'screening';
  id: string;
  tender_id: string | null;
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
  review: ReviewSummary | null;
  error: ScreeningError | null;
  callback_url: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface ScreeningRequest {
  query: CarrierQuery;
  tender_id?: string | null;
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
  screening: Screening;
}

export interface QuotaStatus {
  livemode: boolean;
  monthly_quota: number | null;
  used: number | null;
  remaining: number | null;
  /** When the quota gate reopens / the month resets (ISO, UTC). */
  resets_at: string;
  /** closed: no live score calls until resets_at (or usage shows room). */
  gate: 'open' | 'reserve' | 'closed';
  reserve: number | null;
  updated_at: string | null;
}

export interface StatusReport {
  object: 'status';
  environment: 'sandbox' | 'live';
  queue: { waiting: number; active: number; delayed: number; failed: number; completed: number; paused: boolean };
  quota: QuotaStatus;
  rate_limit: { per_minute: number | null; remaining: number | null; resets_at: string | null };
  reviews: { pending: number };
  service: { reachable: boolean; checked_at: string | null; last_error: string | null; key_rejected: boolean };
}

export interface DailyUsage {
  object: 'usage_daily';
  month: string;
  monthly_quota: number | null;
  days: Array<{ day: string; lookups: number }>;
}

export type IntakeEventName =
  | 'screening.completed'
  | 'review.created'
  | 'review.resolved'
  | 'quota.changed'
  | 'queue.changed'
  | (string & {});

export interface IntakeEvent<T = unknown> {
  id: number;
  event: IntakeEventName;
  data: T;
}

/** Error body of the intake API. */
export interface IntakeErrorBody {
  error: { code: string; message: string; param?: string };
}
