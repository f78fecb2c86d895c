import { Worker } from 'node:worker_threads';
import type { ReadJob, Reader, StreamJob } from './read-jobs.js';
import { inProcessReader } from './record-reader.js';
import { recordOf } from './sqlite-record.js';
import { StoreArgumentError, StoreError, NotFoundError } from './store-error.js';
import type { Store } from './types.js';

export { readJob, streamJob, type Chunks, type JobSource, type ReadJob, type Reader, type StreamJob } from './read-jobs.js';

/**
 * Heavy reads off the tender path (issue 35). better-sqlite3 is synchronous and `start` answers
 * tenders and runs the screening worker on one event loop, so a long read there stalls every
 * cache hit. The reader pool runs reads in `worker_threads`, each thread with its own read-only
 * connection to the same file (WAL: readers never wait for the writer, nor it for them).
 *
 * A read is a job (read-jobs.ts): a function of the record, exported from the module that owns
 * it (`readJob(import.meta.url, 'name', fn)`), so the thread runs the same code as the main thread
 * would, never a copy. The thread imports that module by its URL and calls the function on the
 * record over its read-only store (`recordOf`: no unit of work is ever open there, so each read
 * runs at once). PostgreSQL runs the same jobs on the main thread (record-reader.ts).
 * - `read(job, args)`: one answer; args and answer cross by structured clone.
 * - `readJson(job, args)`: the answer's JSON text, made in the thread (JSON.stringify of what the
 *   job returns) and handed over as bytes (transferred, not copied): a list page's response body.
 *   The main thread neither receives the rows nor serializes them; the route sends the bytes.
 * - `stream(job, args)`: a generator of text chunks (the audit CSV), read one chunk ahead of the
 *   consumer at most: the HTTP socket's backpressure reaches the SQLite reads.
 *
 * Read your writes: a write is acknowledged after its COMMIT (group-commit.ts answers after the
 * shared COMMIT), and each read on the thread begins its own read transaction when it runs, so a
 * read asked after an acknowledged write sees it.
 *
 * An in-memory store has no file to share: jobs run on the main connection, through its record
 * (record-reader.ts: the same code).
 * A thread that dies fails its requests with StoreError 'reader_failed' (503) and is replaced.
 */

export interface ReaderPoolOptions {
  /** Threads (default 2); 0 runs every job on the main connection. */
  size?: number;
  /** Threads started now rather than at a read (a server: its first heavy read does not wait for one, and its memory is there from the start). */
  warm?: number;
}

export const DEFAULT_READER_THREADS = 2;

/** What a thread sends back. */
type Answer = { id: number; ok: true; value?: unknown; chunk?: Uint8Array | null } | { id: number; ok: false; error: SentError };
type SentError =
  | { kind: 'argument'; message: string; param: string }
  | { kind: 'store'; code: StoreError['code']; message: string; detail: string | null }
  | { kind: 'not_found'; message: string }
  | { kind: 'other'; message: string };

function fromSent(e: SentError): Error {
  switch (e.kind) {
    case 'argument':
      return new StoreArgumentError(e.message, e.param);
    case 'store':
      return new StoreError(e.code, e.message, e.detail);
    case 'not_found':
      return new NotFoundError(e.message);
    default:
      return new Error(e.message);
  }
}

type Pending = { resolve: (a: Answer & { ok: true }) => void; reject: (e: unknown) => void };

class ReaderThread {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  #streams = 0;
  ended = false;
  /** Settles once the thread has loaded its modules and opened the file, or has ended. */
  readonly started: Promise<void>;

  constructor(path: string, onEnd: (t: ReaderThread, why: Error) => void) {
    // Not unref'd: a pool left open keeps its process alive, so a shutdown that forgets it shows.
    this.worker = startThread(path);
    let started!: () => void;
    this.started = new Promise((resolve) => (started = resolve));
    this.worker.on('message', (a: Answer | { started: true }) => {
      if ('started' in a) return void started();
      const p = this.pending.get(a.id);
      if (!p) return;
      this.pending.delete(a.id);
      if (a.ok) p.resolve(a);
      else p.reject(fromSent(a.error));
    });
    const end = (why: Error): void => {
      started();
      if (this.ended) return;
      this.ended = true;
      for (const p of this.pending.values()) p.reject(why);
      this.pending.clear();
      onEnd(this, why);
    };
    this.worker.on('error', (e) => end(new StoreError('reader_failed', `a reader thread failed: ${e.message}`)));
    this.worker.on('exit', (code) => end(new StoreError('reader_failed', `a reader thread ended (exit code ${code})`)));
  }

  get load(): number {
    return this.pending.size + this.#streams;
  }

  ask(id: number, msg: Record<string, unknown>): Promise<Answer & { ok: true }> {
    if (this.ended) return Promise.reject(new StoreError('reader_failed', 'the reader thread ended'));
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...msg });
    });
  }

  streamOpened(): void {
    this.#streams++;
  }

  streamClosed(): void {
    this.#streams--;
  }
}

/**
 * The thread: reader-thread.js beside this module. It gets none of the process's flags (an
 * --input-type, a --max-old-space-size: its limits are below) but its preloads (`--import`,
 * `--require`: a loader or an instrumentation the process runs under runs in its threads too).
 */
function startThread(path: string): Worker {
  return new Worker(new URL('./reader-thread.js', import.meta.url), {
    workerData: { path },
    // A thread holds a page or a chunk at a time: a small heap, so V8 collects it rather than
    // growing it while a year's export streams through (the process's RSS stays flat).
    resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 48 },
    execArgv: preloadsOf(process.execArgv),
  });
}

/** The preload flags of a command line (`--import x`, `--import=x`, `--require x`, `-r x`, `--require=x`). */
export function preloadsOf(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (a.startsWith('--import=') || a.startsWith('--require=')) out.push(a);
    else if ((a === '--import' || a === '--require' || a === '-r') && i + 1 < execArgv.length) out.push(a, execArgv[++i]!);
  }
  return out;
}

/**
 * The reader pool for `store` (a file): up to `size` threads, each started when a read finds the
 * others busy. On an
 * in-memory store, or with size 0, jobs run on the store's own connection.
 */
export function openReaderPool(store: Store, opts: ReaderPoolOptions = {}): Reader {
  const size = opts.size ?? DEFAULT_READER_THREADS;
  if (!Number.isInteger(size) || size < 0) throw new StoreArgumentError('reader threads must be a whole number of at least 0', 'size');
  if (store.path === ':memory:' || size === 0) return inProcessReader(recordOf(store));

  const threads: Array<ReaderThread | undefined> = new Array(size).fill(undefined);
  let nextId = 1;
  let closed = false;

  const replace = (t: ReaderThread): void => {
    const i = threads.indexOf(t);
    // Started again at the next read that needs it.
    if (i >= 0) threads[i] = undefined;
  };
  const pick = (): ReaderThread => {
    if (closed) throw new StoreError('store_closed', 'the reader pool is closed');
    // The least busy thread; a new one only when every running thread is busy (a thread costs
    // ~17 MiB of memory and its start-up, so a process that reads little keeps few).
    let best: ReaderThread | undefined;
    for (const t of threads) if (t && (!best || t.load < best.load)) best = t;
    if (best && best.load === 0) return best;
    const free = threads.indexOf(undefined);
    if (free < 0) return best!;
    return (threads[free] = new ReaderThread(store.path, replace));
  };

  for (let i = 0; i < Math.min(opts.warm ?? 0, size); i++) threads[i] = new ReaderThread(store.path, replace);

  return {
    threads: size,
    async read<A, R>(job: ReadJob<A, R>, args: A): Promise<Awaited<R>> {
      const a = await pick().ask(nextId++, { op: 'read', module: job.module, name: job.name, args });
      return a.value as Awaited<R>;
    },
    async readJson<A>(job: ReadJob<A, unknown>, args: A): Promise<Buffer> {
      const a = await pick().ask(nextId++, { op: 'json', module: job.module, name: job.name, args });
      const c = a.chunk!;
      return Buffer.from(c.buffer, c.byteOffset, c.byteLength);
    },
    stream<A>(job: StreamJob<A>, args: A): AsyncIterable<Buffer> {
      return {
        async *[Symbol.asyncIterator]() {
          const t = pick();
          const stream = nextId++;
          t.streamOpened();
          let done = false;
          try {
            // One chunk asked at a time, when the consumer wants the next: the socket's pace.
            for (let first = true; ; first = false) {
              const a = await t.ask(
                nextId++,
                first ? { op: 'next', stream, module: job.module, name: job.name, args } : { op: 'next', stream },
              );
              if (a.chunk === null || a.chunk === undefined) {
                done = true;
                return;
              }
              yield Buffer.from(a.chunk.buffer, a.chunk.byteOffset, a.chunk.byteLength);
            }
          } finally {
            t.streamClosed();
            // Ended early (the client went away): the thread drops its generator.
            if (!done && !t.ended) t.worker.postMessage({ op: 'cancel', stream });
          }
        },
      };
    },
    async close(): Promise<void> {
      closed = true;
      const live = threads.filter((t): t is ReaderThread => t !== undefined && !t.ended);
      threads.fill(undefined);
      await Promise.all(
        live.map(async (t) => {
          for (const p of t.pending.values()) p.reject(new StoreError('store_closed', 'the reader pool is closed'));
          t.pending.clear();
          t.ended = true;
          // Never while it is still loading (see reader-thread.ts); a thread stuck there is ended after 10 s.
          await Promise.race([t.started, new Promise((r) => setTimeout(r, 10_000).unref())]);
          await t.worker.terminate();
        }),
      );
    },
  };
}
