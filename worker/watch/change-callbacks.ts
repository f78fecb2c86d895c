import { createHash } from 'node:crypto';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { request } from 'undici';
import type { CarrierChange } from '../../shared/screening.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signCallback } from '../callbacks/signature.js';
import type { StoredChange } from '../store/watch-store.js';

/**
 * `carrier.changed` callbacks: one signed POST per callback URL of the tenders that used the
 * carrier, naming that URL's tenders. Queue "watch-callbacks" (own queue: the body is a change,
 * not a screening); same signature and headers as the screening callbacks (docs/callbacks.md).
 */

export const CHANGE_CALLBACKS_QUEUE = 'watch-callbacks';
export const CHANGE_EVENT = 'carrier.changed';

export interface ChangeCallbackJob {
  deliveryId: string;
  url: string;
  change: CarrierChange;
}

export type ChangeTransport = (url: string, init: { headers: Record<string, string>; body: string; timeoutMs: number }) => Promise<number>;

export interface ChangeCallbacksOptions {
  connection: Redis;
  prefix: string;
  secret: string | undefined;
  logger: Logger;
  now: () => Date;
  attempts?: number;
  backoffMs?: number;
  timeoutMs?: number;
  fetch?: ChangeTransport;
}

/** Stable per change and URL: a re-run of the same change queues nothing new. */
export function changeDeliveryId(changeId: string, url: string): string {
  const h = createHash('sha256').update(url).digest('hex').slice(0, 16);
  return `${changeId}:${CHANGE_EVENT}:${h}`;
}

/** Each callback URL with the tenders (and only those) that asked to be called there. */
export function deliveriesOf(change: StoredChange): ChangeCallbackJob[] {
  const byUrl = new Map<string, StoredChange['tender_callbacks']>();
  for (const t of change.tender_callbacks) {
    if (!t.callback_url) continue;
    const list = byUrl.get(t.callback_url) ?? [];
    list.push(t);
    byUrl.set(t.callback_url, list);
  }
  const { carrier_key: _key, tender_callbacks: _cb, ...pub } = change;
  return [...byUrl].map(([url, tenders]) => ({
    deliveryId: changeDeliveryId(change.id, url),
    url,
    change: { ...pub, tenders: tenders.map(({ tender_id, screening_id, screened_at }) => ({ tender_id, screening_id, screened_at })) },
  }));
}

export function changeCallbackBody(j: ChangeCallbackJob): string {
  return JSON.stringify({ event: CHANGE_EVENT, delivery_id: j.deliveryId, change: j.change });
}

const undiciTransport: ChangeTransport = async (url, init) => {
  const res = await request(url, {
    method: 'POST',
    headers: init.headers,
    body: init.body,
    headersTimeout: init.timeoutMs,
    bodyTimeout: init.timeoutMs,
    signal: AbortSignal.timeout(init.timeoutMs),
  });
  await res.body.dump().catch(() => {});
  return res.statusCode;
};

export class ChangeCallbacks {
  readonly #queue: Queue<ChangeCallbackJob>;
  #worker: Worker<ChangeCallbackJob> | undefined;
  #workerConnection: Redis | undefined;
  readonly #log: Logger;

  constructor(private readonly o: ChangeCallbacksOptions) {
    this.#log = o.logger.child({ module: 'watch-callbacks' });
    this.#queue = new Queue<ChangeCallbackJob>(CHANGE_CALLBACKS_QUEUE, { connection: o.connection, prefix: o.prefix });
    this.#queue.on('error', (err) => this.#log.warn({ err: err.message }, 'watch callbacks queue error'));
  }

  /** Queue one delivery per callback URL; returns how many. */
  async enqueue(change: StoredChange): Promise<number> {
    const jobs = deliveriesOf(change);
    if (jobs.length > 0 && !this.o.secret) {
      this.#log.warn({ change: change.id }, 'no callback secret: carrier.changed callbacks not sent');
      return 0;
    }
    for (const j of jobs)
      await this.#queue.add(CHANGE_EVENT, j, {
        // BullMQ reserves ':' in custom ids.
        jobId: j.deliveryId.replaceAll(':', '|'),
        attempts: this.o.attempts ?? 8,
        backoff: { type: 'exponential', delay: this.o.backoffMs ?? 5_000 },
        removeOnComplete: { age: 7 * 86_400, count: 10_000 },
        removeOnFail: { age: 30 * 86_400 },
      });
    return jobs.length;
  }

  startWorker(): void {
    if (this.#worker || !this.o.secret) return;
    const secret = this.o.secret;
    const send = this.o.fetch ?? undiciTransport;
    const timeoutMs = this.o.timeoutMs ?? 10_000;
    this.#workerConnection = this.o.connection.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true, commandTimeout: undefined });
    this.#workerConnection.on('error', () => {});
    this.#worker = new Worker<ChangeCallbackJob>(
      CHANGE_CALLBACKS_QUEUE,
      async (job: Job<ChangeCallbackJob>) => {
        let target: URL;
        try {
          target = new URL(job.data.url);
        } catch {
          throw new UnrecoverableError('callback_url is not a URL');
        }
        if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new UnrecoverableError('callback_url must be http or https');
        const body = changeCallbackBody(job.data);
        const t = Math.floor(this.o.now().getTime() / 1000);
        const status = await send(job.data.url, {
          headers: {
            'content-type': 'application/json',
            'user-agent': 'carrier-screen-callbacks',
            [SIGNATURE_HEADER.toLowerCase()]: signCallback(secret, body, t),
            [DELIVERY_HEADER.toLowerCase()]: job.data.deliveryId,
            [EVENT_HEADER.toLowerCase()]: CHANGE_EVENT,
          },
          body,
          timeoutMs,
        });
        if (status < 200 || status > 299) throw new Error(`receiver answered HTTP ${status}`);
        return { status };
      },
      { connection: this.#workerConnection, prefix: this.o.prefix, concurrency: 4 },
    );
    this.#worker.on('error', (err) => this.#log.warn({ err: err.message }, 'watch callbacks worker error'));
    this.#worker.on('failed', (job, err) => {
      if (job) this.#log.warn({ delivery: job.data.deliveryId, to: originOf(job.data.url), attempt: job.attemptsMade, err: err.message }, 'carrier.changed callback failed');
    });
  }

  async close(): Promise<void> {
    await this.#worker?.close();
    await this.#queue.close();
    this.#workerConnection?.disconnect();
  }
}

/** Where a callback goes, without path or query (they may hold the receiver's own token). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid url)';
  }
}
