import type { DeskSettingsInput } from '../shared/bridge.js';
import type { TraySettings } from './settings.js';

/**
 * The tray's connection to one worker, and what Settings → "Save and connect" does to it.
 * Rules that live here: Save always reconnects (re-pasting the same token after the worker
 * refused it must try again); a different worker drops everything shown of the old one
 * (the dashboard is reloaded, the tray state rebuilt); start at login is touched only when the
 * user changes it, never at launch. No Electron here: main.ts passes the ports.
 */

/** What the session holds while connected; main's bridge and controller. */
export interface Connection {
  close(): void;
}

export interface SessionPorts<C extends Connection> {
  /** Make the bridge and the tray controller for these settings and start them. */
  open(workerUrl: string, token: string): C;
  /** No token: show "not set up" in the tray. */
  showUnconfigured(): void;
  /** Drop what the dashboard shows of the previous worker (main reloads the window). */
  resetDashboard(): void;
  /** The user changed "start at login". */
  setOpenAtLogin(open: boolean): void;
  save(input: DeskSettingsInput): Promise<TraySettings>;
}

export class TraySession<C extends Connection> {
  private settings: TraySettings | null = null;
  private conn: C | null = null;

  constructor(private readonly ports: SessionPorts<C>) {}

  /** At launch, with the loaded settings: connect; the login item is left as the user (or OS) has it. */
  start(s: TraySettings): void {
    this.settings = s;
    this.connect();
  }

  current(): { settings: TraySettings | null; connection: C | null } {
    return { settings: this.settings, connection: this.conn };
  }

  /** Settings → Save and connect. Throws (SettingsError) before changing anything on bad input. */
  async save(input: DeskSettingsInput): Promise<TraySettings> {
    const before = this.settings;
    const after = await this.ports.save(input);
    this.settings = after;
    if (before === null || before.openAtLogin !== after.openAtLogin) this.ports.setOpenAtLogin(after.openAtLogin);
    if (before !== null && !sameWorker(before.workerUrl, after.workerUrl)) this.ports.resetDashboard();
    // Always: the same token may be accepted now (re-enabled), and the screen says "Connecting…".
    this.connect();
    return after;
  }

  stop(): void {
    this.conn?.close();
    this.conn = null;
  }

  private connect(): void {
    this.stop();
    const s = this.settings;
    if (s === null || s.token === null) return this.ports.showUnconfigured();
    this.conn = this.ports.open(s.workerUrl, s.token);
  }
}

function sameWorker(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
