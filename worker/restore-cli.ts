import { copyFileSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../shared/config.js';
import { fsyncFile, secretBeside, sqliteToCopy } from './backup-cli.js';
import { SECRET_FILES, copySecretFile } from './intake/token-file.js';
import { lockExclusive, readBackupFacts, type ExclusiveLock } from './store/database-files.js';
import { latestVersion } from './store/migrations.js';
import { ensurePrivateDir } from './store/private-files.js';

/**
 * `carrier-screen restore <file>`: put a backup (`carrier-screen backup`) back at SCREEN_DB with
 * the intake token and callback secret saved beside it.
 *
 * It refuses while any process has the database open. How we know: SQLite itself. Every
 * `start` and `worker` keeps its connection open for its whole life, and an open WAL-mode
 * connection holds a shared lock on the database file; a connection in
 * `locking_mode=EXCLUSIVE` cannot take its exclusive lock while one does (SQLITE_BUSY). That
 * covers every process on this host whatever started it (a second unit, a shell, the sqlite3
 * tool), needs no pid file that a crash leaves stale, and the lock is held until the new file is
 * in place, so a worker starting meanwhile waits and then opens the restored file.
 *
 * What it replaced is kept beside it as `<name>.replaced-<time>` (delete it once the restore is
 * checked).
 */

type Out = (s: string) => void;

export class RestoreRefusedError extends Error {
  override readonly name = 'RestoreRefusedError';
}

export function runRestore(config: Config, from: string, out: Out = (s) => process.stdout.write(s)): number {
  const target = resolve(sqliteToCopy(config, 'restore'));
  const backup = resolve(from);
  if (backup === target) throw new RestoreRefusedError('the backup file is the database itself');
  if (!existsSync(backup)) throw new RestoreRefusedError(`no backup at ${backup}`);
  const figures = checkBackup(backup);
  const dbDir = dirname(target);
  const dataDir = resolve(config.dataDir);
  // A new host's directories: 0700 like the ones `start` makes (the data dir will hold the token and secret).
  ensurePrivateDir(dbDir);
  ensurePrivateDir(dataDir);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const replaced: string[] = [];

  const lock = existsSync(target) ? lockOut(target) : undefined;
  try {
    const tmp = `${target}.restoring-${process.pid}`;
    try {
      copyFileSync(backup, tmp);
      fsyncFile(tmp);
      if (lock) {
        renameSync(target, `${target}.replaced-${stamp}`);
        replaced.push(`${target}.replaced-${stamp}`);
      }
      // A -shm left by a killed process belongs to the old file; the new one has no WAL yet.
      for (const side of ['-wal', '-shm']) rmSync(`${target}${side}`, { force: true });
      renameSync(tmp, target);
      fsyncFile(dbDir);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  } finally {
    lock?.release();
  }

  const lines = [
    `restored ${backup} to ${target}: schema ${figures.version}${figures.version < latestVersion() ? ` (migrated to ${latestVersion()} at the next start)` : ''}, ${figures.screenings} screenings, integrity ok`,
  ];
  for (const name of SECRET_FILES) {
    const saved = secretBeside(backup, name);
    const live = join(dataDir, name);
    if (!existsSync(saved)) {
      lines.push(
        `no ${saved}: ${live} is left as it is${existsSync(live) ? '' : ' (none; a new one is made at start unless the environment sets it)'}`,
      );
      continue;
    }
    if (existsSync(live) && !readFileSync(live).equals(readFileSync(saved))) {
      renameSync(live, `${live}.replaced-${stamp}`);
      replaced.push(`${live}.replaced-${stamp}`);
    }
    copySecretFile(saved, live);
    lines.push(`restored ${live} (mode 0600) from ${saved}`);
  }
  if (replaced.length > 0) lines.push(`kept what it replaced: ${replaced.join(', ')} (delete once the restore is checked)`);
  lines.push('start the service now (systemctl start carrier-screen)');
  out(`${lines.join('\n')}\n`);
  return 0;
}

/** Integrity and schema version of the backup; refuses a newer schema or a file that is not ours. */
function checkBackup(path: string): { version: number; screenings: number } {
  const f = readBackupFacts(path);
  if (f.kind === 'unopenable') throw new RestoreRefusedError(`cannot open ${path}: ${f.message}`);
  if (f.kind === 'unreadable') throw new RestoreRefusedError(`${path} is not a readable SQLite database: ${f.message}`);
  const { version, problems, screenings } = f;
  if (problems.length > 0) throw new RestoreRefusedError(`${path} failed its integrity check: ${problems.slice(0, 5).join('; ')}`);
  if (version > latestVersion())
    throw new RestoreRefusedError(
      `${path} has schema version ${version}, newer than this program knows (${latestVersion()}): restore it with the carrier-screen version that made it`,
    );
  if (version === 0 || screenings === null)
    throw new RestoreRefusedError(`${path} is not a carrier-screen database (no schema version or no screenings table)`);
  return { version, screenings };
}

/**
 * Take the database for ourselves, or refuse because a process has it open (see above). The
 * returned lock holds until released; its file is made whole first (WAL checkpointed and
 * removed) so nothing of it lingers beside the restored file.
 */
function lockOut(path: string): ExclusiveLock {
  const lock = lockExclusive(path);
  if (lock === 'busy')
    throw new RestoreRefusedError(
      `${path} is open in another process (a carrier-screen start or worker, or another program): stop every one first (systemctl stop carrier-screen), then restore`,
    );
  return lock;
}
