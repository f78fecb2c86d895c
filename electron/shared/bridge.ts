import type {
  Caller,
  CarrierChange,
  DailyUsage,
  Decision,
  DecisionState,
  IntakeEvent,
  LocalBlock,
  Review,
  ReviewState,
  Screening,
  StatusReport,
} from '../../shared/screening.js';

/**
 * What the dashboard needs from the worker, and nothing more. Two implementations:
 * the Electron preload (over IPC, the token stays in main) and HttpBridge (fetch, for
 * the browser build served by the intake at /ui/).
 */

/** Health of the live event stream from the intake. */
export type ConnectionState =
  | 'connecting' // first attempt in progress
  | 'open' // events are flowing
  | 'reconnecting' // lost; retrying with backoff
  | 'unauthorized' // the intake refused the token: retrying will not help
  | 'unconfigured' // no token entered yet (Electron): nothing was tried
  | 'closed'; // stopped on purpose

export type ReviewVerdict = 'approve' | 'reject';

export interface ReviewDecision {
  /** A typed name, only when the token has none (GET /me): a named token's name is recorded. */
  by?: string | null;
  note: string;
  /** Reject only: also put the carrier on the local do-not-use list, in the same step. */
  block?: boolean;
  /** The version of the review the dispatcher saw (Review.version): refused as `review_stale` when the facts moved on. */
  review_version?: number | null;
}

export type DecisionListState = DecisionState | 'all';
export const DECISION_LIST_STATES: readonly DecisionListState[] = ['standing', 'lapsed', 'revoked', 'all'];

/** Screen a carrier again now, skipping the cache: exactly one of dot_number or mc_number. */
export interface RecheckInput {
  dot_number?: string;
  mc_number?: string;
}

/** Which carrier changes to list: still to acknowledge, or the history. */
export type ChangeState = CarrierChange['state'];
export const CHANGE_STATES: readonly ChangeState[] = ['new', 'acknowledged'];

/** A carrier's screenings (GET /screenings filters): by DOT, by MC or by the TMS's load id. */
export interface ScreeningSearch {
  dot_number?: string;
  mc_number?: string;
  tender_id?: string;
}

/** One carrier's lists: only its DOT number filters them at the intake. */
export interface CarrierFilter {
  dot_number?: string;
}

/** One page of a list and whether older items follow (read the next with the last item's id as the cursor). */
export interface HistoryPage<T> {
  data: T[];
  has_more: boolean;
}

export type BlockListState = LocalBlock['state'] | 'all';
export const BLOCK_LIST_STATES: readonly BlockListState[] = ['active', 'lifted', 'all'];

/** Put a carrier on the local do-not-use list: exactly one of dot_number or mc_number. */
export interface BlockInput {
  dot_number?: string;
  mc_number?: string;
  /** The dispatcher's name. */
  by: string;
  reason: string;
}

export interface DeskSettingsView {
  workerUrl: string;
  hasToken: boolean;
  /** False when the OS keychain cannot encrypt; then the token is not saved. */
  canEncrypt: boolean;
  /** Start the tray at login. */
  openAtLogin: boolean;
  /** Something the person must act on (e.g. the saved token could not be read). */
  notice: string | null;
}

export interface DeskSettingsInput {
  workerUrl: string;
  /** Omitted or empty: keep the saved token (same worker address only). */
  token?: string;
  openAtLogin?: boolean;
}

/** Settings live only in the Electron main; the browser build has none. */
export interface DeskSettingsBridge {
  get(): Promise<DeskSettingsView>;
  save(input: DeskSettingsInput): Promise<DeskSettingsView>;
}

export interface DeskBridge {
  getStatus(): Promise<StatusReport>;
  /** Who the token is (GET /me): its name is recorded as who decided, its role decides which tray actions are offered; IntakeError 404 from a worker without /me. */
  whoAmI(): Promise<Caller>;
  listReviews(state: ReviewState): Promise<Review[]>;
  /** The latest approved or rejected reviews, last decided first: one request of one page (GET /reviews?state=decided). */
  recentDecisions(limit: number): Promise<Review[]>;
  resolveReview(id: string, verdict: ReviewVerdict, decision: ReviewDecision): Promise<Review>;
  listScreenings(limit: number): Promise<Screening[]>;
  getScreening(id: string): Promise<Screening>;
  /** Screenings of one carrier or one load, newest first: one page of at most `limit` (1–100). */
  searchScreenings(filter: ScreeningSearch, limit: number): Promise<Screening[]>;
  /** One review (GET /reviews/:id), e.g. for the note of a decision made from it. */
  getReview(id: string): Promise<Review>;
  dailyUsage(): Promise<DailyUsage>;
  pauseQueue(): Promise<StatusReport>;
  resumeQueue(): Promise<StatusReport>;
  /** Changes of watched carriers, newest first. */
  listChanges(state: ChangeState | 'all', filter?: CarrierFilter): Promise<CarrierChange[]>;
  /** Record that `by` (null: the token's name) has seen the change, with an optional `note` (≤500 characters); IntakeError `change_conflict` (409) when someone already did. */
  acknowledgeChange(id: string, by: string | null, note?: string | null): Promise<CarrierChange>;
  /** One page of changes of a state, newest first (at most `limit`, 1–100): what a history panel shows, never every page. */
  recentChanges(state: ChangeState, limit: number): Promise<CarrierChange[]>;
  /** The local do-not-use list; with a DOT number, that carrier's blocks only (newest block first). */
  listBlocks(state: BlockListState, filter?: CarrierFilter): Promise<LocalBlock[]>;
  blockCarrier(input: BlockInput): Promise<LocalBlock>;
  /** Lift the active block of a carrier, by DOT or MC number; `note`: why, kept with the lift. */
  liftBlock(carrier: string, by: string, note?: string): Promise<LocalBlock>;
  /** One page (`limit`, 1–100) of lifted blocks, latest lift first, after the block `startingAfter` (its id) when given. */
  liftedBlocks(limit: number, startingAfter?: string): Promise<HistoryPage<LocalBlock>>;
  /** Standing carrier decisions (docs/decisions.md), newest first. */
  listDecisions(state: DecisionListState, filter?: CarrierFilter): Promise<Decision[]>;
  /** One page (`limit`, 1–100) of ended decisions (lapsed or revoked), latest end first, after the decision `startingAfter` (its id) when given. */
  endedDecisions(limit: number, startingAfter?: string): Promise<HistoryPage<Decision>>;
  /** End a standing decision (`by` null: the token's name); IntakeError `decision_conflict` (409) when it no longer stands. */
  revokeDecision(id: string, by: string | null, note: string): Promise<Decision>;
  /** A fresh score from /v1 (spends a lookup); waits a few seconds for the result. */
  recheckCarrier(input: RecheckInput): Promise<Screening>;
  /**
   * The audit CSV of screenings created in [from, to) (ISO dates), saved where the bridge owns a
   * file dialog (Electron: main streams it into the file the user picks). null: cancelled.
   */
  saveAuditCsv?(from: string, to: string, onProgress: (bytes: number) => void): Promise<AuditSaved | null>;
  /** The same CSV handed to the page chunk by chunk (the browser dashboard saves it itself). */
  streamAuditCsv?(
    from: string,
    to: string,
    write: (chunk: Uint8Array) => Promise<void> | void,
    opts?: { onProgress?: (bytes: number) => void },
  ): Promise<number>;
  /** Live events; returns the unsubscribe function. */
  onEvent(cb: (event: IntakeEvent) => void): () => void;
  connectionState(): ConnectionState;
  onConnectionChange(cb: (state: ConnectionState) => void): () => void;
  settings?: DeskSettingsBridge;
}

/** Where a saved audit CSV went, and its size. */
export interface AuditSaved {
  file: string;
  bytes: number;
}

/** An error answer of the intake, carried across the bridge with its code. */
export class IntakeError extends Error {
  override readonly name = 'IntakeError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly param?: string,
    /** On 409 `review_stale`: the review as it is now. */
    readonly review?: Review,
  ) {
    super(message);
  }
}

/** Structured-clone-safe form of an IntakeError (IPC drops custom classes). */
export interface IntakeErrorShape {
  message: string;
  status: number;
  code: string;
  param?: string;
  review?: Review;
}

export function isIntakeErrorShape(v: unknown): v is IntakeErrorShape {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.message === 'string' && typeof o.status === 'number' && typeof o.code === 'string';
}
