import { LATEST_API_VERSION } from '../../shared/api-versions.js';
import type { Screening } from '../../shared/screening.js';
import type { RecordStore, RecordTx } from '../store/index.js';
import { writeCallback } from './outbox.js';
import { CallbackSender, type SenderOptions } from './sender.js';

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
  return JSON.stringify({ event: kind, delivery_id: delivery, api_version: LATEST_API_VERSION, version: screening.version, screening });
}

/**
 * Owe the TMS this screening's callback, in the caller's transaction; a no-op without a
 * callback_url. The screening is sent as it is now, with its version (`version` on the body and
 * on the screening): a retry sends the same body, and no older state follows a newer one.
 */
export async function oweScreeningCallback(
  tx: RecordTx,
  store: RecordStore,
  screening: Screening,
  kind: CallbackKind,
  at?: Date,
): Promise<void> {
  if (!screening.callback_url) return;
  await writeCallback(
    store,
    {
      kind,
      url: screening.callback_url,
      deliveryId: deliveryId(screening, kind),
      payload: { version: screening.version, screening },
      order: { subject: screening.id, version: screening.version },
      ...(at ? { at } : {}),
    },
    tx,
  );
}

/** What a process's sender needs: the outbox sender's own options (worker/callbacks/sender.ts). */
export type CallbacksOptions = SenderOptions;

export interface Callbacks {
  startWorker(): void;
  close(): Promise<void>;
}

/** The outbox sender of one process. */
export function createCallbacks(o: CallbacksOptions): Callbacks {
  const sender = new CallbackSender(o);
  return {
    startWorker: () => sender.start(),
    close: () => sender.close(),
  };
}
