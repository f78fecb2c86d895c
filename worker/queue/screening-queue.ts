import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Priority, StatusReport } from '../../shared/screening.js';
import { logContext } from '../log-context.js';

/** The producer side of queue "screenings": one job per accepted screening. */

export const SCREENINGS_QUEUE = 'screenings';
/** The job name of a re-screen after an outage (the others are 'screen'). */
export const RESCREEN_JOB = 'rescreen';

/** BullMQ priorities: lower runs first. Tender-time requests go ahead of background ones. */
export const PRIORITY: Record<Priority, number> = { tender: 1, background: 10 };

export interface ScreeningJobData {
  screeningId: string;
  /** The intake request that accepted it: the job's log lines carry it (worker/log-context.ts). */
  requestId?: string;
  /** /v1 requests earlier runs of this job made (a rate-limited job runs again). */
  svcAttempts?: number;
  /** A re-screen: ms epoch (the worker's clock) of the pass that queued it; scores fetched since answer it. */
  notBefore?: number;
}

export class ScreeningQueue {
  readonly queue: Queue<ScreeningJobData>;

  constructor(
    private readonly connection: Redis,
    prefix: string,
  ) {
    this.queue = new Queue<ScreeningJobData>(SCREENINGS_QUEUE, { connection, prefix });
    this.queue.on('error', () => {});
  }

  /** Job id = screening id: queueing the same screening twice (a reconciler race) is a no-op. */
  async add(screeningId: string, priority: Priority): Promise<void> {
    const requestId = logContext().request_id;
    await this.queue.add('screen', requestId === undefined ? { screeningId } : { screeningId, requestId }, {
      jobId: screeningId,
      priority: PRIORITY[priority],
      // Unexpected errors (e.g. SQLite busy) are retried; /v1 retries happen in the client.
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: { age: 3_600, count: 1_000 },
      removeOnFail: { age: 7 * 86_400 },
    });
  }

  /**
   * A held screening screened again after an outage (worker/recovery/outage-rescreen.ts): job
   * id `rescreen-<screening id>`, so passes in several processes queue it once; behind new
   * screenings of its priority; removed once done, so a later pass may queue it again.
   */
  async addRescreen(screeningId: string, priority: Priority, notBefore: number): Promise<void> {
    await this.queue.add(
      RESCREEN_JOB,
      { screeningId, notBefore },
      {
        jobId: `rescreen-${screeningId}`,
        priority: PRIORITY[priority] + 1,
        attempts: 3,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  async has(screeningId: string): Promise<'missing' | 'failed' | 'present'> {
    const job = await this.queue.getJob(screeningId);
    if (!job) return 'missing';
    return (await job.isFailed()) ? 'failed' : 'present';
  }

  /** has() for many screenings in one Redis round trip (the reconciler's batches). */
  async states(screeningIds: readonly string[]): Promise<Array<'missing' | 'failed' | 'present'>> {
    if (screeningIds.length === 0) return [];
    const p = this.connection.pipeline();
    for (const id of screeningIds) {
      p.exists(this.queue.toKey(id));
      p.zscore(this.queue.keys.failed!, id);
    }
    const out = (await p.exec()) ?? [];
    return screeningIds.map((_, i) => {
      const [existsErr, exists] = out[2 * i] ?? [null, 0];
      const [failedErr, failed] = out[2 * i + 1] ?? [null, null];
      if (existsErr || failedErr) throw existsErr ?? failedErr;
      if (exists !== 1) return 'missing';
      return failed !== null ? 'failed' : 'present';
    });
  }

  async counts(): Promise<StatusReport['queue']> {
    const c = await this.queue.getJobCounts('waiting', 'prioritized', 'waiting-children', 'active', 'delayed', 'failed', 'completed');
    return {
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      failed: c.failed ?? 0,
      completed: c.completed ?? 0,
      paused: await this.queue.isPaused(),
    };
  }

  pause(): Promise<void> {
    return this.queue.pause();
  }

  resume(): Promise<void> {
    return this.queue.resume();
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
