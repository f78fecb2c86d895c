import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { closeQueueWorker } from '../queue/close-worker.js';

/**
 * The daily re-screen's clock: a BullMQ job scheduler on queue "watch" makes one "watch-tick"
 * job every `tickMs`; whichever worker process takes it runs one tick (the slice of watched
 * carriers that is due). Every process upserts the same scheduler id, so there is one clock
 * however many workers run.
 */

export const WATCH_QUEUE = 'watch';
export const WATCH_SCHEDULER_ID = 'watch-rescreen';
export const DEFAULT_TICK_MS = 10 * 60_000;

export class WatchScheduler {
  readonly queue: Queue;
  #worker: Worker | undefined;
  #workerConnection: Redis | undefined;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly tickMs: number,
    private readonly tick: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {
    this.queue = new Queue(WATCH_QUEUE, { connection, prefix });
    this.queue.on('error', (err) => logger.warn({ err: err.message }, 'watch queue error'));
  }

  /** Put the clock back when Redis lost it (worker/recovery/redis-rebuild.ts); a no-op otherwise. */
  async ensure(): Promise<void> {
    if (await this.queue.getJobScheduler(WATCH_SCHEDULER_ID)) return;
    await this.#upsert();
  }

  async start(): Promise<void> {
    await this.#upsert();
    if (this.#worker) return;
    this.#workerConnection = this.connection.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true, commandTimeout: undefined });
    this.#workerConnection.on('error', () => {});
    this.#worker = new Worker(WATCH_QUEUE, async () => this.tick(), {
      connection: this.#workerConnection,
      prefix: this.prefix,
      concurrency: 1,
    });
    this.#worker.on('error', (err) => this.logger.warn({ err: err.message }, 'watch worker error'));
    this.#worker.on('failed', (_job, err) => this.logger.warn({ err: err.message }, 'watch tick failed'));
  }

  async #upsert(): Promise<void> {
    await this.queue.upsertJobScheduler(
      WATCH_SCHEDULER_ID,
      { every: this.tickMs },
      { name: 'watch-tick', opts: { removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } } },
    );
  }

  async close(): Promise<void> {
    if (this.#worker) await closeQueueWorker(this.#worker);
    await this.queue.close();
    this.#workerConnection?.disconnect();
  }
}
