import type { DailyUsage, Decision, IntakeEvent, Review, Screening, ScreeningRequest, StatusReport } from '../shared/screening.js';
import type { DestinationPolicy } from './callbacks/destination-policy.js';
import type { DecisionFilter } from './decisions/carrier-decisions.js';
import type { RecordBackendName, RecordStore } from './store/index.js';
import type { Ages } from './metrics/metrics.js';
import type { Reader } from './store/reader-pool.js';
import type { EventLogFilter, ListPage } from './store/types.js';
import type { Actor } from './tokens/intake-tokens.js';

/** What `/healthz` reports (docs/operations.md). */
export interface HealthReport {
  redis: boolean;
  /** The record answers reads. */
  record: boolean;
  /** A write probe committed, and no write was refused lately. */
  record_writable: boolean;
  record_backend: RecordBackendName;
  svc: boolean;
  svc_key_rejected: boolean;
}

/**
 * What the intake (and any producer in the same process) uses of the screening core.
 * createScreener() in worker/screener.ts returns one.
 */
export interface Screener {
  readonly environment: 'sandbox' | 'live';
  /** Which engine holds the record. */
  readonly recordBackend: RecordBackendName;
  /** The record, on whichever backend SCREEN_DB names (worker/open-record.ts). */
  readonly store: RecordStore;
  /** Where /metrics reads free space: the SQLite file's directory, or this process's own files' (PostgreSQL). */
  readonly dataDir: string;
  /** Heavy reads (list pages, search, the audit export) in threads on read-only connections, off the tender path. */
  readonly reader: Reader;
  /** Where callbacks may go (CALLBACK_ALLOW, INTAKE_HOST): the intake refuses a callback_url outside it. */
  readonly callbackPolicy: DestinationPolicy;
  /**
   * Accept a validated request. A fresh cache hit (unless `refresh`) is answered at once
   * (status done, source cache) without touching the queue. Otherwise the screening is
   * written to SQLite, then queued. Throws UnavailableError when Redis cannot take the job;
   * then nothing is kept.
   */
  submit(req: ScreeningRequest): Promise<Screening>;
  /** Resolves with the screening when done, or its current state after `ms`. */
  waitFor(id: string, ms: number): Promise<Screening>;
  /** submit + waitFor. */
  screen(req: ScreeningRequest, opts?: { waitMs?: number }): Promise<Screening>;
  /** Committed rows only: waits for a unit of work that is open (as every read here). */
  get(id: string): Promise<Screening | undefined>;
  /**
   * Records who (and with which credential) and when, emits review.resolved and sends the second
   * callback. `block` (reject only): also put the carrier on the local do-not-use list, in the
   * same commit. `version`: the review version its maker saw (docs/decisions.md); ReviewStaleError
   * when the carrier's facts changed since.
   */
  resolveReview(
    id: string,
    decision: 'approve' | 'reject',
    actor: Actor,
    note: string | null,
    opts?: { block?: boolean; version?: number },
  ): Promise<Review>;
  /** Standing carrier decisions (docs/decisions.md). */
  listDecisions(f?: DecisionFilter): Promise<Decision[]>;
  /** One page of GET /decisions, read by keyset on an index. */
  pageDecisions(f: Omit<DecisionFilter, 'limit'>, page: ListPage): Promise<{ data: Decision[]; has_more: boolean }>;
  getDecision(id: string): Promise<Decision | undefined>;
  /**
   * Test helpers of the sandbox (docs/api.md, "Sandbox test helpers"); undefined on a live key.
   */
  readonly sandbox?: SandboxHelpers;
  /** Ends a standing decision; its decision.revoked event commits with it. NotFoundError, or ReviewConflictError when it no longer stands. */
  revokeDecision(id: string, actor: Actor, note: string | null): Promise<Decision>;
  status(): Promise<StatusReport>;
  /** When the oldest owed callback, the operator's pause and the oldest queued screening began (SQLite only; the metrics). */
  ages(): Promise<Ages>;
  dailyUsage(): Promise<DailyUsage>;
  /** Intake keeps accepting; workers stop calling /v1. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  readonly events: EventFeed;
  /** record: reads work; record_writable: a write probe committed and no write was refused lately. */
  health(): Promise<HealthReport>;
  close(): Promise<void>;
}

/** What a TMS needs to test its change handling end to end against the sandbox. */
export interface SandboxHelpers {
  /**
   * From now on the carrier's /v1 score shows `change` (the reference emulator's sandbox
   * controls); with `checkNow`, a background re-screen with refresh runs at once, so the change
   * is detected now (carrier.changed to its recent tenders' callback URLs).
   */
  changeCarrier(dot: string, change: string, checkNow: boolean): Promise<{ change: string; screening: Screening | null }>;
  /** End a standing decision as lapsed now (as its TTL would); its decision.lapsed event commits with it. NotFoundError, or ReviewConflictError when it no longer stands. */
  lapseDecision(id: string, actor: Actor): Promise<Decision>;
}

/** Events shared by every process through SQLite (replay) and Redis pub/sub (wake-up). */
export interface EventFeed {
  /** Called with every new event, in id order, from any process. */
  subscribe(listener: (e: IntakeEvent) => void): () => void;
  /** Events after `lastId` (for Last-Event-ID replay). */
  since(lastId: number, limit?: number): Promise<IntakeEvent[]>;
  lastId(): Promise<number>;
  /** One page of the event log, newest first (GET /event-log), each with its time. */
  page(filter: EventLogFilter, page: ListPage): Promise<{ data: Array<IntakeEvent & { created_at: string }>; has_more: boolean }>;
}

/** Redis (or another part we need to keep a promise) is down: accept nothing. */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
  readonly code = 'unavailable';
}
