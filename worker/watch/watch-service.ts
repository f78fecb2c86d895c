import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { CarrierChange, IntakeEvent, Priority, Screening, WatchEntry } from '../../shared/screening.js';
import { actionForScore } from '../../shared/tender-rules.js';
import type { SharedEventFeed } from '../events/event-feed.js';
import type { QuotaGate } from '../queue/quota-gate.js';
import type { TenderCarrier, PipelineWatch } from '../queue/screening-pipeline.js';
import { newScreeningId, type Env, type ListPage, type ScreeningResult, type RecordStore, type RecordTx } from '../store/index.js';
import type { Reader } from '../store/reader-pool.js';
import type { RecordRepos, RecordWatchStore } from '../store/record.js';
import type { StoredChange } from '../store/watch-store.js';
import { canonicalDot, canonicalMc, idsOfQuery, keyOf, keysOf, queryOf, resolveIds, type CarrierIds } from './carrier-key.js';
import { oweChangeCallbacks } from './change-callbacks.js';
import { detectChanges, diffFindings, snapshotOf } from './change-detector.js';
import { changesPage, publicChange, watchPage } from './watch-reads.js';
import { DAY_MS, maxPerTick, nextCheckAt } from './rescreen-schedule.js';
import { DEFAULT_TICK_MS, WatchScheduler } from './watch-scheduler.js';

/**
 * The watch list, its daily re-screen and change alerts (docs/watchlist.md). The screening
 * pipeline asks it what PipelineWatch says (membership, review, record); the intake calls the
 * rest. The local do-not-use list is a screening rule of its own: worker/blocks/.
 * What the pipeline asks inside its unit of work takes that unit's handle (`tx`); the intake's
 * writes open a unit of their own, its reads are the store's (committed rows only).
 */

export interface WatchOptions {
  /** How often the scheduler looks for due carriers (default 10 minutes). */
  tickMs?: number;
}

export interface WatchServiceDeps extends WatchOptions {
  env: Env;
  store: RecordStore;
  events: SharedEventFeed;
  gate: QuotaGate;
  connection: Redis;
  prefix: string;
  logger: Logger;
  now: () => Date;
  /** SCREEN_WATCH_DAYS: how long after its last tender a carrier stays watched. */
  watchDays: number;
  /** Where the list pages are read and their JSON made (GET /watchlist, /changes: SQLite's reader pool, watch-reads.ts). */
  reader: Reader;
  /** The account's rate limit; a tick uses at most a share of it. */
  ratePerMinute: number;
  /** Put a screening on the queue "screenings". */
  enqueue(screeningId: string, priority: Priority): Promise<void>;
  /** SCREEN_CACHE_TTL: a carrier whose score was fetched from /v1 within it is not fetched again by a tick. */
  cacheTtlMs?: number;
}

/** `fresh`: due carriers not re-screened because /v1 answered for them within the cache TTL. */
export type TickResult = { submitted: number; screenings: string[]; fresh?: number; skipped?: 'quota_reserve' | 'quota_closed' };

export { publicChange };

function idsOfScore(score: Screening['score']): CarrierIds | undefined {
  const c = score?.carrier;
  if (!c || typeof c.dot_number !== 'string' || c.dot_number.trim() === '') return undefined;
  return {
    dot_number: canonicalDot(c.dot_number),
    mc_number: typeof c.mc_number === 'string' && c.mc_number.trim() !== '' ? canonicalMc(c.mc_number) : null,
  };
}

export class WatchService implements PipelineWatch {
  readonly #scheduler: WatchScheduler;
  readonly #tickMs: number;
  readonly #log: Logger;
  /** Each change's carrier.changed event, appended in record()'s unit, for announceChange. */
  readonly #changeEvents = new WeakMap<StoredChange, IntakeEvent>();

  constructor(private readonly d: WatchServiceDeps) {
    this.#log = d.logger.child({ module: 'watch' });
    this.#tickMs = d.tickMs ?? DEFAULT_TICK_MS;
    this.#scheduler = new WatchScheduler(d.connection, d.prefix, this.#tickMs, () => this.tick(), d.logger);
  }

  /** The re-screen scheduler (worker processes only). */
  async startWorkers(): Promise<void> {
    await this.#scheduler.start();
  }

  /** The re-screen clock is back in Redis (after Redis lost its data). */
  async ensureSchedule(): Promise<void> {
    await this.#scheduler.ensure();
  }

  get schedulerQueue(): WatchScheduler['queue'] {
    return this.#scheduler.queue;
  }

  // ---- what the screening pipeline asks (PipelineWatch) ----

  /**
   * A hold opens a review item, except on a watch re-screen: only when the carrier's action
   * newly became hold (a change a person must look at). A re-screen held for want of a
   * score (quota reserve, outage) or still held as at its tender puts nothing on the desk.
   */
  async wantsReview(tx: RecordTx, s: Screening, r: ScreeningResult): Promise<boolean> {
    const w = this.#watch(tx);
    if (!(await w.isWatchScreening(s.id))) return true;
    if (!r.score) return false;
    const ids = idsOfScore(r.score);
    const before = ids ? await w.lastState(keysOf(ids)) : undefined;
    return before !== undefined && before.action !== 'hold' && actionForScore(r.score).action === 'hold';
  }

  async readAhead(tx: RecordTx, scores: Array<Screening['score'] | undefined>): Promise<void> {
    const w = this.#watch(tx);
    if (!w.readAheadTenders) return;
    // record()'s tender and observation of a hit: both of the score's carrier (tenderCarrier, keysOf).
    const tenders = scores.flatMap((score) => {
      const ids = idsOfScore(score ?? null);
      return ids ? [{ carrierKey: keyOf(ids), keys: keysOf(ids) }] : [];
    });
    if (tenders.length > 0) await w.readAheadTenders(tenders);
  }

  /** Every watch key record() may lock for this screening: its tender's key and the score's keys. */
  async lockKeys(tx: RecordTx, s: Pick<Screening, 'query' | 'score'>): Promise<string[]> {
    return keysOf(idsOfScore(s.score) ?? (await this.#resolve(tx, s.query)));
  }

  /** The carrier a tender screening puts on the list; undefined when it puts none there. In the caller's unit (`tx`). */
  async tenderCarrier(tx: RecordTx, s: Parameters<PipelineWatch['tenderCarrier']>[1]): Promise<TenderCarrier | undefined> {
    if (s.status !== 'done' || s.priority !== 'tender' || s.error?.code === 'carrier_not_found') return undefined;
    if (s.id !== undefined && (await this.#watch(tx).isWatchScreening(s.id))) return undefined;
    const ids: CarrierIds = idsOfScore(s.score) ?? (await this.#resolve(tx, s.query));
    return { key: keyOf(ids), dot_number: ids.dot_number, mc_number: ids.mc_number };
  }

  /**
   * A screening is final: its tender membership and change detection, written to the store
   * (its carrier.changed event too) inside the caller's unit of work. Safe to call twice. The
   * change found, if any, goes to announceChange() once the unit has committed.
   */
  async record(tx: RecordTx, s: Screening, named?: TenderCarrier): Promise<StoredChange | undefined> {
    if (s.status !== 'done') return undefined;
    const now = this.d.now();
    const scoreIds = idsOfScore(s.score);
    const w = this.#watch(tx);
    const tender = named ?? (await this.tenderCarrier(tx, s));
    const snapshot = snapshotOf(s);
    // Membership, then change detection, in one call (their first reads are one on PostgreSQL).
    const change = await w.tenderAndObserve(
      tender && {
        carrierKey: tender.key,
        dot_number: tender.dot_number,
        mc_number: tender.mc_number,
        screeningId: s.id,
        // Its insert named the carrier: no UPDATE of the screening.
        tagged: named !== undefined,
        at: s.created_at,
        nextCheckAt: () => nextCheckAt(tender.key, now),
      },
      snapshot && scoreIds
        ? {
            keys: keysOf(scoreIds),
            // Named, not spread: a spread into a literal takes V8's slow path on every hit.
            dot_number: scoreIds.dot_number,
            mc_number: scoreIds.mc_number,
            legal_name: typeof s.score?.carrier.legal_name === 'string' ? s.score.carrier.legal_name : null,
            snapshot,
            at: now.toISOString(),
            tendersSince: new Date(now.getTime() - this.d.watchDays * DAY_MS).toISOString(),
            detect: detectChanges,
            // Read only when a change is found: the old score from the screening that gave it.
            findings: async (before) => diffFindings((await tx.screenings.getScreening(before.screening_id))?.score, s.score),
          }
        : undefined,
    );
    if (change) {
      this.#changeEvents.set(change, await this.d.events.append(tx, 'carrier.changed', publicChange(change)));
      await oweChangeCallbacks(tx, this.d.store, change, now);
    }
    return change;
  }

  /**
   * After record()'s transaction: announce its carrier.changed event (the event feed delivers in
   * id order: later events wait for it) and log the change (its callbacks were owed in that transaction).
   */
  async announceChange(change: StoredChange): Promise<void> {
    const e = this.#changeEvents.get(change);
    if (e) await this.d.events.announce([e]);
    this.#log.info(
      {
        change: change.id,
        dot: change.dot_number,
        reasons: change.reasons,
        before: change.before.action,
        after: change.after.action,
        tenders: change.tenders.length,
      },
      'watched carrier changed',
    );
  }

  // ---- the daily re-screen ----

  /**
   * One scheduler tick: re-screen the watched carriers that are due, at background priority
   * with refresh, at most a share of the rate limit per tick. Nothing at all while the quota
   * gate is at the reserve or closed (the gate would refuse them anyway).
   */
  async tick(): Promise<TickResult> {
    const now = this.d.now();
    const nowIso = now.toISOString();
    const { store } = this.d;
    // Each step's writes in a unit of their own (no I/O inside one: the enqueue is between).
    await store.unitOfWork((tx) => this.#watch(tx).pruneExpired(nowIso));
    const quota = await this.d.gate.status();
    if (quota.livemode && quota.gate !== 'open')
      return { submitted: 0, screenings: [], skipped: quota.gate === 'closed' ? 'quota_closed' : 'quota_reserve' };
    const due = await store.unitOfWork((tx) =>
      this.#watch(tx).claimDue(nowIso, maxPerTick(this.d.ratePerMinute, this.#tickMs), (key) => nextCheckAt(key, now)),
    );
    const screenings: string[] = [];
    let fresh = 0;
    for (const c of due) {
      // Fetched from /v1 within the cache TTL (by a tender, say): nothing new to learn, no lookup
      // to pay. Its tender's screening already went through change detection; the claim above
      // has moved it to its next day.
      const id = await store.unitOfWork(async (tx) => {
        const cached = this.d.cacheTtlMs ? await tx.scores.getScore(this.d.env, queryOf(c)) : undefined;
        if (cached && now.getTime() - Date.parse(cached.fetched_at) < this.d.cacheTtlMs!) return undefined;
        const id = newScreeningId();
        // Marked before it exists, so the pipeline always knows it is a watch re-screen.
        await this.#watch(tx).markWatchScreening(id, c.carrierKey, nowIso);
        await tx.screenings.insertScreening({
          id,
          query: queryOf(c),
          tender_id: null,
          priority: 'background',
          refresh: true,
          callback_url: null,
        });
        return id;
      });
      if (id === undefined) {
        fresh++;
        continue;
      }
      try {
        await this.d.enqueue(id, 'background');
        screenings.push(id);
      } catch (e) {
        await store.unitOfWork(async (tx) => {
          await tx.screenings.discardScreening(id);
          await this.#watch(tx).releaseDue(c.carrierKey, nowIso);
        });
        this.#log.warn({ err: String(e) }, 'watch re-screen could not be queued; it is retried next tick');
        break;
      }
    }
    if (screenings.length > 0 || fresh > 0) this.#log.info({ submitted: screenings.length, fresh }, 'watch re-screens queued');
    return { submitted: screenings.length, screenings, ...(fresh > 0 ? { fresh } : {}) };
  }

  // ---- the watch list (intake) ----

  // Writes in a unit of work, reads on the store (committed rows): none lands inside another's unit.
  add(query: CarrierQuery, note: string | null): Promise<{ entry: WatchEntry; created: boolean }> {
    return this.d.store.unitOfWork(async (tx) => {
      const ids = await this.#resolve(tx, query);
      const key = keyOf(ids);
      const now = this.d.now();
      return this.#watch(tx).addManual({ carrierKey: key, ...ids, note, at: now.toISOString(), nextCheckAt: nextCheckAt(key, now) });
    });
  }

  /** Off the list; false when it was not on it. A later tender puts it back. */
  remove(query: CarrierQuery): Promise<boolean> {
    return this.d.store.unitOfWork(async (tx) =>
      this.#watch(tx).removeEntry(keysOf(await this.#resolve(tx, query)), this.d.now().toISOString()),
    );
  }

  async get(query: CarrierQuery): Promise<WatchEntry | undefined> {
    const { store } = this.d;
    return this.#watch(store).getEntry(keysOf(await this.#resolve(store, query)), this.d.now().toISOString());
  }

  // ---- changes (intake, the tray's Changes list) ----

  /** GET /watchlist's body: one page, soonest re-screen first, by keyset; read and made JSON by the reader (watch-reads.ts). */
  pageJson(p: ListPage): Promise<Buffer> {
    return this.d.reader.readJson(watchPage, { now: this.d.now().toISOString(), watchDays: this.d.watchDays, page: p });
  }

  /** GET /changes's body: one page, newest first, by keyset; read and made JSON by the reader. */
  changesPageJson(state: 'new' | 'acknowledged' | undefined, p: ListPage, filter?: { since?: string; dot?: string }): Promise<Buffer> {
    return this.d.reader.readJson(changesPage, {
      state,
      page: p,
      ...(filter === undefined ? {} : { filter }),
      watchDays: this.d.watchDays,
    });
  }

  async getChange(id: string): Promise<CarrierChange | undefined> {
    const c = await this.#watch(this.d.store).getChange(id);
    return c ? publicChange(c) : undefined;
  }

  /** `note`: why, as the dispatcher wrote it (at most 500 characters; blank is none). */
  async acknowledge(id: string, by: string, note: string | null = null): Promise<CarrierChange> {
    const c = publicChange(
      await this.d.store.unitOfWork((tx) => this.#watch(tx).acknowledgeChange(id, by, this.d.now().toISOString(), note?.trim() || null)),
    );
    await this.d.events.publish('change.acknowledged', c);
    return c;
  }

  async close(): Promise<void> {
    await this.#scheduler.close();
  }

  /** The watch store for SCREEN_WATCH_DAYS on `on`: a unit's handle, or the store outside one. */
  #watch(on: RecordRepos): RecordWatchStore {
    return on.watch(this.d.watchDays);
  }

  /** Both ids when the score cache knows the other one (MC ↔ DOT), as `on` sees it. */
  #resolve(on: Pick<RecordRepos, 'scores'>, query: CarrierQuery): Promise<CarrierIds> {
    return resolveIds(on.scores, this.d.env, idsOfQuery(query));
  }
}
