/** The SQLite store: score cache, screenings, reviews, usage history and the event log. */
export type {
  CachedNotFound,
  CachedScore,
  Env,
  ListPage,
  NewScreening,
  OpenStoreOptions,
  ReviewListState,
  ScreeningResult,
  Store,
  Tx,
  UsageFigures,
  UsageSnapshot,
} from './types.js';
export { openStore } from './sqlite-store.js';
export type { RecordBackendName, RecordStore, RecordTx } from './record.js';
export { recordOf, sqliteStoreOf } from './sqlite-record.js';
export {
  NotFoundError,
  ReviewConflictError,
  ReviewStaleError,
  StoreArgumentError,
  StoreError,
  type StoreErrorCode,
} from './store-error.js';
export { isSqliteError, toStoreError } from './sqlite-errors.js';
export { newDecisionId, newReviewId, newScreeningId } from './ids.js';
export { MIGRATIONS, latestVersion, migrate, type Migration, type MigrateOptions, type MigrationLog } from './migrations.js';
