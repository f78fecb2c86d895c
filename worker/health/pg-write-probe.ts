import type { PgStore } from '../store/pg/pg-store.js';
import { REFUSAL_MEMORY_MS, type WriteProbe } from './sqlite-write-probe.js';

/**
 * /healthz's write probe on PostgreSQL: the twin of sqlite-write-probe.ts. Free space is the
 * server's to watch (its disk is not this host's), so two checks: a real committed write, and
 * whether any store write was refused lately (until one succeeds again, or for a minute).
 */
export async function probePgWrite(store: Pick<PgStore, 'probeCommit' | 'lastRefusal'>, now = Date.now()): Promise<WriteProbe> {
  // Another session's lock is load, not a broken database: count it as writable, as SQLite's busy.
  const code = await store.probeCommit(new Date(now).toISOString());
  if (code !== undefined && code !== 'db_busy') return { writable: false, reason: code };
  const refused = store.lastRefusal();
  if (refused && now - refused.at < REFUSAL_MEMORY_MS) return { writable: false, reason: refused.code };
  return { writable: true };
}
