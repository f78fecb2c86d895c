import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * The database file as a whole, for `carrier-screen backup` and `restore` (worker/backup-cli.ts,
 * worker/restore-cli.ts keep the commands, their files and their words): what SQLite is asked of
 * a file that no Store has open. Plain values in and out; no connection leaves this module.
 */

/** Bytes of pages in use: what VACUUM INTO will write, near enough for a progress line. */
export function usedBytes(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const pages = (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
    return pages * (db.pragma('page_size', { simple: true }) as number);
  } finally {
    db.close();
  }
}

/**
 * `VACUUM INTO target` in a worker thread (vacuum-into-thread.ts), `tick` called every 250 ms
 * with the time so far; rejects saying what SQLite said.
 */
export function vacuumInto(source: string, target: string, tick: (elapsedMs: number) => void): Promise<void> {
  const started = Date.now();
  const worker = new Worker(new URL('./vacuum-into-thread.js', import.meta.url), { workerData: { source, target, busyTimeoutMs: 30_000 } });
  const timer = setInterval(() => tick(Date.now() - started), 250);
  return new Promise<void>((resolveDone, reject) => {
    worker.once('message', (m: { ok: boolean; code?: string | null; message?: string }) => {
      if (m.ok) resolveDone();
      else reject(new Error(`VACUUM INTO ${target} failed: ${m.message ?? 'error'}${m.code ? ` (${m.code})` : ''}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the copying thread stopped (exit ${code})`)));
  }).finally(() => {
    clearInterval(timer);
    void worker.terminate();
  });
}

/** A fresh copy's integrity check; its screenings and schema version when it passes (throws otherwise). */
export function checkCopy(path: string): { screenings: number; version: number } {
  const copy = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = copy.pragma('integrity_check') as Array<{ integrity_check: string }>;
    const problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
    if (problems.length > 0) throw new Error(`the copy failed its integrity check: ${problems.slice(0, 5).join('; ')}`);
    return {
      screenings: (copy.prepare('SELECT COUNT(*) AS n FROM screenings').get() as { n: number }).n,
      version: copy.pragma('user_version', { simple: true }) as number,
    };
  } finally {
    copy.close();
  }
}

/**
 * What a backup file is, read-only: it cannot be opened, is not a readable database, or its
 * schema version, integrity problems and screenings (null without a screenings table; not
 * counted when the integrity check found problems).
 */
export type BackupFacts =
  | { kind: 'unopenable'; message: string }
  | { kind: 'unreadable'; message: string }
  | { kind: 'read'; version: number; problems: string[]; screenings: number | null };

export function readBackupFacts(path: string): BackupFacts {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    return { kind: 'unopenable', message: (e as Error).message };
  }
  try {
    let version: number;
    let problems: string[];
    try {
      version = db.pragma('user_version', { simple: true }) as number;
      problems = (db.pragma('integrity_check') as Array<{ integrity_check: string }>)
        .map((r) => r.integrity_check)
        .filter((r) => r !== 'ok');
    } catch (e) {
      return { kind: 'unreadable', message: (e as Error).message };
    }
    if (problems.length > 0) return { kind: 'read', version, problems, screenings: null };
    const hasScreenings = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'screenings'").get() !== undefined;
    const screenings = hasScreenings ? (db.prepare('SELECT COUNT(*) AS n FROM screenings').get() as { n: number }).n : null;
    return { kind: 'read', version, problems, screenings };
  } finally {
    db.close();
  }
}

/** The database held for this process alone until `release()`. */
export interface ExclusiveLock {
  release(): void;
}

/**
 * Take the database for ourselves, or 'busy' when a process has it open (an open WAL-mode
 * connection holds a shared lock; see worker/restore-cli.ts). The lock holds until released;
 * the file is made whole first (WAL checkpointed and removed) so nothing of it lingers beside a
 * file put in its place.
 */
export function lockExclusive(path: string): ExclusiveLock | 'busy' {
  const db = new Database(path, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    db.pragma('journal_mode = DELETE');
    return { release: () => db.close() };
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code?.startsWith('SQLITE_BUSY')) return 'busy';
    throw e;
  }
}
