import type Database from 'better-sqlite3';
import { observe } from '../metrics/metrics.js';
import type { Logger } from 'pino';
import { request } from 'undici';
import { connectionOf } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import { onCallbackWritten, type OutboxRow } from './outbox.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signCallback } from './signature.js';

/**
 * Drains the callback outbox (outbox.ts): claims due rows, POSTs them signed, records the
 * outcome on the row. Several processes may run one each on the same database: a claim moves
 * the row's next_attempt_at past the attempt's time-out (a lease), so each attempt is made by
 * one process, and a process that dies mid-attempt leaves the row due again once the lease ends.
 * Needs no Redis: a flushed Redis loses nothing owed.
 */

/** What a delivery attempt needs from HTTP: POST and report the status code. */
export type CallbackTransport = (
  url: string,
  init: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<number>;

export interface SenderOptions {
  store: Store;
  secret: string;
  logger: Logger;
  /** The HTTP POST; undici `request` by default. */
  fetch?: CallbackTransport;
  /** First retry delay; doubles each attempt (default 5 s)… */
  backoffMs?: number;
  /** …up to this (default 1 h). */
  maxBackoffMs?: number;
  /** Retried at least this long after it was owed (or retried by hand), then `dead` (default 24 h). */
  deadAfterMs?: number;
  /** Per-attempt time-out (default 10 s). */
  timeoutMs?: number;
  /** Attempts in flight at once (default 8). */
  concurrency?: number;
  /** How often to look for rows other processes wrote (default 1 s). */
  pollMs?: number;
  now?: () => Date;
}

export const DEFAULT_BACKOFF_MS = 5_000;
export const DEFAULT_MAX_BACKOFF_MS = 3_600_000;
export const DEFAULT_DEAD_AFTER_MS = 24 * 3_600_000;

/** The wait after failed attempt number `attempt` (1-based). */
export function retryDelayMs(attempt: number, backoffMs = DEFAULT_BACKOFF_MS, maxBackoffMs = DEFAULT_MAX_BACKOFF_MS): number {
  return Math.min(maxBackoffMs, backoffMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
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

/** A URL no attempt can ever reach: the row goes `dead` at once. */
function unsendable(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'callback_url is not a URL';
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'callback_url must be http or https';
}

export class CallbackSender {
  readonly #db: Database.Database;
  readonly #log: Logger;
  readonly #send: CallbackTransport;
  readonly #now: () => Date;
  readonly #timeoutMs: number;
  readonly #concurrency: number;
  readonly #pollMs: number;
  readonly #st;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #woken = false;
  #unsubscribe: (() => void) | undefined;

  constructor(private readonly o: SenderOptions) {
    this.#db = connectionOf(o.store);
    this.#log = o.logger.child({ module: 'callbacks' });
    this.#send = o.fetch ?? undiciTransport;
    this.#now = o.now ?? (() => new Date());
    this.#timeoutMs = o.timeoutMs ?? 10_000;
    this.#concurrency = o.concurrency ?? 8;
    this.#pollMs = o.pollMs ?? 1_000;
    const db = this.#db;
    this.#st = {
      claim: db.prepare<[number, string, number, number], OutboxRow>(`
        UPDATE callback_outbox SET attempts = attempts + 1, next_attempt_at = ?, updated_at = ?
        WHERE id IN (SELECT id FROM callback_outbox WHERE state = 'pending' AND next_attempt_at <= ?
                     ORDER BY next_attempt_at LIMIT ?)
        RETURNING *`),
      delivered: db.prepare<[number, string, string, string]>(`
        UPDATE callback_outbox SET state = 'delivered', last_status = ?, last_error = NULL, delivered_at = ?, updated_at = ?
        WHERE id = ? AND state = 'pending'`),
      failed: db.prepare<[number | null, string, number, string, string]>(`
        UPDATE callback_outbox SET last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ?
        WHERE id = ? AND state = 'pending'`),
      dead: db.prepare<[number | null, string, string, string]>(`
        UPDATE callback_outbox SET state = 'dead', last_status = ?, last_error = ?, updated_at = ?
        WHERE id = ? AND state = 'pending'`),
    };
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe = onCallbackWritten(this.#db, () => this.wake());
    this.#loop = this.#run();
  }

  /** Look for due rows now (a commit in this process wrote one). */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** One pass: claim what is due and attempt it; returns how many rows were attempted. */
  async drainOnce(): Promise<number> {
    if (!this.#db.open) return 0;
    const now = this.#now();
    // Lease: long enough for the attempt to time out; a dead process's claim runs out.
    const lease = now.getTime() + this.#timeoutMs + 30_000;
    const rows = this.#st.claim.all(lease, now.toISOString(), now.getTime(), this.#concurrency);
    await Promise.all(rows.map((r) => this.#attempt(r)));
    return rows.length;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let n = 0;
      try {
        n = await this.drainOnce();
      } catch (e) {
        this.#log.warn({ err: String(e) }, 'callback outbox pass failed');
      }
      if (!this.#running) break;
      if (n >= this.#concurrency) continue; // more may be due
      if (this.#woken) {
        this.#woken = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, this.#pollMs);
        function done(): void {
          clearTimeout(t);
          resolve();
        }
        this.#wake = done;
      });
      this.#wake = undefined;
      this.#woken = false;
    }
  }

  async #attempt(r: OutboxRow): Promise<void> {
    const cannot = unsendable(r.url);
    if (cannot) {
      this.#finish(r, { ok: false, status: null, error: cannot, final: true });
      return;
    }
    // Signed at each attempt: a retry hours later still passes the receiver's time tolerance.
    const t = Math.floor(this.#now().getTime() / 1000);
    try {
      const status = await this.#send(r.url, {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'carrier-screen-callbacks',
          [SIGNATURE_HEADER.toLowerCase()]: signCallback(this.o.secret, r.body, t),
          [DELIVERY_HEADER.toLowerCase()]: r.delivery_id,
          [EVENT_HEADER.toLowerCase()]: r.kind,
        },
        body: r.body,
        timeoutMs: this.#timeoutMs,
      });
      if (status >= 200 && status <= 299) this.#finish(r, { ok: true, status });
      else this.#finish(r, { ok: false, status, error: `receiver answered HTTP ${status}`, final: false });
    } catch (e) {
      this.#finish(r, { ok: false, status: null, error: (e as Error).message || String(e), final: false });
    }
  }

  #finish(r: OutboxRow, out: { ok: true; status: number } | { ok: false; status: number | null; error: string; final: boolean }): void {
    if (!this.#db.open) return;
    const now = this.#now();
    const nowIso = now.toISOString();
    const to = originOf(r.url);
    if (out.ok) {
      this.#st.delivered.run(out.status, nowIso, nowIso, r.id);
      this.#log.info({ delivery: r.delivery_id, to, attempt: r.attempts }, 'callback delivered');
      observe.callback('delivered');
      return;
    }
    const deadAfter = this.o.deadAfterMs ?? DEFAULT_DEAD_AFTER_MS;
    if (out.final || now.getTime() - r.retry_since >= deadAfter) {
      this.#st.dead.run(out.status, out.error, nowIso, r.id);
      this.#log.error({ delivery: r.delivery_id, to, attempt: r.attempts, err: out.error, callback: r.id }, 'callback dead: retry it with POST /callbacks/:id/retry');
      observe.callback('dead');
      return;
    }
    const next = now.getTime() + retryDelayMs(r.attempts, this.o.backoffMs, this.o.maxBackoffMs);
    this.#st.failed.run(out.status, out.error, next, nowIso, r.id);
    this.#log.warn({ delivery: r.delivery_id, to, attempt: r.attempts, err: out.error }, 'callback failed; will retry');
    observe.callback('retry');
  }

  /**
   * Stop. Attempts in flight get `graceMs` to finish; one still waiting on a slow receiver
   * then stays claimed and is sent again after its lease (at least once), so a shutdown is
   * never held for a full attempt time-out.
   */
  async close(graceMs = 2_000): Promise<void> {
    this.#running = false;
    this.#unsubscribe?.();
    this.#wake?.();
    let t: NodeJS.Timeout | undefined;
    await Promise.race([this.#loop, new Promise<void>((r) => (t = setTimeout(r, graceMs)))]);
    clearTimeout(t);
  }
}
