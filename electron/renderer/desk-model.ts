import type { DailyUsage, IntakeEvent, Review, Screening, StatusReport } from '../../shared/screening.js';
import type { ConnectionState, DeskBridge } from '../shared/bridge.js';

/**
 * What the dashboard shows, kept in step with the worker: loaded once, then updated from
 * live events, and re-read whole whenever the event stream (re)opens, since events may
 * have been missed while it was down. Views subscribe and re-render.
 */

export type Resource = 'status' | 'pending' | 'decided' | 'screenings' | 'usage';

export const SCREENINGS_SHOWN = 50;
const DECIDED_SHOWN = 12;

export class DeskModel {
  status: StatusReport | null = null;
  pending: Review[] = [];
  decided: Review[] = [];
  screenings: Screening[] = [];
  usage: DailyUsage | null = null;
  connection: ConnectionState;
  /** The last failure per resource (cleared by the next success). */
  errors = new Map<Resource, string>();
  /** Reviews that were pending and were decided elsewhere since the last look, for a notice. */
  resolvedElsewhere: Review[] = [];

  /** Reviews this window is deciding right now: their resolved event is ours, not news. */
  private readonly decidingHere = new Set<string>();
  private readonly listeners = new Set<(changed: ReadonlySet<Resource | 'connection'>) => void>();
  private readonly inFlight = new Map<Resource, Promise<void>>();
  private readonly again = new Set<Resource>();

  constructor(readonly bridge: DeskBridge) {
    this.connection = bridge.connectionState();
    bridge.onConnectionChange((s) => {
      const wasOpen = this.connection === 'open';
      this.connection = s;
      this.emit(new Set(['connection']));
      if (s === 'open' && !wasOpen) void this.loadAll();
    });
    bridge.onEvent((e) => this.onEvent(e));
  }

  subscribe(cb: (changed: ReadonlySet<Resource | 'connection'>) => void): () => void {
    this.listeners.add(cb);
    return () => void this.listeners.delete(cb);
  }

  loadAll(): Promise<void> {
    return Promise.all((['status', 'pending', 'decided', 'screenings', 'usage'] as const).map((r) => this.load(r))).then(() => undefined);
  }

  /** Re-read one resource; calls during a read fold into one more read. */
  load(r: Resource): Promise<void> {
    const running = this.inFlight.get(r);
    if (running) {
      this.again.add(r);
      return running;
    }
    const p = (async () => {
      do {
        this.again.delete(r);
        try {
          await this.fetch(r);
          this.errors.delete(r);
        } catch (err) {
          this.errors.set(r, err instanceof Error ? err.message : String(err));
        }
        this.emit(new Set([r]));
      } while (this.again.has(r));
    })().finally(() => this.inFlight.delete(r));
    this.inFlight.set(r, p);
    return p;
  }

  private async fetch(r: Resource): Promise<void> {
    const b = this.bridge;
    switch (r) {
      case 'status':
        this.status = await b.getStatus();
        return;
      case 'pending':
        this.pending = sortPending(await b.listReviews('pending'));
        return;
      case 'decided': {
        const [approved, rejected] = await Promise.all([b.listReviews('approved'), b.listReviews('rejected')]);
        this.decided = [...approved, ...rejected]
          .sort((a, c) => (c.decided_at ?? '').localeCompare(a.decided_at ?? ''))
          .slice(0, DECIDED_SHOWN);
        return;
      }
      case 'screenings':
        this.screenings = await b.listScreenings(SCREENINGS_SHOWN);
        return;
      case 'usage':
        this.usage = await b.dailyUsage();
        return;
    }
  }

  /** Apply an event at once when its payload is what we expect, then re-read to be sure. */
  private onEvent(e: IntakeEvent): void {
    const changed = new Set<Resource>();
    switch (e.event) {
      case 'review.created':
        if (isReview(e.data)) {
          const created = e.data;
          if (created.state === 'pending' && !this.pending.some((r) => r.id === created.id)) {
            this.pending = sortPending([...this.pending, created]);
            changed.add('pending');
          }
        }
        void this.load('pending');
        break;
      case 'review.resolved':
        if (isReview(e.data)) {
          const resolved = e.data as Review;
          if (this.pending.some((r) => r.id === resolved.id)) {
            this.pending = this.pending.filter((r) => r.id !== resolved.id);
            if (!this.decidingHere.has(resolved.id)) this.resolvedElsewhere.push(resolved);
            changed.add('pending');
          }
        }
        void this.load('pending');
        void this.load('decided');
        void this.load('screenings');
        break;
      case 'screening.completed':
        if (isScreening(e.data)) {
          const s = e.data as Screening;
          this.screenings = [s, ...this.screenings.filter((x) => x.id !== s.id)].slice(0, SCREENINGS_SHOWN);
          changed.add('screenings');
        }
        void this.load('screenings');
        break;
      case 'quota.changed':
        void this.load('usage');
        break;
      default:
        break; // queue.changed and names we do not know yet: the status read below covers them
    }
    void this.load('status');
    if (changed.size > 0) this.emit(changed);
  }

  /** Decide a review from this window; its own resolved event is then not reported as news. */
  async decide(id: string, verdict: 'approve' | 'reject', by: string, note: string): Promise<Review> {
    this.decidingHere.add(id);
    try {
      const done = await this.bridge.resolveReview(id, verdict, { by, note });
      this.applyLocalDecision(done);
      return done;
    } finally {
      // Keep the mark a little: the event may arrive after the answer.
      setTimeout(() => this.decidingHere.delete(id), 60_000);
    }
  }

  private applyLocalDecision(review: Review): void {
    this.pending = this.pending.filter((r) => r.id !== review.id);
    this.decided = [review, ...this.decided.filter((r) => r.id !== review.id)].slice(0, DECIDED_SHOWN);
    this.emit(new Set(['pending', 'decided']));
    void this.load('status');
    void this.load('screenings');
  }

  takeResolvedElsewhere(): Review[] {
    const out = this.resolvedElsewhere;
    this.resolvedElsewhere = [];
    return out;
  }

  private emit(changed: ReadonlySet<Resource | 'connection'>): void {
    for (const cb of [...this.listeners]) {
      try {
        cb(changed);
      } catch (err) {
        console.error('view update failed', err);
      }
    }
  }
}

/** Oldest first: the carrier that has waited longest is at the top. */
function sortPending(reviews: Review[]): Review[] {
  return [...reviews].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

function isReview(v: unknown): v is Review {
  return typeof v === 'object' && v !== null && (v as { object?: unknown }).object === 'review' && typeof (v as { id?: unknown }).id === 'string';
}

function isScreening(v: unknown): v is Screening {
  return typeof v === 'object' && v !== null && (v as { object?: unknown }).object === 'screening' && typeof (v as { id?: unknown }).id === 'string';
}
