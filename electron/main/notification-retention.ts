/**
 * Holding shown notifications alive. Electron holds a Notification weakly: once collected, its
 * click handler is gone. Elsewhere a notification is let go on `close`; on Windows `close` also
 * comes when the toast times out into the Action Center, where the user may still click it,
 * so there it is kept until clicked (the oldest let go beyond a bound).
 */

export interface NoteHandle {
  on(event: 'click' | 'close' | 'failed', fn: () => void): void;
  show(): void;
}

/** Notifications the Action Center may still hold: Windows keeps about 20 per app. */
export const RETAINED_ON_WINDOWS = 20;

export class NotificationRetention {
  private readonly held = new Set<NoteHandle>();

  constructor(
    private readonly platform: string,
    private readonly bound = RETAINED_ON_WINDOWS,
  ) {}

  /** Show `note`; a click runs `onClick` whether or not the toast has timed out. */
  show(note: NoteHandle, onClick: () => void): void {
    this.held.add(note);
    for (const old of this.held) {
      if (this.held.size <= this.bound) break;
      this.held.delete(old);
    }
    const forget = (): void => void this.held.delete(note);
    note.on('click', () => {
      forget();
      onClick();
    });
    // Windows sends close on time-out: the toast lives on in the Action Center.
    note.on('close', () => {
      if (this.platform !== 'win32') forget();
    });
    note.on('failed', forget);
    note.show();
  }

  /** How many are held (for tests). */
  size(): number {
    return this.held.size;
  }

  has(note: NoteHandle): boolean {
    return this.held.has(note);
  }
}
