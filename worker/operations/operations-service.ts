import type { Logger } from 'pino';
import type { DailyUsage, StatusReport } from '../../shared/screening.js';
import { callbackCounts, oldestPendingCallbackAt } from '../callbacks/outbox.js';
import type { SharedEventFeed } from '../events/event-feed.js';
import { monthOf } from '../queue/month.js';
import type { QuotaGate } from '../queue/quota-gate.js';
import type { ScreeningQueue } from '../queue/screening-queue.js';
import type { ServiceState } from '../queue/service-state.js';
import { queuePaused, queuePausedSince, setQueuePaused } from '../recovery/operator-state.js';
import { redisUpCheck, type RedisUp } from '../redis-up.js';
import type { Ages } from '../metrics/metrics.js';
import { UnavailableError, type HealthReport } from '../screener-types.js';
import type { RecordBackendName, RecordStore } from '../store/index.js';

/**
 * What an operator reads and controls: the status, the ages the metrics show, the daily usage,
 * health, and the pause of the queue (kept in SQLite, the record, so a Redis that lost its data
 * is paused again by RedisRebuild).
 */
export class OperationsService {
  /** Refuse at once while Redis is down (from the producer connection it also pings for health). */
  readonly #redisUp: RedisUp;

  constructor(
    private readonly d: {
      environment: 'sandbox' | 'live';
      /** The rate limit the key check read, until /v1 says otherwise. */
      ratePerMinute: number;
      store: RecordStore;
      /**
       * The store's write probe (a real committed write, and whether writes were refused lately),
       * run with no unit of work open: SQLite's is worker/health/sqlite-write-probe.ts.
       */
      writeProbe: () => Promise<{ writable: boolean }>;
      /** Which engine the record is on (/healthz says). */
      backend: RecordBackendName;
      queue: Pick<ScreeningQueue, 'counts' | 'pause' | 'resume'>;
      gate: Pick<QuotaGate, 'status'>;
      service: Pick<ServiceState, 'report'>;
      events: Pick<SharedEventFeed, 'publish'>;
      producer: { ping(): Promise<unknown> };
      now: () => Date;
      logger: Logger;
    },
  ) {
    this.#redisUp = redisUpCheck(d.producer);
  }

  async status(): Promise<StatusReport> {
    const { environment, ratePerMinute, store, queue, gate, service } = this.d;
    await this.#redisUp('the status cannot be read');
    const [q, quota, svcState] = await Promise.all([queue.counts(), gate.status(), service.report()]).catch(() => {
      throw new UnavailableError('the queue (Redis) is unavailable: the status cannot be read, try again');
    });
    // Committed rows only (the store's reads); the counts need not agree with each other.
    const [pending, oldest, callbacks] = await Promise.all([
      store.reviews.countPendingReviews(),
      store.reviews.listReviews('pending', 1),
      callbackCounts(store),
    ]);
    const reviews = { pending, oldest_pending_at: oldest[0]?.created_at ?? null };
    return {
      object: 'status',
      environment,
      queue: q,
      quota,
      rate_limit: { ...svcState.rate_limit, per_minute: svcState.rate_limit.per_minute ?? ratePerMinute },
      reviews,
      callbacks,
      service: svcState.service,
    };
  }

  /** When the oldest owed callback, the operator's pause and the oldest queued screening began (SQLite only; the metrics). */
  async ages(): Promise<Ages> {
    const { store } = this.d;
    const [callback, paused, queued] = await Promise.all([
      oldestPendingCallbackAt(store),
      queuePausedSince(store),
      store.screenings.oldestQueuedAt(),
    ]);
    return { oldest_pending_callback_at: callback, queue_paused_since: paused, oldest_queued_at: queued };
  }

  async dailyUsage(): Promise<DailyUsage> {
    const { environment, store } = this.d;
    const month = monthOf(this.d.now());
    const [snap, days] = await Promise.all([store.usage.latestUsageSnapshot(environment), store.usage.dailyLookups(environment, month)]);
    return { object: 'usage_daily', month, monthly_quota: snap?.monthly_quota ?? null, days };
  }

  /** Intake keeps accepting; workers stop calling /v1. */
  async pause(): Promise<void> {
    const { store, queue, logger } = this.d;
    await this.#redisUp('the queue was not paused');
    const was = await store.unitOfWork(async (tx) => {
      const was = (await queuePaused(tx)) === true;
      await setQueuePaused(tx, true, this.d.now());
      return was;
    });
    await queue.pause();
    if (!was) logger.warn('queue paused by an operator: no /v1 calls until POST /queue/resume');
    await this.#queueChanged();
  }

  async resume(): Promise<void> {
    const { store, queue, logger } = this.d;
    await this.#redisUp('the queue was not resumed');
    const was = await store.unitOfWork(async (tx) => {
      const was = (await queuePaused(tx)) === true;
      await setQueuePaused(tx, false, this.d.now());
      return was;
    });
    await queue.resume();
    if (was) logger.warn('queue resumed by an operator');
    await this.#queueChanged();
  }

  async health(): Promise<HealthReport> {
    const { store, service, producer, writeProbe } = this.d;
    const redisOk = await producer.ping().then(
      () => true,
      () => false,
    );
    const recordOk = await store.events.lastEventId().then(
      () => true,
      () => false,
    );
    // Reads working says nothing about writes (a full disk): probe them too.
    const writable = recordOk && (await writeProbe()).writable;
    // A hold-off (Retry-After) means no /v1 calls: degraded, like an unreachable service.
    const sv = redisOk ? (await service.report()).service : undefined;
    // A refused key answers every call, but with no score: as good as unreachable.
    const keyRejected = sv?.key_rejected === true;
    const svcOk = sv ? sv.reachable && !keyRejected && sv.hold_off_until === null : false;
    return {
      redis: redisOk,
      record: recordOk,
      record_writable: writable,
      record_backend: this.d.backend,
      svc: svcOk,
      svc_key_rejected: keyRejected,
    };
  }

  async #queueChanged(): Promise<void> {
    await this.d.events.publish('queue.changed', await this.d.queue.counts()).catch(() => undefined);
  }
}
