import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Store } from '../store/index.js';
import { connectionOf, guardCall } from '../store/sqlite-store.js';

/**
 * Idempotency-Key, Stripe's semantics, kept in SQLite so a restart keeps them:
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

export type Claim =
  | { kind: 'new' }
  | { kind: 'replay'; resourceId: string }
  | { kind: 'conflict' }
  | { kind: 'in_progress' };

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
  readonly #db: Database;
  readonly #st;

  constructor(
    store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#db = connectionOf(store);
    this.#st = {
      get: this.#db.prepare<[string, string], { request_hash: string; resource_id: string | null; created_at: string }>(
        'SELECT request_hash, resource_id, created_at FROM idempotency_keys WHERE scope = ? AND key = ?',
      ),
      put: this.#db.prepare<[string, string, string, string]>(
        `INSERT INTO idempotency_keys (scope, key, request_hash, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, resource_id = NULL, created_at = excluded.created_at`,
      ),
      done: this.#db.prepare<[string, string, string]>('UPDATE idempotency_keys SET resource_id = ? WHERE scope = ? AND key = ?'),
      drop: this.#db.prepare<[string, string]>('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND resource_id IS NULL'),
    };
  }

  /** Check the key's shape; throws IdempotencyKeyError saying what is wrong. */
  static check(key: string): string {
    if (!KEY_RE.test(key)) throw new IdempotencyKeyError('Idempotency-Key must be 1 to 255 printable ASCII characters, no spaces');
    return key;
  }

  /** Take the key for this request, or say what it already stands for. One transaction. */
  claim(scope: string, key: string, hash: string): Claim {
    // guardCall: a full disk is a StoreError (503 storage_unavailable), not a raw SQLite error (500).
    return guardCall(this.#db, () => this.#db.transaction((): Claim => {
      const t = this.now().getTime();
      const row = this.#st.get.get(scope, key);
      const live = row && t - Date.parse(row.created_at) < IDEMPOTENCY_WINDOW_MS;
      if (row && live) {
        if (row.request_hash !== hash) return { kind: 'conflict' };
        if (row.resource_id !== null) return { kind: 'replay', resourceId: row.resource_id };
        if (t - Date.parse(row.created_at) < ABANDONED_AFTER_MS) return { kind: 'in_progress' };
      }
      this.#st.put.run(scope, key, hash, new Date(t).toISOString());
      return { kind: 'new' };
    }).immediate());
  }

  /** The request made `resourceId`: later requests with the key get it. */
  complete(scope: string, key: string, resourceId: string): void {
    guardCall(this.#db, () => this.#st.done.run(resourceId, scope, key));
  }

  /** The request failed before it made anything (e.g. 503): the key is free again. */
  release(scope: string, key: string): void {
    guardCall(this.#db, () => this.#st.drop.run(scope, key));
  }
}
