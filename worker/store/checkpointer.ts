import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Keeps SQLite's WAL checkpoints off the event loop. A checkpoint copies the WAL into the
 * database file and fsyncs it (about 10 ms on our machines); SQLite's automatic one runs inside
 * whichever commit crosses the threshold, so every request in flight waits for it. Here a thread
 * with its own connection checkpoints every `everyMs` (PASSIVE: it never blocks a writer or a
 * reader), and the store raises its automatic threshold to a backstop in case the thread stops.
 */

export interface Checkpointer {
  close(): void;
}

/** Pages the main connection lets the WAL grow to before it checkpoints itself (~80 MB). */
export const BACKSTOP_CHECKPOINT_PAGES = 20_000;

// A CommonJS script: a worker started from a string runs as one, with require.
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.path, { fileMustExist: true, timeout: 5000 });
} catch {
  process.exit(0); // the store's own checkpoints take over
}
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy, full disk, read-only: the next tick (or the backstop) catches up
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  process.exit(0);
});
`;

export function startCheckpointer(path: string, everyMs = 1_000): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, { eval: true, workerData: { path, everyMs, driver } });
  worker.unref(); // never what keeps the process alive
  worker.on('error', () => {}); // the backstop covers a thread that died
  let closed = false;
  return {
    close() {
      if (closed) return;
      closed = true;
      worker.postMessage('close');
    },
  };
}
