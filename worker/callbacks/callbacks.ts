import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { request } from 'undici';
import type { Screening } from '../../shared/screening.js';
import type { Store } from '../store/index.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signCallback } from './signature.js';

/**
 * Signed callbacks to the TMS: BullMQ queue "callbacks" (same prefix as "screenings"), one job
 * per delivery, retried with exponential backoff until a 2xx.
 */

export const CALLBACKS_QUEUE = 'callbacks';
export type CallbackKind = 'screening.completed' | 'review.resolved';

export interface CallbackJobData {
  deliveryId: string;
  kind: CallbackKind;
  url: string;
  /** The screening as it was when the event happened: a retry sends the same body. */
  screening: Screening;
}

/** What a delivery attempt needs from HTTP: POST and report the status code. */
export type CallbackTransport = (
  url: string,
  init: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<number>;

export interface CallbacksOptions {
  connection: Redis;
  prefix: string;
  secret: string;
  /** Part of the agreed interface; deliveries send the snapshot taken when the event happened. */
  store: Store;
  logger: Logger;
  /** The HTTP POST; undici `request` by default. */
  fetch?: CallbackTransport;
  /** Delivery attempts in all (default 8). */
  attempts?: number;
  /** First retry delay; doubles each time (default 5 s). */
  backoffMs?: number;
  /** Per-attempt time-out (default 10 s). */
  timeoutMs?: number;
  concurrency?: number;
  now?: () => Date;
}

export interface Callbacks {
  /** Queue a delivery when the screening has a callback_url; a no-op otherwise. */
  enqueue(screening: Screening, kind: CallbackKind): Promise<void>;
  startWorker(): void;
  close(): Promise<void>;
}

/**
 * Stable per event: `<screening id>:<kind>[:<review state>]`. A re-run of the same event makes
 * the same id, so BullMQ keeps one job and a receiver that de-dups on it never acts twice.
 */
export function deliveryId(screening: Screening, kind: CallbackKind): string {
  if (kind === 'review.resolved') return `${screening.id}:${kind}:${screening.review?.state ?? 'unknown'}`;
  return `${screening.id}:${kind}`;
}

/** BullMQ reserves ':' in custom job ids; '|' maps one to one and never occurs in our ids. */
export function jobIdFor(delivery: string): string {
  return delivery.replaceAll(':', '|');
}

export function callbackBody(kind: CallbackKind, delivery: string, screening: Screening): string {
  return JSON.stringify({ event: kind, delivery_id: delivery, screening });
}

const undiciTransport: CallbackTransport = async (url, init) => {
  const res = await request(url, {
    method: 'POST',
    headers: init.headers,
    body: init.body,
    headersTimeout: init.timeoutMs,
    bodyTimeout: init.timeoutMs,
    signal: AbortSignal.timeout(init.timeoutMs),
  });
  // Read and drop the answer so the socket goes back to the pool.
  await res.body.dump().catch(() => {});
  return res.statusCode;
};

/** Where a callback goes, without path or query (they may hold the receiver's own token). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid url)';
  }
}

export function createCallbacks(o: CallbacksOptions): Callbacks {
  const attempts = o.attempts ?? 8;
  const backoffMs = o.backoffMs ?? 5_000;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const send = o.fetch ?? undiciTransport;
  const now = o.now ?? (() => new Date());
  const log = o.logger.child({ module: 'callbacks' });

  const queue = new Queue<CallbackJobData>(CALLBACKS_QUEUE, { connection: o.connection, prefix: o.prefix });
  queue.on('error', (err) => log.warn({ err: err.message }, 'callbacks queue error'));
  let worker: Worker<CallbackJobData> | undefined;
  let workerConnection: Redis | undefined;

  async function deliver(job: Job<CallbackJobData>): Promise<{ status: number }> {
    const { deliveryId: id, kind, url, screening } = job.data;
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new UnrecoverableError('callback_url is not a URL');
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new UnrecoverableError('callback_url must be http or https');
    const body = callbackBody(kind, id, screening);
    // Signed at each attempt: a retry hours later still passes the receiver's time tolerance.
    const t = Math.floor(now().getTime() / 1000);
    const status = await send(url, {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'carrier-screen-callbacks',
        [SIGNATURE_HEADER.toLowerCase()]: signCallback(o.secret, body, t),
        [DELIVERY_HEADER.toLowerCase()]: id,
        [EVENT_HEADER.toLowerCase()]: kind,
      },
      body,
      timeoutMs,
    });
    if (status < 200 || status > 299) throw new Error(`receiver answered HTTP ${status}`);
    return { status };
  }

  return {
    async enqueue(screening, kind) {
      if (!screening.callback_url) return;
      const id = deliveryId(screening, kind);
      await queue.add(
        kind,
        { deliveryId: id, kind, url: screening.callback_url, screening },
        {
          jobId: jobIdFor(id),
          attempts,
          backoff: { type: 'exponential', delay: backoffMs },
          // Kept a week so a re-run of the same event within that time is a no-op here too.
          removeOnComplete: { age: 7 * 86_400, count: 10_000 },
          removeOnFail: { age: 30 * 86_400 },
        },
      );
    },

    startWorker() {
      if (worker) return;
      // A worker waits out a Redis outage rather than failing each command at once.
      workerConnection = o.connection.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true, commandTimeout: undefined });
      workerConnection.on('error', () => {});
      worker = new Worker<CallbackJobData>(CALLBACKS_QUEUE, deliver, {
        connection: workerConnection,
        prefix: o.prefix,
        concurrency: o.concurrency ?? 8,
      });
      worker.on('error', (err) => log.warn({ err: err.message }, 'callbacks worker error'));
      worker.on('completed', (job) =>
        log.info({ delivery: job.data.deliveryId, to: originOf(job.data.url), attempt: job.attemptsMade + 1 }, 'callback delivered'),
      );
      worker.on('failed', (job, err) => {
        if (!job) return;
        const final = job.attemptsMade >= attempts || err instanceof UnrecoverableError;
        log[final ? 'error' : 'warn'](
          { delivery: job.data.deliveryId, to: originOf(job.data.url), attempt: job.attemptsMade, err: err.message },
          final ? 'callback gave up' : 'callback failed; will retry',
        );
      });
    },

    async close() {
      await worker?.close();
      await queue.close();
      workerConnection?.disconnect();
    },
  };
}
