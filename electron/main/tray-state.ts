import type { CarrierChange, DailyUsage } from '../../shared/screening.js';
import { formatCount, plural, problemsOf, quotaLine, queueLine, type StatusInput, type StatusProblem } from '../shared/status-problems.js';
import type { MenuItemModel, TrayIconState } from './ports.js';

export {
  QUOTA_WARN_SHARE,
  formatResetUtc,
  plural,
  quotaExhausted,
  quotaLow,
  quotaLine,
  queueLine,
  problemsOf,
} from '../shared/status-problems.js';

export interface TrayInput extends StatusInput {
  /** Unacknowledged carrier changes as last read (GET /changes?state=new); null or absent: not known. */
  changes?: readonly CarrierChange[] | null;
  /** Live lookups per day this month (GET /usage/daily), for the quota forecast; absent: not known. */
  usage?: DailyUsage | null;
  /** For the forecast (tests inject it). */
  now?: Date;
  /** Whether admin actions (Pause/Resume) are offered: false for a desk token. Absent: true. */
  canAdmin?: boolean;
  /** The app's version, shown at the foot of the menu. */
  appVersion?: string;
  /** Something the tray is doing for the user (an export's progress), shown under the headline. */
  activity?: string | null;
}

/** How many changes wait for a dispatcher; null when not known. */
export function changesWaiting(input: TrayInput): number | null {
  if (input.changes) return input.changes.filter((c) => c.state === 'new').length;
  return input.changesNew ?? null;
}

/**
 * From the worker's StatusReport and the connection state, everything the tray shows:
 * icon state, tooltip and context menu. Pure; rebuilt on every change.
 */

export interface TrayView {
  icon: TrayIconState;
  /** One line: what matters most right now. */
  headline: string;
  problems: StatusProblem[];
  tooltip: string;
  menu: MenuItemModel[];
}

export function computeTrayView(input: TrayInput): TrayView {
  const changes = changesWaiting(input);
  const problems = problemsOf({ ...input, changesNew: changes });
  const icon: TrayIconState = problems.some((p) => p.level === 'trouble') ? 'trouble' : problems.length > 0 ? 'attention' : 'ok';
  const s = input.status;
  const headline = problems[0]?.text ?? 'All clear';
  const env = s ? ` (${s.environment})` : '';

  const tooltipLines = [`Carrier Screen${env}`, ...(input.activity ? [input.activity] : []), ...problems.slice(0, 3).map((p) => p.text)];
  if (problems.length === 0 && s) tooltipLines.push(`All clear · ${quotaLine(s)}`);
  // Windows cuts tray tooltips at 127 characters.
  const tooltip = truncate(tooltipLines.join('\n'), 127);

  const online = input.connection === 'open' && s !== null;
  const menu: MenuItemModel[] = [{ kind: 'item', label: headline, enabled: false }];
  if (input.activity) menu.push({ kind: 'item', label: input.activity, enabled: false });
  menu.push({ kind: 'separator' });
  const pending = s?.reviews.pending ?? 0;
  menu.push({
    kind: 'item',
    label: s === null ? 'Review desk' : pending > 0 ? `Review desk: ${plural(pending, 'carrier')} pending` : 'Review desk: nothing pending',
    enabled: true,
    command: 'open-desk',
  });
  menu.push({
    kind: 'item',
    label:
      changes === null
        ? 'Changes'
        : changes > 0
          ? `Changes: ${plural(changes, 'carrier change')} to acknowledge`
          : 'Changes: none to acknowledge',
    enabled: true,
    command: 'open-changes',
  });
  menu.push({ kind: 'separator' });
  if (s !== null) {
    menu.push({ kind: 'item', label: queueLine(s), enabled: false });
    menu.push({ kind: 'item', label: quotaLine(s), enabled: false });
    if (s.rate_limit.per_minute !== null)
      menu.push({
        kind: 'item',
        label: `Rate limit: ${s.rate_limit.remaining === null ? '?' : formatCount(s.rate_limit.remaining)} of ${formatCount(s.rate_limit.per_minute)} left this minute`,
        enabled: false,
      });
    menu.push({ kind: 'separator' });
    // Pause/Resume need an admin token: a desk token is not offered what the worker would refuse.
    if (input.canAdmin !== false)
      menu.push(
        s.queue.paused
          ? { kind: 'item', label: 'Resume queue', enabled: online, command: 'resume-queue' }
          : { kind: 'item', label: 'Pause queue', enabled: online, command: 'pause-queue' },
      );
  }
  menu.push({ kind: 'item', label: 'Open dashboard', enabled: true, command: 'open-dashboard' });
  menu.push({ kind: 'item', label: 'Export audit CSV…', enabled: online && !input.activity, command: 'export-audit' });
  menu.push({ kind: 'item', label: 'Settings…', enabled: true, command: 'settings' });
  menu.push({ kind: 'separator' });
  if (input.appVersion) menu.push({ kind: 'item', label: `Carrier Screen ${input.appVersion}`, enabled: false });
  menu.push({ kind: 'item', label: 'Quit Carrier Screen', enabled: true, command: 'quit' });
  return { icon, headline, problems, tooltip, menu };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
