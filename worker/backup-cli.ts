import { closeSync, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { recordWhere, type Config } from '../shared/config.js';
import { SECRET_FILES, copySecretFile, type SecretFile } from './intake/token-file.js';
import { checkCopy, usedBytes, vacuumInto } from './store/database-files.js';
import { createPrivateFile, makeDatabasePrivate } from './store/private-files.js';

/**
 * `carrier-screen backup <file>`: a consistent copy of the SQLite database while workers keep
 * writing. `VACUUM INTO` a temporary name beside the target (one read transaction: other
 * processes' writes never make it start over, as they do SQLite's online backup API, which never
 * finished on a 316 MB file at 5 req/s), then `PRAGMA integrity_check` on the copy, fsync, and a
 * rename to the final name; the temporary file is removed after any failure. The intake token
 * and callback secret files are copied beside it (`<file>.intake-token`, `<file>.callback-secret`,
 * mode 0600): `carrier-screen restore` puts all three back.
 */

type Out = (s: string) => void;

export interface BackupOptions {
  force?: boolean;
  out?: Out;
  /** Progress lines (default: stderr when it is a terminal, else none). */
  progress?: Out | null;
}

const PARTIAL = '.partial-';
const MB = 1024 * 1024;

/** `<file>.<secret name>`: where a secret file of a backup lives. */
export function secretBeside(backup: string, name: SecretFile): string {
  return `${backup}.${name}`;
}

export async function runBackup(config: Config, target: string, o: BackupOptions = {}): Promise<number> {
  const out = o.out ?? ((s: string) => process.stdout.write(s));
  const progress = o.progress === undefined ? (process.stderr.isTTY ? (s: string) => process.stderr.write(s) : null) : o.progress;
  const source = resolve(sqliteToCopy(config, 'backup'));
  const file = resolve(target);
  if (file === source) throw new Error('the backup file must not be the database itself');
  if (existsSync(file) && !o.force) throw new Error(`${file} exists: choose another name, or pass --force to replace it`);
  if (!existsSync(source)) throw new Error(`no database at ${source} (SCREEN_DB)`);
  const dir = dirname(file);
  if (!existsSync(dir)) throw new Error(`no directory ${dir} for the backup`);
  const swept = sweepStalePartials(file);
  for (const s of swept) out(`removed ${s}, left by a backup that was killed\n`);

  const started = Date.now();
  const tmp = `${file}${PARTIAL}${process.pid}`;
  const expected = usedBytes(source);
  const stopOnSignal = (): void => {
    removeCopy(tmp);
    process.stderr.write(`\ncarrier-screen backup: interrupted; removed ${tmp}\n`);
    process.exit(130);
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  let figures: { screenings: number; version: number };
  try {
    // Mode 0600 before the first page is written (VACUUM INTO takes an empty file): a backup is the whole database.
    createPrivateFile(tmp);
    await vacuumInto(source, tmp, (elapsed) => {
      const done = existsSync(tmp) ? statSync(tmp).size : 0;
      progress?.(`\rbacking up: ${(done / MB).toFixed(0)} of ~${(expected / MB).toFixed(0)} MB, ${(elapsed / 1000).toFixed(1)} s   `);
    });
    progress?.(`\rchecking the copy (integrity_check), ${((Date.now() - started) / 1000).toFixed(1)} s          `);
    figures = checkCopy(tmp);
    fsyncFile(tmp);
    makeDatabasePrivate(tmp);
    renameSync(tmp, file);
    fsyncFile(dir); // the rename itself survives a power cut
  } catch (e) {
    removeCopy(tmp);
    progress?.('\n');
    throw e;
  } finally {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
  }
  progress?.('\n');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  out(
    `backed up ${source} to ${file}: ${statSync(file).size} bytes, schema ${figures.version}, ${figures.screenings} screenings, integrity ok, ${seconds} s\n`,
  );
  for (const line of copySecrets(config, file)) out(`${line}\n`);
  return 0;
}

/** A temporary copy and what SQLite may have made beside it while writing it (its rollback journal). */
function removeCopy(path: string): void {
  for (const side of ['', '-journal', '-wal', '-shm']) rmSync(`${path}${side}`, { force: true });
}

/** fsync a file or a directory. */
export function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** `<file>.partial-<pid>` of a backup process that no longer runs (SIGKILL, power cut). */
function sweepStalePartials(file: string): string[] {
  const prefix = `${basename(file)}${PARTIAL}`;
  const swept: string[] = [];
  for (const name of readdirSync(dirname(file))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^\d+/.exec(name.slice(prefix.length))?.[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pidAlive(pid)) continue;
    rmSync(join(dirname(file), name), { force: true });
    swept.push(join(dirname(file), name));
  }
  return swept;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The SQLite file that backup and restore copy. A PostgreSQL record is PostgreSQL's to copy
 * (pg_dump, pg_restore): refused, saying so and what of the data dir goes with it.
 */
export function sqliteToCopy(config: Pick<Config, 'db' | 'dataDir'>, command: 'backup' | 'restore'): string {
  if (config.db.kind === 'sqlite') return config.db.path;
  const where = recordWhere(config.db);
  const dir = resolve(config.dataDir);
  const files = `the worker's own files in SCREEN_DATA_DIR (${dir}): ${SECRET_FILES.join(' and ')} (mode 0600; a value set in the environment instead, INTAKE_TOKEN or CALLBACK_SECRET, stays with the env file)`;
  throw new Error(
    command === 'backup'
      ? `SCREEN_DB is a PostgreSQL URL (${where}): carrier-screen backup copies a SQLite file. Back the PostgreSQL record up with pg_dump ` +
          `(e.g. pg_dump --format=custom --file=<file> <database>), and copy ${files} beside it`
      : `SCREEN_DB is a PostgreSQL URL (${where}): carrier-screen restore puts back a SQLite file. Restore the PostgreSQL record with pg_restore ` +
          `into an empty database with every start and worker stopped (e.g. pg_restore --dbname=<database> <file>), and put back ${files}`,
  );
}

/** Copy the secret files beside the backup; what was copied, or where the secret lives instead. */
function copySecrets(config: Config, backup: string): string[] {
  const dataDir = resolve(config.dataDir);
  const fromEnv: Record<SecretFile, string | undefined> = { 'intake-token': config.intakeToken, 'callback-secret': config.callbackSecret };
  const variable: Record<SecretFile, string> = { 'intake-token': 'INTAKE_TOKEN', 'callback-secret': 'CALLBACK_SECRET' };
  const lines: string[] = [];
  for (const name of SECRET_FILES) {
    const from = join(dataDir, name);
    const to = secretBeside(backup, name);
    if (copySecretFile(from, to)) lines.push(`copied ${from} to ${to} (mode 0600)`);
    else rmSync(to, { force: true }); // a stale one from an earlier backup under this name would be restored
    if (fromEnv[name] !== undefined)
      lines.push(
        `${variable[name]} is set in the environment (.env or /etc/carrier-screen/env): it is not in the backup; keep that file's value with it`,
      );
    else if (!existsSync(from)) lines.push(`no ${from}: nothing to copy (it is made at the first start)`);
  }
  return lines;
}
