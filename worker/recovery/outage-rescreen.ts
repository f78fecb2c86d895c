import type { Logger } from 'pino';
import type { QuotaGate } from '../queue/quota-gate.js';
import type { ScreeningQueue } from '../queue/screening-queue.js';
import type { ServiceState } from '../queue/service-state.js';
import type { RecordStore } from '../store/index.js';

/**
 * Holds made while /v1 was down or the quota closed (`scoring_unavailable`, `quota_exhausted`,
 * `quota_reserved`) are screened again once it answers or the quota returns (docs/decisions.md,
 * "After an outage"). Each pass, in every worker process: when /v1 is usable (reachable — a
 * free health check asks when it was not — no hold-off, no environment mismatch, the quota
 * gate not closed), every such hold younger than SCREEN_RESCREEN_WITHIN whose review still
 * waits is put on the screenings queue as a `rescreen` job (job id per screening: several
 * processes queue it once), behind new tenders. The queue's limiter and the rate gate pace
 * them; ScreeningPipeline.rescreen makes one lookup per carrier. The record (SQLite or
 * PostgreSQL) says what waits, Redis the work list: a pass after Redis lost its data queues them again.
 */

/**
 * A hold a re-screen left held (its carrier still gets no answer) waits before the next try at
 * least this long, and at least as long as it had waited when last tried: 1, 2, 4, 8… minutes,
 * so a carrier /v1 keeps failing costs a handful of lookups within SCREEN_RESCREEN_WITHIN.
 */
export const RESCREEN_RETRY_MS = 60_000;
/** Holds queued per pass (the rest wait for the next pass). */
const BATCH = 500;

export interface OutageRescreenOptions {
  store: Pick<RecordStore, 'rescreenHolds'>;
  queue: ScreeningQueue;
  service: ServiceState;
  gate: QuotaGate;
  /** GET /v1/health: resolves when /v1 answers. */
  probe: () => Promise<unknown>;
  /** SCREEN_RESCREEN_WITHIN: holds of tenders older than this are left to a person. */
  withinMs: number;
  now: () => Date;
  logger: Logger;
}

export class OutageRescreen {
  readonly #holds: ReturnType<RecordStore['rescreenHolds']>;

  constructor(private readonly o: OutageRescreenOptions) {
    this.#holds = o.store.rescreenHolds(RESCREEN_RETRY_MS, BATCH);
  }

  /** One pass: how many holds were queued for a re-screen (0 while /v1 or the quota is still out). */
  async run(): Promise<{ queued: number }> {
    const t = this.o.now().getTime();
    // The store's read: committed holds only (a unit of work still open may yet roll its hold back).
    const due = await this.#holds.due(new Date(t - this.o.withinMs).toISOString(), new Date(t).toISOString());
    if (due.length === 0) return { queued: 0 };
    const usable = await this.#usable();
    // Down to the reserve: only tender-time holds may spend quota; background ones wait for room.
    const go = usable === 'no' ? [] : usable === 'reserve' ? due.filter((s) => s.priority === 'tender') : due;
    for (const s of go) await this.o.queue.addRescreen(s.id, s.priority, t);
    if (go.length > 0) this.o.logger.info({ queued: go.length }, '/v1 usable again: holds from the outage queued for a re-screen');
    return { queued: go.length };
  }

  /** Whether lookups may be made now, and for whom; asks the free health check when /v1 was last unreachable. */
  async #usable(): Promise<'no' | 'reserve' | 'open'> {
    const [{ service }, quota] = await Promise.all([this.o.service.report(), this.o.gate.status()]);
    if (service.hold_off_until !== null || service.environment_mismatch !== null || service.key_rejected || quota.gate === 'closed')
      return 'no';
    if (!service.reachable) {
      try {
        await this.o.probe();
      } catch {
        return 'no';
      }
      await this.o.service.reachable();
    }
    return quota.gate === 'reserve' ? 'reserve' : 'open';
  }
}
