import type { Reader } from './reader-pool.js';
import type { RecordRepos } from './record.js';
import { StoreError } from './store-error.js';

/**
 * A stand-in for rec-reads' inProcessReader (the reader's jobs run on the record, on this thread):
 * until the jobs take the record, a reader over a record alone has nothing to run them on. Replaced
 * whole when rec-reads is merged.
 */
export function inProcessReader(record: RecordRepos): Reader {
  void record;
  const refuse = (): never => {
    throw new StoreError('db_error', 'list reads on this record need the reader of rec-reads (worker/store/record-reader.ts)');
  };
  return {
    threads: 0,
    read: async () => refuse(),
    readJson: async () => refuse(),
    stream: () => ({
      [Symbol.asyncIterator]: () => ({ next: async () => refuse() }),
    }),
    close: async () => {},
  };
}
