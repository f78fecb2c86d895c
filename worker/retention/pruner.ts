import type { Logger } from 'pino';
import type { RecordStore } from '../store/index.js';
import { PRUNE_TASKS, type PruneTask } from '../store/retention-repo.js';

/**
 * Retention (docs/operations.md → Retention): what the worker keeps and for how long.
 * - the event log (SSE replay) and delivered callbacks: SCREEN_EVENTS_RETENTION (7 days);
 * - screenings with their reviews, carrier changes, watch history, lifted blocks, dead and
 *   cancelled callbacks: SCREEN_RETENTION (3 years: the due-diligence record);
 * - not-found answers once past their cache time.
 * Rows go in small batches, each its own short transaction with a pause between, so no
 * pruning pass holds the write lock long enough to delay a screening. Freed pages are given
 * back to the file system with an incremental vacuum (SQLite, new databases; see openStore).
 * One host prunes at a time (the record's prune lock; a SQLite file needs none).
 * Other modules add their own tables with `extraTasks` (e.g. decisions, audit, idempotency keys).
 */

export interface RetentionPolicy {
  /** Event log and delivered callbacks. */
  eventsMs: number;
  /** Screenings, reviews, changes, audit: the record. */
  recordsMs: number;
  /** Not-found answers are cached this long (then useless). */
  notFoundMs: number;
}

/** The SQL of each kind of row lives with the store (worker/store/retention-repo.ts). */
export type { PruneTask } from '../store/retention-repo.js';

export interface PrunerOptions {
  store: Pick<RecordStore, 'retention'>;
  policy: RetentionPolicy;
  logger: Logger;
  now?: () => Date;
  /** Rows per transaction (default 500). */
  batch?: number;
  /** Pages given back per pass (default 2,000 = 8 MB at 4 KiB pages). */
  vacuumPages?: number;
  extraTasks?: readonly PruneTask[];
}

export type PruneReport = Record<string, number>;

const pause = (): Promise<void> => new Promise((r) => setImmediate(r));

export class Pruner {
  readonly #tasks: readonly PruneTask[];
  #running: Promise<PruneReport> | undefined;

  constructor(private readonly o: PrunerOptions) {
    this.#tasks = [...PRUNE_TASKS, ...(o.extraTasks ?? [])];
  }

  /** One pass over every task; returns rows deleted per task. One pass at a time per process. */
  run(): Promise<PruneReport> {
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run(): Promise<PruneReport> {
    const lock = await this.o.store.retention.tryPruneLock();
    if (!lock) {
      this.o.logger.debug('retention: another host is pruning; this pass is skipped');
      return {};
    }
    try {
      return await this.#pass();
    } finally {
      await lock.release();
    }
  }

  async #pass(): Promise<PruneReport> {
    const rows = this.o.store.retention;
    const now = (this.o.now ?? (() => new Date()))().getTime();
    const limit = this.o.batch ?? 500;
    const report: PruneReport = {};
    for (const t of this.#tasks) {
      const cutoff = new Date(now - this.o.policy[t.keep]).toISOString();
      let total = 0;
      for (;;) {
        if (!(await rows.isOpen())) return report;
        const n = await rows.pruneBatch(t, cutoff, limit);
        total += n;
        if (n < limit) break;
        await pause(); // let screenings take the write lock between batches
      }
      if (total > 0) report[t.name] = total;
    }
    if (Object.keys(report).length > 0) {
      const before = await rows.freePages();
      await rows.vacuum(this.o.vacuumPages ?? 2_000);
      this.o.logger.info({ pruned: report, pages_returned: before - (await rows.freePages()) }, 'retention: old rows pruned');
    }
    return report;
  }
}
