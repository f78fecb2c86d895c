import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The tray's log file (in the app's logs folder, app.getPath('logs')): one line per entry,
 * rotated by size so it never fills the disk: tray.log → tray.log.1 → … → tray.log.<keep>,
 * the oldest dropped. Synchronous appends: a few lines a minute, and nothing is lost at a crash.
 */

export interface RotatingLogOptions {
  maxBytes?: number;
  keep?: number;
  now?: () => Date;
}

export class RotatingLog {
  private size: number;
  private readonly maxBytes: number;
  private readonly keep: number;

  constructor(
    readonly file: string,
    private readonly o: RotatingLogOptions = {},
  ) {
    this.maxBytes = o.maxBytes ?? 1_000_000;
    this.keep = o.keep ?? 3;
    mkdirSync(dirname(file), { recursive: true });
    try {
      this.size = statSync(file).size;
    } catch {
      this.size = 0;
    }
  }

  info(message: string): void {
    this.write('info', message);
  }

  error(message: string, err?: unknown): void {
    this.write('error', err === undefined ? message : `${message}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }

  private write(level: string, message: string): void {
    const line = `${(this.o.now ?? (() => new Date()))().toISOString()} ${level} ${message.replace(/\r?\n/g, '\n    ')}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    try {
      appendFileSync(this.file, line, { mode: 0o600 });
      this.size += bytes;
    } catch {
      // A log that cannot be written must not take the tray down.
    }
  }

  private rotate(): void {
    try {
      rmSync(`${this.file}.${this.keep}`, { force: true });
      for (let i = this.keep - 1; i >= 1; i--) {
        try {
          renameSync(`${this.file}.${i}`, `${this.file}.${i + 1}`);
        } catch {
          /* that generation does not exist yet */
        }
      }
      renameSync(this.file, `${this.file}.1`);
    } catch {
      /* keep appending to the current file */
    }
    this.size = 0;
  }
}
