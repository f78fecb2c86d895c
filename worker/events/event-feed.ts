import { recordOf } from '../store/index.js';
import type { Redis } from 'ioredis';
import type { IntakeEvent, IntakeEventName } from '../../shared/screening.js';
import type { Store, RecordTx } from '../store/index.js';
import type { EventLogFilter, ListPage } from '../store/types.js';
import type { EventFeed } from '../screener-types.js';
import { compactEvent, expandEvent } from './event-refs.js';

/** Other processes hear of new events at most this late (their SSE clients, waits on a screening). */
const PUBLISH_GAP_MS = 20;

/**
 * Events shared by every process: each event is appended to SQLite (so a client that
 * reconnects with Last-Event-ID can replay what it missed) and announced on a Redis channel
 * (so every process's subscribers wake up). Subscribers always read from SQLite in id order,
 * so a lost pub/sub message only delays delivery until the next one or the next poll.
 */
export class SharedEventFeed implements EventFeed {
  readonly #listeners = new Set<(e: IntakeEvent) => void>();
  #delivered: number;
  #sub: Redis | undefined;
  #poll: NodeJS.Timeout | undefined;
  /** The newest id to tell other processes about; at most one PUBLISH per PUBLISH_GAP_MS. */
  #toPublish: string | undefined;
  #lastPublishAt = 0;
  #draining = false;

  constructor(
    private readonly store: Store,
    private readonly pub: Redis,
    private readonly channel: string,
  ) {
    this.#delivered = store.lastEventId();
  }

  /** Start listening for other processes' events (`sub` becomes a subscriber connection). */
  async start(sub: Redis): Promise<void> {
    this.#sub = sub;
    // Our own events were delivered when published: only read the store for newer ones.
    sub.on('message', (_channel: string, id: string) => {
      if (Number(id) > this.#delivered) this.#drain();
    });
    await sub.subscribe(this.channel).catch(() => {});
    // A safety net for a missed pub/sub message (e.g. during a Redis restart).
    this.#poll = setInterval(() => this.#drain(), 2_000);
    this.#poll.unref();
  }

  /** An event of its own (no change commits with it): appended in a unit of work, then announced. */
  async publish(event: IntakeEventName, data: unknown): Promise<IntakeEvent> {
    const e = await recordOf(this.store).unitOfWork((tx) => this.append(tx, event, data));
    await this.announce([e]);
    return e;
  }

  /**
   * Write an event to the log without telling anyone yet: inside the unit of work `tx`, so the
   * event commits with what it reports. Call announce() after the commit.
   */
  async append(_tx: RecordTx, event: IntakeEventName, data: unknown): Promise<IntakeEvent> {
    // Stored as a reference to its screening (event-refs.ts); delivered here as given.
    const e = this.store.appendEvent(event, compactEvent(event, data));
    return { ...e, data: data ?? null };
  }

  /** Deliver what was appended (here, and to other processes through Redis), oldest first. */
  async announce(appended: IntakeEvent[] = []): Promise<void> {
    if (appended.length > 0 && appended.every((e, i) => e.id === this.#delivered + 1 + i)) {
      // The next events in order, already in hand: no need to read them back from the log.
      for (const e of appended) this.#deliver(e);
    } else {
      this.#drain();
    }
    // Not awaited: other processes are only woken early (their poll catches up on a lost message),
    // and nobody here waits a Redis round trip for it. The newest id says "read up to here", so
    // one PUBLISH covers every event since the last: at most one per PUBLISH_GAP_MS, however
    // many screenings finished (under load, a PUBLISH per group commit was 5 % of a hit's CPU).
    const first = this.#toPublish === undefined;
    this.#toPublish = String(appended.at(-1)?.id ?? this.#delivered);
    if (!first) return;
    const send = (): void => {
      const id = this.#toPublish;
      this.#toPublish = undefined;
      this.#lastPublishAt = Date.now();
      if (id !== undefined) void this.pub.publish(this.channel, id).catch(() => {});
    };
    const wait = this.#lastPublishAt + PUBLISH_GAP_MS - Date.now();
    if (wait <= 0) setImmediate(send);
    else setTimeout(send, wait).unref();
  }

  subscribe(listener: (e: IntakeEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // Reads outside a unit of work wait for an open one (store.readCommitted): an event of a
  // unit that then rolls back is never read, nor its id handed out.
  since(lastId: number, limit?: number): Promise<IntakeEvent[]> {
    return this.store.readCommitted(() => this.#read(lastId, limit));
  }

  page(filter: EventLogFilter, p: ListPage): Promise<{ data: Array<IntakeEvent & { created_at: string }>; has_more: boolean }> {
    return this.store.readCommitted(() => {
      const { data, has_more } = this.store.pageEvents(filter, p);
      return { data: data.map((e) => ({ ...e, data: this.#expand(e.event, e.data) })), has_more };
    });
  }

  #read(lastId: number, limit?: number): IntakeEvent[] {
    return this.store.eventsSince(lastId, limit).map((e) => ({ ...e, data: this.#expand(e.event, e.data) }));
  }

  #expand(event: string, data: unknown): unknown {
    return expandEvent(
      event,
      data,
      (id) => this.store.getScreening(id),
      (id) => this.store.getReview(id),
    );
  }

  lastId(): Promise<number> {
    return this.store.readCommitted(() => this.store.lastEventId());
  }

  /** Deliver what the log holds past #delivered: committed events only, once no unit of work is open. */
  #drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    // At once when no unit is open (a microtask later otherwise): reads from #delivered as it is then.
    this.store
      .readCommitted(() => {
        this.#draining = false; // a wake-up from here on reads again
        for (;;) {
          const batch = this.#read(this.#delivered, 500);
          if (batch.length === 0) return;
          for (const e of batch) this.#deliver(e);
        }
      })
      .catch(() => {
        // The store is closing or briefly unreadable: the next wake-up or poll catches up.
        this.#draining = false;
      });
  }

  #deliver(e: IntakeEvent): void {
    this.#delivered = e.id;
    if (this.#listeners.size === 0) return;
    // An event appended by reference (review.updated) is read here, once, for whoever listens.
    const data = this.#expand(e.event, e.data);
    if (data !== e.data) e = { ...e, data };
    for (const l of this.#listeners) {
      try {
        l(e);
      } catch {
        // One broken listener must not starve the others.
      }
    }
  }

  async close(): Promise<void> {
    if (this.#poll) clearInterval(this.#poll);
    this.#listeners.clear();
    if (this.#sub) this.#sub.disconnect();
  }
}
