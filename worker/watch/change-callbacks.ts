import { createHash } from 'node:crypto';
import type { CarrierChange } from '../../shared/screening.js';
import { LATEST_API_VERSION } from '../../shared/api-versions.js';
import { writeCallback } from '../callbacks/outbox.js';
import type { RecordStore, RecordTx } from '../store/index.js';
import type { StoredChange } from '../store/watch-store.js';

/**
 * `carrier.changed` callbacks: one signed POST per callback URL of the tenders that used the
 * carrier, naming that URL's tenders. Outbox rows (worker/callbacks/outbox.ts) written with the
 * change; same signature and headers as the screening callbacks (docs/callbacks.md).
 */

export const CHANGE_EVENT = 'carrier.changed';

export interface ChangeCallbackJob {
  deliveryId: string;
  url: string;
  change: CarrierChange;
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
  return JSON.stringify({ event: CHANGE_EVENT, delivery_id: j.deliveryId, api_version: LATEST_API_VERSION, change: j.change });
}

/** Owe each URL its carrier.changed callback, in the transaction that stored the change. */
export async function oweChangeCallbacks(tx: RecordTx, store: RecordStore, change: StoredChange, at: Date): Promise<number> {
  const jobs = deliveriesOf(change);
  for (const j of jobs)
    await writeCallback(store, { kind: CHANGE_EVENT, url: j.url, deliveryId: j.deliveryId, payload: { change: j.change }, at }, tx);
  return jobs.length;
}
