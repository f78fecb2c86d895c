import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../shared/config.js';
import { createPrivateFile, makeDatabasePrivate } from './store/private-files.js';

/**
 * `carrier-screen backup <file>`: a consistent copy of the SQLite database while workers keep
 * writing (SQLite's online backup API through better-sqlite3: page by page, restarting when a
 * page it copied changes), checked with `PRAGMA integrity_check` before it is called done.
 */
export async function runBackup(config: Config, target: string, o: { force?: boolean; out?: (s: string) => void } = {}): Promise<number> {
  const out = o.out ?? ((s: string) => process.stdout.write(s));
  const file = resolve(target);
  if (file === resolve(config.dbPath)) throw new Error('the backup file must not be the database itself');
  if (existsSync(file) && !o.force) throw new Error(`${file} exists: choose another name, or pass --force to replace it`);
  if (!existsSync(config.dbPath)) throw new Error(`no database at ${resolve(config.dbPath)} (SCREEN_DB)`);
  const db = new Database(config.dbPath, { readonly: true, fileMustExist: true });
  try {
    // Mode 0600 before the first page is written: a backup is the whole database.
    createPrivateFile(file);
    await db.backup(file);
  } finally {
    db.close();
  }
  makeDatabasePrivate(file);
  const copy = new Database(file, { readonly: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy at ${file} failed its integrity check: ${String(check)}`);
    const screenings = (copy.prepare('SELECT COUNT(*) AS n FROM screenings').get() as { n: number }).n;
    out(`backed up ${resolve(config.dbPath)} to ${file}: ${statSync(file).size} bytes, ${screenings} screenings, integrity ok\n`);
  } finally {
    copy.close();
  }
  return 0;
}
