import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../store/types.js';
import { lastRefusalOf, probeCommit } from '../store/write-probe.js';

/**
 * /healthz's SQLite write probe. A read says nothing about writes, so three checks:
 * - free space on the database's file system (a full disk);
 * - a real committed write (a read-only file or directory, a locked or broken disk);
 * - whether any store write was refused lately (a file-size limit or a disk that still has
 *   room for the probe's one page but not for real work): until a store write succeeds again,
 *   or for a minute.
 */

/** Below this much free space, writes are about to be refused. */
export const MIN_FREE_BYTES = 1024 * 1024;
/** A refused write keeps the store "not writable" this long, unless it recurs. */
export const REFUSAL_MEMORY_MS = 60_000;

export type WriteProbe = { writable: true } | { writable: false; reason: string };

export function probeSqliteWrite(store: Store, now = Date.now()): WriteProbe {
  if (store.path !== ':memory:') {
    try {
      const fs = statfsSync(dirname(store.path));
      if (fs.bavail * fs.bsize < MIN_FREE_BYTES) return { writable: false, reason: 'sqlite_full' };
    } catch {
      // statfs unsupported here: the write below still tells.
    }
  }
  // Another process's write lock is normal under load, not a disk problem: wait briefly, then
  // count it as writable rather than hold /healthz for the full busy timeout.
  const code = probeCommit(store, new Date(now).toISOString());
  if (code !== undefined && code !== 'sqlite_busy') return { writable: false, reason: code };
  const refused = lastRefusalOf(store);
  if (refused && now - refused.at < REFUSAL_MEMORY_MS) return { writable: false, reason: refused.code };
  return { writable: true };
}
