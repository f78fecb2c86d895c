import Database from 'better-sqlite3';
import { StoreError, type StoreErrorCode } from './store-error.js';

/** SQLite's and the file system's errors, as the store's own (store-error.ts). */
const FS_CODES: Record<string, [StoreErrorCode, string]> = {
  EACCES: ['sqlite_cantopen', 'permission denied'],
  EPERM: ['sqlite_cantopen', 'permission denied'],
  EROFS: ['sqlite_readonly', 'the file system is read-only'],
  ENOSPC: ['sqlite_full', 'the disk is full'],
  ENOTDIR: ['sqlite_cantopen', 'a parent of the path is not a directory'],
  EEXIST: ['sqlite_cantopen', 'a parent of the path is not a directory'],
};

function classify(sqliteCode: string): [StoreErrorCode, string] {
  if (sqliteCode === 'SQLITE_READONLY_DBMOVED')
    return ['sqlite_readonly', 'the database file was moved or deleted while open; writes are refused'];
  if (sqliteCode.startsWith('SQLITE_READONLY')) return ['sqlite_readonly', 'the database is read-only; cannot write'];
  if (sqliteCode === 'SQLITE_FULL') return ['sqlite_full', 'the database or disk is full'];
  if (sqliteCode.startsWith('SQLITE_CORRUPT') || sqliteCode === 'SQLITE_NOTADB')
    return ['sqlite_corrupt', 'the file is not a valid database or is corrupt'];
  if (sqliteCode.startsWith('SQLITE_BUSY') || sqliteCode.startsWith('SQLITE_LOCKED'))
    return ['sqlite_busy', 'the database is locked by another process; try again'];
  if (sqliteCode.startsWith('SQLITE_CANTOPEN') || sqliteCode === 'SQLITE_PERM' || sqliteCode === 'SQLITE_AUTH')
    return ['sqlite_cantopen', 'the database file cannot be opened'];
  if (sqliteCode.startsWith('SQLITE_IOERR')) return ['sqlite_ioerr', 'a disk I/O error occurred'];
  if (sqliteCode.startsWith('SQLITE_CONSTRAINT')) return ['sqlite_constraint', 'a uniqueness or integrity rule was violated'];
  return ['sqlite_error', 'the database reported an error'];
}

/**
 * Turn a SQLite or file-system error into a StoreError naming `path`. Anything else (our own
 * NotFoundError, ReviewConflictError, StoreArgumentError, StoreError) passes through.
 */
export function toStoreError(err: unknown, path: string): unknown {
  if (err instanceof StoreError) return err;
  if (err instanceof Database.SqliteError) {
    const [code, what] = classify(err.code);
    return new StoreError(code, `SQLite store ${path}: ${what} (${err.code})`, err.code);
  }
  const fsCode = (err as NodeJS.ErrnoException | null)?.code;
  if (err instanceof Error && typeof fsCode === 'string' && fsCode in FS_CODES) {
    const [code, what] = FS_CODES[fsCode]!;
    return new StoreError(code, `SQLite store ${path}: ${what} (${fsCode})`, fsCode);
  }
  return err;
}

/** An error SQLite itself raised (not yet turned into a StoreError): for modules outside store/ that must tell one apart. */
export function isSqliteError(err: unknown): boolean {
  return err instanceof Database.SqliteError;
}
