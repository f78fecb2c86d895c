import type { Readable } from 'node:stream';
import type { Review } from '../../shared/screening.js';
import { callbacksPage, cancelCallback, cancelCallbacksTo, getCallback, retryCallback, type CallbackState } from '../callbacks/index.js';
import { auditCsv } from '../decisions/audit-export.js';
import { decisionsPage, type DecisionFilter } from '../decisions/carrier-decisions.js';
import { eventLogJob } from '../events/event-log-page.js';
import { IdempotencyKeys } from '../decisions/idempotency.js';
import type { Screener } from '../screener-types.js';
import type { ListPage, RecordStore, ReviewListState } from '../store/index.js';
import type { EventLogFilter } from '../store/types.js';
import { reviewsPage, screeningsPage } from '../store/list-reads.js';
import type { ScreeningFilter, ScreeningPage } from '../store/screening-search.js';
import type { LocalBlocks } from '../blocks/local-blocks.js';
import type { WatchService } from '../watch/index.js';

/**
 * What the intake's route plugins use, and nothing more: the screening core and small read and
 * write services over the store. server.ts builds them once (intakeServices) and hands each to
 * the routes with `fastify.decorate` (their types: the augmentation in intake-app.ts), so a route
 * module never imports the store; this module is where the intake meets it.
 */

export type { ScreeningFilter };

type Bound<F> = F extends (store: RecordStore, ...rest: infer A) => infer R ? (...rest: A) => R : never;

/** GET /reviews/:id (GET /reviews: listBodies.reviews). */
export interface ReviewReads {
  get(id: string): Promise<Review | undefined>;
}

/** The callback outbox as the /callbacks routes use it (worker/callbacks/outbox.ts); GET /callbacks: listBodies.callbacks. */
export interface CallbackOutbox {
  get(id: string): ReturnType<typeof getCallback>;
  retry: Bound<typeof retryCallback>;
  cancel: Bound<typeof cancelCallback>;
  cancelTo: Bound<typeof cancelCallbacksTo>;
}

/** GET /audit.csv: the due-diligence record, streamed page by page from reader threads (worker/decisions/audit-export.ts). */
export interface AuditExport {
  csv(from: string, to: string): Readable;
}

/**
 * List pages whose JSON a reader thread makes (GET /screenings and its carrier search, /reviews,
 * /callbacks, /decisions, /event-log; the watch list's: WatchService.pageJson and its kin; GET /blocks: LocalBlocks.pageJson) (worker/store/list-reads.ts): each answers the
 * response body's bytes, for the route to send as they are (reply-json.ts sendJsonBody). The
 * main thread neither receives the rows nor serializes them.
 */
export interface ListBodies {
  screenings(filter: ScreeningFilter, page: ScreeningPage): Promise<Buffer>;
  reviews(state: ReviewListState | undefined, page: ListPage): Promise<Buffer>;
  callbacks(state: CallbackState | 'all', page: ListPage): Promise<Buffer>;
  decisions(filter: Omit<DecisionFilter, 'limit'>, page: ListPage): Promise<Buffer>;
  eventLog(filter: EventLogFilter, page: ListPage): Promise<Buffer>;
}

export interface IntakeServices {
  screener: Screener;
  idempotencyKeys: IdempotencyKeys;
  reviewReads: ReviewReads;
  callbackOutbox: CallbackOutbox;
  auditExport: AuditExport;
  listBodies: ListBodies;
  /** The watch list and carrier changes; null for a screener built without one (then no /watchlist, /changes). */
  watchList: WatchService | null;
  /** The local do-not-use list (/blocks); null for a screener built without one. */
  localBlocks: LocalBlocks | null;
}

/** The watch service of a screener built by createScreener, if it has one. */
function watchOf(screener: Screener): WatchService | null {
  return (screener as Screener & { watch?: WatchService }).watch ?? null;
}

/** The local blocks of a screener built by createScreener, if it has them. */
function blocksOf(screener: Screener): LocalBlocks | null {
  return (screener as Screener & { blocks?: LocalBlocks }).blocks ?? null;
}

export function intakeServices(screener: Screener): IntakeServices {
  const { store: record, reader } = screener;
  return {
    screener,
    idempotencyKeys: new IdempotencyKeys(record),
    // Reads outside a unit of work: the record's store-level reads see committed rows only.
    reviewReads: { get: (id) => record.reviews.getReview(id) },
    callbackOutbox: {
      get: (id) => getCallback(record, id),
      retry: (...a) => retryCallback(record, ...a),
      cancel: (...a) => cancelCallback(record, ...a),
      cancelTo: (...a) => cancelCallbacksTo(record, ...a),
    },
    auditExport: { csv: (from, to) => auditCsv(reader, from, to) },
    listBodies: {
      screenings: (filter, page) => reader.readJson(screeningsPage, { filter, page }),
      reviews: (state, page) => reader.readJson(reviewsPage, { state, page }),
      callbacks: (state, page) => reader.readJson(callbacksPage, { state, page }),
      decisions: (filter, page) => reader.readJson(decisionsPage, { filter, page }),
      eventLog: (filter, page) => reader.readJson(eventLogJob, { filter, page }),
    },
    watchList: watchOf(screener),
    localBlocks: blocksOf(screener),
  };
}
