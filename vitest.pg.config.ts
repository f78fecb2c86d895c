import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The PostgreSQL pass of the test matrix (issue 34; `npm run test:pg`, the end of `npm test`):
 * every integration test and every fast fault scenario again, each stack on a PostgreSQL test
 * database of its own (SCREEN_TEST_DB=postgres, test/helpers/test-db.ts). A case that by nature
 * works on the SQLite file skips there, saying so (itSqlite/describeSqlite). The slow fault
 * scenarios take the same variable: `npm run faults:pg`.
 *
 * A file is left out of this pass only for one of the reasons below, named beside it.
 */
const NO_RECORD = 'opens no record: the same run on either backend';
const BOTH_IN_ONE_PASS = 'runs SQLite and PostgreSQL side by side itself, in the first pass';
const ON_PG_ITSELF = 'its record is on PostgreSQL whichever pass runs it: the same run twice';
const SQLITE_FILE = 'by nature about SQLite itself (its file, migrations, backup, pragmas, query plans, own unit of work)';
const DOC_WALK =
  "walks docs/operations.md's install as written: SQLite, the default; its backup and restore are of the SQLite file (PostgreSQL's: ops-pg-backup)";

export const NOT_ON_PG: Record<string, string> = {
  // No record.
  'test/integration/emulator-cli.test.ts': NO_RECORD,
  'test/integration/emulator-errors.test.ts': NO_RECORD,
  'test/integration/emulator-faults.test.ts': NO_RECORD,
  'test/integration/emulator-headers.test.ts': NO_RECORD,
  'test/integration/emulator-limits.test.ts': NO_RECORD,
  'test/integration/emulator-live.test.ts': NO_RECORD,
  'test/integration/emulator-sandbox.test.ts': NO_RECORD,
  'test/integration/lookup-coalescer.test.ts': NO_RECORD,
  'test/integration/rate-gate.test.ts': NO_RECORD,
  'test/integration/svc-client.test.ts': NO_RECORD,
  'test/integration/svc-client-edge.test.ts': NO_RECORD,
  'test/integration/watch-detector.test.ts': NO_RECORD,
  'test/integration/watch-emulator.test.ts': NO_RECORD,
  'test/integration/ops-alerts.test.ts': NO_RECORD,
  'test/integration/ops-unit.test.ts': NO_RECORD,
  'test/integration/ops-nginx-two-hosts.test.ts': NO_RECORD,
  // On a PostgreSQL server of its own (TLS only).
  'test/integration/pg-tls.test.ts': ON_PG_ITSELF,
  'test/integration/tray-packaging.test.ts': NO_RECORD,
  // These three read only /openapi.json, built from the routes' schemas: byte-identical on either backend.
  'test/integration/openapi-doc.test.ts': NO_RECORD,
  'test/integration/openapi-lint.test.ts': NO_RECORD,
  'test/integration/openapi-second-generator.test.ts': NO_RECORD,
  // Both backends already, in the first pass.
  'test/integration/record-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-audit-rows-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-callback-sender.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-carrier-decisions-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-carrier-locks.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-decisions-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-event-feed.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-event-log-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-foundation.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-http-errors.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-open-record.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-outbox-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-pruner.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-reader-jobs-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-retention-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-schema.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-score-cache-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-screening-search-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-screenings-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-small-repos-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-start.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-pool-size.test.ts': ON_PG_ITSELF,
  'test/integration/pg-generic-plans.test.ts': ON_PG_ITSELF,
  'test/integration/pg-unit-of-work-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-watch-blocks-record.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-watch-heads.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/pg-watch-store-contract.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/bench-pg.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/ops-pg-backup.test.ts': BOTH_IN_ONE_PASS,
  'test/integration/record-location-cli.test.ts': BOTH_IN_ONE_PASS,
  // The SQLite file itself.
  'test/integration/backup-restore.test.ts': SQLITE_FILE,
  'test/integration/callbacks-migration.test.ts': SQLITE_FILE,
  'test/integration/load-migration.test.ts': SQLITE_FILE,
  'test/integration/outage-rescreen-migration.test.ts': SQLITE_FILE,
  'test/integration/review-carrier-migration.test.ts': SQLITE_FILE,
  'test/integration/review-facts-migration.test.ts': SQLITE_FILE,
  'test/integration/store-sqlite.test.ts': SQLITE_FILE,
  // SQLite's reader threads on the file (PostgreSQL's side: pg-audit-rows-contract, pg-reader-jobs-contract).
  'test/integration/audit-thread.test.ts': SQLITE_FILE,
  // Migration 22 of an old SQLite file, and SQLite's plans (the search itself: pg-screening-search-contract).
  'test/integration/carrier-search.test.ts': SQLITE_FILE,
  // SQLite's plans for ?action= (the pages themselves: pg-screening-search-contract).
  'test/integration/screenings-action-index.test.ts': SQLITE_FILE,
  // The year-three builder writes a SQLite file only (bench/year3/build.ts; `bench --year3` refuses --pg).
  'test/integration/bench-year3-build.test.ts': SQLITE_FILE,
  // SQLite's query plans and partial index for ?updated_since; the search itself is pg-screening-search-contract's.
  'test/integration/screening-search.test.ts': SQLITE_FILE,
  // SQLite's own unit of work (its mutex, I/O guard, store.transaction); the shared cases are pg-unit-of-work-contract's.
  'test/integration/unit-of-work.test.ts': SQLITE_FILE,
  'test/integration/ops-install-walk.test.ts': DOC_WALK,
};

// Not mergeConfig: it would add these lists to the base's include (test/**) rather than replace them.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/integration/**/*.test.ts', 'test/faults/**/*.fast.test.ts'],
    exclude: [...(base.test?.exclude ?? ['**/node_modules/**']), ...Object.keys(NOT_ON_PG)],
    env: { ...base.test?.env, SCREEN_TEST_DB: 'postgres' },
  },
});
