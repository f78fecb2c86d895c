import type { Logger } from 'pino';
import type { RecordStore } from '../store/index.js';
import type { ScreeningPipeline } from './screening-pipeline.js';
import type { ScreeningQueue } from './screening-queue.js';

/**
 * Nothing the worker accepted is lost: every screening SQLite holds as unfinished must have
 * a job. A job can be gone when Redis restarted without persistence, or when a process died
 * between writing the screening and queueing it. Such screenings are queued again; ones
 * whose job failed for good are ended on their fallback.
 */
const BATCH = 500;

export class Reconciler {
  constructor(
    private readonly store: Pick<RecordStore, 'screenings'>,
    private readonly queue: ScreeningQueue,
    private readonly pipeline: ScreeningPipeline,
    private readonly logger: Logger,
    /** Leave screenings younger than this alone: their submit may still be queueing them. */
    private readonly graceMs = 5_000,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * One pass; returns how many screenings were queued again and how many were ended. Jobs are
   * looked up BATCH at a time in one Redis round trip each, so a backlog of thousands costs a
   * handful of round trips, not two per screening.
   */
  async run(): Promise<{ requeued: number; ended: number }> {
    let requeued = 0;
    let ended = 0;
    const cutoff = this.now().getTime() - this.graceMs;
    // Committed rows only: a screening of a unit of work still open is not the reconciler's yet.
    const due = (await this.store.screenings.listUnfinished()).filter((s) => Date.parse(s.created_at) <= cutoff);
    for (let i = 0; i < due.length; i += BATCH) {
      const batch = due.slice(i, i + BATCH);
      const states = await this.queue.states(batch.map((s) => s.id));
      for (const [j, s] of batch.entries()) {
        if (states[j] === 'missing') {
          await this.queue.add(s.id, s.priority);
          requeued++;
        } else if (states[j] === 'failed') {
          await this.pipeline.giveUp(s.id, 'its job failed for good');
          ended++;
        }
      }
    }
    if (requeued + ended > 0) this.logger.warn({ requeued, ended }, 'reconciler: screenings without a live job');
    return { requeued, ended };
  }
}
