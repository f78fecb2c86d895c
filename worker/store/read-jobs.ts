import type { RecordRepos } from './record.js';
import { recordOf } from './sqlite-record.js';
import type { Store } from './types.js';

/**
 * The heavy reads as jobs (issue 35), and the Reader that runs them. A job is a function of the
 * record (record.ts: either backend), exported from the module that owns its read
 * (`readJob(import.meta.url, 'name', fn)`), so every reader runs the same code, never a copy:
 * SQLite's reader pool (reader-pool.ts) imports that module by its URL in a thread and runs the
 * job on the record over the thread's read-only connection; a reader on the main thread
 * (record-reader.ts: PostgreSQL's, or a SQLite store without threads) runs it on the record it
 * was given.
 */

/** What a job is run on: the record's repositories, or a SQLite Store (read through its record, `recordOf`). */
export type JobSource = RecordRepos | Store;

export interface ReadJob<A, R> {
  readonly kind: 'read';
  /** import.meta.url of the module exporting the job under `name`. */
  readonly module: string;
  readonly name: string;
  readonly run: (source: JobSource, args: A) => Promise<R>;
}

/** Text chunks in order, as a stream job gives them. */
export type Chunks = Iterable<string> | AsyncIterable<string>;

export interface StreamJob<A> {
  readonly kind: 'stream';
  readonly module: string;
  readonly name: string;
  /** Text chunks in order (each a page or so), read through the record. */
  readonly run: (source: JobSource, args: A) => Chunks;
}

/** The record a job reads: a SQLite Store's own (one per store), or the record it is. */
function recordFrom(source: JobSource): RecordRepos {
  return 'screenings' in source ? source : recordOf(source);
}

/** A read a reader can run: export the returned value as `name` from the module at `module`. */
export function readJob<A, R>(module: string, name: string, fn: (record: RecordRepos, args: A) => R | PromiseLike<R>): ReadJob<A, R> {
  return { kind: 'read', module, name, run: async (source, args) => fn(recordFrom(source), args) };
}

export function streamJob<A>(module: string, name: string, fn: (record: RecordRepos, args: A) => Chunks): StreamJob<A> {
  return { kind: 'stream', module, name, run: (source, args) => fn(recordFrom(source), args) };
}

export interface Reader {
  /** Threads (0: jobs run on the main thread, on the record itself). */
  readonly threads: number;
  read<A, R>(job: ReadJob<A, R>, args: A): Promise<Awaited<R>>;
  /** JSON.stringify of the job's answer, as UTF-8 bytes (a response body as it is sent). */
  readJson<A>(job: ReadJob<A, unknown>, args: A): Promise<Buffer>;
  stream<A>(job: StreamJob<A>, args: A): AsyncIterable<Buffer>;
  /** Ends every thread; requests still open fail with StoreError 'store_closed'. */
  close(): Promise<void>;
}
