import { openStore, recordOf, type RecordStore } from '../../worker/store/index.js';
import { pgTestStore } from './pg-db.js';
import { tempDbPath } from './temp-db.js';
import { onPostgres } from './test-db.js';

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

/**
 * The backend SCREEN_TEST_DB names (test-db.ts): for a file that runs once per pass of the test
 * matrix, on SQLite in `npm test`'s first pass and on PostgreSQL in `npm run test:pg`.
 */
export const TEST_BACKEND: RecordBackend = RECORD_BACKENDS.find((b) => b.name === (onPostgres ? 'PostgreSQL' : 'SQLite'))!;
