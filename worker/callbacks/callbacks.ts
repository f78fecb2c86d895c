import type { Logger } from 'pino';
import type { Screening } from '../../shared/screening.js';
import type { Store } from '../store/index.js';
import { writeCallback } from './outbox.js';
import { CallbackSender, type CallbackTransport } from './sender.js';

/**
 * The screening callbacks (`screening.completed`, `review.resolved`) as outbox rows, and the
 * sender a worker process runs. See outbox.ts for how any module owes a callback.
 */

export type CallbackKind = 'screening.completed' | 'review.resolved';

/**
 * Stable per event: `<screening id>:<kind>[:<review state>]`. A re-run of the same event makes
 * the same id, so the outbox keeps one row and a receiver that de-dups on it never acts twice.
 */
export function deliveryId(screening: Screening, kind: CallbackKind): string {
  if (kind === 'review.resolved') return `${screening.id}:${kind}:${screening.review?.state ?? 'unknown'}`;
  return `${screening.id}:${kind}`;
}

export function callbackBody(kind: CallbackKind, delivery: string, screening: Screening): string {
  return JSON.stringify({ event: kind, delivery_id: delivery, screening });
}

/**
 * Owe the TMS this screening's callback, in the caller's transaction; a no-op without a
 * callback_url. The screening is sent as it is now: a retry sends the same body.
 */
export function oweScreeningCallback(store: Store, screening: Screening, kind: CallbackKind, at?: Date): void {
  if (!screening.callback_url) return;
  writeCallback(store, { kind, url: screening.callback_url, deliveryId: deliveryId(screening, kind), payload: { screening }, ...(at ? { at } : {}) });
}

export interface CallbacksOptions {
  store: Store;
  secret: string;
  logger: Logger;
  /** The HTTP POST; undici `request` by default. */
  fetch?: CallbackTransport;
  /** First retry delay; doubles each time up to maxBackoffMs (default 5 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Retried this long, then `dead` (default 24 h). */
  deadAfterMs?: number;
  /** Per-attempt time-out (default 10 s). */
  timeoutMs?: number;
  concurrency?: number;
  pollMs?: number;
  now?: () => Date;
}

export interface Callbacks {
  startWorker(): void;
  close(): Promise<void>;
}

/** The outbox sender of one process. */
export function createCallbacks(o: CallbacksOptions): Callbacks {
  const sender = new CallbackSender({
    store: o.store,
    secret: o.secret,
    logger: o.logger,
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.backoffMs !== undefined ? { backoffMs: o.backoffMs } : {}),
    ...(o.maxBackoffMs !== undefined ? { maxBackoffMs: o.maxBackoffMs } : {}),
    ...(o.deadAfterMs !== undefined ? { deadAfterMs: o.deadAfterMs } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.pollMs !== undefined ? { pollMs: o.pollMs } : {}),
    ...(o.now ? { now: o.now } : {}),
  });
  return {
    startWorker: () => sender.start(),
    close: () => sender.close(),
  };
}
