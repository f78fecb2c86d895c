import { InvalidIdentifierError } from '../../shared/carrier-id.js';
import type { IntakeErrorBody } from '../../shared/screening.js';
import type { IntakeErrorCode } from './components.js';
import { UnavailableError } from '../screener-types.js';
import {
  NotFoundError,
  ReviewConflictError,
  ReviewStaleError,
  StoreArgumentError,
  StoreError,
  isSqliteError,
  toStoreError,
} from '../store/index.js';
import { noteWriteRefused } from '../store/write-failures.js';

/** An error the intake answers with `{"error":{"code","message","param?"}}`. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly statusCode: number,
    /** One of the catalogue (components.ts ERROR_CODES, docs/api.md "Errors"): a code not listed there does not compile. */
    readonly code: IntakeErrorCode,
    message: string,
    readonly param?: string,
    /** A conflict's existing object (error.resource_id). */
    readonly resourceId?: string,
    /** More of the error object (review_stale: the review as it is now). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  body(): IntakeErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.param === undefined ? {} : { param: this.param }),
        ...(this.resourceId === undefined ? {} : { resource_id: this.resourceId }),
        ...this.extra,
      },
    };
  }
}

export const badRequest = (message: string, param?: string): HttpError => new HttpError(400, 'invalid_request', message, param);
/** No such object (the route exists). */
export const notFound = (message = 'no such resource'): HttpError => new HttpError(404, 'resource_missing', message);
/** No such route. */
export const routeNotFound = (method: string, path: string): HttpError =>
  new HttpError(404, 'route_not_found', `no route ${method} ${path}`);
/**
 * One rule on every route (docs/api.md): repeating a state change that already happened is a 409
 * `<resource>_conflict` whose `error.resource_id` names the object as it is.
 */
export const conflict = (code: IntakeErrorCode, message: string, resourceId: string): HttpError =>
  new HttpError(409, code, message, undefined, resourceId);

/** An ISO 8601 date or timestamp as the store writes them (UTC, milliseconds), or a 400 naming the parameter. */
export function isoParam(v: string | undefined, fallback: Date, param: string): string {
  if (v === undefined) return fallback.toISOString();
  const t = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) throw badRequest(`${param} must be an ISO 8601 date or timestamp, e.g. 2026-11-01 or 2026-11-01T00:00:00Z`, param);
  return new Date(t).toISOString();
}

const STORE_MESSAGES: Partial<Record<StoreError['code'], string>> = {
  sqlite_readonly: 'the screening database is read-only (file system or permissions); nothing can be recorded until that is fixed',
  sqlite_full: 'the disk holding the screening database is full; nothing can be recorded until space is freed',
  sqlite_busy: 'the screening database is locked by another process; try again shortly',
  sqlite_ioerr: 'the screening database had a disk I/O error',
  sqlite_cantopen: 'the screening database file cannot be opened',
  sqlite_corrupt: 'the screening database file is corrupt',
  store_closed: 'the screening database is closed (shutting down)',
  reader_failed: 'a read of the screening database failed (its reader thread ended); try again',
  // PostgreSQL: the primary gone (a failover under way), a lock time-out, a full disk, a standby.
  db_unavailable: 'the screening database server cannot be reached; try again shortly',
  db_busy: 'the screening database is busy; try again shortly',
  db_full: 'the screening database server is out of disk space; nothing can be recorded until space is freed',
  db_readonly: 'the screening database is read-only (a standby); nothing can be recorded until it points at the primary',
  db_ioerr: 'the screening database server had an I/O error',
};

/**
 * Map anything thrown by a handler or by Fastify itself to the error we send. Bad input is
 * always 4xx; only our own faults are 5xx, and 5xx messages never carry internals.
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof InvalidIdentifierError) return badRequest(err.message, err.param);
  if (err instanceof StoreArgumentError) return badRequest(err.message, err.param);
  // The carrier's facts changed since the version the decision names: the review as it is now, to look again.
  if (err instanceof ReviewStaleError)
    return new HttpError(409, 'review_stale', err.message, 'review_version', undefined, { review: err.review });
  if (err instanceof ReviewConflictError)
    return new HttpError(409, 'review_conflict', err.message || 'the review is already resolved', undefined, err.resourceId);
  if (err instanceof NotFoundError) return notFound(err.message || undefined);
  if (err instanceof UnavailableError)
    return new HttpError(503, 'unavailable', err.message || 'the queue (Redis) is unavailable; nothing was accepted, try again later');
  // A module working on the connection itself let a SQLite error through: the same answer as the store's.
  if (isSqliteError(err)) {
    const e = toStoreError(err, 'the screening database');
    noteWriteRefused(e);
    return toHttpError(e);
  }
  if (err instanceof StoreError) {
    const msg = STORE_MESSAGES[err.code];
    if (msg) return new HttpError(503, 'storage_unavailable', msg);
    return new HttpError(500, 'internal_error', 'the screening database reported an error');
  }
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, 'payload_too_large', 'the request body is too large', 'body');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, 'unsupported_media_type', 'send the body as JSON with Content-Type: application/json', 'body');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('the body is empty but Content-Type is application/json; send a JSON object', 'body');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return badRequest('the body is not valid JSON', 'body');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return badRequest('Content-Length does not match the body', 'body');
    case 'FST_ERR_BAD_URL':
      return badRequest('the URL is not valid (bad percent-encoding)', 'url');
  }
  // Fastify's JSON parser throws a SyntaxError with statusCode 400 for malformed JSON.
  if (err instanceof SyntaxError && status === 400) return badRequest('the body is not valid JSON', 'body');
  if (status === 413) return new HttpError(413, 'payload_too_large', 'the request body is too large', 'body');
  if (status === 415)
    return new HttpError(415, 'unsupported_media_type', 'send the body as JSON with Content-Type: application/json', 'body');
  if (status >= 400 && status < 500)
    return new HttpError(status, status === 404 ? 'route_not_found' : 'invalid_request', 'invalid request');
  return new HttpError(500, 'internal_error', 'internal error; see the worker log');
}
