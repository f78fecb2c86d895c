import type { Store } from './types.js';

/**
 * The Store's method groups as repositories: screenings, reviews, the score cache, usage and the
 * event log. The SQLite Store is each as it is; PostgreSQL implements each (store/pg/*-repo.ts,
 * every method answering a Promise: AsyncRepo); record.ts gathers them.
 */
export type ScreeningsRepo = Pick<
  Store,
  | 'insertScreening'
  | 'markActive'
  | 'completeScreening'
  | 'rescreenResult'
  | 'markRescreened'
  | 'discardScreening'
  | 'getScreening'
  | 'listUnfinished'
  | 'oldestQueuedAt'
>;

/** Reviews are opened by CarrierDecisions.onHold (decisions-repo.ts `insertReview`); these read and decide them. */
export type ReviewsRepo = Pick<Store, 'getReview' | 'listReviews' | 'pageReviews' | 'resolveReview' | 'countPendingReviews'>;

/** The score cache, per environment and DOT number. */
export type ScoreCacheRepo = Pick<Store, 'putScore' | 'getScore' | 'putNotFound' | 'getNotFound'>;

/** Usage for the quota chart. */
export type UsageRepo = Pick<Store, 'recordLookup' | 'dailyLookups' | 'putUsageSnapshot' | 'latestUsageSnapshot'>;

/** The event log for Server-Sent Events replay. */
export type EventLogRepo = Pick<Store, 'appendEvent' | 'eventsSince' | 'pageEvents' | 'lastEventId'>;
