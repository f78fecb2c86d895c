/**
 * Decisions of the app's life on each desktop, without Electron: main.ts asks these and does
 * what they say (app.dock, dialogs, webContents.reload, a notification).
 */

/** macOS: a Dock icon and a Cmd-Tab entry while a window is open, none otherwise (LSUIElement). */
export function dockWanted(platform: string, windowOpen: boolean): 'show' | 'hide' | null {
  if (platform !== 'darwin') return null;
  return windowOpen ? 'show' : 'hide';
}

/**
 * Quitting. The tray's own "Quit Carrier Screen" quits. Anything else (Cmd-Q, the Dock's Quit)
 * on macOS asks first — the tray would stop watching without a word — and "Keep running" hides
 * the window instead. Logging out or an update (the OS asking) quits without asking.
 */
export type QuitAnswer = 'quit' | 'keep';
export function onQuitRequest(o: { platform: string; fromTray: boolean; systemShutdown: boolean; ask: () => QuitAnswer }): 'quit' | 'hide' {
  if (o.fromTray || o.systemShutdown || o.platform !== 'darwin') return 'quit';
  return o.ask() === 'quit' ? 'quit' : 'hide';
}

export const QUIT_QUESTION = {
  message: 'Quit Carrier Screen?',
  detail:
    'The menu bar icon goes too, and you will not be told about carriers waiting for review. "Keep running" closes the window and stays in the menu bar.',
  buttons: ['Keep running', 'Quit'] as const,
};

/**
 * A renderer crash: reload and say so, unless it keeps crashing (then a loop of reloads would
 * hide the problem): more than `maxPerWindow` crashes in `windowMs` leaves the window closed.
 */
export class CrashRecovery {
  private readonly crashes: number[] = [];

  constructor(private readonly o: { now?: () => number; windowMs?: number; maxPerWindow?: number } = {}) {}

  onGone(reason: string): { action: 'reload' | 'close' | 'none'; message: string } {
    if (reason === 'clean-exit') return { action: 'none', message: '' };
    const now = (this.o.now ?? Date.now)();
    const windowMs = this.o.windowMs ?? 60_000;
    this.crashes.push(now);
    while (this.crashes.length > 0 && now - this.crashes[0]! > windowMs) this.crashes.shift();
    if (this.crashes.length > (this.o.maxPerWindow ?? 3))
      return {
        action: 'close',
        message: `The dashboard crashed ${this.crashes.length} times in a minute (${reason}) and was closed. The tray keeps watching; the log file has details.`,
      };
    return {
      action: 'reload',
      message: `The dashboard stopped (${reason}) and was reloaded. Nothing was lost: decisions are kept by the worker.`,
    };
  }
}

/**
 * The first start on a system: the icon may be hidden (Windows 11's overflow, GNOME without the
 * AppIndicator extension), so say once where the app is.
 */
export function firstRunHint(platform: string): { title: string; body: string } {
  const where =
    platform === 'darwin'
      ? 'Its icon is in the menu bar, at the top right.'
      : platform === 'win32'
        ? 'Its icon is in the notification area; if you do not see it, click ^ beside the clock, and drag it out to keep it visible.'
        : 'Its icon is in the system tray. On GNOME (Ubuntu) the tray needs the AppIndicator extension, which Ubuntu has on by default.';
  return { title: 'Carrier Screen is running', body: `${where} Open the dashboard from there, or start the app again.` };
}

export interface MarkerPorts {
  exists(path: string): boolean;
  write(path: string): void;
}

/** True the first time it is asked for this marker file (one per profile and platform). */
export function firstTime(marker: string, ports: MarkerPorts): boolean {
  if (ports.exists(marker)) return false;
  ports.write(marker);
  return true;
}
