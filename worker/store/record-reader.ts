import type { ReadJob, Reader, StreamJob } from './read-jobs.js';
import type { RecordRepos } from './record.js';
import { StoreError } from './store-error.js';

/**
 * The reader's jobs (read-jobs.ts) run on this thread, on the record given: PostgreSQL's (its
 * pool's reads leave the tender path's connection alone by themselves, and wait on the network,
 * not the event loop), or a SQLite store without reader threads (in memory, or 0 threads:
 * reader-pool.ts). The same jobs and the same answers as the reader pool's threads; a stream
 * yields to the event loop between chunks, so formatting a long export never holds it.
 * The record stays the caller's: close ends this reader's reads, not the record.
 */
export function inProcessReader(record: RecordRepos): Reader {
  let closed = false;
  const open = (): void => {
    if (closed) throw new StoreError('store_closed', 'the reader is closed');
  };
  return {
    threads: 0,
    async read<A, R>(job: ReadJob<A, R>, args: A): Promise<Awaited<R>> {
      open();
      return (await job.run(record, args)) as Awaited<R>;
    },
    async readJson<A>(job: ReadJob<A, unknown>, args: A): Promise<Buffer> {
      open();
      return Buffer.from(JSON.stringify(await job.run(record, args)));
    },
    stream<A>(job: StreamJob<A>, args: A): AsyncIterable<Buffer> {
      return {
        async *[Symbol.asyncIterator]() {
          open();
          for await (const chunk of job.run(record, args)) {
            yield Buffer.from(chunk);
            await new Promise<void>((resolve) => setImmediate(resolve));
            open();
          }
        },
      };
    },
    async close(): Promise<void> {
      closed = true;
    },
  };
}
