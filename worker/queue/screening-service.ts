import { parseCarrierQuery } from '../../shared/carrier-id.js';
import type { Screening, ScreeningRequest } from '../../shared/screening.js';
import type { SharedEventFeed } from '../events/event-feed.js';
import type { RedisUp } from '../redis-up.js';
import { UnavailableError } from '../screener-types.js';
import type { RecordStore } from '../store/index.js';
import type { ScreeningPipeline } from './screening-pipeline.js';
import type { ScreeningQueue } from './screening-queue.js';

/**
 * Screenings as a producer sees them (the intake, the CLI, the watch list): accept one, wait for
 * it, read it. The pipeline decides; this only takes a request in and hands it to the queue.
 */
export class ScreeningService {
  constructor(
    private readonly d: {
      store: Pick<RecordStore, 'screenings' | 'unitOfWork'>;
      events: Pick<SharedEventFeed, 'subscribe'>;
      queue: Pick<ScreeningQueue, 'add'>;
      pipeline: Pick<ScreeningPipeline, 'accept'>;
      redisUp: RedisUp;
    },
  ) {}

  async submit(request: ScreeningRequest): Promise<Screening> {
    const { store, queue, pipeline } = this.d;
    // Every producer (intake, CLI, watch list) gets the one normal form of the number here.
    const query = parseCarrierQuery(request.query as { dot_number?: unknown; mc_number?: unknown });
    // A screening with a callback: refuse before writing anything when Redis cannot take the
    // callback job (a hit is answered at once and owes it). Without a callback, a cache hit
    // needs no Redis and is answered even during an outage; a miss finds out from queue.add.
    if (request.callback_url) await this.d.redisUp('nothing was accepted');
    const accepted = {
      query,
      tender_id: request.tender_id ?? null,
      load: request.load ?? null,
      priority: request.priority ?? 'tender',
      refresh: request.refresh ?? false,
      callback_url: request.callback_url ?? null,
    };
    // Answered from the cache or a local block, or written queued (pipeline.accept).
    const { done, screening: s } = await pipeline.accept(accepted);
    if (done) return s;
    try {
      await queue.add(s.id, s.priority);
    } catch {
      await store.unitOfWork((tx) => tx.screenings.discardScreening(s.id));
      throw new UnavailableError('the queue (Redis) is unavailable: nothing was accepted, try again');
    }
    return s;
  }

  async waitFor(id: string, ms: number): Promise<Screening> {
    const { store, events } = this.d;
    const read = (): Promise<Screening | undefined> => store.screenings.getScreening(id);
    const current = await read();
    if (!current) throw new Error(`no screening ${id}`);
    if (current.status === 'done' || ms <= 0) return current;
    return new Promise<Screening>((resolve) => {
      let finished = false;
      const finish = (): void => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        unsubscribe();
        read().then(
          (s) => resolve(s ?? current),
          () => resolve(current),
        );
      };
      const unsubscribe = events.subscribe((e) => {
        if (e.event === 'screening.completed' && (e.data as { id?: string }).id === id) finish();
      });
      const timer = setTimeout(finish, ms);
      // Done between the read above and the subscription.
      void read().then(
        (s) => {
          if (s?.status === 'done') finish();
        },
        () => {},
      );
    });
  }

  /** submit + waitFor. */
  async screen(request: ScreeningRequest, o: { waitMs?: number } = {}): Promise<Screening> {
    const s = await this.submit(request);
    return this.waitFor(s.id, o.waitMs ?? 30_000);
  }

  /** Committed rows only: waits for an open unit of work. */
  get(id: string): Promise<Screening | undefined> {
    return this.d.store.screenings.getScreening(id);
  }
}
