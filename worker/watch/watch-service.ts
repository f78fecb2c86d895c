import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { CarrierChange, Priority, Screening, WatchEntry } from '../../shared/screening.js';
import { actionForScore } from '../../shared/tender-rules.js';
import type { SharedEventFeed } from '../events/event-feed.js';
import type { QuotaGate } from '../queue/quota-gate.js';
import type { TenderCarrier, PipelineWatch } from '../queue/screening-pipeline.js';
import { newScreeningId, type Env, type ListPage, type ScreeningResult, type Store, type RecordTx, recordOf } from '../store/index.js';
import { openReaderPool, type Reader } from '../store/reader-pool.js';
import { openWatchStore, type StoredChange, type WatchStore } from '../store/watch-store.js';
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
 */

export interface WatchOptions {
  /** How often the scheduler looks for due carriers (default 10 minutes). */
  tickMs?: number;
}

export interface WatchServiceDeps extends WatchOptions {
  env: Env;
  store: Store;
  events: SharedEventFeed;
  gate: QuotaGate;
  connection: Redis;
  prefix: string;
  logger: Logger;
  now: () => Date;
  /** SCREEN_WATCH_DAYS: how long after its last tender a carrier stays watched. */
  watchDays: number;
  /** Where the list pages are read and their JSON made (GET /watchlist, /changes); default: on the store's own connection. */
  reader?: Reader;
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
  readonly #db: WatchStore;
  readonly #reader: Reader;
  readonly #scheduler: WatchScheduler;
  readonly #tickMs: number;
  readonly #log: Logger;

  constructor(private readonly d: WatchServiceDeps) {
    this.#db = openWatchStore(d.store, { watchDays: d.watchDays }); // its writes join the pipeline's transactions
    this.#reader = d.reader ?? openReaderPool(d.store, { size: 0 });
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
  async wantsReview(s: Screening, r: ScreeningResult): Promise<boolean> {
    if (!this.#db.isWatchScreening(s.id)) return true;
    if (!r.score) return false;
    const ids = idsOfScore(r.score);
    const before = ids ? this.#db.lastState(keysOf(ids)) : undefined;
    return before !== undefined && before.action !== 'hold' && actionForScore(r.score).action === 'hold';
  }

  /** Every watch key record() may lock for this screening: its tender's key and the score's keys. */
  lockKeys(s: Pick<Screening, 'query' | 'score'>): string[] {
    return keysOf(idsOfScore(s.score) ?? this.#resolve(s.query));
  }

  /** The carrier a tender screening puts on the list; undefined when it puts none there. */
  async tenderCarrier(s: Parameters<PipelineWatch['tenderCarrier']>[0]): Promise<TenderCarrier | undefined> {
    if (s.status !== 'done' || s.priority !== 'tender' || s.error?.code === 'carrier_not_found') return undefined;
    if (s.id !== undefined && this.#db.isWatchScreening(s.id)) return undefined;
    const ids: CarrierIds = idsOfScore(s.score) ?? this.#resolve(s.query);
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
    const tender = named ?? (await this.tenderCarrier(s));
    if (tender) {
      const { key } = tender;
      this.#db.recordTender({
        carrierKey: key,
        dot_number: tender.dot_number,
        mc_number: tender.mc_number,
        screeningId: s.id,
        // Its insert named the carrier: no UPDATE of the screening.
        tagged: named !== undefined,
        at: s.created_at,
        nextCheckAt: () => nextCheckAt(key, now),
      });
    }
    const snapshot = snapshotOf(s);
    if (!snapshot || !scoreIds) return undefined;
    const change = this.#db.observe({
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
      findings: (before) => diffFindings(this.d.store.getScreening(before.screening_id)?.score, s.score),
    });
    if (change) {
      await this.d.events.append(tx, 'carrier.changed', publicChange(change));
      await oweChangeCallbacks(tx, recordOf(this.d.store), change, now);
    }
    return change;
  }

  /** After record()'s transaction: log the change (its callbacks were owed in that transaction). */
  async announceChange(change: StoredChange): Promise<void> {
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
    await recordOf(store).unitOfWork(async () => this.#db.pruneExpired(nowIso));
    const quota = await this.d.gate.status();
    if (quota.livemode && quota.gate !== 'open')
      return { submitted: 0, screenings: [], skipped: quota.gate === 'closed' ? 'quota_closed' : 'quota_reserve' };
    const due = await recordOf(store).unitOfWork(async () =>
      this.#db.claimDue(nowIso, maxPerTick(this.d.ratePerMinute, this.#tickMs), (key) => nextCheckAt(key, now)),
    );
    const screenings: string[] = [];
    let fresh = 0;
    for (const c of due) {
      // Fetched from /v1 within the cache TTL (by a tender, say): nothing new to learn, no lookup
      // to pay. Its tender's screening already went through change detection; the claim above
      // has moved it to its next day.
      const id = await recordOf(store).unitOfWork(async () => {
        const cached = this.d.cacheTtlMs ? store.getScore(this.d.env, queryOf(c)) : undefined;
        if (cached && now.getTime() - Date.parse(cached.fetched_at) < this.d.cacheTtlMs!) return undefined;
        const id = newScreeningId();
        // Marked before it exists, so the pipeline always knows it is a watch re-screen.
        this.#db.markWatchScreening(id, c.carrierKey, nowIso);
        store.insertScreening({ id, query: queryOf(c), tender_id: null, priority: 'background', refresh: true, callback_url: null });
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
        await recordOf(store).unitOfWork(async () => {
          store.discardScreening(id);
          this.#db.releaseDue(c.carrierKey, nowIso);
        });
        this.#log.warn({ err: String(e) }, 'watch re-screen could not be queued; it is retried next tick');
        break;
      }
    }
    if (screenings.length > 0 || fresh > 0) this.#log.info({ submitted: screenings.length, fresh }, 'watch re-screens queued');
    return { submitted: screenings.length, screenings, ...(fresh > 0 ? { fresh } : {}) };
  }

  // ---- the watch list (intake) ----

  // Writes in a unit of work, reads with store.readCommitted: none lands inside another's unit.
  add(query: CarrierQuery, note: string | null): Promise<{ entry: WatchEntry; created: boolean }> {
    return recordOf(this.d.store).unitOfWork(async () => {
      const ids = this.#resolve(query);
      const key = keyOf(ids);
      const now = this.d.now();
      return this.#db.addManual({ carrierKey: key, ...ids, note, at: now.toISOString(), nextCheckAt: nextCheckAt(key, now) });
    });
  }

  /** Off the list; false when it was not on it. A later tender puts it back. */
  remove(query: CarrierQuery): Promise<boolean> {
    return recordOf(this.d.store).unitOfWork(async () => this.#db.removeEntry(keysOf(this.#resolve(query)), this.d.now().toISOString()));
  }

  get(query: CarrierQuery): Promise<WatchEntry | undefined> {
    return this.d.store.readCommitted(() => this.#db.getEntry(keysOf(this.#resolve(query)), this.d.now().toISOString()));
  }

  // ---- changes (intake, the tray's Changes list) ----

  /** GET /watchlist's body: one page, soonest re-screen first, by keyset; read and made JSON by the reader (watch-reads.ts). */
  pageJson(p: ListPage): Promise<Buffer> {
    return this.#reader.readJson(watchPage, { now: this.d.now().toISOString(), watchDays: this.d.watchDays, page: p });
  }

  /** GET /changes's body: one page, newest first, by keyset; read and made JSON by the reader. */
  changesPageJson(state: 'new' | 'acknowledged' | undefined, p: ListPage, filter?: { since?: string; dot?: string }): Promise<Buffer> {
    return this.#reader.readJson(changesPage, { state, page: p, ...(filter === undefined ? {} : { filter }), watchDays: this.d.watchDays });
  }

  getChange(id: string): Promise<CarrierChange | undefined> {
    return this.d.store.readCommitted(() => {
      const c = this.#db.getChange(id);
      return c ? publicChange(c) : undefined;
    });
  }

  /** `note`: why, as the dispatcher wrote it (at most 500 characters; blank is none). */
  async acknowledge(id: string, by: string, note: string | null = null): Promise<CarrierChange> {
    const c = publicChange(
      await recordOf(this.d.store).unitOfWork(async () =>
        this.#db.acknowledgeChange(id, by, this.d.now().toISOString(), note?.trim() || null),
      ),
    );
    await this.d.events.publish('change.acknowledged', c);
    return c;
  }

  async close(): Promise<void> {
    await this.#scheduler.close();
  }

  /** Both ids when the score cache knows the other one (MC ↔ DOT). */
  #resolve(query: CarrierQuery): CarrierIds {
    return resolveIds(this.d.store, this.d.env, idsOfQuery(query));
  }
}
