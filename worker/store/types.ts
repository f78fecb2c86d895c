import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { MigrationLog } from './batched-step.js';
import type {
  IntakeEvent,
  LoadDetails,
  Priority,
  Review,
  ReviewState,
  Screening,
  ScreeningError,
  ScreeningSource,
} from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import type { HoldReason, TenderAction } from '../../shared/tender-rules.js';

export type Env = 'sandbox' | 'live';

export interface CachedScore {
  score: SvcScore;
  fetched_at: string;
  model_version: string;
  /** The score_fetches row holding it (null for an entry cached before scores were stored once). */
  fetch_id: number | null;
}

export interface CachedNotFound {
  fetched_at: string;
  error: ScreeningError;
}

export interface NewScreening {
  id?: string;
  query: CarrierQuery;
  tender_id: string | null;
  /** The load details as the request sent them (stored as JSON); absent or null: none. */
  load?: LoadDetails | null;
  priority: Priority;
  refresh: boolean;
  callback_url: string | null;
  /** Written done at once: the carrier this tender puts on the watch list (worker/watch), if any. */
  carrier_key?: string | null;
}

export interface ScreeningResult {
  action: TenderAction;
  hold_reason: HoldReason | null;
  source: ScreeningSource;
  score: SvcScore | null;
  score_fetched_at: string | null;
  error: ScreeningError | null;
  /** The score_fetches row of `score`: the screening refers to it instead of copying the JSON. */
  score_fetch_id?: number | null;
}

export interface UsageFigures {
  monthly_quota: number | null;
  used: number | null;
  remaining: number | null;
  rate_limit_per_minute: number | null;
}

export interface UsageSnapshot extends UsageFigures {
  at: string;
}

/** A state of GET /reviews: a review's state, or `decided` (approved or rejected). */
export type ReviewListState = ReviewState | 'decided';

/** One page of a list: `limit`, and at most one cursor (an object id of the list). */
export interface EventLogFilter {
  types?: readonly string[];
  createdGte?: string;
  createdLt?: string;
}

export interface ListPage {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

export interface OpenStoreOptions {
  /** The clock for every timestamp the store writes (tests pin it). */
  now?: () => Date;
  /** Open without writing: no migrations, every write fails with StoreError 'sqlite_readonly'. */
  readonly?: boolean;
  /** How long a write waits for another process's lock before StoreError 'sqlite_busy' (default 5000). */
  busyTimeoutMs?: number;
  /** Checkpoint the WAL from a background thread, not inside a commit (a long-running worker; checkpointer.ts). */
  backgroundCheckpoints?: boolean;
  /** Told after each schema step this open applied, with how long it took (the start logs it). */
  onMigration?: (m: { version: number; name: string; ms: number }) => void;
  /** Where migrations report their time and a long one's progress (the worker's pino logger). */
  log?: MigrationLog;
}

/**
 * One unit of work (`store.unitOfWork`): its writes commit together. Gone once it has committed
 * or rolled back: every call on it then throws StoreError `tx_finished`. Today the writes
 * themselves still go through the store and its repositories (`xxxOf(store)`), which join the
 * running unit; the repositories will hang off this handle (docs/design/postgres.md, 3.1).
 */
export interface Tx {
  /**
   * Call `fn` after the outermost COMMIT of this unit (never after a rollback, nor when the
   * savepoint that registered it was rolled back). For what must follow the commit in this
   * process, e.g. waking its callback senders.
   */
  afterCommit(fn: () => void): void;
  /** A nested unit: a savepoint, rolled back alone when `fn` throws. One at a time per unit. */
  savepoint<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export interface Store {
  readonly path: string;

  // Score cache, per environment and DOT number; MC numbers are aliases of the DOT.
  /**
   * Cache a fetched score, stored once in score_fetches. Keeps the body whole; records the MC
   * alias (the score's, and `asked`'s when it was a lookup by MC); replaces an entry fetched
   * earlier (never a newer one). The score_fetches id, or null when a newer one was cached.
   */
  putScore(env: Env, score: SvcScore, fetchedAt?: Date, asked?: CarrierQuery): number | null;
  /** By DOT or via the MC alias, whatever its age: the caller decides freshness. */
  getScore(env: Env, query: CarrierQuery): CachedScore | undefined;
  putNotFound(env: Env, query: CarrierQuery, error: ScreeningError, at?: Date): void;
  getNotFound(env: Env, query: CarrierQuery): CachedNotFound | undefined;

  // Screenings: written before they are queued.
  /**
   * A new screening, queued; or, given its result, already done (a cache hit: one insert, no
   * update). The Screening returned is built from what was written, not read back.
   */
  insertScreening(s: NewScreening, finished?: ScreeningResult): Screening;
  /** queued -> active; a no-op when already active or done. NotFoundError for an unknown id. */
  markActive(id: string): void;
  /** Idempotent: an already-done screening is returned as it is with changed=false. */
  completeScreening(id: string, r: ScreeningResult): { screening: Screening; changed: boolean };
  /**
   * A held screening screened again after an outage (worker/recovery/outage-rescreen.ts): its
   * result becomes `r` (its hold_reason kept unless `r` holds for another reason), and
   * rescreened_at is now. False unless it is done, held and not settled.
   */
  rescreenResult(id: string, r: ScreeningResult): boolean;
  /** A re-screen left it as it was (still no answer): note when, so a pass leaves it a while. */
  markRescreened(id: string): void;
  /**
   * Remove a screening that is still queued (e.g. it could not be put on the queue, so it was
   * never accepted). True when removed; a screening already active or done is kept (false).
   */
  discardScreening(id: string): boolean;
  getScreening(id: string): Screening | undefined;
  /** queued or active, oldest first (for the reconciler). */
  listUnfinished(): Screening[];
  /** created_at of the oldest screening still queued (not yet taken by a worker), or null (the metrics read it). */
  oldestQueuedAt(): string | null;

  // Reviews: one item per held screening, opened by CarrierDecisions (worker/decisions/; its SQL decisions-repo.ts).
  getReview(id: string): Review | undefined;
  /** pending: oldest first; approved/rejected/all: newest first. limit defaults to 100. */
  listReviews(state?: ReviewState, limit?: number): Review[];
  /**
   * One page of GET /reviews, read by keyset on the state's index (never the whole list):
   * undefined is every state; `decided` approved or rejected, last decided first.
   */
  pageReviews(state: ReviewListState | undefined, page: ListPage): { data: Review[]; has_more: boolean };
  /**
   * Atomic (UPDATE … WHERE state='pending'). Also sets the screening's action to the
   * dispatcher's decision: approved -> tender, rejected -> block (hold_reason kept as history).
   */
  resolveReview(id: string, state: 'approved' | 'rejected', by: string, note: string | null, tokenId?: string | null): Review;
  countPendingReviews(): number;

  // Usage for the quota chart.
  recordLookup(env: Env, at?: Date): void;
  dailyLookups(env: Env, month: string): Array<{ day: string; lookups: number }>;
  putUsageSnapshot(env: Env, u: UsageFigures, at?: Date): void;
  latestUsageSnapshot(env: Env): UsageSnapshot | undefined;

  // Event log for Server-Sent Events replay (Last-Event-ID), shared by processes.
  appendEvent(event: string, data: unknown): IntakeEvent;
  /** Events with id > lastId, oldest first; limit defaults to 1000. */
  eventsSince(lastId: number, limit?: number): IntakeEvent[];
  /**
   * One page of the event log, newest first, by keyset on the id (GET /event-log): of these
   * types (any when empty), created in [createdGte, createdLt).
   */
  pageEvents(filter: EventLogFilter, page: ListPage): { data: Array<IntakeEvent & { created_at: string }>; has_more: boolean };
  lastEventId(): number;

  /**
   * Run `fn` as one unit of work (one write transaction): its writes commit together, then its
   * afterCommit callbacks run. Units of work of one store run one at a time. Nested units are
   * `tx.savepoint(fn)` (a call here from inside a unit would wait for that unit). Over SQLite,
   * `fn` must await nothing but the store: no I/O while it holds the transaction (StoreError
   * `tx_awaited_io` in tests, a warning in production).
   */
  unitOfWork<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * unitOfWork whose nested units take no savepoints (group commit's first try): when anything
   * inside threw, even a nested unit its caller caught, all of it is rolled back and the answer is
   * undefined, for the caller to do it again with savepoints. A failed COMMIT is thrown.
   */
  unitOfWorkWithoutSavepoints<T>(fn: (tx: Tx) => Promise<T>): Promise<{ value: T } | undefined>;
  /** Run `fn` (a read) once no unit of work is open, so it sees no uncommitted rows of one. */
  readCommitted<T>(fn: () => T): Promise<T>;

  /**
   * Run `fn` as one write transaction: every store write inside it (the watch store's too,
   * when opened on this store) goes in one commit; nested transactions become savepoints.
   * `fn` must be synchronous.
   */
  transaction<T>(fn: () => T): T;
  /**
   * Run `fn` as one write transaction in which nested transactions take no savepoints (a savepoint
   * copies every page it touches into a statement journal). Nothing inside can then be undone
   * alone: when anything inside threw — a nested transaction's throw too, even one its caller
   * caught — everything is rolled back and the answer is undefined, for the caller to do it again
   * with savepoints. Must not be nested. `fn` must be synchronous.
   */
  transactionWithoutSavepoints<T>(fn: () => T): { value: T } | undefined;

  close(): void;
}
