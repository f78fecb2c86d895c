import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { NotFoundError, StoreArgumentError, StoreError } from './store-error.js';
import { connectionOf, openStore } from './sqlite-store.js';
import type { ReadJob, StreamJob } from './read-jobs.js';
import type { RecordStore } from './record.js';
import { recordOf } from './sqlite-record.js';
import type { Store } from './types.js';

/**
 * One thread of the reader pool (reader-pool.ts): its own read-only connection to the store's
 * file, opened at the first job; runs the jobs the main thread names (a module URL and an
 * export), one message at a time, on the record over that connection (`recordOf`: no unit of
 * work is ever open here, so each of its reads runs at once). A stream job's generator is kept
 * between its chunks.
 */

const { path } = workerData as { path: string };
const port = parentPort!;

// Below the tender path: on Linux a thread has its own nice value (setpriority by thread id), so
// while the cores are busy the event loop that answers tenders runs first.
try {
  const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
  if (tid > 0) setPriority(tid, 10);
} catch {
  /* not Linux, or not allowed: the same reads at the same priority */
}

let store: Store | undefined;
/** SQLite's own default page cache (2 MB), not better-sqlite3's 16 MB: a thread's reads stream through the file; the OS caches it. */
const CACHE_KIB = 2_000;
function open(): Store {
  if (!store) {
    store = openStore(path, { readonly: true });
    connectionOf(store).pragma(`cache_size = -${CACHE_KIB}`);
  }
  return store;
}
/** The jobs' record: the read-only store's. */
const record = (): RecordStore => recordOf(open());
// Opened at once (a warm thread is ready for its first read); a failure here is told at the first job.
try {
  open();
} catch {
  /* the first job opens it again and answers with the error */
}
// Loaded: the pool may end this thread from now on (ended while it still loads better-sqlite3's
// native module, Node aborts the whole process: "napi_get_last_error_info").
port.postMessage({ started: true });
const modules = new Map<string, Promise<Record<string, unknown>>>();
const streams = new Map<number, Iterator<string> | AsyncIterator<string>>();
const encoder = new TextEncoder();

async function jobOf(module: string, name: string): Promise<ReadJob<unknown, unknown> | StreamJob<unknown>> {
  let m = modules.get(module);
  if (!m) modules.set(module, (m = import(module) as Promise<Record<string, unknown>>));
  const job = (await m)[name] as ReadJob<unknown, unknown> | StreamJob<unknown> | undefined;
  if (!job || typeof job.run !== 'function') throw new Error(`no read job ${name} in ${module}`);
  return job;
}

function sent(e: unknown) {
  if (e instanceof StoreArgumentError) return { kind: 'argument' as const, message: e.message, param: e.param };
  if (e instanceof StoreError) return { kind: 'store' as const, code: e.code, message: e.message, detail: e.detail };
  if (e instanceof NotFoundError) return { kind: 'not_found' as const, message: e.message };
  return { kind: 'other' as const, message: e instanceof Error ? e.message : String(e) };
}

type Msg =
  | { id: number; op: 'read'; module: string; name: string; args: unknown }
  | { id: number; op: 'json'; module: string; name: string; args: unknown }
  | { id: number; op: 'next'; stream: number; module?: string; name?: string; args?: unknown }
  | { op: 'cancel'; stream: number };

// Messages are handled in order, each to its end (a job that answers a Promise is awaited): a job's module loads once.
let chain: Promise<void> = Promise.resolve();
port.on('message', (m: Msg) => {
  chain = chain.then(() => handle(m));
});

async function handle(m: Msg): Promise<void> {
  if (m.op === 'cancel') {
    await streams.get(m.stream)?.return?.();
    streams.delete(m.stream);
    return;
  }
  try {
    if (m.op === 'read') {
      const job = await jobOf(m.module, m.name);
      port.postMessage({ id: m.id, ok: true, value: await job.run(record(), m.args) });
      return;
    }
    if (m.op === 'json') {
      // The response body, made here: the main thread only hands these bytes to the socket.
      const job = await jobOf(m.module, m.name);
      const body = encoder.encode(JSON.stringify(await job.run(record(), m.args)));
      port.postMessage({ id: m.id, ok: true, chunk: body }, [body.buffer]);
      return;
    }
    let it = streams.get(m.stream);
    if (!it) {
      const job = await jobOf(m.module!, m.name!);
      const chunks = (job as StreamJob<unknown>).run(record(), m.args);
      it = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
      streams.set(m.stream, it);
    }
    const r = await it.next();
    if (r.done) {
      streams.delete(m.stream);
      port.postMessage({ id: m.id, ok: true, chunk: null });
      return;
    }
    // The bytes move to the main thread (transferred, not copied).
    const chunk = encoder.encode(r.value);
    port.postMessage({ id: m.id, ok: true, chunk }, [chunk.buffer]);
  } catch (e) {
    if (m.op === 'next') streams.delete(m.stream);
    port.postMessage({ id: m.id, ok: false, error: sent(e) });
  }
}
