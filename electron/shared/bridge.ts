import type { DailyUsage, IntakeEvent, Review, ReviewState, Screening, StatusReport } from '../../shared/screening.js';

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
  | 'closed'; // stopped on purpose

export type ReviewVerdict = 'approve' | 'reject';

export interface ReviewDecision {
  /** The dispatcher's name, as recorded on the review. */
  by: string;
  note: string;
}

export interface DeskSettingsView {
  workerUrl: string;
  hasToken: boolean;
  /** False when the OS keychain cannot encrypt; then the token is not saved. */
  canEncrypt: boolean;
}

export interface DeskSettingsInput {
  workerUrl: string;
  /** Omitted or empty: keep the saved token. */
  token?: string;
}

/** Settings live only in the Electron main; the browser build has none. */
export interface DeskSettingsBridge {
  get(): Promise<DeskSettingsView>;
  save(input: DeskSettingsInput): Promise<DeskSettingsView>;
}

export interface DeskBridge {
  getStatus(): Promise<StatusReport>;
  listReviews(state: ReviewState): Promise<Review[]>;
  resolveReview(id: string, verdict: ReviewVerdict, decision: ReviewDecision): Promise<Review>;
  listScreenings(limit: number): Promise<Screening[]>;
  getScreening(id: string): Promise<Screening>;
  dailyUsage(): Promise<DailyUsage>;
  pauseQueue(): Promise<StatusReport>;
  resumeQueue(): Promise<StatusReport>;
  /** Live events; returns the unsubscribe function. */
  onEvent(cb: (event: IntakeEvent) => void): () => void;
  connectionState(): ConnectionState;
  onConnectionChange(cb: (state: ConnectionState) => void): () => void;
  settings?: DeskSettingsBridge;
}

/** An error answer of the intake, carried across the bridge with its code. */
export class IntakeError extends Error {
  override readonly name = 'IntakeError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly param?: string,
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
}

export function isIntakeErrorShape(v: unknown): v is IntakeErrorShape {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.message === 'string' && typeof o.status === 'number' && typeof o.code === 'string';
}
