import type { CarrierChange, StatusReport } from '../../shared/screening.js';
import type { ConnectionState } from '../shared/bridge.js';
import { changeCarrierIds, changeCarrierName, changeReasonText, changeSummary, newKnockouts, tenderList } from '../shared/change-text.js';
import type { DesktopNotification, NotificationCondition, TrayCommand } from './ports.js';
import { forecastQuota, forecastSentence, forecastTone, type QuotaForecast } from '../shared/quota-forecast.js';
import { formatResetUtc, plural, quotaExhausted, quotaLow, type TrayInput } from './tray-state.js';

/**
 * Which desktop notifications to raise. One per condition: raised when the condition
 * starts, raised again only after it has cleared. Pending reviews are different: every rise
 * is news ("5 new carriers to review"); notification-gate.ts sums a burst of them into one. A condition we cannot observe right now
 * (the worker is unreachable, so its status is stale) keeps its last state: not knowing
 * is not the same as cleared. Carrier changes are different: one notification per change
 * id, ever (a change does not "clear and come back"; a new one has a new id).
 */

/** More new changes than this at once (e.g. the first look after a weekend): one summary instead of a flood. */
export const CHANGE_NOTES_AT_ONCE = 3;
/** Change ids remembered as told; old ones are forgotten first (they are acknowledged long since). */
const TOLD_CHANGES_KEPT = 5000;
/**
 * How long "degraded" must last before it is announced: a worker restarting for a few seconds
 * is not news. A refused token is announced at once (waiting will not fix it).
 */
export const DEGRADED_QUIET_MS = 30_000;

export interface ConditionSnapshot {
  /** undefined: unknown right now. */
  reviewsPending?: number;
  quotaLow?: boolean;
  quotaExhausted?: boolean;
  /** Why the service is unavailable, or null when it is fine. */
  serviceUnavailable?: string | null;
  /** What clicking that notification does (Settings for a refused token); default the dashboard. */
  serviceCommand?: TrayCommand;
  /** Announce at once, without the quiet period. */
  serviceUrgent?: boolean;
  /** For the texts. */
  quotaRemaining?: number | null;
  quotaResetsAt?: string | null;
  /** Unacknowledged carrier changes as just read; undefined: not known right now. */
  newChanges?: readonly CarrierChange[];
  /** The quota forecast at the recent pace; undefined: not known right now. */
  quotaForecast?: QuotaForecast;
}

/** What the notifier can observe from the tray's inputs. */
export function conditionsFrom(input: TrayInput): ConditionSnapshot {
  const out = statusConditions(input);
  // A list read while the stream is down may be old: announce only what is known now.
  if (input.changes && input.connection === 'open') out.newChanges = input.changes.filter((c) => c.state === 'new');
  return out;
}

function statusConditions(input: TrayInput): ConditionSnapshot {
  const out: ConditionSnapshot = {};
  const lost = lostWorker(input.connection, input.statusError ?? null, input.workerUrl);
  if (lost !== undefined) {
    out.serviceUnavailable = lost;
    if (input.connection === 'unauthorized') {
      out.serviceCommand = 'settings';
      out.serviceUrgent = true;
    }
  }
  const s: StatusReport | null = input.status;
  const fresh = s !== null && input.connection === 'open' && !input.statusError;
  if (fresh) {
    out.reviewsPending = s.reviews.pending;
    out.quotaLow = quotaLow(s);
    out.quotaExhausted = quotaExhausted(s);
    out.quotaRemaining = s.quota.remaining;
    out.quotaResetsAt = s.quota.resets_at;
    if (input.usage && s.quota.livemode)
      out.quotaForecast = forecastQuota({
        used: s.quota.used,
        remaining: s.quota.remaining,
        monthlyQuota: s.quota.monthly_quota,
        resetsAt: s.quota.resets_at,
        days: input.usage.days,
        now: input.now ?? new Date(),
      });
    if (s.service.key_rejected) out.serviceUnavailable = 'The /v1 service rejected the API key. Live lookups have stopped.';
    else if (!s.service.reachable)
      out.serviceUnavailable = `The /v1 scoring service is unreachable${s.service.last_error ? ` (${s.service.last_error})` : ''}. Screenings use cached scores or hold.`;
    else out.serviceUnavailable = null;
  }
  return out;
}

function lostWorker(connection: ConnectionState, statusError: string | null, url: string): string | null | undefined {
  if (connection === 'unauthorized') return `The worker at ${url} refused the tray token. Click to open Settings.`;
  if (connection === 'reconnecting' || statusError) return `The worker at ${url} is unreachable. The tray keeps retrying.`;
  return undefined; // connecting/open/closed/unconfigured: nothing to say from the connection alone
}

export class Notifier {
  private readonly active = new Set<NotificationCondition>();
  /** When "degraded" was first seen in its current run (for the quiet period). */
  private degradedSince: number | undefined;

  constructor(private readonly o: { quietMs?: number; now?: () => number } = {}) {}
  /** The pending-review count last known (the mark a rise is measured from). */
  private pendingSeen: number | undefined;
  /** Change ids already announced (insertion order: oldest first). */
  private readonly toldChanges = new Set<string>();

  /** Conditions now raised (for tests and the tray's own display). */
  activeConditions(): NotificationCondition[] {
    return [...this.active].sort();
  }

  update(c: ConditionSnapshot): DesktopNotification[] {
    const out: DesktopNotification[] = [];

    if (c.serviceUnavailable !== undefined) {
      const on = c.serviceUnavailable !== null;
      const now = (this.o.now ?? Date.now)();
      if (!on) this.degradedSince = undefined;
      else this.degradedSince ??= now;
      const quiet = c.serviceUrgent ? 0 : (this.o.quietMs ?? DEGRADED_QUIET_MS);
      // Raised once it has lasted the quiet period; cleared at once.
      if (!on || now - (this.degradedSince ?? now) >= quiet)
        this.track('service_unavailable', on, out, () => ({
          title: c.serviceCommand === 'settings' ? 'Carrier Screen cannot sign in to the worker' : 'Carrier screening is degraded',
          body: c.serviceUnavailable ?? '',
          command: c.serviceCommand ?? 'open-dashboard',
          urgency: 'critical',
        }));
    }

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

    // At the recent pace the quota runs out before the reset: once, until the pace calms down.
    const f = c.quotaForecast;
    if (f !== undefined && f.kind !== 'unknown' && !c.quotaExhausted)
      this.track('quota_runs_out', f.kind === 'runs_out', out, () => ({
        title: 'Quota runs out before the reset',
        body: forecastSentence(f, c.quotaResetsAt ?? ''),
        command: 'open-quota',
        urgency: forecastTone(f) === 'bad' ? 'critical' : 'normal',
      }));

    if (c.reviewsPending !== undefined) {
      // Every rise is news (1 → 40 is 39 new holds), not only the first; a drop lowers the mark,
      // so a hold after a decision is news again. Unknown (stale) counts leave the mark alone.
      const pending = c.reviewsPending;
      const rise = pending - (this.pendingSeen ?? 0);
      this.pendingSeen = pending;
      if (pending > 0) this.active.add('reviews_pending');
      else this.active.delete('reviews_pending');
      if (rise > 0) out.push(holdsNotification(rise, pending));
    }

    if (c.newChanges !== undefined) out.push(...this.changeNotes(c.newChanges));
    return out;
  }

  /** Whether this change was announced already (for tests). */
  hasTold(changeId: string): boolean {
    return this.toldChanges.has(changeId);
  }

  private changeNotes(changes: readonly CarrierChange[]): DesktopNotification[] {
    const fresh = changes.filter((ch) => !this.toldChanges.has(ch.id));
    for (const ch of fresh) this.toldChanges.add(ch.id);
    for (const id of this.toldChanges) {
      if (this.toldChanges.size <= TOLD_CHANGES_KEPT) break;
      this.toldChanges.delete(id);
    }
    if (fresh.length === 0) return [];
    if (fresh.length > CHANGE_NOTES_AT_ONCE)
      return [
        changesSummary(
          fresh.map((ch) => ch.id),
          fresh.map(changeLine),
          fresh.some((ch) => ch.after.action === 'block'),
        ),
      ];
    return fresh.map((ch) => changeNotification(ch));
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

/** "5 new carriers to review": `added` new holds, `pending` on hold in all ("… waiting" when all are new). */
export function holdsNotification(added: number, pending: number): DesktopNotification {
  return {
    condition: 'reviews_pending',
    count: added,
    total: pending,
    title: added >= pending ? `${plural(pending, 'carrier')} waiting for review` : `${plural(added, 'new carrier')} to review`,
    body: `${plural(pending, 'carrier')} on hold in all: a dispatcher decides before booking.`,
    command: 'open-desk',
    urgency: 'normal',
  };
}

/** One summary for several carrier changes (a burst, or the first look after a weekend). */
export function changesSummary(changeIds: string[], items: string[], critical: boolean): DesktopNotification {
  const shown = items.slice(0, CHANGE_NOTES_AT_ONCE);
  return {
    condition: 'carrier_changed',
    changeIds,
    count: changeIds.length,
    items,
    title: `${plural(changeIds.length, 'carrier change')} to acknowledge`,
    body: `${shown.join('; ')}${items.length > shown.length ? ` and ${items.length - shown.length} more` : ''}.`,
    command: 'open-changes',
    urgency: critical ? 'critical' : 'normal',
  };
}

/** "Carrier changed: Acme Freight approved → rejected", and in the body why, what now and which loads. */
export function changeNotification(ch: CarrierChange): DesktopNotification {
  const ko = newKnockouts(ch);
  const reasons = ch.reasons.map((r) => (r === 'new_knockout' && ko.length > 0 ? `new knockout ${ko.join(', ')}` : changeReasonText(r)));
  const ids = changeCarrierIds(ch);
  const tenders =
    ch.tenders.length > 0 ? `Used for ${ch.tenders.length === 1 ? 'tender' : 'tenders'} ${tenderList(ch)}.` : 'No recent tender used it.';
  const body = [ids ? `${ids}.` : '', reasons.length > 0 ? `${capitalise(reasons.join(', '))}.` : '', `Now: ${ch.after.action}.`, tenders]
    .filter((p) => p !== '')
    .join(' ');
  return {
    condition: 'carrier_changed',
    changeIds: [ch.id],
    count: 1,
    items: [changeLine(ch)],
    title: `Carrier changed: ${changeLine(ch)}`,
    body,
    command: 'open-changes',
    urgency: ch.after.action === 'block' ? 'critical' : 'normal',
  };
}

/** "Acme Freight approved → rejected": one change in one line. */
function changeLine(ch: CarrierChange): string {
  return `${changeCarrierName(ch)} ${changeSummary(ch)}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
