import type { CarrierChange, DailyUsage, IntakeEvent, StatusReport } from '../../shared/screening.js';
import { IntakeError, type ConnectionState, type DeskBridge } from '../shared/bridge.js';
import { isCarrierChange } from '../shared/change-text.js';
import { NotificationGate, type GateOptions } from './notification-gate.js';
import { Notifier, conditionsFrom } from './notifier.js';
import type { MenuItemModel, TrayCommand, TrayPorts } from './ports.js';
import { computeTrayView, type TrayInput, type TrayView } from './tray-state.js';

/**
 * Keeps the tray in step with the worker: reads /status and the unacknowledged carrier
 * changes on start, on every event and on a slow poll (the /v1 reachability changes without
 * an event), rebuilds icon, tooltip and menu, raises notifications, and carries out menu
 * commands. No Electron here: the desktop is reached through TrayPorts.
 */

export interface TrayControllerOptions {
  bridge: DeskBridge;
  ports: TrayPorts;
  workerUrl: string;
  /** Status poll while nothing happens; 0 turns it off (tests). */
  pollMs?: number;
  /** How long "degraded" must last before it is announced (default 30 s). */
  degradedQuietMs?: number;
  onError?: (err: unknown) => void;
  /** Burst and rate limits of the toasts (tests shorten them); `show` is always ports.notify. */
  toasts?: Omit<GateOptions, 'show'>;
  /** The app's version, shown in the menu. */
  appVersion?: string;
}

export class TrayController {
  private status: StatusReport | null = null;
  private statusError: string | null = null;
  /** Unacknowledged changes; null until read, or when the worker has no /changes (older version). */
  private changes: CarrierChange[] | null = null;
  private usage: DailyUsage | null = null;
  private readonly notifier: Notifier;
  private readonly gate: NotificationGate;
  /** The token's role from GET /me; null: not known (a worker without /me, or not asked yet). */
  private role: string | null = null;
  /** The worker answered 403 to an admin action: offer none again for this token. */
  private adminRefused = false;
  private activity: string | null = null;
  private stopped = false;
  private unsubscribe: Array<() => void> = [];
  private poll: ReturnType<typeof setInterval> | undefined;
  private inFlight: Promise<void> | undefined;
  private again = false;
  private lastRendered = '';
  private view: TrayView | undefined;

  constructor(private readonly opts: TrayControllerOptions) {
    this.notifier = new Notifier(opts.degradedQuietMs === undefined ? {} : { quietMs: opts.degradedQuietMs });
    this.gate = new NotificationGate({ ...opts.toasts, show: (n) => opts.ports.notify(n) });
  }

  start(): Promise<void> {
    const { bridge } = this.opts;
    // Connection first: subscribing to events starts the stream, and its first state
    // ("connecting") must not be missed.
    this.unsubscribe.push(bridge.onConnectionChange((s) => this.onConnection(s)));
    this.unsubscribe.push(bridge.onEvent((e) => this.onEvent(e)));
    const pollMs = this.opts.pollMs ?? 30_000;
    if (pollMs > 0) this.poll = setInterval(() => void this.refresh(), pollMs);
    this.render();
    return Promise.all([this.refresh(), this.readRole()]).then(() => undefined);
  }

  stop(): void {
    // A read or an export still running must not paint over the next worker's tray.
    this.stopped = true;
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    if (this.poll !== undefined) clearInterval(this.poll);
    this.gate.clear();
  }

  /** An admin action (from the menu or the dashboard) failed: a 403 means this token may not. */
  noteAdminError(err: unknown): void {
    if (!(err instanceof IntakeError && err.status === 403) || this.adminRefused) return;
    this.adminRefused = true;
    this.render();
  }

  /** Show what the tray is doing for the user (an export's progress); null when done. */
  setActivity(text: string | null): void {
    this.activity = text;
    this.render();
  }

  /** Who the token is: a desk token is not offered Pause/Resume. */
  private async readRole(): Promise<void> {
    try {
      this.role = (await this.opts.bridge.whoAmI()).role;
      this.render();
    } catch {
      // No /me (an older worker) or unreachable: keep offering, and learn from a 403.
    }
  }

  /** The view as last shown (for tests and the e2e check). */
  current(): TrayView {
    return this.view ?? computeTrayView(this.input());
  }

  /** Re-read /status; calls that arrive while one is running fold into one more read. */
  refresh(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = (async () => {
      do {
        this.again = false;
        const [status, changes, usage] = await Promise.allSettled([
          this.opts.bridge.getStatus(),
          this.opts.bridge.listChanges('new'),
          this.opts.bridge.dailyUsage(),
        ]);
        // The forecast's daily figures; a failure keeps the last ones (the status read says what is wrong).
        if (usage.status === 'fulfilled') this.usage = usage.value;
        if (status.status === 'fulfilled') {
          this.status = status.value;
          this.statusError = null;
        } else {
          this.statusError = status.reason instanceof Error ? status.reason.message : String(status.reason);
        }
        if (changes.status === 'fulfilled') this.changes = changes.value;
        else if (changes.reason instanceof IntakeError && changes.reason.status === 404) this.changes = null;
        // Any other failure keeps the last list: the status read says what is wrong with the worker.
        this.render();
      } while (this.again);
    })().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  async run(command: TrayCommand): Promise<void> {
    const { ports, bridge } = this.opts;
    try {
      switch (command) {
        case 'open-desk':
          return ports.openWindow('desk');
        case 'open-queue':
        case 'open-dashboard':
          return ports.openWindow('queue');
        case 'open-quota':
          return ports.openWindow('quota');
        case 'open-changes':
          return ports.openWindow('changes');
        case 'settings':
          return ports.openWindow('settings');
        case 'quit':
          return ports.quit();
        case 'export-audit':
          return ports.exportAudit?.();
        case 'pause-queue':
          this.status = await bridge.pauseQueue();
          return this.render();
        case 'resume-queue':
          this.status = await bridge.resumeQueue();
          return this.render();
      }
    } catch (err) {
      if (command === 'pause-queue' || command === 'resume-queue') this.noteAdminError(err);
      this.opts.onError?.(err);
      await this.refresh();
    }
  }

  private onEvent(e: IntakeEvent): void {
    // A change is announced from the event itself, without waiting for the list read.
    if (e.event === 'carrier.changed' && isCarrierChange(e.data) && e.data.state === 'new') {
      const ch = e.data;
      if (!this.changes?.some((c) => c.id === ch.id)) {
        this.changes = [ch, ...(this.changes ?? [])];
        this.render();
      }
    } else if (e.event === 'change.acknowledged' && isCarrierChange(e.data) && this.changes) {
      const id = e.data.id;
      this.changes = this.changes.filter((c) => c.id !== id);
      this.render();
    }
    // Every event name we know changes something the tray counts; unknown ones may too.
    void this.refresh();
  }

  private onConnection(state: ConnectionState): void {
    this.render();
    if (state === 'open') {
      void this.refresh();
      if (this.role === null) void this.readRole();
    }
  }

  private input(): TrayInput {
    return {
      status: this.status,
      connection: this.opts.bridge.connectionState(),
      workerUrl: this.opts.workerUrl,
      statusError: this.statusError,
      changes: this.changes,
      usage: this.usage,
      activity: this.activity,
      canAdmin: this.role !== null ? this.role === 'admin' : !this.adminRefused,
      ...(this.opts.appVersion ? { appVersion: this.opts.appVersion } : {}),
    };
  }

  private render(): void {
    if (this.stopped) return;
    const input = this.input();
    const view = computeTrayView(input);
    this.view = view;
    const { ports } = this.opts;
    const key = JSON.stringify([view.icon, view.tooltip, view.menu]);
    if (key !== this.lastRendered) {
      // Only touch the OS tray when something changed: rebuilding an open menu makes it flicker.
      this.lastRendered = key;
      ports.setTrayIcon(view.icon);
      ports.setTooltip(view.tooltip);
      ports.setMenu(view.menu);
    }
    this.gate.offer(this.notifier.update(conditionsFrom(input)));
  }
}

/** The commands a menu offers (enabled ones only). */
export function menuCommands(menu: MenuItemModel[]): TrayCommand[] {
  return menu.flatMap((i) => (i.kind === 'item' && i.enabled && i.command ? [i.command] : []));
}
