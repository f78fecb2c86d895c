import { createHash } from 'node:crypto';
import type { RecordStore } from '../store/index.js';

/**
 * Idempotency-Key, Stripe's semantics, kept in the store so a restart keeps them:
 * - the same key with the same request within 24 h gives the original result (the same
 *   screening or review; the answer carries `Idempotent-Replayed: true`);
 * - the same key with another request is 409 `idempotency_conflict`;
 * - while the first request with a key is still being worked, a second is 409
 *   `idempotency_in_progress` (retry it); one abandoned by a crash is taken over after a minute.
 */

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
const ABANDONED_AFTER_MS = 60_000;
/** Printable ASCII, as Stripe allows; long enough for a UUID or a TMS's own request id. */
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

export type Claim = { kind: 'new' } | { kind: 'replay'; resourceId: string } | { kind: 'conflict' } | { kind: 'in_progress' };

export class IdempotencyKeyError extends Error {
  override readonly name = 'IdempotencyKeyError';
}

/** The request's fingerprint: route and body, key order not mattering. */
export function requestHash(scope: string, body: unknown): string {
  return createHash('sha256').update(scope).update('\0').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

export class IdempotencyKeys {
  constructor(
    private readonly store: Pick<RecordStore, 'idempotency'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Check the key's shape; throws IdempotencyKeyError saying what is wrong. */
  static check(key: string): string {
    if (!KEY_RE.test(key)) throw new IdempotencyKeyError('Idempotency-Key must be 1 to 255 printable ASCII characters, no spaces');
    return key;
  }

  /**
   * Take the key for this request, or say what it already stands for: one transaction of its own
   * (the store's, never part of and rolled back with another unit of work). `decide` may run twice
   * (PostgreSQL: insert, or read the row another host took), so it only reads the clock.
   */
  claim(scope: string, key: string, hash: string): Promise<Claim> {
    return this.store.idempotency.claim<Claim>(scope, key, (row) => {
      const t = this.now().getTime();
      const live = row && t - Date.parse(row.created_at) < IDEMPOTENCY_WINDOW_MS;
      if (row && live) {
        if (row.request_hash !== hash) return { result: { kind: 'conflict' } };
        if (row.resource_id !== null) return { result: { kind: 'replay', resourceId: row.resource_id } };
        if (t - Date.parse(row.created_at) < ABANDONED_AFTER_MS) return { result: { kind: 'in_progress' } };
      }
      return { result: { kind: 'new' }, take: { hash, at: new Date(t).toISOString() } };
    });
  }

  // complete and release: one statement each, committed by itself (the store's, outside any unit).
  /** The request made `resourceId`: later requests with the key get it. */
  complete(scope: string, key: string, resourceId: string): Promise<void> {
    return this.store.idempotency.complete(scope, key, resourceId);
  }

  /** The request failed before it made anything (e.g. 503): the key is free again. */
  release(scope: string, key: string): Promise<void> {
    return this.store.idempotency.release(scope, key);
  }
}
