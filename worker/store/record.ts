import type { AsyncRepo } from './async-repo.js';
import type { AuditRowsRepo } from './audit-rows.js';
import type { DecisionListsRepo, DecisionsRepo } from './decisions-repo.js';
import type { IdempotencyRepo, IdempotencyRow } from './idempotency-repo.js';
import type { LocalBlocksRepo } from './local-blocks-repo.js';
import type { OperatorStateRepo } from './operator-state-repo.js';
import type { CallbackRow, CallbackSendsRepo, OutboxRepo } from './outbox-repo.js';
import type { RescreenHoldsRepo } from './rescreen-holds-repo.js';
import type { RetentionRepo } from './retention-repo.js';
import type { EventLogRepo, ReviewsRepo, ScoreCacheRepo, ScreeningsRepo, UsageRepo } from './screening-repos.js';
import type { TokensRepo } from './tokens-repo.js';
import type { CarrierSnapshot, ChangeFindings, IntakeEvent, Screening } from '../../shared/screening.js';
import type { ScreeningFilter, ScreeningPage } from './screening-search-sql.js';
import type { CachedScore, Env, Tx } from './types.js';
import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { Observation, StoredChange, TenderUse, WatchStore } from './watch-store.js';

/**
 * The record as the product sees it, on either backend (docs/design/postgres.md, section 3): the
 * same repositories on the store (a statement of its own, reading committed rows only) and on a
 * unit of work's handle (`tx.screenings.insertScreening(…)`, joining that unit), every method
 * answering a Promise. SQLite's is sqlite-record.ts (its synchronous repositories behind one
 * mutex); PostgreSQL's is pg/pg-store.ts (a pool; a unit's client).
 *
 * Inside a unit of work, use the unit's handle, never the store's: on SQLite a store statement
 * waits for the unit that is waiting for it; on PostgreSQL it takes a second client that does not
 * see the unit's rows.
 */

export interface AppendOptions {
  /**
   * The unit of work's last statement: nothing but its COMMIT follows (group commit's
   * beforeCommit). On PostgreSQL a unit that has sent only plain reads sends it alone, without
   * BEGIN and COMMIT (one statement is whole by itself); SQLite has no such round trips.
   */
  last?: boolean;
}

/** The event log, with the batch append group commit makes once per batch. */
export interface RecordEventLog extends AsyncRepo<EventLogRepo> {
  /** Several events with consecutive ids in the batch's order; `at`: when each happened (default now). */
  appendEvents(batch: ReadonlyArray<{ event: string; data: unknown; at?: Date }>, opts?: AppendOptions): Promise<IntakeEvent[]>;
}

/** What a cache hit reads first: the carrier's cache entry and whether any local block is in force. */
export interface HitFacts {
  score: CachedScore | undefined;
  /** Some block in force (any carrier): the carrier's own is then looked up (worker/blocks). */
  anyActiveBlock: boolean;
}

/** The score cache, with the read a new screening starts with. */
export interface RecordScores extends AsyncRepo<ScoreCacheRepo> {
  /**
   * `getScore` and the blocks' `hasActiveBlocks`, as one read: on PostgreSQL one statement (one
   * round trip, one snapshot), on SQLite the two reads in one call.
   */
  hitFacts(env: Env, query: CarrierQuery): Promise<HitFacts>;
  /**
   * Many carriers' `hitFacts` read at once for the unit of work this handle is on, which then
   * answers them with no round trip until it writes what they read (a group commit of cache
   * hits: one statement for the batch). PostgreSQL only; a SQLite read is a function call.
   */
  readAhead?(env: Env, queries: CarrierQuery[]): Promise<void>;
}

/** AsyncRepo<IdempotencyRepo> with `claim` still generic (a mapped type reads a generic method as `unknown`). */
export type RecordIdempotency = Omit<AsyncRepo<IdempotencyRepo>, 'claim'> & {
  claim<T>(
    scope: string,
    key: string,
    decide: (row: IdempotencyRow | undefined) => { result: T; take?: { hash: string; at: string } },
  ): Promise<T>;
};

/** What observe takes: `findings` may answer a Promise (it reads the old screening through the unit). */
export interface RecordObservation extends Omit<Observation, 'findings'> {
  findings?(before: CarrierSnapshot, after: CarrierSnapshot): ChangeFindings | undefined | Promise<ChangeFindings | undefined>;
}

export type RecordWatchStore = Omit<AsyncRepo<WatchStore>, 'observe'> & {
  observe(o: RecordObservation): Promise<StoredChange | undefined>;
  /**
   * `recordTender(t)` then `observe(o)`, each when given, as one call (what a finished screening
   * writes): on PostgreSQL their first reads are one statement, on SQLite the two calls.
   */
  tenderAndObserve(t: TenderUse | undefined, o: RecordObservation | undefined): Promise<StoredChange | undefined>;
  /**
   * The read `tenderAndObserve` starts with, for many tenders at once, as `scores.readAhead`
   * (PostgreSQL only): each tender by its carrier's key and the keys its score's carrier is
   * stored under.
   */
  readAheadTenders?(tenders: Array<{ carrierKey: string; keys: string[] }>): Promise<void>;
};

/** The prune lock, held by this process until `release`. */
export interface PruneLock {
  release(): Promise<void>;
}

export type RecordRetention = AsyncRepo<RetentionRepo> & {
  /** One pruner at a time across processes and hosts: the lock, or undefined while another holds it. */
  tryPruneLock(): Promise<PruneLock | undefined>;
};

/** Attempts that may still start per destination: `of` those named, `others` any other. */
export interface ClaimRoom {
  of: Readonly<Record<string, number>>;
  others: number;
}

/** The callback sender's repository, with its batch claim. */
export interface RecordCallbackSends extends AsyncRepo<CallbackSendsRepo> {
  /**
   * Claim at most `limit` rows that `due(nowMs, skip, limit)` would list: each as `claim` would
   * (one more attempt, leased until `leaseMs`), earliest due first. Rows another host is claiming
   * are skipped, not waited on; an older state of a screening still owed keeps its newer states
   * out, whoever holds it. With `room`, at most `room.of[d] ?? room.others` rows of destination
   * `d` (the sender's free slots per destination; a destination with none goes in `skip`, so its
   * rows take no place in the batch).
   */
  claimDue(
    nowMs: number,
    nowIso: string,
    leaseMs: number,
    skip: readonly string[],
    limit: number,
    room?: ClaimRoom,
  ): Promise<CallbackRow[]>;
}

/**
 * GET /screenings's search (screening-search-sql.ts: its filters, keyset order and reads; run
 * by SQLite's screening-search.ts and PostgreSQL's pg/screening-search.ts).
 */
export interface RecordLists {
  searchScreenings(f: ScreeningFilter, p: ScreeningPage): Promise<{ data: Screening[]; has_more: boolean }>;
}

/** Every repository, on the store or on a unit of work's handle. */
export interface RecordRepos {
  readonly scores: RecordScores;
  readonly usage: AsyncRepo<UsageRepo>;
  readonly events: RecordEventLog;
  readonly screenings: AsyncRepo<ScreeningsRepo>;
  readonly reviews: AsyncRepo<ReviewsRepo>;
  readonly lists: RecordLists;
  readonly tokens: AsyncRepo<TokensRepo>;
  readonly operatorState: AsyncRepo<OperatorStateRepo>;
  readonly idempotency: RecordIdempotency;
  readonly decisions: AsyncRepo<DecisionsRepo>;
  readonly decisionLists: AsyncRepo<DecisionListsRepo>;
  readonly blocks: AsyncRepo<LocalBlocksRepo>;
  readonly outbox: AsyncRepo<OutboxRepo>;
  readonly callbackSends: RecordCallbackSends;
  readonly retention: RecordRetention;
  readonly auditRows: AsyncRepo<AuditRowsRepo>;
  /** The watch store for SCREEN_WATCH_DAYS. */
  watch(watchDays: number): RecordWatchStore;
  /** The outage re-screen's holds (`retryMs`, `limit` fixed per process). */
  rescreenHolds(retryMs: number, limit: number): AsyncRepo<RescreenHoldsRepo>;
}

/** One unit of work: its writes commit together. */
export interface RecordTx extends Tx, RecordRepos {
  savepoint<T>(fn: (tx: RecordTx) => Promise<T>): Promise<T>;
}

/** The engine under the record: what /healthz names. */
export type RecordBackendName = 'sqlite' | 'postgresql';

export interface RecordStore extends RecordRepos {
  /** What messages name: the SQLite file, or the database URL without its password. */
  readonly where: string;
  /** One unit of work: `fn`'s writes through its handle commit together, then its afterCommit callbacks run. */
  unitOfWork<T>(fn: (tx: RecordTx) => Promise<T>): Promise<T>;
  /** A unit whose nested units take no savepoints: anything thrown inside rolls it all back, answer undefined (group commit). */
  unitOfWorkWithoutSavepoints<T>(fn: (tx: RecordTx) => Promise<T>): Promise<{ value: T } | undefined>;
  close(): void | Promise<void>;
}
