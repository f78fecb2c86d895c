/**
 * What the tray logic asks of the desktop. The thin Electron main implements it with
 * Tray, Menu, Notification and BrowserWindow; tests implement it with plain recorders.
 */

export type TrayIconState = 'ok' | 'attention' | 'trouble';

/** Things a menu item or a notification can ask for. */
export type TrayCommand =
  | 'open-desk'
  | 'open-queue'
  | 'open-quota'
  | 'open-changes'
  | 'open-dashboard'
  | 'pause-queue'
  | 'resume-queue'
  | 'settings'
  | 'export-audit'
  | 'quit';

/** A context menu as plain data; main turns it into Menu.buildFromTemplate. */
export type MenuItemModel = { kind: 'item'; label: string; enabled: boolean; command?: TrayCommand } | { kind: 'separator' };

export interface DesktopNotification {
  /** The condition that raised it (one per condition start; per rise for reviews; per change for carrier_changed). */
  condition: NotificationCondition;
  /** carrier_changed: the change id (or ids, for a summary of several) it tells about. */
  changeIds?: string[];
  /** How many new things it tells about (new holds, changes): bursts are summed into one. */
  count?: number;
  /** reviews_pending: how many are on hold in all, as last seen. */
  total?: number;
  /** carrier_changed: one line per change, for a summary of several. */
  items?: string[];
  title: string;
  body: string;
  /** What clicking the notification does. */
  command: TrayCommand;
  urgency: 'normal' | 'critical';
}

export type NotificationCondition =
  'reviews_pending' | 'quota_low' | 'quota_exhausted' | 'quota_runs_out' | 'service_unavailable' | 'carrier_changed';

/** Which dashboard view a window opens on. */
export type DashboardView = 'desk' | 'queue' | 'quota' | 'changes' | 'decisions' | 'blocks' | 'settings';
export const DASHBOARD_VIEWS: readonly DashboardView[] = ['desk', 'queue', 'quota', 'changes', 'decisions', 'blocks', 'settings'];

export interface TrayPorts {
  setTrayIcon(state: TrayIconState): void;
  setTooltip(text: string): void;
  setMenu(items: MenuItemModel[]): void;
  notify(n: DesktopNotification): void;
  /** Show the dashboard (create it or bring it to front) on a view. */
  openWindow(view: DashboardView): void;
  /** Ask where to save the audit CSV and stream it there (main: a save dialog). */
  exportAudit?(): void;
  quit(): void;
}
