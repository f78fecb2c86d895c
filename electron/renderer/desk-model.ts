import type {
  Caller,
  CarrierChange,
  DailyUsage,
  Decision,
  IntakeEvent,
  LocalBlock,
  Review,
  Screening,
  StatusReport,
} from '../../shared/screening.js';
import { IntakeError, type ConnectionState, type DeskBridge, type RecheckInput } from '../shared/bridge.js';
import { isCarrierChange } from '../shared/change-text.js';
import { PagedHistory } from './paged-history.js';

/**
 * What the dashboard shows, kept in step with the worker: loaded once, then updated from
 * live events, and re-read whole whenever the event stream (re)opens, since events may
 * have been missed while it was down. Views subscribe and re-render.
 */

export type Resource =
  | 'me'
  | 'status'
  | 'pending'
  | 'decided'
  | 'screenings'
  | 'usage'
  | 'changes'
  | 'changeHistory'
  | 'decisions'
  | 'decisionHistory'
  | 'blocks'
  | 'blockHistory';
const RESOURCES: readonly Resource[] = [
  'me',
  'status',
  'pending',
  'decided',
  'screenings',
  'usage',
  'changes',
  'changeHistory',
  'decisions',
  'decisionHistory',
  'blocks',
  'blockHistory',
];

export const SCREENINGS_SHOWN = 50;
const DECIDED_SHOWN = 12;
export const CHANGE_HISTORY_SHOWN = 25;
export const DECISION_HISTORY_SHOWN = 25;
export const BLOCK_HISTORY_SHOWN = 25;
/**
 * Live events come in bursts (a TMS posting a batch, a desk deciding quickly). The re-reads they
 * call for wait until the burst pauses this long, and never longer than RELOAD_MAX_WAIT_MS while it
 * goes on: one re-read per list per burst, not one per event (what an event says is shown at once).
 */
export const RELOAD_QUIET_MS = 250;
export const RELOAD_MAX_WAIT_MS = 1000;

/** What a view may say about a resource: still loading (never read), failed (the last read), or read. */
export type LoadState = 'loading' | 'failed' | 'ready';

const UNREACHABLE =
  'The worker cannot be reached, so nothing can be recorded. Wait for it to come back (this page retries by itself) or call whoever runs it.';

export class DeskModel {
  /** Who the desk's token is (GET /me); null until known, or from a worker without /me. */
  me: Caller | null = null;
  status: StatusReport | null = null;
  pending: Review[] = [];
  decided: Review[] = [];
  screenings: Screening[] = [];
  usage: DailyUsage | null = null;
  /** Carrier changes still to acknowledge, newest first. */
  changes: CarrierChange[] = [];
  /** Acknowledged changes, latest acknowledgement first. */
  changeHistory: CarrierChange[] = [];
  connection: ConnectionState;
  /** When the event stream last stopped being open (null while open or before it ever was). */
  staleSince: Date | null = null;
  /** Standing carrier decisions, newest first. */
  decisions: Decision[] = [];
  /** Decisions that ended (lapsed or revoked), latest end first: one page, and the older pages asked for. */
  readonly endedDecisions: PagedHistory<Decision>;
  /** Standing decisions revoked in another window since the last look, for a notice. */
  revokedElsewhere: Decision[] = [];
  /** Carriers on the local do-not-use list, newest block first. */
  blocks: LocalBlock[] = [];
  /** Lifted blocks, latest lift first: one page, and the older pages asked for. */
  readonly liftedBlocks: PagedHistory<LocalBlock>;
  /** The last failure per resource (cleared by the next success). */
  errors = new Map<Resource, string>();
  /** Resources read at least once: until then a view shows a skeleton, never "nothing here". */
  private readonly loaded = new Set<Resource>();
  /** Reviews that were pending and were decided elsewhere since the last look, for a notice. */
  resolvedElsewhere: Review[] = [];
  /** Changes that were new here and were acknowledged in another window, for a notice. */
  acknowledgedElsewhere: CarrierChange[] = [];

  /** Reviews this window is deciding right now: their resolved event is ours, not news. */
  private readonly decidingHere = new Set<string>();
  private readonly acknowledgingHere = new Set<string>();
  private readonly revokingHere = new Set<string>();
  private readonly listeners = new Set<(changed: ReadonlySet<Resource | 'connection'>) => void>();
  private readonly inFlight = new Map<Resource, Promise<void>>();
  private readonly again = new Set<Resource>();
  /** Re-reads asked for by live events, waiting for the burst to pause. */
  private readonly soon = new Set<Resource>();
  private soonTimer: ReturnType<typeof setTimeout> | null = null;
  private soonSince = 0;

  constructor(readonly bridge: DeskBridge) {
    this.endedDecisions = new PagedHistory(DECISION_HISTORY_SHOWN, byEnd, (limit, after) => bridge.endedDecisions(limit, after));
    this.liftedBlocks = new PagedHistory(BLOCK_HISTORY_SHOWN, byLift, (limit, after) => bridge.liftedBlocks(limit, after));
    this.connection = bridge.connectionState();
    bridge.onConnectionChange((s) => {
      const wasOpen = this.connection === 'open';
      this.connection = s;
      if (s === 'open') this.staleSince = null;
      else if (wasOpen) this.staleSince = new Date();
      this.emit(new Set(['connection']));
      if (s === 'open' && !wasOpen) void this.loadAll();
      // The stream dropped: ask the worker directly whether it still answers (actionsOff reads it).
      else if (s === 'reconnecting' || s === 'closed') void this.load('status');
    });
    bridge.onEvent((e) => this.onEvent(e));
  }

  /** Decisions that ended (lapsed or revoked), latest end first. */
  get decisionHistory(): readonly Decision[] {
    return this.endedDecisions.items;
  }

  /** Lifted blocks, latest lift first. */
  get blockHistory(): readonly LocalBlock[] {
    return this.liftedBlocks.items;
  }

  /**
   * "Show older": the next page of a history after the last item shown (one request), appended;
   * how many it added. A failure is thrown for the view to say; the list stays as it was.
   */
  async showOlder(r: 'decisionHistory' | 'blockHistory'): Promise<number> {
    const added = await (r === 'decisionHistory' ? this.endedDecisions : this.liftedBlocks).older();
    this.emit(new Set([r]));
    return added;
  }

  subscribe(cb: (changed: ReadonlySet<Resource | 'connection'>) => void): () => void {
    this.listeners.add(cb);
    return () => void this.listeners.delete(cb);
  }

  loadAll(): Promise<void> {
    return Promise.all(RESOURCES.map((r) => this.load(r))).then(() => undefined);
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
          this.loaded.add(r);
        } catch (err) {
          this.errors.set(r, err instanceof Error ? err.message : String(err));
        }
        this.emit(new Set([r]));
      } while (this.again.has(r));
    })().finally(() => this.inFlight.delete(r));
    this.inFlight.set(r, p);
    return p;
  }

  /**
   * Failed wins over an older read: a list whose last read failed is not shown as if it were
   * current. Loading only before the first answer of either kind.
   */
  loadState(...rs: Resource[]): LoadState {
    if (rs.some((r) => this.errors.has(r))) return 'failed';
    return rs.every((r) => this.loaded.has(r)) ? 'ready' : 'loading';
  }

  /** The first failure among `rs`, in words. */
  errorOf(...rs: Resource[]): string | null {
    for (const r of rs) {
      const e = this.errors.get(r);
      if (e !== undefined) return e;
    }
    return null;
  }

  /** Counts and lists are what was last read, not live: the event stream is down or refused. */
  isStale(): boolean {
    return this.connection !== 'open';
  }

  /**
   * Why nothing may be decided now, in words that say what to do; null when the worker is
   * reachable and takes the token. Actions stay off rather than fail one by one.
   */
  actionsOff(): string | null {
    switch (this.connection) {
      case 'open':
        return null;
      case 'reconnecting':
      case 'closed':
        // The live stream alone may be cut (a proxy) while requests still go through: actions stay
        // on until a direct read of the worker fails too.
        return this.errors.has('status') ? UNREACHABLE : null;
      case 'unauthorized':
        return "The worker refused this desk's sign-in. Ask your admin for a new desk token, then enter it in Settings.";
      case 'unconfigured':
        return 'Not set up yet: enter the worker address and your desk token in Settings.';
      case 'connecting':
        return this.status === null
          ? 'Connecting to the worker… Deciding starts once it answers.'
          : this.errors.has('status')
            ? UNREACHABLE
            : null;
      default:
        return UNREACHABLE;
    }
  }

  private async fetch(r: Resource): Promise<void> {
    const b = this.bridge;
    switch (r) {
      case 'me':
        this.me = await b.whoAmI();
        return;
      case 'status':
        this.status = await b.getStatus();
        return;
      case 'pending':
        this.pending = sortPending(await b.listReviews('pending'));
        return;
      case 'decided': {
        // One request of one page (issue 35): the intake orders approved and rejected by decision time.
        this.decided = await b.recentDecisions(DECIDED_SHOWN);
        return;
      }
      case 'screenings':
        this.screenings = await b.listScreenings(SCREENINGS_SHOWN);
        return;
      case 'usage':
        this.usage = await b.dailyUsage();
        return;
      case 'changes': {
        const fresh = sortChanges(await b.listChanges('new'));
        // Gone from "new" since the last look and not by this window: someone acknowledged it elsewhere.
        for (const c of this.changes)
          if (!fresh.some((f) => f.id === c.id) && !this.acknowledgingHere.has(c.id)) this.noteAcknowledgedElsewhere(c);
        this.changes = fresh;
        return;
      }
      case 'changeHistory':
        // One page, sized to what the panel shows (never every acknowledged change).
        this.changeHistory = sortHistory(await b.recentChanges('acknowledged', CHANGE_HISTORY_SHOWN)).slice(0, CHANGE_HISTORY_SHOWN);
        return;
      case 'decisions':
        this.decisions = await b.listDecisions('standing');
        return;
      case 'decisionHistory':
        // One page (GET /decisions?state=ended), merged with the older pages already shown.
        await this.endedDecisions.reload();
        return;
      case 'blocks':
        this.blocks = [...(await b.listBlocks('active'))].sort(
          (a, c) => c.blocked_at.localeCompare(a.blocked_at) || c.id.localeCompare(a.id),
        );
        return;
      case 'blockHistory':
        // One page (GET /blocks?state=lifted), merged with the older pages already shown.
        await this.liftedBlocks.reload();
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
        this.reloadSoon('pending');
        break;
      case 'review.updated':
        // Another tender now waits on a carrier's review (docs/decisions.md): show it on the card.
        if (isReview(e.data)) {
          const updated = e.data;
          if (this.pending.some((r) => r.id === updated.id)) {
            this.pending = sortPending(this.pending.map((r) => (r.id === updated.id ? updated : r)));
            changed.add('pending');
          }
        }
        this.reloadSoon('pending');
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
        this.reloadSoon('pending');
        this.reloadSoon('decided');
        this.reloadSoon('screenings');
        this.reloadSoon('decisions');
        this.reloadSoon('decisionHistory');
        this.reloadSoon('blocks'); // a reject may have put the carrier on the do-not-use list
        break;
      case 'decision.lapsed':
      case 'decision.revoked':
        if (isDecision(e.data)) {
          const ended = e.data;
          if (this.decisions.some((d) => d.id === ended.id)) {
            this.decisions = this.decisions.filter((d) => d.id !== ended.id);
            if (e.event === 'decision.revoked' && !this.revokingHere.has(ended.id)) this.revokedElsewhere.push(ended);
            changed.add('decisions');
          }
          this.endedDecisions.add(ended);
          changed.add('decisionHistory');
        }
        this.reloadSoon('decisions');
        this.reloadSoon('decisionHistory');
        break;
      case 'screening.completed':
        if (isScreening(e.data)) {
          const s = e.data as Screening;
          this.screenings = [s, ...this.screenings.filter((x) => x.id !== s.id)].slice(0, SCREENINGS_SHOWN);
          changed.add('screenings');
        }
        this.reloadSoon('screenings');
        break;
      case 'quota.changed':
        this.reloadSoon('usage');
        break;
      case 'carrier.changed':
        if (isCarrierChange(e.data) && e.data.state === 'new') {
          const c = e.data;
          if (!this.changes.some((x) => x.id === c.id)) {
            this.changes = sortChanges([c, ...this.changes]);
            changed.add('changes');
          }
        }
        this.reloadSoon('changes');
        break;
      case 'change.acknowledged':
        if (isCarrierChange(e.data)) {
          const c = e.data;
          const was = this.changes.find((x) => x.id === c.id);
          if (was) {
            this.changes = this.changes.filter((x) => x.id !== c.id);
            if (!this.acknowledgingHere.has(c.id)) this.noteAcknowledgedElsewhere(c);
            changed.add('changes');
          }
          this.changeHistory = sortHistory([c, ...this.changeHistory.filter((x) => x.id !== c.id)]).slice(0, CHANGE_HISTORY_SHOWN);
          changed.add('changeHistory');
        }
        this.reloadSoon('changes');
        this.reloadSoon('changeHistory');
        break;
      default:
        break; // queue.changed and names we do not know yet: the status read below covers them
    }
    this.reloadSoon('status');
    if (changed.size > 0) this.emit(changed);
  }

  /**
   * Re-read `r` once the burst of events that asked for it pauses (RELOAD_QUIET_MS), or after
   * RELOAD_MAX_WAIT_MS while events keep coming: the desk reads each list once per burst.
   */
  private reloadSoon(r: Resource): void {
    this.soon.add(r);
    const now = Date.now();
    if (this.soonTimer === null) this.soonSince = now;
    else clearTimeout(this.soonTimer);
    const wait = Math.max(0, Math.min(RELOAD_QUIET_MS, this.soonSince + RELOAD_MAX_WAIT_MS - now));
    this.soonTimer = setTimeout(() => {
      this.soonTimer = null;
      const due = [...this.soon];
      this.soon.clear();
      for (const x of due) void this.load(x);
    }, wait);
  }

  /** The name decisions are recorded under when the token has one; null: a name is typed. */
  signedInName(): string | null {
    return this.me?.name ?? null;
  }

  /**
   * Decide a review from this window, on the facts shown: `review` as the desk has it (its
   * version goes with the decision). `by`: a typed name, null for the token's name. A 409
   * `review_stale` puts the newest review in place of the shown one (nothing was decided) and
   * is thrown on for the view to say so. Its own resolved event is not reported as news.
   */
  async decide(review: Review, verdict: 'approve' | 'reject', by: string | null, note: string, block = false): Promise<Review> {
    const id = review.id;
    this.decidingHere.add(id);
    try {
      const done = await this.bridge.resolveReview(id, verdict, {
        by,
        note,
        ...(block ? { block: true } : {}),
        review_version: review.version ?? null,
      });
      this.applyLocalDecision(done);
      return done;
    } catch (err) {
      if (err instanceof IntakeError && err.code === 'review_stale') {
        // Nothing was decided here: a decision of it from now on is news.
        this.decidingHere.delete(id);
        this.applyNewestFacts(id, err.review);
      }
      throw err;
    } finally {
      // Keep the mark a little: the event may arrive after the answer.
      if (this.decidingHere.has(id)) setTimeout(() => this.decidingHere.delete(id), 60_000);
    }
  }

  /** The facts moved on under a review: show the newest (or re-read them when the answer had none). */
  private applyNewestFacts(id: string, newest: Review | undefined): void {
    if (newest && newest.id === id) {
      this.pending =
        newest.state === 'pending'
          ? sortPending(this.pending.map((r) => (r.id === id ? newest : r)))
          : this.pending.filter((r) => r.id !== id);
      this.emit(new Set(['pending']));
    }
    void this.load('pending');
    void this.load('decided');
  }

  private applyLocalDecision(review: Review): void {
    this.pending = this.pending.filter((r) => r.id !== review.id);
    this.decided = [review, ...this.decided.filter((r) => r.id !== review.id)].slice(0, DECIDED_SHOWN);
    this.emit(new Set(['pending', 'decided']));
    void this.load('status');
    void this.load('screenings');
  }

  /** Acknowledge a change from this window, with an optional note; its own acknowledged event is then not reported as news. */
  async acknowledge(id: string, by: string | null, note: string | null = null): Promise<CarrierChange> {
    this.acknowledgingHere.add(id);
    try {
      const done = await this.bridge.acknowledgeChange(id, by, note);
      this.changes = this.changes.filter((c) => c.id !== id);
      this.changeHistory = sortHistory([done, ...this.changeHistory.filter((c) => c.id !== id)]).slice(0, CHANGE_HISTORY_SHOWN);
      this.emit(new Set(['changes', 'changeHistory']));
      return done;
    } catch (err) {
      // 409: someone else was first; the view says so, so the refresh must not say it again.
      if (!(err instanceof IntakeError && err.code === 'change_conflict')) this.acknowledgingHere.delete(id);
      throw err;
    } finally {
      // Keep the mark a little: the event may arrive after the answer.
      if (this.acknowledgingHere.has(id)) setTimeout(() => this.acknowledgingHere.delete(id), 60_000);
    }
  }

  /** Revoke a standing decision from this window; its own revoked event is then not news. */
  async revoke(id: string, by: string | null, note: string): Promise<Decision> {
    this.revokingHere.add(id);
    try {
      const done = await this.bridge.revokeDecision(id, by, note);
      this.decisions = this.decisions.filter((d) => d.id !== id);
      this.endedDecisions.add(done);
      this.emit(new Set(['decisions', 'decisionHistory']));
      return done;
    } finally {
      setTimeout(() => this.revokingHere.delete(id), 60_000);
    }
  }

  /** Lift a carrier's block from this window (desk role), with why (`note`, kept with the lift); both lists are read again. */
  async lift(block: LocalBlock, by: string, note = ''): Promise<LocalBlock> {
    const carrier = block.dot_number ?? block.mc_number;
    if (carrier === null) throw new TypeError(`block ${block.id} names no DOT or MC number`);
    const done = await this.bridge.liftBlock(carrier, by, note.trim() === '' ? undefined : note.trim());
    this.blocks = this.blocks.filter((b) => b.id !== block.id);
    this.liftedBlocks.add(done);
    this.emit(new Set(['blocks', 'blockHistory']));
    void this.load('blocks');
    void this.load('blockHistory');
    return done;
  }

  /** A fresh score for a carrier now (spends a lookup); the screening as it stands after a short wait. */
  async recheck(carrier: RecheckInput): Promise<Screening> {
    const s = await this.bridge.recheckCarrier(carrier);
    void this.load('screenings');
    void this.load('status');
    return s;
  }

  takeRevokedElsewhere(): Decision[] {
    const out = this.revokedElsewhere;
    this.revokedElsewhere = [];
    return out;
  }

  takeAcknowledgedElsewhere(): CarrierChange[] {
    const out = this.acknowledgedElsewhere;
    this.acknowledgedElsewhere = [];
    return out;
  }

  private noteAcknowledgedElsewhere(c: CarrierChange): void {
    if (!this.acknowledgedElsewhere.some((x) => x.id === c.id)) this.acknowledgedElsewhere.push(c);
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

/** Newest first, as the intake lists them. */
function sortChanges(changes: CarrierChange[]): CarrierChange[] {
  return [...changes].sort((a, b) => b.detected_at.localeCompare(a.detected_at) || b.id.localeCompare(a.id));
}

/** Latest acknowledgement first. */
function sortHistory(changes: CarrierChange[]): CarrierChange[] {
  return [...changes].sort((a, b) => (b.acknowledged_at ?? '').localeCompare(a.acknowledged_at ?? '') || b.id.localeCompare(a.id));
}

/** Latest end first. */
function byEnd(a: Decision, b: Decision): number {
  return (b.ended_at ?? '').localeCompare(a.ended_at ?? '') || b.id.localeCompare(a.id);
}

/** Latest lift first. */
function byLift(a: LocalBlock, b: LocalBlock): number {
  return (b.lifted_at ?? '').localeCompare(a.lifted_at ?? '') || b.id.localeCompare(a.id);
}

function isDecision(v: unknown): v is Decision {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { object?: unknown }).object === 'decision' &&
    typeof (v as { id?: unknown }).id === 'string'
  );
}

function isReview(v: unknown): v is Review {
  return (
    typeof v === 'object' && v !== null && (v as { object?: unknown }).object === 'review' && typeof (v as { id?: unknown }).id === 'string'
  );
}

function isScreening(v: unknown): v is Screening {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { object?: unknown }).object === 'screening' &&
    typeof (v as { id?: unknown }).id === 'string'
  );
}
