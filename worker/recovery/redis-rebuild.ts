import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Redis is the work list, the record (SQLite or PostgreSQL) is the record: when Redis loses its
 * data (a restart without persistence, a failover, FLUSHALL) whatever it held is rebuilt from the
 * record and /v1 by itself. A marker key says "this Redis has our state"; when it is missing, every step runs
 * (each is idempotent, and several processes may run them at once), then the marker is set.
 * A FLUSHALL on a live connection fires no reconnect, so the marker is checked periodically
 * as well as when the connection comes back.
 */

export interface RebuildStep {
  name: string;
  run(): Promise<unknown>;
}

export class RedisRebuild {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<boolean> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly markerKey: string,
    /** In order: e.g. the operator's pause before the reconciler queues work again. */
    private readonly steps: RebuildStep[],
    private readonly logger: Logger,
  ) {}

  /** Check now and every `everyMs`, and whenever the connection is ready again. */
  start(everyMs: number): void {
    const check = (): void => void this.check().catch(() => {});
    this.redis.on('ready', check);
    this.#timer = setInterval(check, everyMs);
    this.#timer.unref();
    check();
  }

  /** One check; true when the state was missing and has been rebuilt. */
  check(): Promise<boolean> {
    // One check at a time in this process.
    this.#running ??= this.#check().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #check(): Promise<boolean> {
    if ((await this.redis.exists(this.markerKey)) === 1) return false;
    this.logger.warn('Redis holds none of our state (first start, restart without persistence or flush): rebuilding it from the record');
    for (const step of this.steps) {
      try {
        await step.run();
      } catch (e) {
        // The marker stays unset: the next check tries every step again.
        this.logger.warn({ err: String(e), step: step.name }, 'Redis rebuild step failed; retried at the next check');
        return false;
      }
    }
    await this.redis.set(this.markerKey, new Date().toISOString());
    this.logger.info({ steps: this.steps.map((s) => s.name) }, 'Redis state rebuilt');
    return true;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
