import { API_VERSIONS, API_VERSION_HEADER } from '../../shared/api-versions.js';
import { exponentialBackoffMs } from '../../shared/backoff.js';
import { observe } from '../metrics/metrics.js';
import type { Logger } from 'pino';
import type { RecordStore, RecordTx } from '../store/index.js';
import { failureOf, policyTransport, type CallbackTransport, type DeliveryFailure } from './callback-transport.js';
import type { DestinationPolicy } from './destination-policy.js';
import { DEFAULT_DESTINATION_LIMITS, Destinations, type DestinationLimits } from './destinations.js';
import { onCallbackWritten, type OutboxRow } from './outbox.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signCallback } from './signature.js';

/**
 * Drains the callback outbox (outbox.ts): claims due rows, POSTs them signed, records the
 * outcome on the row. Several processes may run one each on the same database: a claim moves
 * the row's next_attempt_at past the attempt's time-out (a lease), so each attempt is made by
 * one process, and a process that dies mid-attempt leaves the row due again once the lease ends.
 * Needs no Redis: a flushed Redis loses nothing owed.
 *
 * Each destination (origin) has its own slots and circuit breaker (destinations.ts): an
 * attempt is started as soon as its destination has a free slot, never held back by another
 * destination's slow attempt. Rows of one screening go out in version order (the claim skips a
 * row while an older one of its screening is still owed).
 */

export type { CallbackTransport } from './callback-transport.js';

export interface SenderOptions {
  store: RecordStore;
  secret: string;
  logger: Logger;
  /** Where callbacks may go (CALLBACK_ALLOW; checked at send time on every resolved address). */
  policy: DestinationPolicy;
  /** The HTTP POST (tests); the policy's transport by default. A transport given here bypasses the policy. */
  fetch?: CallbackTransport;
  /** First retry delay; doubles each attempt (default 5 s)… */
  backoffMs?: number;
  /** …up to this (default 1 h). */
  maxBackoffMs?: number;
  /** Retried at least this long after its first attempt (or a retry by hand), then `dead` (default 24 h). */
  deadAfterMs?: number;
  /** Per-attempt time-out (default 10 s). */
  timeoutMs?: number;
  /** Attempts in flight at once, all destinations together (default 64). */
  concurrency?: number;
  /** Per destination: slots and circuit breaker (destinations.ts). */
  destinations?: Partial<DestinationLimits>;
  /** How often to look for rows other processes wrote (default 1 s). */
  pollMs?: number;
  now?: () => Date;
}

export const DEFAULT_BACKOFF_MS = 5_000;
export const DEFAULT_MAX_BACKOFF_MS = 3_600_000;
export const DEFAULT_DEAD_AFTER_MS = 24 * 3_600_000;

/** The wait after failed attempt number `attempt` (1-based). */
export function retryDelayMs(attempt: number, backoffMs = DEFAULT_BACKOFF_MS, maxBackoffMs = DEFAULT_MAX_BACKOFF_MS): number {
  return exponentialBackoffMs(Math.max(attempt, 1), backoffMs, maxBackoffMs);
}

/** The body's `api_version`; a body written before callbacks carried one is in the first version. */
function bodyVersion(body: string): string {
  const m = /"api_version":"([0-9-]{10})"/.exec(body);
  return m?.[1] ?? API_VERSIONS[0]!;
}

/** Not http(s): no attempt can ever reach it, the row goes `dead` at once. */
function unsendable(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol !== 'http:' && u.protocol !== 'https:';
  } catch {
    return true;
  }
}

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; failure: DeliveryFailure; final: boolean };

export class CallbackSender {
  readonly #log: Logger;
  readonly #send: CallbackTransport;
  readonly #closeTransport: () => Promise<void>;
  readonly #now: () => Date;
  readonly #timeoutMs: number;
  readonly #concurrency: number;
  readonly #pollMs: number;
  readonly #destinations: Destinations;
  /** Attempts on the wire from this process. */
  readonly #inFlight = new Set<Promise<void>>();
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #woken = false;
  #unsubscribe: (() => void) | undefined;

  constructor(private readonly o: SenderOptions) {
    this.#log = o.logger.child({ module: 'callbacks' });
    const limits = { ...DEFAULT_DESTINATION_LIMITS, ...o.destinations };
    this.#destinations = new Destinations(limits);
    if (o.fetch) {
      this.#send = o.fetch;
      this.#closeTransport = async () => {};
    } else {
      const t = policyTransport(o.policy, { perDestination: limits.perDestination });
      this.#send = t.send;
      this.#closeTransport = t.close;
    }
    this.#now = o.now ?? (() => new Date());
    this.#timeoutMs = o.timeoutMs ?? 10_000;
    this.#concurrency = o.concurrency ?? 64;
    this.#pollMs = o.pollMs ?? 1_000;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe = onCallbackWritten(this.o.store, () => this.wake());
    this.#log.info({ policy: this.o.policy.summary }, 'callback sender running');
    this.#loop = this.#run();
  }

  /** Look for due rows now (a commit in this process wrote one, or an attempt ended). */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /**
   * Claim what is due and may start now: free slots of this process, per destination, oldest
   * due first, in one claim (record.ts `claimDue`). A destination whose slots are full (or whose
   * breaker is open) is left out of the claim, so its backlog never crowds out the others; one
   * that fills up in a round takes no more, and the next round leaves it out (its rows may have
   * hidden others'). Each claimed row is counted on its destination until its attempt ends.
   */
  async #claim(): Promise<OutboxRow[]> {
    const sends = this.o.store.callbackSends;
    if (!(await sends.isOpen())) return [];
    const now = this.#now();
    const nowMs = now.getTime();
    // Lease: long enough for the attempt to time out; a dead process's claim runs out.
    const lease = nowMs + this.#timeoutMs + 30_000;
    const claimed: OutboxRow[] = [];
    for (let round = 0; round < 20; round++) {
      const free = this.#concurrency - this.#inFlight.size - claimed.length;
      if (free <= 0) break;
      const { skip, room } = this.#destinations.room(nowMs);
      // The store keeps state and last_error as text; they are the outbox's words (outbox.ts).
      let rows: OutboxRow[];
      try {
        rows = (await sends.claimDue(nowMs, now.toISOString(), lease, skip, free, room)) as OutboxRow[];
      } catch (e) {
        // Closed meanwhile (a shutdown): nothing more is claimed. Anything else is the pass's
        // failure; but rows an earlier round claimed are this process's now (leased, counted on
        // their destinations): they are sent, else their destinations' slots would stay taken.
        if (!(await sends.isOpen().catch(() => false))) break;
        if (claimed.length > 0) {
          this.#log.warn({ err: String(e), claimed: claimed.length }, 'callback outbox claim failed; sending what was claimed');
          break;
        }
        throw e;
      }
      for (const row of rows) {
        this.#destinations.started(row.destination);
        claimed.push(row);
      }
      // Another round only when a destination filled up in this one (its rows beyond its room took places in the batch).
      if (rows.length === 0 || this.#destinations.busy(nowMs).every((d) => skip.includes(d))) break;
    }
    return claimed;
  }

  /** Start the attempt of a claimed row; the returned promise ends with it. */
  #dispatch(r: OutboxRow): Promise<void> {
    // An outcome the record could not take (it went away mid-attempt) is logged, not thrown: the
    // row stays claimed and is sent again once its lease runs out (at least once).
    const p = this.#attempt(r)
      .catch((e: unknown) =>
        this.#log.warn({ delivery: r.delivery_id, err: String(e) }, 'callback outcome not recorded; sent again after its lease'),
      )
      .finally(() => {
        this.#inFlight.delete(p);
        this.wake();
      });
    this.#inFlight.add(p);
    return p;
  }

  /** One pass: claim what is due and wait for those attempts; returns how many rows were attempted. */
  async drainOnce(): Promise<number> {
    const rows = await this.#claim();
    await Promise.all(rows.map((r) => this.#dispatch(r)));
    return rows.length;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#woken = false;
      try {
        // Started, not awaited: each attempt wakes the loop when it ends.
        for (const r of await this.#claim()) void this.#dispatch(r);
      } catch (e) {
        this.#log.warn({ err: String(e) }, 'callback outbox pass failed');
      }
      if (!this.#running) break;
      if (this.#woken) continue;
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, this.#pollMs);
        function done(): void {
          clearTimeout(t);
          resolve();
        }
        this.#wake = done;
      });
      this.#wake = undefined;
    }
  }

  async #attempt(r: OutboxRow): Promise<void> {
    if (unsendable(r.url)) {
      await this.#finish(r, { ok: false, status: null, failure: 'refused_by_policy', final: true });
      return;
    }
    // Signed at each attempt: a retry hours later still passes the receiver's time tolerance.
    const t = Math.floor(this.#now().getTime() / 1000);
    let out: Outcome;
    try {
      const status = await this.#send(r.url, {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'carrier-screen-callbacks',
          [SIGNATURE_HEADER.toLowerCase()]: signCallback(this.o.secret, r.body, t),
          [DELIVERY_HEADER.toLowerCase()]: r.delivery_id,
          [EVENT_HEADER.toLowerCase()]: r.kind,
          // The version the body was written in (rows older than versioned bodies: the first).
          [API_VERSION_HEADER.toLowerCase()]: bodyVersion(r.body),
        },
        body: r.body,
        timeoutMs: this.#timeoutMs,
      });
      out = status >= 200 && status <= 299 ? { ok: true, status } : { ok: false, status, failure: 'http_status', final: false };
    } catch (e) {
      const failure = failureOf(e);
      // The raw error stays in this process's log (the operator's), never on the row callers read.
      this.#log.debug({ delivery: r.delivery_id, to: r.destination, err: (e as Error).message }, 'callback attempt failed');
      out = { ok: false, status: null, failure, final: failure === 'refused_by_policy' };
    }
    await this.#finish(r, out);
  }

  async #finish(r: OutboxRow, out: Outcome): Promise<void> {
    const now = this.#now();
    const to = r.destination;
    // A refusal says nothing about the receiver: it does not count towards its breaker.
    if (!out.ok && out.failure === 'refused_by_policy') this.#destinations.released(to);
    else this.#destinations.finished(to, out.ok, now.getTime());
    const nowIso = now.toISOString();
    if (out.ok) {
      if (!(await this.#record((tx) => tx.callbackSends.delivered(r.id, out.status, nowIso)))) return;
      this.#log.info({ delivery: r.delivery_id, to, attempt: r.attempts }, 'callback delivered');
      observe.callback('delivered');
      return;
    }
    const deadAfter = this.o.deadAfterMs ?? DEFAULT_DEAD_AFTER_MS;
    if (out.final || now.getTime() - r.retry_since >= deadAfter) {
      if (!(await this.#record((tx) => tx.callbackSends.dead(r.id, out.status, out.failure, nowIso)))) return;
      this.#log.error(
        { delivery: r.delivery_id, to, attempt: r.attempts, failure: out.failure, callback: r.id },
        'callback dead: retry it with POST /callbacks/:id/retry',
      );
      observe.callback('dead');
      return;
    }
    const next = now.getTime() + retryDelayMs(r.attempts, this.o.backoffMs, this.o.maxBackoffMs);
    if (!(await this.#record((tx) => tx.callbackSends.failed(r.id, out.status, out.failure, next, nowIso)))) return;
    const breaker = this.#destinations.isOpen(to, now.getTime()) ? '; its destination is backed off' : '';
    // The first failure is news; the retries after it are routine (the row and the metrics count them).
    this.#log[r.attempts <= 1 ? 'warn' : 'debug'](
      { delivery: r.delivery_id, to, attempt: r.attempts, failure: out.failure, status: out.status },
      `callback failed; will retry${breaker}`,
    );
    observe.callback('retry');
  }

  /**
   * Write an attempt's outcome on its row, in a unit of work: false when the store was closed
   * (a shutdown while the attempt was on the wire: the row stays claimed and is sent again).
   */
  async #record(write: (tx: RecordTx) => Promise<void>): Promise<boolean> {
    const sends = this.o.store.callbackSends;
    if (!(await sends.isOpen())) return false;
    try {
      await this.o.store.unitOfWork(write);
      return true;
    } catch (e) {
      if (!(await sends.isOpen().catch(() => false))) return false;
      throw e;
    }
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
    await Promise.race([Promise.all([this.#loop, ...this.#inFlight]), new Promise<void>((r) => (t = setTimeout(r, graceMs)))]);
    clearTimeout(t);
    // Attempts still on the wire are dropped with their sockets; their rows stay claimed.
    await this.#closeTransport().catch(() => {});
  }
}
