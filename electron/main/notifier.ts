import type { StatusReport } from '../../shared/screening.js';
import type { ConnectionState } from '../shared/bridge.js';
import type { DesktopNotification, NotificationCondition } from './ports.js';
import { formatResetUtc, plural, quotaExhausted, quotaLow, type TrayInput } from './tray-state.js';

/**
 * Which desktop notifications to raise. One per condition: raised when the condition
 * starts, raised again only after it has cleared. A condition we cannot observe right now
 * (the worker is unreachable, so its status is stale) keeps its last state: not knowing
 * is not the same as cleared.
 */

export interface ConditionSnapshot {
  /** undefined: unknown right now. */
  reviewsPending?: number;
  quotaLow?: boolean;
  quotaExhausted?: boolean;
  /** Why the service is unavailable, or null when it is fine. */
  serviceUnavailable?: string | null;
  /** For the texts. */
  quotaRemaining?: number | null;
  quotaResetsAt?: string | null;
}

/** What the notifier can observe from the tray's inputs. */
export function conditionsFrom(input: TrayInput): ConditionSnapshot {
  const out: ConditionSnapshot = {};
  const lost = lostWorker(input.connection, input.statusError ?? null, input.workerUrl);
  if (lost !== undefined) out.serviceUnavailable = lost;
  const s: StatusReport | null = input.status;
  const fresh = s !== null && input.connection === 'open' && !input.statusError;
  if (fresh) {
    out.reviewsPending = s.reviews.pending;
    out.quotaLow = quotaLow(s);
    out.quotaExhausted = quotaExhausted(s);
    out.quotaRemaining = s.quota.remaining;
    out.quotaResetsAt = s.quota.resets_at;
    if (s.service.key_rejected) out.serviceUnavailable = 'The /v1 service rejected the API key. Live lookups have stopped.';
    else if (!s.service.reachable)
      out.serviceUnavailable = `The /v1 scoring service is unreachable${s.service.last_error ? ` (${s.service.last_error})` : ''}. Screenings use cached scores or hold.`;
    else out.serviceUnavailable = null;
  }
  return out;
}

function lostWorker(connection: ConnectionState, statusError: string | null, url: string): string | null | undefined {
  if (connection === 'unauthorized') return `The worker at ${url} refused the tray token. Open Settings to fix it.`;
  if (connection === 'reconnecting' || statusError) return `The worker at ${url} is unreachable. The tray keeps retrying.`;
  return undefined; // connecting/open/closed: nothing to say from the connection alone
}

export class Notifier {
  private readonly active = new Set<NotificationCondition>();

  /** Conditions now raised (for tests and the tray's own display). */
  activeConditions(): NotificationCondition[] {
    return [...this.active].sort();
  }

  update(c: ConditionSnapshot): DesktopNotification[] {
    const out: DesktopNotification[] = [];

    if (c.serviceUnavailable !== undefined)
      this.track('service_unavailable', c.serviceUnavailable !== null, out, () => ({
        title: 'Carrier screening is degraded',
        body: c.serviceUnavailable ?? '',
        command: 'open-dashboard',
        urgency: 'critical',
      }));

    if (c.quotaExhausted !== undefined) {
      this.track('quota_exhausted', c.quotaExhausted, out, () => ({
        title: 'Monthly quota used up',
        body: `No live lookups until ${formatResetUtc(c.quotaResetsAt ?? null)}. Cached scores are served; new carriers are held for review.`,
        command: 'open-quota',
        urgency: 'critical',
      }));
      // Exhausted says more than "low": count "low" as raised so it is not announced on the way out.
      if (c.quotaExhausted) this.active.add('quota_low');
    }
    if (c.quotaLow !== undefined && !c.quotaExhausted)
      this.track('quota_low', c.quotaLow, out, () => ({
        title: 'Quota running low',
        body:
          c.quotaRemaining !== null && c.quotaRemaining !== undefined
            ? `${plural(c.quotaRemaining, 'live lookup')} left this month (resets ${formatResetUtc(c.quotaResetsAt ?? null)}).`
            : 'The quota is into its reserve: only tender-time lookups spend it.',
        command: 'open-quota',
        urgency: 'normal',
      }));

    if (c.reviewsPending !== undefined)
      this.track('reviews_pending', c.reviewsPending > 0, out, () => ({
        title: 'Carrier waiting for review',
        body: `${plural(c.reviewsPending ?? 0, 'carrier')} on hold: a dispatcher decides before booking.`,
        command: 'open-desk',
        urgency: 'normal',
      }));
    return out;
  }

  private track(
    condition: NotificationCondition,
    on: boolean,
    out: DesktopNotification[],
    make: () => Omit<DesktopNotification, 'condition'>,
  ): void {
    if (on && !this.active.has(condition)) {
      this.active.add(condition);
      out.push({ condition, ...make() });
    } else if (!on) {
      this.active.delete(condition);
    }
  }
}
