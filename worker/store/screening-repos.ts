import type { Store } from './types.js';

/**
 * The Store's screenings and reviews as two repositories, the shape both backends offer: the
 * SQLite Store is both as it is, the PostgreSQL record implements each (store/pg/screenings-repo.ts,
 * store/pg/reviews-repo.ts, with every method answering a Promise: AsyncRepo).
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
