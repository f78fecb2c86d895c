import { accessSync, chmodSync, closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../../shared/config.js';

/**
 * The data directory holds the screenings, the intake token and the callback key: only the
 * worker's own user may read it, whatever the umask (docs/operations.md "Files").
 */

/** Create `dir` (and missing parents) with mode 0700; an existing directory is left as it is. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * The worker's own files' directory (SCREEN_DATA_DIR), made and found writable before anything is
 * started: otherwise the first token or secret written there ends the process with a stack trace,
 * and a service manager restarts it forever on a setting only a person can fix.
 */
export function ensureDataDir(dir: string): void {
  try {
    ensurePrivateDir(dir);
    accessSync(dir, constants.W_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigError(
      `${resolve(dir)} cannot be made or written by this user (${code}): give SCREEN_DATA_DIR a directory it owns, e.g. /var/lib/carrier-screen`,
      'SCREEN_DATA_DIR',
    );
  }
}

/** Mode 0600 for `path` when it exists and is ours to change (a umask cannot add bits to it). */
export function makePrivate(path: string): void {
  if (process.platform === 'win32') return;
  try {
    chmodSync(path, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Not there (no WAL yet), or another user's file: nothing to do, and not ours to refuse.
    if (code !== 'ENOENT' && code !== 'EPERM') throw e;
  }
}

/**
 * Create a missing file empty with mode 0600 before SQLite opens it: SQLite would make it 0644
 * less the umask, and its -wal and -shm files take the database file's mode.
 */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  makePrivate(path);
}

/** The database file and its WAL and shared-memory files, 0600. */
export function makeDatabasePrivate(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) makePrivate(file + suffix);
}
