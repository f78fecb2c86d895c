import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { withLogContext } from '../log-context.js';
import { LONGEST_RATE_LIMIT_WAIT_MS, type ScreeningPipeline } from './screening-pipeline.js';
import { RESCREEN_JOB, SCREENINGS_QUEUE, type ScreeningJobData } from './screening-queue.js';

/**
 * The consumer side of queue "screenings".
 *
 * Pacing: BullMQ's limiter is queue-wide (kept in Redis), so any number of worker processes
 * together start at most `ratePerWindow` jobs a window, one /v1 request each. A 429
 * rate_limit_exceeded makes the whole queue wait Retry-After (`queue.rateLimit`) and puts
 * the job back with Worker.RateLimitError(). A job carries the /v1 requests it has made
 * (`svcAttempts`): a screening makes at most five in all (ScreeningPipeline), and BullMQ
 * fails any job that started MAX_STARTS times.
 */

const MAX_STARTS = 10;

export interface ScreeningWorkerOptions {
  connection: Redis;
  prefix: string;
  pipeline: ScreeningPipeline;
  /** Requests the account may make per window (GET /v1/usage rate_limit_per_minute). */
  ratePerWindow: number;
  rateWindowMs: number;
  concurrency: number;
  logger: Logger;
  /** Wait the whole queue this long (queue.rateLimit). */
  pauseQueue: (ms: number) => Promise<void>;
}

/**
 * Builds the queue worker without starting it (BullMQ's `autorun: false`): the caller starts it
 * with `worker.run()` once everything it needs is up, so building a process never takes jobs.
 */
export function createScreeningWorker(o: ScreeningWorkerOptions): Worker<ScreeningJobData> {
  const worker = new Worker<ScreeningJobData>(
    SCREENINGS_QUEUE,
    // Every line logged while the job runs names its screening and the request that made it.
    (job: Job<ScreeningJobData>) => withLogContext({ screening: job.data.screeningId, request_id: job.data.requestId }, () => work(job)),
    {
      autorun: false,
      connection: o.connection,
      prefix: o.prefix,
      concurrency: o.concurrency,
      limiter: { max: o.ratePerWindow, duration: o.rateWindowMs },
      maxStartedAttempts: MAX_STARTS,
      // A Retry-After far in the future must not park the queue forever.
      maximumRateLimitDelay: LONGEST_RATE_LIMIT_WAIT_MS,
    },
  );
  async function work(job: Job<ScreeningJobData>): Promise<unknown> {
    // A re-screen after an outage: scores fetched since it was queued answer it (one lookup per carrier).
    if (job.name === RESCREEN_JOB)
      return { rescreen: await o.pipeline.rescreen(job.data.screeningId, job.data.notBefore ?? job.timestamp) };
    const attemptsUsed = job.data.svcAttempts ?? 0;
    const r = await o.pipeline.process(job.data.screeningId, { attemptsUsed });
    if ('rateLimited' in r) {
      // The job runs again: it carries what it has spent of its five attempts.
      await job.updateData({ ...job.data, svcAttempts: attemptsUsed + r.attempts });
      o.logger.info(
        { screening: job.data.screeningId, waitMs: r.rateLimited, attempts: attemptsUsed + r.attempts },
        '/v1 rate limit: queue waits',
      );
      await o.pauseQueue(r.rateLimited);
      throw Worker.RateLimitError();
    }
    return { action: r.done.action };
  }
  worker.on('failed', (job, err) => {
    if (!job) return;
    void (async () => {
      // Only a job that will not be tried again ends its screening here; a failed re-screen leaves its hold as it was.
      if (job.name === RESCREEN_JOB || !(await job.isFailed())) return;
      o.logger.error(
        { screening: job.data.screeningId, request_id: job.data.requestId, err: err.message },
        'screening job failed for good',
      );
      await o.pipeline.giveUp(job.data.screeningId, `processing failed: ${err.message}`);
    })().catch((e: unknown) => o.logger.error({ err: String(e) }, 'could not end a failed screening'));
  });
  worker.on('error', (err) => o.logger.warn({ err: err.message }, 'screening worker error'));
  return worker;
}
