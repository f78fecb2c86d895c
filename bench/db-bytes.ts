import Database from 'better-sqlite3';

/**
 * Bytes a worker's SQLite database holds in use (pages not on the free list), read through a
 * read-only connection, WAL included: what each screening costs on disk, before any pruning.
 */
export function dbUsedBytes(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const pages = db.pragma('page_count', { simple: true }) as number;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    return (pages - free) * (db.pragma('page_size', { simple: true }) as number);
  } finally {
    db.close();
  }
}
