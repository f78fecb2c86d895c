import { changesSummary, holdsNotification } from './notifier.js';
import type { DesktopNotification } from './ports.js';

/**
 * Between the notifier and the desktop: bursts become one toast each, and toasts are
 * rate-limited. The live stream announces one change (or one new hold) per event; a burst of 20
 * is 20 events in a few seconds, and should be one toast ("20 carrier changes to acknowledge").
 *
 * - A critical notification (quota used up, worker lost or refusing the token, a carrier
 *   blocked) is shown at once and never limited; only more of the same condition within the
 *   burst are held and merged (20 blocked carriers: the first at once, then one for the other 19).
 * - Others are held for `burstMs` from the first of a burst, merged per condition (new holds
 *   summed, changes listed, anything else: the latest), then shown.
 * - At most `maxPerWindow` of those per `windowMs`; what is over waits, still merging, for a slot.
 */

export interface GateOptions {
  show(n: DesktopNotification): void;
  burstMs?: number;
  windowMs?: number;
  maxPerWindow?: number;
  now?: () => number;
  /** setTimeout; answers the cancel function. */
  schedule?: (fn: () => void, ms: number) => () => void;
}

export const BURST_MS = 4_000;
export const TOAST_WINDOW_MS = 60_000;
export const TOASTS_PER_WINDOW = 4;

export class NotificationGate {
  /** Held notifications, one (merged) per condition, in the order their bursts began. */
  private readonly held = new Map<string, DesktopNotification>();
  /** When the last toasts (not critical) were shown, oldest first. */
  private readonly sent: number[] = [];
  /** When a critical one of each condition was last shown at once. */
  private readonly criticalAt = new Map<string, number>();
  private cancel: (() => void) | undefined;

  constructor(private readonly o: GateOptions) {}

  offer(notes: readonly DesktopNotification[]): void {
    const now = (this.o.now ?? Date.now)();
    const burstMs = this.o.burstMs ?? BURST_MS;
    for (const n of notes) {
      if (n.urgency === 'critical') {
        const last = this.criticalAt.get(n.condition);
        if (last === undefined || now - last >= burstMs) {
          this.criticalAt.set(n.condition, now);
          this.o.show(n);
          continue;
        }
      }
      const prev = this.held.get(n.condition);
      this.held.set(n.condition, prev ? merge(prev, n) : n);
    }
    if (this.held.size > 0 && this.cancel === undefined) this.arm(this.o.burstMs ?? BURST_MS);
  }

  /** Held and not yet shown (for tests). */
  pending(): DesktopNotification[] {
    return [...this.held.values()];
  }

  /** Drop everything held (the worker changed: its news no longer applies). */
  clear(): void {
    this.held.clear();
    this.cancel?.();
    this.cancel = undefined;
  }

  private arm(ms: number): void {
    const schedule =
      this.o.schedule ??
      ((fn, t) => {
        const h = setTimeout(fn, t);
        return () => clearTimeout(h);
      });
    this.cancel = schedule(() => {
      this.cancel = undefined;
      this.flush();
    }, ms);
  }

  private flush(): void {
    const now = (this.o.now ?? Date.now)();
    const windowMs = this.o.windowMs ?? TOAST_WINDOW_MS;
    const max = this.o.maxPerWindow ?? TOASTS_PER_WINDOW;
    while (this.sent.length > 0 && now - this.sent[0]! >= windowMs) this.sent.shift();
    for (const [condition, n] of this.held) {
      // Critical: the rest of its burst, never limited.
      if (n.urgency === 'critical') {
        this.held.delete(condition);
        this.criticalAt.set(condition, now);
        this.o.show(n);
        continue;
      }
      if (this.sent.length >= max) continue;
      this.held.delete(condition);
      this.sent.push(now);
      this.o.show(n);
    }
    // Over the limit: try again when the oldest toast leaves the window.
    if (this.held.size > 0) this.arm(Math.max(1, this.sent[0]! + windowMs - now));
  }
}

/** Two notifications of one condition as one. */
export function merge(a: DesktopNotification, b: DesktopNotification): DesktopNotification {
  if (a.condition === 'reviews_pending' && b.condition === 'reviews_pending')
    return holdsNotification((a.count ?? 1) + (b.count ?? 1), b.total ?? a.total ?? 0);
  if (a.condition === 'carrier_changed' && b.condition === 'carrier_changed') {
    const ids = [...(a.changeIds ?? []), ...(b.changeIds ?? [])];
    const items = [...(a.items ?? [a.title]), ...(b.items ?? [b.title])];
    return changesSummary(ids, items, a.urgency === 'critical' || b.urgency === 'critical');
  }
  // Quota, forecast, degraded: the latest says it, as urgent as the most urgent of the two.
  return a.urgency === 'critical' ? { ...b, urgency: 'critical' } : b;
}
