/** Watch list, daily re-screen and carrier change alerts (docs/watchlist.md); the local do-not-use list: worker/blocks/. */
export { WatchService, publicChange, type WatchOptions, type WatchServiceDeps, type TickResult } from './watch-service.js';
export { WatchConflictError } from '../store/watch-store.js';
export {
  oweChangeCallbacks,
  CHANGE_EVENT,
  changeDeliveryId,
  changeCallbackBody,
  deliveriesOf,
  type ChangeCallbackJob,
} from './change-callbacks.js';
export { detectChanges, snapshotOf, GOOD_GRADES } from './change-detector.js';
export { WatchScheduler, WATCH_QUEUE, WATCH_SCHEDULER_ID, DEFAULT_TICK_MS } from './watch-scheduler.js';
export { slotOf, nextCheckAt, maxPerTick, DAY_MS, MIN_FIRST_GAP_MS, RATE_SHARE } from './rescreen-schedule.js';
export {
  canonicalDot,
  canonicalMc,
  dotKey,
  mcKey,
  keyOf,
  keysOf,
  idsOfQuery,
  queryOf,
  resolveIds,
  type CarrierIds,
} from './carrier-key.js';
