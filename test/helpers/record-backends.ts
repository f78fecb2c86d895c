import { openStore, recordOf, type RecordStore } from '../../worker/store/index.js';
import { pgTestStore } from './pg-db.js';
import { tempDbPath } from './temp-db.js';

/** A backend of the record, opened fresh for a test file: a temporary SQLite file, or a PostgreSQL test database. */
export interface RecordBackend {
  name: 'SQLite' | 'PostgreSQL';
  /** `now`: the clock of every timestamp the store writes (a test pins it). */
  open(opts?: { now?: () => Date }): Promise<{ record: RecordStore; close(): Promise<void> }>;
}

/** Both backends, for `describe.each(RECORD_BACKENDS)('… on $name', …)`: the same cases on each. */
export const RECORD_BACKENDS: readonly RecordBackend[] = [
  {
    name: 'SQLite',
    open: async (opts = {}) => {
      const file = tempDbPath();
      const store = openStore(file.path, opts);
      return {
        record: recordOf(store),
        close: async () => {
          store.close();
          file.cleanup();
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    open: async (opts = {}) => {
      const t = await pgTestStore(opts);
      return { record: t.store, close: () => t.close() };
    },
  },
];
