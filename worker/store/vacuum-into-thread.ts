import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * `VACUUM INTO` off the main thread, so the backup command can show progress while SQLite
 * copies (better-sqlite3 is synchronous). One read transaction from start to end: writers in
 * other processes go on (WAL), and unlike the online backup API nothing makes it start over.
 */
const { source, target, busyTimeoutMs } = workerData as { source: string; target: string; busyTimeoutMs: number };
const db = new Database(source, { fileMustExist: true, timeout: busyTimeoutMs });
try {
  db.prepare('VACUUM INTO ?').run(target);
  parentPort!.postMessage({ ok: true });
} catch (e) {
  const err = e as { code?: string; message?: string };
  parentPort!.postMessage({ ok: false, code: err.code ?? null, message: err.message ?? String(e) });
} finally {
  db.close();
}
