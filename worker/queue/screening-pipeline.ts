import type { Logger } from 'pino';
import { queryKey, type CarrierQuery } from '../../shared/carrier-id.js';
import type { Decision, IntakeEvent, Review, Screening, ScreeningError } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import {
  LOCAL_BLOCK_CODE,
  actionForScore,
  actionForStaleScore,
  actionWithoutScore,
  holdOpensReview,
  type NoScoreCause,
} from '../../shared/tender-rules.js';
import { oweScreeningCallback } from '../callbacks/callbacks.js';
import type { CarrierDecisions, FactsOutcome, ReviewOutcome } from '../decisions/carrier-decisions.js';
import { closedReviewNews, endedDecisionNews } from '../decisions/review-news.js';
import { BatchEvents } from '../events/batch-events.js';
import type { SharedEventFeed } from '../events/event-feed.js';
import { reviewRef } from '../events/event-refs.js';
import { GroupCommit } from '../store/group-commit.js';
import { observe } from '../metrics/metrics.js';
import type { CachedScore, Env, NewScreening, RecordStore, RecordTx, ScreeningResult } from '../store/index.js';
import type { RecordRepos } from '../store/record.js';
import type { StoredChange } from '../store/watch-store.js';
import { RecentScores } from './recent-scores.js';
import { LONGEST_RATE_LIMIT_WAIT_MS, type LookupSharing, type QuotaAdmission, type ScoringProvider } from './scoring-provider.js';

export { LONGEST_RATE_LIMIT_WAIT_MS } from './scoring-provider.js';

/**
 * One screening, from request to action: cache, quota gate, one coalesced lookup (of the
 * scoring provider, scoring-provider.ts: /v1 today),
 * fallback to a stale score, the tender-action rules, then the record, the review item,
 * the events and the callback. The queue worker and the intake's cache fast path both
 * finish screenings here, so there is one way a screening ends.
 */

/** What one /v1 lookup came to; shared between the screenings it served. */
export type LookupOutcome =
  | { kind: 'score'; at: number; score: SvcScore; fetched_at: string; fetch_id?: number | null }
  | { kind: 'not_found'; at: number; error: ScreeningError }
  | { kind: 'failed'; at: number; cause: Exclude<NoScoreCause, 'carrier_not_found'>; error: ScreeningError }
  | { kind: 'rate_limited'; at: number; retryAfterMs: number; error: ScreeningError }
  /** The quota gate refused the lookup (never shared: another priority may be admitted). */
  | { kind: 'quota_refused'; at: number; reason: 'quota_exhausted' | 'quota_reserved'; error: ScreeningError };

/** The carrier a tender screening puts on the watch list: its key (screenings.carrier_key) and numbers. */
export interface TenderCarrier {
  key: string;
  dot_number: string | null;
  mc_number: string | null;
}

/** What the pipeline needs of the local do-not-use list (worker/blocks/local-blocks.ts, LocalBlocks). */
export interface LocalBlockRule {
  /**
   * The carrier is locally blocked (as `on` sees it: a unit's handle, or the store): the block
   * result (`r`, the service's answer, turned into one). `anyActive`: whether any block is in
   * force, when the caller read it through `on` already (HitFacts).
   */
  apply(
    on: Pick<RecordRepos, 'blocks' | 'scores'>,
    query: CarrierQuery,
    r?: ScreeningResult,
    anyActive?: boolean,
  ): Promise<ScreeningResult | undefined>;
}

/**
 * What the pipeline needs of the watch list (worker/watch, docs/watchlist.md): watch
 * membership, change detection and its alerts. WatchService is it.
 */
export interface PipelineWatch {
  /** The carrier a done tender screening puts on the watch list (its screening's carrier_key), if any. */
  tenderCarrier(
    tx: RecordTx,
    s: Pick<Screening, 'status' | 'priority' | 'error' | 'score' | 'query'> & { id?: string | undefined },
  ): Promise<TenderCarrier | undefined>;
  /**
   * What record() will read first for tenders of these scores' carriers, read at once for the
   * unit `tx` (a group commit's read-ahead; nothing on SQLite): what the unit does not hold already.
   */
  readAhead(tx: RecordTx, scores: Array<Screening['score'] | undefined>): Promise<void>;
  /** The watch keys record() may lock for this screening (taken up front with the unit's other carrier locks). */
  lockKeys(tx: RecordTx, s: Pick<Screening, 'query' | 'score'>): Promise<string[]>;
  /** False when a hold of this screening must not open a review item (a watch re-screen). */
  wantsReview(tx: RecordTx, s: Screening, r: ScreeningResult): Promise<boolean>;
  /**
   * The screening is final: watch membership and change detection, in the caller's transaction.
   * Idempotent. `named`: what tenderCarrier() gave for it, already written in its insert.
   */
  record(tx: RecordTx, s: Screening, named?: TenderCarrier): Promise<StoredChange | undefined>;
  /** After the commit: tell the change's tenders. */
  announceChange(c: StoredChange): Promise<void>;
}

/**
 * What finishing a screening wrote, for what is said about it after the commit. Unchanged, it
 * may still have ended a standing decision: `appended` holds that event.
 */
type Recorded =
  | { screening: Screening; changed: false; appended?: IntakeEvent[] }
  | { screening: Screening; changed: true; change: StoredChange | undefined; appended: IntakeEvent[] };

export interface PipelineDeps {
  env: Env;
  /** The record: its repositories outside a unit of work, a unit's handle (`tx`) inside one. */
  store: RecordStore;
  /** Who scores a carrier (/v1: SvcScoringProvider), with its errors, service state and hold-off. */
  provider: ScoringProvider;
  /** The monthly quota: one lookup admitted or refused (QuotaGate). */
  gate: QuotaAdmission;
  /** One lookup per carrier (LookupCoalescer). */
  coalescer: LookupSharing<LookupOutcome>;
  events: Pick<SharedEventFeed, 'append' | 'announce'>;
  /** The local do-not-use list: a block wins over any answer. */
  blocks: LocalBlockRule;
  /** The watch list: watch membership, change detection. */
  watch: PipelineWatch;
  cacheTtlMs: number;
  staleIfErrorMs: number;
  notFoundTtlMs: number;
  now: () => Date;
  logger: Logger;
  /** Standing carrier decisions: one review per carrier, decisions that stand (worker/decisions/). */
  decisions: CarrierDecisions;
}

/** What one accept piece did: queued, or answered (its events kept for the batch's append). */
type Accepted = { recorded: Recorded; events?: BatchEvents } | { queued: Screening; events?: undefined };

/** `attempts`: /v1 requests this run made for the screening (0 when a cache or another's lookup answered). */
export type ProcessResult = { done: Screening; attempts: number } | { rateLimited: number; attempts: number };

/** /v1 requests one re-screen may make (it is tried again later, with growing waits). */
const RESCREEN_ATTEMPTS = 2;

/** Holds a re-screen after an outage settles (worker/recovery/outage-rescreen.ts). */
export const RESCREEN_HOLD_REASONS: readonly string[] = ['scoring_unavailable', 'quota_exhausted', 'quota_reserved'];

/** The spec's schedule: at most five requests per screening, client retries and queue re-runs together. */
export const MAX_ATTEMPTS_PER_SCREENING = 5;

export class ScreeningPipeline {
  readonly #commits: GroupCommit<RecordTx, NewScreening>;
  /** Each query's last cached score: what a batch's read-ahead guesses with. */
  readonly #recent = new RecentScores();

  constructor(private readonly d: PipelineDeps) {
    this.#commits = new GroupCommit<RecordTx, NewScreening>(d.store, {
      readAhead: (tx, news) => this.#readAhead(tx, news),
      // The batch's events in one statement, its last before the COMMIT (events/batch-events.ts).
      beforeCommit: (tx, values) =>
        BatchEvents.writeAll(
          tx,
          values.flatMap((v) => ((v as Accepted).events ? [(v as Accepted).events!] : [])),
        ),
    });
  }

  /**
   * A batch of new screenings' reads, before its pieces (PostgreSQL; a SQLite read is a function
   * call), in one round trip when each query's score is the one it had last time (RecentScores):
   * their score facts; the watch heads of the carriers those scores name; and for the screenings
   * that go to their carrier's review, their locks in one statement, the batch's one lock order
   * (their pieces then take none), with, read under those locks, their heads again and their
   * standing decisions and open reviews. What the scores read change is read in a second round
   * trip: a lock the guess missed is then taken after the others (two hosts may deadlock on it,
   * which PostgreSQL breaks, and the group commit runs again).
   */
  async #readAhead(tx: RecordTx, news: NewScreening[]): Promise<void> {
    const { env } = this.d;
    if (!tx.scores.readAhead) return;
    const guess = news.flatMap((n) => {
      const score = this.#recent.get(n.query);
      return score ? [{ n, score }] : [];
    });
    const guessed = await this.#heldReads(tx, guess);
    await Promise.all([
      tx.scores.readAhead(
        env,
        news.map((n) => n.query),
      ),
      ...guessed.map((send) => send()),
    ]);
    const hits: Array<{ n: NewScreening; score: SvcScore }> = [];
    for (const n of news) {
      const facts = await tx.scores.hitFacts(env, n.query);
      if (!facts.score) continue;
      this.#recent.note(n.query, facts.score.score);
      // A block in force may change the answer (blocks.apply): that piece takes its own locks.
      if (!facts.anyActiveBlock && this.#freshHit(facts.score)) hits.push({ n, score: facts.score.score });
    }
    // What the guess did not hold or read: nothing in a steady run (no statement, no round trip).
    await Promise.all((await this.#heldReads(tx, hits)).map((send) => send()));
  }

  /**
   * The read-ahead of these hits (each a screening and its score), as sends to make in one turn:
   * the watch heads of every hit's carrier; then the locks of the held ones (those that go to their
   * carrier's review), and behind them, so read under them, their heads again and their standing
   * decisions and open reviews. A lock the unit holds is not taken again, nor an answer it holds
   * read again (pg/carrier-locks.ts, pg/sql.ts `known`).
   */
  async #heldReads(tx: RecordTx, hits: ReadonlyArray<{ n: NewScreening; score: SvcScore }>): Promise<Array<() => Promise<void>>> {
    const { decisions, watch } = this.d;
    if (hits.length === 0) return [];
    const held = hits.flatMap(({ n, score }) =>
      holdOpensReview(n, { action: actionForScore(score).action, score }) ? [{ id: n.id, query: n.query, score }] : [],
    );
    const watchKeys = new Set<string>();
    for (const h of held) for (const k of await watch.lockKeys(tx, h)) watchKeys.add(k);
    // Sent in this order (a lock forgets what was read before it about its keys: pg-store.ts).
    return [
      () =>
        watch.readAhead(
          tx,
          hits.map((h) => h.score),
        ),
      ...(held.length === 0
        ? []
        : [
            () => decisions.lockCarriers(tx, held, { watch: [...watchKeys] }),
            () =>
              watch.readAhead(
                tx,
                held.map((h) => h.score),
              ),
            () => decisions.readAheadHolds(tx, held),
          ]),
    ];
  }

  /** The answer a cache entry gives while it is fresh (the cache TTL), else undefined. */
  #freshHit(hit: CachedScore | undefined): ScreeningResult | undefined {
    if (!hit || this.d.now().getTime() - Date.parse(hit.fetched_at) >= this.d.cacheTtlMs) return undefined;
    return this.#fromScore(hit.score, hit.fetched_at, 'cache', null, hit.fetch_id);
  }

  /**
   * A fresh cached answer for this query, or undefined (a miss, or `refresh`). `repos`: a unit's
   * handle when read inside one (accept's group commit), else the store's. `read`: the cache
   * entry, when the caller read it through `repos` already (HitFacts).
   */
  async cachedResult(
    query: CarrierQuery,
    repos: Pick<RecordRepos, 'scores'> = this.d.store,
    read?: { score: CachedScore | undefined },
  ): Promise<ScreeningResult | undefined> {
    const { env, now } = this.d;
    const t = now().getTime();
    const hit = read ? read.score : await repos.scores.getScore(env, query);
    const fresh = this.#freshHit(hit);
    if (fresh) return fresh;
    const nf = await repos.scores.getNotFound(env, query);
    if (nf && t - Date.parse(nf.fetched_at) < this.d.notFoundTtlMs) {
      const v = actionWithoutScore('carrier_not_found');
      return { action: v.action, hold_reason: v.hold_reason, source: 'cache', score: null, score_fetched_at: null, error: nf.error };
    }
    return undefined;
  }

  /**
   * Work one queued screening. `attemptsUsed`: /v1 requests earlier runs of this screening
   * made (a rate-limited job runs again); the five-attempt budget is what is left of it, and
   * when a rate-limit refusal leaves none the screening ends on its fallback.
   */
  async process(id: string, opts: { attemptsUsed: number }): Promise<ProcessResult> {
    const budget = MAX_ATTEMPTS_PER_SCREENING - opts.attemptsUsed;
    let attempts = 0;
    const r = await this.#process(id, budget, (n) => (attempts += n));
    return { ...r, attempts } as ProcessResult;
  }

  async #process(id: string, budget: number, spent: (n: number) => void): Promise<{ done: Screening } | { rateLimited: number }> {
    const { store } = this.d;
    const s = await store.screenings.getScreening(id);
    if (!s) throw new Error(`screening ${id} is not in the store`);
    if (s.status === 'done') {
      // A re-run after a crash: the record (and the callback owed, in the same commit) is
      // final; only make sure the watch list has seen it.
      const change = await this.#watchRecord(s);
      if (change) {
        await this.d.events.announce();
        await this.d.watch.announceChange(change);
      }
      return { done: s };
    }
    // Committed (a unit of its own) before the screening goes to the blocks, the cache or /v1.
    await store.unitOfWork((tx) => tx.screenings.markActive(id));
    // A local block wins before any /v1 call (no quota spent).
    const blocked = await this.d.blocks.apply(store, s.query);
    if (blocked) return { done: await this.finish(id, blocked) };
    const cached = s.refresh ? undefined : await this.cachedResult(s.query);
    if (cached) return { done: await this.finish(id, cached) };

    // The provider is stopped (wrong environment, refused key), or asked us (Retry-After) to
    // stay away longer than a screening can wait: no call.
    const { stopped, holdOff } = await this.d.provider.blocked();
    if (stopped) return { done: await this.finish(id, await this.#fallback(s.query, stopped.cause, stopped.error)) };
    if (budget <= 0) {
      const error = {
        code: 'attempts_exhausted',
        message: `/v1 was asked ${MAX_ATTEMPTS_PER_SCREENING} times for this screening without an answer`,
        request_id: null,
      };
      return { done: await this.finish(id, await this.#fallback(s.query, 'scoring_unavailable', error)) };
    }
    if (holdOff) return { done: await this.finish(id, await this.#fallback(s.query, holdOff.cause, holdOff.error)) };

    const notBefore = s.refresh ? Date.parse(s.created_at) : this.d.now().getTime() - this.d.cacheTtlMs;
    let used = 0;
    // What the answer's headers say is recorded while the screening finishes; the job ends after both.
    const bookkeeping: Array<Promise<unknown>> = [];
    // A tender that joined a background lookup the reserve refused asks again as itself: the
    // reserve is kept for tenders, so it never inherits that refusal.
    let outcome: LookupOutcome;
    for (let tries = 0; ; tries++) {
      outcome = await this.d.coalescer.run(
        await this.#lookupKey(s.query),
        notBefore,
        async (): Promise<LookupOutcome> => {
          // The gate counts /v1 lookups, not screenings: only the one that calls takes quota.
          const admission = await this.d.gate.admit(s.priority);
          if (!admission.ok) {
            const message =
              admission.reason === 'quota_reserved'
                ? 'monthly quota is down to the reserve kept for tender-time requests'
                : 'monthly quota exhausted until it resets or is raised';
            return {
              kind: 'quota_refused',
              at: this.d.now().getTime(),
              reason: admission.reason,
              error: { code: admission.reason, message, request_id: null },
            };
          }
          const o = await this.#lookup(s.query, budget, bookkeeping);
          used = o.attempts;
          return o;
        },
        // A rate-limit refusal is shared while its Retry-After runs: followers in other processes
        // wait it out instead of each calling (and being refused). A quota refusal is this
        // process's gate, not an answer.
        (o) => (o.kind === 'quota_refused' ? 0 : o.kind === 'rate_limited' ? o.retryAfterMs : Number.POSITIVE_INFINITY),
      );
      if (!(outcome.kind === 'quota_refused' && outcome.reason === 'quota_reserved' && s.priority === 'tender') || tries >= 2) break;
    }
    spent(used);
    if (outcome.kind === 'rate_limited') {
      // A wait the queue can take, with attempts left: the job waits (growing, with jitter) and asks again.
      const left = budget - used;
      if (left >= 1) {
        // A follower that shared the leader's refusal spent none: its wait is at least the first.
        const wait = this.d.provider.retryWait(Math.max(1, MAX_ATTEMPTS_PER_SCREENING - left), outcome.retryAfterMs);
        if (wait <= LONGEST_RATE_LIMIT_WAIT_MS) return { rateLimited: wait };
      }
    }
    let done: Screening;
    try {
      done = await this.finish(id, await this.#resultOf(s.query, outcome));
    } catch (e) {
      await Promise.allSettled(bookkeeping); // the job fails on the finish, not on the bookkeeping
      throw e;
    }
    await Promise.all(bookkeeping);
    return { done };
  }

  /**
   * A held screening, screened again after an outage (worker/recovery/outage-rescreen.ts):
   * one lookup per carrier (a score fetched at or after `notBefore`, the cache's or the
   * coalescer's, answers every re-screen of the carrier), paced like any other. Tender or block:
   * the screening is settled (`settled_by: "rescreen"`), its review closed as superseded, the
   * TMS owed a `review.resolved` callback. Still no answer: left as it is, for the next pass.
   * A score that needs a person: the card stays, with the score on it.
   */
  async rescreen(id: string, notBefore: number): Promise<'settled' | 'held' | 'skipped'> {
    const { store, env } = this.d;
    const s = await store.screenings.getScreening(id);
    if (!s || s.status !== 'done' || s.action !== 'hold' || s.settled_by !== null || !RESCREEN_HOLD_REASONS.includes(s.hold_reason ?? ''))
      return 'skipped';
    let r = await this.d.blocks.apply(store, s.query);
    if (!r) {
      const hit = await store.scores.getScore(env, s.query);
      if (hit && Date.parse(hit.fetched_at) >= notBefore) r = this.#fromScore(hit.score, hit.fetched_at, 'cache', null, hit.fetch_id);
    }
    const bookkeeping: Array<Promise<unknown>> = [];
    if (!r) {
      const { stopped, holdOff } = await this.d.provider.blocked();
      if (holdOff || stopped?.rescreenWaits) {
        await store.unitOfWork((tx) => tx.screenings.markRescreened(id));
        return 'held';
      }
      const outcome = await this.d.coalescer.run(
        await this.#lookupKey(s.query),
        notBefore,
        async (): Promise<LookupOutcome> => {
          const admission = await this.d.gate.admit(s.priority);
          if (!admission.ok)
            return {
              kind: 'quota_refused',
              at: this.d.now().getTime(),
              reason: admission.reason,
              error: {
                code: admission.reason,
                message:
                  admission.reason === 'quota_reserved'
                    ? 'monthly quota is still down to the reserve kept for tender-time requests'
                    : 'monthly quota still exhausted',
                request_id: null,
              },
            };
          // Two requests at most: a re-screen that gets no answer is tried again at a later pass.
          return this.#lookup(s.query, RESCREEN_ATTEMPTS, bookkeeping);
        },
        (o) => (o.kind === 'score' || o.kind === 'not_found' ? Number.POSITIVE_INFINITY : 0),
      );
      r = await this.#resultOf(s.query, outcome);
    }
    const rec = await store.unitOfWork((tx) => this.#recordRescreen(tx, s, r));
    await Promise.all(bookkeeping);
    if (!rec.changed) {
      // Nothing changed for the TMS, but a standing decision may have ended.
      if (rec.appended?.length) await this.d.events.announce(rec.appended);
      return 'held';
    }
    // Not #announce: the screening was counted done when it was first answered (/metrics).
    this.d.logger.info({ screening: id, action: rec.screening.action, source: rec.screening.source }, 're-screened after an outage');
    await this.d.events.announce(rec.appended);
    return rec.screening.action === 'hold' ? 'held' : 'settled';
  }

  /** The writes of a re-screen, in the caller's unit of work; unchanged when nothing changed for the TMS. */
  async #recordRescreen(tx: RecordTx, s: Screening, r: ScreeningResult): Promise<Recorded> {
    const { decisions } = this.d;
    // Every carrier lock this unit may take, first (its held score, the new one, its own review).
    await decisions.lockCarriers(tx, [
      { id: s.id, query: s.query, score: r.score },
      { query: s.query, score: s.score },
    ]);
    // Checked again against the score: an MC query may only now name a blocked DOT number.
    r = (await this.d.blocks.apply(tx, s.query, r)) ?? r;
    // Standing decisions this re-screen ends: their events go in this transaction, whatever it comes to.
    const ended: Array<Decision | undefined> = r.score && r.source === 'service' ? [await decisions.observe(tx, s, r.score)] : [];
    const unchanged = async (): Promise<Recorded> => ({
      screening: s,
      changed: false,
      appended: await endedDecisionNews(tx, this.d.events, ended),
    });
    let standing = undefined;
    if (r.action === 'hold' && r.score) {
      // A dispatcher's standing decision on the same basis settles it, as for any hold.
      const o = await decisions.onHold(tx, s, r);
      ended.push(...o.ended);
      if (o.kind === 'settled') {
        r = o.result;
        standing = o.decision;
      }
    }
    if (r.action === 'hold' && (r.score === null || RESCREEN_HOLD_REASONS.includes(r.hold_reason ?? ''))) {
      // Still no usable answer: the next pass tries again.
      await tx.screenings.markRescreened(s.id);
      return unchanged();
    }
    if (!(await tx.screenings.rescreenResult(s.id, r))) return unchanged();
    const appended: IntakeEvent[] = [];
    if (r.action === 'hold') {
      // A person must look after all: the card stays, and now shows the score as a new version.
      const shown = await decisions.showRescreenFacts(tx, s.id);
      if (shown) appended.push(await this.d.events.append(tx, 'review.updated', reviewRef(shown)));
      appended.push(...(await endedDecisionNews(tx, this.d.events, ended)));
      return { screening: (await tx.screenings.getScreening(s.id))!, changed: true, change: undefined, appended };
    }
    const action = r.action as 'tender' | 'block';
    // Blocking news closes the carrier's review and blocks every tender on it, this one too.
    const closed = action === 'block' ? await decisions.closeOnRescreen(tx, s.id, r) : undefined;
    if (closed) {
      appended.push(...(await closedReviewNews(tx, this.d.store, this.d.events, closed, this.d.now())));
      appended.push(...(await endedDecisionNews(tx, this.d.events, ended)));
      return { screening: (await tx.screenings.getScreening(s.id))!, changed: true, change: undefined, appended };
    }
    await decisions.markSettled(tx, s.id, action, 'rescreen', standing ?? null);
    const review = await decisions.supersede(tx, s.id, `re-screened after ${s.hold_reason}: ${action}`);
    const screening = (await tx.screenings.getScreening(s.id))!;
    // The TMS learns the new action as it learns a decided review: review.resolved.
    await oweScreeningCallback(tx, this.d.store, screening, 'review.resolved', this.d.now());
    if (review) appended.push(await this.d.events.append(tx, 'review.resolved', { ...review, screening }));
    appended.push(...(await endedDecisionNews(tx, this.d.events, ended)));
    appended.push(await this.d.events.append(tx, 'screening.completed', screening));
    return { screening, changed: true, change: undefined, appended };
  }

  /**
   * What concurrent lookups of one carrier share: its DOT number, also for an MC query the cache
   * already links to one, so a DOT and an MC query of the same carrier make one lookup.
   */
  async #lookupKey(query: CarrierQuery): Promise<string> {
    const linked = 'mc_number' in query ? (await this.d.store.scores.getScore(this.d.env, query))?.score.carrier.dot_number : undefined;
    return `${this.d.env}:${linked ? queryKey({ dot_number: linked }) : queryKey(query)}`;
  }

  /** The job can run no more (e.g. failed for good): end the screening on what we have. */
  async giveUp(id: string, why: string): Promise<Screening | undefined> {
    const s = await this.d.store.screenings.getScreening(id);
    if (!s || s.status === 'done') return s;
    const error: ScreeningError = { code: 'processing_failed', message: why, request_id: null };
    return this.finish(id, await this.#fallback(s.query, 'scoring_unavailable', error));
  }

  /** Record the result (once), open a review for a hold, tell SSE clients and the TMS. */
  async finish(id: string, r: ScreeningResult): Promise<Screening> {
    return this.#announce(await this.d.store.unitOfWork((tx) => this.#record(tx, id, r)));
  }

  /**
   * A new screening, in one group commit (hits arriving together share one COMMIT, each answered
   * after it): answered at once from the cache or a local block, or else written queued for the
   * caller to put on the queue. The cache is read inside the shared transaction, not in a read
   * transaction of its own per request.
   */
  async accept(n: NewScreening): Promise<{ done: true; screening: Screening } | { done: false; screening: Screening }> {
    const out = await this.#commits.run(
      async (tx): Promise<Accepted> => {
        // The cache entry and whether any block is in force: one read (one round trip on PostgreSQL).
        const facts = n.refresh ? undefined : await tx.scores.hitFacts(this.d.env, n.query);
        const cached = facts && (await this.cachedResult(n.query, tx, facts));
        // A block in force wins over the cached answer, and answers a carrier without one.
        const r = (await this.d.blocks.apply(tx, n.query, cached, facts?.anyActiveBlock)) ?? cached;
        if (!r) return { queued: await tx.screenings.insertScreening(n) };
        // Its events are written with the batch's, last (their ids are known after the commit).
        const events = new BatchEvents();
        return { recorded: await this.#answerNow(tx, n, r, events), events };
      },
      n.refresh ? undefined : n,
    );
    if ('queued' in out) return { done: false, screening: out.queued };
    return { done: true, screening: await this.#announce(out.recorded) };
  }

  /**
   * A new screening answered at once (a cache hit, a local block): accepted and finished in the
   * caller's transaction, written done in one insert that names the carrier it puts on the
   * watch list (the watch list then writes nothing more for a carrier already on it). The local
   * block was applied by the caller; a new screening is no watch re-screen, so a hold always
   * goes to the carrier's review.
   */
  async #answerNow(tx: RecordTx, n: NewScreening, r: ScreeningResult, events: BatchEvents): Promise<Recorded> {
    const { decisions } = this.d;
    // Every carrier lock this piece may take, first: its review and watch keys; only when it goes
    // to the carrier's review (a hold, or a block closing one). A tendered hit takes no review lock
    // and a watch lock only when it writes: locking every hit would cost PostgreSQL a round trip and
    // make one carrier's hits on several hosts wait for each other's COMMIT (a batch's read-ahead
    // may still hold one for a hit its guess took for held: #readAhead).
    if (holdOpensReview(n, r) || r.error?.code === LOCAL_BLOCK_CODE)
      await decisions.lockCarriers(tx, [{ id: n.id, query: n.query, score: r.score }], {
        watch: await this.d.watch.lockKeys(tx, { query: n.query, score: r.score }),
      });
    // Object literals, not spreads: a spread into a literal takes V8's slow path (~6 % of a hit).
    const tender = await this.d.watch.tenderCarrier(tx, {
      status: 'done',
      priority: n.priority,
      error: r.error,
      score: r.score,
      query: n.query,
    });
    const row = {
      id: n.id,
      query: n.query,
      tender_id: n.tender_id,
      load: n.load ?? null,
      priority: n.priority,
      refresh: n.refresh,
      callback_url: n.callback_url,
      carrier_key: tender?.key ?? null,
    };
    if (!holdOpensReview(n, r)) {
      const done = await tx.screenings.insertScreening(row, r);
      // A local block is news for the carrier's open review (closed); a cache hit's score is not.
      return this.#recordDone(tx, events, done, r.action === 'hold' ? {} : { facts: await decisions.onFacts(tx, done, r) }, tender);
    }
    // Written held, then the carrier's review opened or joined (it refers to the screening).
    const held = await tx.screenings.insertScreening(row, r);
    const o = await decisions.onHold(tx, held, r);
    if (o.kind === 'settled') {
      // A standing decision answers it: as it is written (rare; read back).
      await decisions.markSettled(tx, held.id, o.result.action as 'tender' | 'block', 'standing_decision', o.decision);
      return this.#recordDone(tx, events, (await tx.screenings.getScreening(held.id))!, { ended: o.ended }, tender);
    }
    // Its own review item, just written: pending, undecided (what a read of it would give).
    held.review = { id: o.ownId, state: 'pending', decided_by: null, decided_at: null, note: null };
    return this.#recordDone(tx, events, held, { ...(await this.#reviewNews(tx, o)), ended: o.ended }, tender);
  }

  /** Every write of a finished screening, in the caller's unit of work: review, record, watch list, events. */
  async #record(tx: RecordTx, id: string, r: ScreeningResult): Promise<Recorded> {
    const { blocks, watch, decisions } = this.d;
    // Undefined only for an unknown id: completeScreening says so.
    const s0 = await tx.screenings.getScreening(id);
    // Every carrier lock this unit may take, first: its review and watch keys (worker/store/pg/decisions-repo.ts).
    if (s0)
      await decisions.lockCarriers(tx, [{ id, query: s0.query, score: r.score }], {
        watch: await watch.lockKeys(tx, { query: s0.query, score: r.score }),
      });
    // A local block wins over the service's answer; watch re-screens rarely open reviews.
    if (s0) r = (await blocks.apply(tx, s0.query, r)) ?? r;
    let review: ReviewOutcome | undefined;
    let standing = undefined;
    // A fresh score with another basis ends the carrier's standing decision (docs/decisions.md);
    // its event goes in this transaction.
    const ended: Array<Decision | undefined> = s0 && r.score && r.source === 'service' ? [await decisions.observe(tx, s0, r.score)] : [];
    if (s0 && holdOpensReview(s0, r) && (await watch.wantsReview(tx, s0, r))) {
      const o = await decisions.onHold(tx, s0, r);
      ended.push(...o.ended);
      if (o.kind === 'settled') {
        r = o.result;
        standing = o.decision;
      } else review = o;
    }
    let { screening, changed } = await tx.screenings.completeScreening(id, r);
    if (!changed) return { screening, changed, appended: await endedDecisionNews(tx, this.d.events, ended) };
    if (standing && (r.action === 'tender' || r.action === 'block')) {
      await decisions.markSettled(tx, id, r.action, 'standing_decision', standing);
      screening = (await tx.screenings.getScreening(id))!;
    }
    // A newer score (or a block) is shown on the carrier's open review, or closes it (docs/decisions.md).
    const facts = await decisions.onFacts(tx, screening, r);
    return this.#recordDone(tx, this.d.events, screening, { ...(review ? await this.#reviewNews(tx, review) : {}), facts, ended });
  }

  /**
   * What a hold did to its carrier's review, for its events: a new review as a read of it gives
   * it (read once its tender is finished), or the id of the one it joined.
   */
  async #reviewNews(tx: RecordTx, o: ReviewOutcome): Promise<{ createdReview?: Review | undefined; joinedReview?: string | undefined }> {
    if (!o.created) return {};
    return o.joined ? { joinedReview: o.reviewId } : { createdReview: await tx.reviews.getReview(o.reviewId) };
  }

  /**
   * The writes every newly done screening owes, in the caller's unit of work: watch list, callback,
   * events (through `events`: the feed, or a group-commit piece's BatchEvents).
   */
  async #recordDone(
    tx: RecordTx,
    events: Pick<SharedEventFeed, 'append'>,
    screening: Screening,
    o: {
      createdReview?: Review | undefined;
      joinedReview?: string | undefined;
      facts?: FactsOutcome | undefined;
      ended?: Array<Decision | undefined>;
    },
    tender?: TenderCarrier,
  ): Promise<Recorded> {
    const { store } = this.d;
    // The watch list, before screening.completed.
    const change = await this.#watchRecord(screening, tender, tx);
    // The TMS's callback is owed in the same commit as the result it reports.
    await oweScreeningCallback(tx, store, screening, 'screening.completed', this.d.now());
    const appended: IntakeEvent[] = [];
    if (o.createdReview) appended.push(await events.append(tx, 'review.created', { ...o.createdReview, screening }));
    // Another tender now waits on the carrier's open review: the review, with it listed.
    // By reference: the review as it is when someone reads the event (not a copy of every waiting tender per hold).
    if (o.joinedReview) appended.push(await events.append(tx, 'review.updated', reviewRef(o.joinedReview)));
    // Newer facts on the carrier's open review: a new version; a closing blocks its tenders, each with its callback.
    if (o.facts?.kind === 'updated' && o.facts.reviewId !== o.joinedReview)
      appended.push(await events.append(tx, 'review.updated', reviewRef(o.facts.reviewId)));
    if (o.facts?.kind === 'closed') appended.push(...(await closedReviewNews(tx, store, events, o.facts, this.d.now())));
    // Standing decisions this screening ended (the CarrierDecisions calls above returned them).
    if (o.ended) appended.push(...(await endedDecisionNews(tx, events, o.ended)));
    appended.push(await events.append(tx, 'screening.completed', screening));
    return { screening, changed: true, change, appended };
  }

  /** After the commit: the log line, the events and the change alerts (the callback is in the outbox). */
  async #announce(rec: Recorded): Promise<Screening> {
    const { screening: s } = rec;
    if (!rec.changed) {
      // Not news itself, but it may have ended a standing decision (its event, committed with it).
      if (rec.appended?.length) await this.d.events.announce(rec.appended);
      return s;
    }
    observe.screeningDone(s);
    // A cache hit is routine (counted in /metrics); a lookup's result is news for the log.
    const level = s.source === 'cache' ? 'debug' : 'info';
    this.d.logger[level](
      {
        screening: s.id,
        query: s.query,
        action: s.action,
        hold_reason: s.hold_reason,
        source: s.source,
        error: s.error?.code,
        svc_request_id: s.error?.request_id ?? undefined,
      },
      'screening done',
    );
    await this.d.events.announce(rec.appended);
    if (rec.change) await this.d.watch.announceChange(rec.change);
    return s;
  }

  /**
   * The screening is final, for the watch list; a failure here never undoes it (a savepoint of
   * the caller's unit, `within`, rolls back alone; without one, a unit of its own).
   */
  async #watchRecord(s: Screening, tender?: TenderCarrier, within?: RecordTx): Promise<StoredChange | undefined> {
    const { watch } = this.d;
    const work = (tx: RecordTx): Promise<StoredChange | undefined> => watch.record(tx, s, tender);
    try {
      return await (within ? within.savepoint(work) : this.d.store.unitOfWork(work));
    } catch (e) {
      this.d.logger.warn({ err: String(e), screening: s.id }, 'watch list update failed');
      return undefined;
    }
  }

  /**
   * One lookup of at most `maxAttempts` requests, turned into an outcome other screenings may
   * share; a score or a "not found" is cached here. `bookkeeping`: gets what the provider records
   * of the answer, for the caller to wait for after finishing.
   */
  async #lookup(
    query: CarrierQuery,
    maxAttempts: number,
    bookkeeping: Array<Promise<unknown>>,
  ): Promise<LookupOutcome & { attempts: number }> {
    const { store, env, now } = this.d;
    const at = (): number => now().getTime();
    const a = await this.d.provider.lookup(query, { maxAttempts, bookkeeping });
    switch (a.kind) {
      case 'score': {
        const fetched = now();
        const fetchId = await store.unitOfWork(async (tx) => {
          const id = await tx.scores.putScore(env, a.score, fetched, query);
          if (env === 'live') await tx.usage.recordLookup(env, fetched);
          return id;
        });
        return { kind: 'score', at: at(), score: a.score, fetched_at: fetched.toISOString(), fetch_id: fetchId, attempts: a.attempts };
      }
      case 'not_found':
        await store.unitOfWork((tx) => tx.scores.putNotFound(env, query, a.error, now()));
        return { kind: 'not_found', at: at(), error: a.error, attempts: a.attempts };
      case 'failed':
        return { kind: 'failed', at: at(), cause: a.cause, error: a.error, attempts: a.attempts };
      case 'rate_limited':
        return { kind: 'rate_limited', at: at(), retryAfterMs: a.retryAfterMs, error: a.error, attempts: a.attempts };
    }
  }

  async #resultOf(query: CarrierQuery, o: LookupOutcome): Promise<ScreeningResult> {
    switch (o.kind) {
      case 'score':
        return this.#fromScore(o.score, o.fetched_at, 'service', null, o.fetch_id ?? null);
      case 'not_found': {
        // /v1 answered (carrier_not_found): the answer's source is the service, as a score's would be.
        const v = actionWithoutScore('carrier_not_found');
        return { action: v.action, hold_reason: v.hold_reason, source: 'service', score: null, score_fetched_at: null, error: o.error };
      }
      case 'failed':
        return await this.#fallback(query, o.cause, o.error);
      case 'rate_limited':
        return await this.#fallback(query, 'scoring_unavailable', o.error);
      case 'quota_refused':
        return await this.#fallback(query, o.reason, o.error);
    }
  }

  /** No fresh answer: a cached score up to SCREEN_STALE_IF_ERROR old, else hold saying why. */
  async #fallback(query: CarrierQuery, cause: Exclude<NoScoreCause, 'carrier_not_found'>, error: ScreeningError): Promise<ScreeningResult> {
    const stale = await this.d.store.scores.getScore(this.d.env, query);
    if (cause !== 'service_error' && stale && this.d.now().getTime() - Date.parse(stale.fetched_at) <= this.d.staleIfErrorMs) {
      // A stale score may block or hold, never tender by itself (shared/tender-rules.ts).
      const v = actionForStaleScore(stale.score, cause);
      return {
        action: v.action,
        hold_reason: v.hold_reason,
        source: 'stale_cache',
        score: stale.score,
        score_fetched_at: stale.fetched_at,
        error,
        score_fetch_id: stale.fetch_id,
      };
    }
    const v = actionWithoutScore(cause);
    return { action: v.action, hold_reason: v.hold_reason, source: 'none', score: null, score_fetched_at: null, error };
  }

  #fromScore(
    score: SvcScore,
    fetchedAt: string,
    source: 'cache' | 'service' | 'stale_cache',
    error: ScreeningError | null,
    fetchId: number | null,
  ): ScreeningResult {
    const v = actionForScore(score);
    return { action: v.action, hold_reason: v.hold_reason, source, score, score_fetched_at: fetchedAt, error, score_fetch_id: fetchId };
  }
}
