import type { Redis } from 'ioredis';
import type { IntakeEvent, IntakeEventName } from '../../shared/screening.js';
import type { RecordStore, RecordTx } from '../store/index.js';
import type { EventLogFilter, ListPage } from '../store/types.js';
import type { EventFeed } from '../screener-types.js';
import { compactEvent, expandEventFrom } from './event-refs.js';

/** Other processes hear of new events at most this late (their SSE clients, waits on a screening). */
const PUBLISH_GAP_MS = 20;
/**
 * How long events announced ahead of an earlier one wait for its announce before the log is read
 * (the earlier one is another host's, or its announce was lost).
 */
const GAP_WAIT_MS = 20;

/**
 * Events shared by every process: each event is appended to the record's event log (so a
 * client that reconnects with Last-Event-ID can replay what it missed) and announced on a Redis
 * channel (so every process's subscribers wake up). Subscribers always read from the log in id
 * order, so a lost pub/sub message only delays delivery until the next one or the next poll.
 * Deliveries here run one after another (#serially): an event's data may need a store read
 * (event-refs.ts), and listeners still hear the events in id order.
 */
export class SharedEventFeed implements EventFeed {
  readonly #listeners = new Set<(e: IntakeEvent) => void>();
  /** The newest id delivered; undefined until the log's last id at start was read. */
  #delivered: number | undefined;
  /** The deliveries, one after another. */
  #chain: Promise<void> = Promise.resolve();
  #sub: Redis | undefined;
  #poll: NodeJS.Timeout | undefined;
  /** The newest id to tell other processes about; at most one PUBLISH per PUBLISH_GAP_MS. */
  #toPublish: string | undefined;
  #lastPublishAt = 0;
  #draining = false;
  /**
   * Events announced ahead of an earlier one not announced yet, by id: units commit their events
   * in id order (the event head) but may announce them in any (two group commits on PostgreSQL).
   * Delivered when the gap fills; the log is read only after GAP_WAIT_MS, which would read every
   * review an event names again.
   */
  readonly #early = new Map<number, IntakeEvent>();
  #gapTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: RecordStore,
    private readonly pub: Redis,
    private readonly channel: string,
    /** GAP_WAIT_MS unless given (a test waits longer, to see that nothing else reads the log). */
    private readonly gapWaitMs = GAP_WAIT_MS,
  ) {
    // Events from here on are new: where the log ends now, asked at once (before a unit opened
    // next commits one). A failed read is tried again by the next delivery (#start).
    const end = store.events.lastEventId();
    this.#serially(async () => {
      this.#delivered ??= await end;
    }).catch(() => {});
  }

  async #start(): Promise<number> {
    this.#delivered ??= await this.store.events.lastEventId();
    return this.#delivered;
  }

  /** Run `fn` after every delivery before it. */
  #serially(fn: () => Promise<void>): Promise<void> {
    const p = this.#chain.then(fn);
    this.#chain = p.catch(() => {});
    return p;
  }

  /** Start listening for other processes' events (`sub` becomes a subscriber connection). */
  async start(sub: Redis): Promise<void> {
    this.#sub = sub;
    // Our own events were delivered when announced, or wait in hand for an earlier one (whose
    // own announce, or GAP_WAIT_MS, brings it): only read the store for newer ones.
    sub.on('message', (_channel: string, id: string) => {
      if (this.#delivered === undefined || Number(id) > Math.max(this.#delivered, ...this.#early.keys())) this.#drain();
    });
    await sub.subscribe(this.channel).catch(() => {});
    // A safety net for a missed pub/sub message (e.g. during a Redis restart).
    this.#poll = setInterval(() => this.#drain(), 2_000);
    this.#poll.unref();
  }

  /** An event of its own (no change commits with it): appended in a unit of work, then announced. */
  async publish(event: IntakeEventName, data: unknown): Promise<IntakeEvent> {
    const e = await this.store.unitOfWork((tx) => this.append(tx, event, data));
    await this.announce([e]);
    return e;
  }

  /**
   * Write an event to the log without telling anyone yet: inside the unit of work `tx`, so the
   * event commits with what it reports. Call announce() after the commit.
   */
  async append(tx: RecordTx, event: IntakeEventName, data: unknown): Promise<IntakeEvent> {
    // Stored as a reference to its screening (event-refs.ts); delivered here as given.
    const e = await tx.events.appendEvent(event, compactEvent(event, data));
    return { ...e, data: data ?? null };
  }

  /** Deliver what was appended (here, and to other processes through Redis), oldest first. */
  async announce(appended: IntakeEvent[] = []): Promise<void> {
    await this.#serially(async () => {
      const delivered = await this.#start();
      if (appended.length === 0) return this.#drainNow();
      for (const e of appended) if (e.id > delivered) this.#early.set(e.id, e);
      // The next events in order, in hand: no need to read them back from the log.
      await this.#deliverEarly();
    }).catch(() => {
      // The store is closing or briefly unreadable: the next wake-up or poll catches up.
    });
    // Not awaited: other processes are only woken early (their poll catches up on a lost message),
    // and nobody here waits a Redis round trip for it. The newest id says "read up to here", so
    // one PUBLISH covers every event since the last: at most one per PUBLISH_GAP_MS, however
    // many screenings finished (under load, a PUBLISH per group commit was 5 % of a hit's CPU).
    const newest = appended.at(-1)?.id ?? this.#delivered;
    if (newest === undefined) return; // the log could not be read: the others' polls catch up
    const first = this.#toPublish === undefined;
    this.#toPublish = String(newest);
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

  // The store's reads: committed rows only (on SQLite they wait for an open unit of work), so an
  // event of a unit that then rolls back is never read, nor its id handed out.
  since(lastId: number, limit?: number): Promise<IntakeEvent[]> {
    return this.#read(lastId, limit);
  }

  async page(filter: EventLogFilter, p: ListPage): Promise<{ data: Array<IntakeEvent & { created_at: string }>; has_more: boolean }> {
    const { data, has_more } = await this.store.events.pageEvents(filter, p);
    return { data: await Promise.all(data.map(async (e) => ({ ...e, data: await this.#expand(e.event, e.data) }))), has_more };
  }

  async #read(lastId: number, limit?: number): Promise<IntakeEvent[]> {
    const events = await this.store.events.eventsSince(lastId, limit);
    return Promise.all(events.map(async (e) => ({ ...e, data: await this.#expand(e.event, e.data) })));
  }

  /** The event's data as published, reading what it names from the record (event-refs.ts). */
  #expand(event: string, data: unknown): unknown {
    return expandEventFrom(this.store, event, data);
  }

  lastId(): Promise<number> {
    return this.store.events.lastEventId();
  }

  /** Deliver what the log holds past #delivered (a wake-up from Redis or the poll): after the deliveries under way. */
  #drain(): void {
    if (this.#gapTimer) {
      clearTimeout(this.#gapTimer);
      this.#gapTimer = undefined;
    }
    if (this.#draining) return;
    this.#draining = true;
    this.#serially(() => {
      this.#draining = false; // a wake-up from here on reads again
      return this.#drainNow();
    }).catch(() => {
      // The store is closing or briefly unreadable: the next wake-up or poll catches up.
      this.#draining = false;
    });
  }

  /** Deliver the committed events past #delivered, oldest first (inside #serially only). */
  async #drainNow(): Promise<void> {
    for (;;) {
      const batch = await this.#read(await this.#start(), 500);
      if (batch.length === 0) break;
      for (const e of batch) await this.#deliver(e);
    }
    await this.#deliverEarly();
  }

  /** The events in hand that come next, in id order; those delivered from the log meanwhile dropped (inside #serially only). */
  async #deliverEarly(): Promise<void> {
    try {
      for (const id of this.#early.keys()) if (id <= this.#delivered!) this.#early.delete(id);
      for (let e = this.#early.get(this.#delivered! + 1); e; e = this.#early.get(this.#delivered! + 1)) {
        this.#early.delete(e.id);
        await this.#deliver(e);
      }
    } finally {
      // Also when a delivery failed (its store read): what is left is read from the log soon.
      if (this.#early.size > 0) this.#gapTimer ??= setTimeout(() => this.#drain(), this.gapWaitMs).unref();
      else if (this.#gapTimer) {
        clearTimeout(this.#gapTimer);
        this.#gapTimer = undefined;
      }
    }
  }

  async #deliver(e: IntakeEvent): Promise<void> {
    this.#delivered = e.id;
    if (this.#listeners.size === 0) return;
    // An event appended by reference (review.updated) is read here, once, for whoever listens.
    const expanded = this.#expand(e.event, e.data);
    const data = expanded instanceof Promise ? await expanded : expanded;
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
    if (this.#gapTimer) clearTimeout(this.#gapTimer);
    this.#listeners.clear();
    if (this.#sub) this.#sub.disconnect();
  }
}
