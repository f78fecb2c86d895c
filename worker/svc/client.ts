/**
 * The /v1 client: one keep-alive undici Pool to the service's origin (the default transport,
 * `transport.ts`; another can be given), `Authorization: Bearer`,
 * one deadline per request for headers and body together, and retries by `isRetryable`/`backoffMs` (at most `maxAttempts`
 * requests in total). The key lives only in the private `#apiKey` field: it is never part of
 * a message, an inspected object or JSON.
 */
import { inspect } from 'node:util';
import { parseCarrierQuery, type CarrierQuery } from '../../shared/carrier-id.js';
import { parseScore, parseUsage, type SvcScore, type SvcUsage } from '../../shared/svc-contract.js';
import { SvcError, SvcInvalidResponseError, SvcNetworkError, SvcRateLimitError, errorFromResponse } from './errors.js';
import { readLimits, type HeaderBag, type LimitsSnapshot } from './limits.js';
import { backoffMs, isRetryable, sleep as realSleep, type BackoffOptions } from './retry.js';
import { UndiciTransport, type HttpTransport } from './transport.js';

export interface SvcClientOptions {
  /** Base URL without `/v1` (paths `/v1/…` are appended). */
  baseUrl: string;
  apiKey: string;
  /**
   * Per request: one deadline for connecting, the response headers and the whole body together.
   * Default 10000. After a request that timed out (it may have been counted) at most one more
   * is made.
   */
  timeoutMs?: number;
  /** Requests per call, first one included. Default 5, at most 5 (the spec's schedule). */
  maxAttempts?: number;
  /**
   * Retry 429 rate_limit_exceeded inside the client (default true). The queue sets false: it
   * gets the SvcRateLimitError (with retryAfterMs) at once and pauses as a whole.
   */
  retryRateLimited?: boolean;
  backoff?: BackoffOptions;
  /**
   * The longest wait between attempts (default 60000 ms). A Retry-After asking for more ends
   * the call at once with that error: the caller falls back rather than hold a worker slot.
   */
  longestWaitMs?: number;
  /** For jitter; default Math.random. */
  random?: () => number;
  /** How to wait between attempts; tests pass one that records the waits. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Called for what an answer carried that we could not use and kept or ignored: a display field
   * of a score that drifted from the contract (kept), a header out of range (ignored).
   */
  onWarning?: (message: string, detail: { path: string; requestId: string | null }) => void;
  /** Called with the limits read from every response, errors included. */
  onLimits?: (s: LimitsSnapshot) => void;
  /** Called after every request with its HTTP status (or the error code when there was no answer) and seconds taken (metrics). */
  onRequest?: (code: string, seconds: number) => void;
  /** Called before every request, retries included (e.g. to take a slot of a shared rate limit). */
  beforeAttempt?: (signal?: AbortSignal) => Promise<void>;
  /** Pool size (keep-alive connections) of the default transport. Default 10. */
  connections?: number;
  /**
   * How one request is made (stripe-node's HttpClient): default an undici Pool to the base URL's
   * origin. The client keeps the deadline, retries, errors and redaction; the transport is
   * handed the path from the origin and the abort signal, and closed with the client.
   */
  transport?: HttpTransport;
  now?: () => Date;
}

export interface SvcResponse<T> {
  body: T;
  limits: LimitsSnapshot;
  /** Requests made, the successful one included. */
  attempts: number;
}

const MAX_ATTEMPTS = 5;
const MAX_BODY_BYTES = 1024 * 1024;
const USER_AGENT = 'carrier-screen/0.1 (+undici)';

function positiveInt(name: string, v: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(v) || v < 1 || v > max) throw new RangeError(`${name} must be a whole number from 1 to ${max}, got ${String(v)}`);
  return v;
}

/** Check and normalise the base URL; the message never echoes credentials. */
function parseBaseUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.trim() === '') throw new TypeError('baseUrl must be a non-empty URL string');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new TypeError('baseUrl is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('baseUrl must be an http:// or https:// URL');
  if (url.username || url.password) throw new TypeError('baseUrl must not contain credentials; the key goes in apiKey');
  if (url.search || url.hash) throw new TypeError('baseUrl must not have a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/i.test(path)) throw new TypeError('baseUrl must not end in /v1: paths /v1/… are appended to it');
  url.pathname = path === '' ? '/' : path;
  return url;
}

/** Failures while connecting: no request reached the service, so nothing can have been counted. */
const NOT_SENT = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/** A network-level failure from undici, as an SvcError; only name/code/message are kept. */
function networkError(err: unknown, origin: string, timeoutMs: number): SvcError {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : null;
  const detail = typeof e?.message === 'string' ? e.message : String(err);
  const cause = { name: typeof e?.name === 'string' ? e.name : 'Error', code, message: detail };
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE')
    return new SvcInvalidResponseError({ message: `response from ${origin} larger than ${MAX_BODY_BYTES} bytes`, code, cause });
  const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
  const what =
    code === 'UND_ERR_HEADERS_TIMEOUT'
      ? `timed out after ${timeoutMs} ms waiting for response headers`
      : code === 'UND_ERR_BODY_TIMEOUT'
        ? `timed out after ${timeoutMs} ms reading the response body`
        : code === 'UND_ERR_CONNECT_TIMEOUT'
          ? `timed out after ${timeoutMs} ms connecting`
          : `connection failed (${code ?? 'error'}: ${detail})`;
  return new SvcNetworkError({ message: `${what} from ${origin}`, code, cause, sent: code === null || !NOT_SENT.has(code), timedOut });
}

/** The one deadline for headers and body together ran out (undici's body time-out only times gaps between chunks). */
function deadlineError(origin: string, timeoutMs: number): SvcError {
  return new SvcNetworkError({
    message: `timed out after ${timeoutMs} ms (headers and body together) from ${origin}`,
    code: 'deadline_exceeded',
    sent: true,
    timedOut: true,
  });
}

/** The start of a body that is not what we expected, kept in the error so a person can see it. */
const EXCERPT_CHARS = 300;
function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS
    ? `${JSON.stringify(flat.slice(0, EXCERPT_CHARS))}… (${text.length} characters)`
    : JSON.stringify(flat);
}

export class SvcClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #transport: HttpTransport;
  readonly #pathPrefix: string;
  readonly #timeoutMs: number;
  readonly #maxAttempts: number;
  readonly #retryRateLimited: boolean;
  readonly #backoff: BackoffOptions;
  readonly #longestWaitMs: number;
  readonly #random: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #onLimits: ((s: LimitsSnapshot) => void) | undefined;
  readonly #onWarning: SvcClientOptions['onWarning'];
  readonly #onRequest: ((code: string, seconds: number) => void) | undefined;
  readonly #beforeAttempt: ((signal?: AbortSignal) => Promise<void>) | undefined;
  readonly #now: () => Date;

  constructor(opts: SvcClientOptions) {
    if (typeof opts !== 'object' || opts === null) throw new TypeError('SvcClient options are required');
    const url = parseBaseUrl(opts.baseUrl);
    if (typeof opts.apiKey !== 'string' || opts.apiKey === '') throw new TypeError('apiKey must be a non-empty string');
    // Whitespace or control characters would corrupt the Authorization header.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    if (/[\s\x00-\x1f\x7f]/.test(opts.apiKey)) throw new TypeError('apiKey must not contain whitespace or control characters');
    this.#apiKey = opts.apiKey;
    this.#pathPrefix = url.pathname === '/' ? '' : url.pathname;
    this.baseUrl = url.origin + this.#pathPrefix;
    this.#timeoutMs = positiveInt('timeoutMs', opts.timeoutMs ?? 10_000);
    this.#maxAttempts = positiveInt('maxAttempts', opts.maxAttempts ?? MAX_ATTEMPTS, MAX_ATTEMPTS);
    this.#retryRateLimited = opts.retryRateLimited ?? true;
    this.#backoff = { ...opts.backoff };
    backoffMs(1, null, () => 0, this.#backoff); // validates the backoff options now, not at the first retry
    this.#longestWaitMs = positiveInt('longestWaitMs', opts.longestWaitMs ?? 60_000);
    this.#random = opts.random ?? Math.random;
    this.#sleep = opts.sleep ?? realSleep;
    this.#onLimits = opts.onLimits;
    this.#onWarning = opts.onWarning;
    this.#onRequest = opts.onRequest;
    this.#beforeAttempt = opts.beforeAttempt;
    this.#now = opts.now ?? (() => new Date());
    const connections = positiveInt('connections', opts.connections ?? 10);
    this.#transport =
      opts.transport ?? new UndiciTransport(url.origin, { connections, timeoutMs: this.#timeoutMs, maxResponseSize: MAX_BODY_BYTES });
  }

  /**
   * GET /v1/svc-score by DOT or MC number (in its normal form). Unknown fields in the score are
   * kept. `maxAttempts` lowers the client's own limit for this call: what is left of a
   * screening's five attempts.
   */
  async getScore(query: CarrierQuery, opts: { signal?: AbortSignal; maxAttempts?: number } = {}): Promise<SvcResponse<SvcScore>> {
    const q = parseCarrierQuery(query as { dot_number?: unknown; mc_number?: unknown });
    const params = new URLSearchParams(q as Record<string, string>);
    const max = Math.min(this.#maxAttempts, positiveInt('maxAttempts', opts.maxAttempts ?? this.#maxAttempts));
    return this.#call(`/v1/svc-score?${params.toString()}`, (b, warn) => parseScore(b, (w) => warn(w.message)), opts.signal, false, max);
  }

  /** GET /v1/usage: free; also the check that the key works. */
  getUsage(opts: { signal?: AbortSignal } = {}): Promise<SvcResponse<SvcUsage>> {
    return this.#call('/v1/usage', parseUsage, opts.signal);
  }

  /** GET /v1/health. The spec does not show its body: JSON when it is JSON, else the text. */
  health(opts: { signal?: AbortSignal } = {}): Promise<SvcResponse<unknown>> {
    return this.#call('/v1/health', (b) => b, opts.signal, true);
  }

  /**
   * Not /v1: the reference emulator's sandbox control (emulator/README.md, "Sandbox test
   * controls"): from now on the carrier's score shows `change` (or its fixture again, `reset`).
   * One attempt; a service without it answers 404, which comes back as an SvcError.
   */
  sandboxChange(dot: string, change: string, opts: { signal?: AbortSignal } = {}): Promise<SvcResponse<unknown>> {
    return this.#call(
      `/v1/sandbox/carriers/${encodeURIComponent(dot)}/change`,
      (b) => b,
      opts.signal,
      false,
      1,
      JSON.stringify({ change }),
    );
  }

  async close(): Promise<void> {
    await this.#transport.close();
  }

  [inspect.custom](): string {
    return `SvcClient { baseUrl: ${JSON.stringify(this.baseUrl)} }`;
  }

  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  async #call<T>(
    path: string,
    parse: (b: unknown, warn: (m: string) => void) => T,
    signal?: AbortSignal,
    textOk = false,
    maxAttempts = this.#maxAttempts,
    postBody?: string,
  ): Promise<SvcResponse<T>> {
    // Lowered after a request that may have been counted but gave no answer (a time-out, a
    // connection lost after sending): one more attempt at most, so a slow service costs ≤ 2.
    let last = maxAttempts;
    let afterTimeout = false;
    for (let attempt = 1; ; attempt++) {
      let err: SvcError;
      try {
        await this.#beforeAttempt?.(signal);
        const out = await this.#once(path, parse, signal, textOk, postBody);
        return { ...out, attempts: attempt };
      } catch (e) {
        // The caller's own abort is not a service failure: hand it back untouched.
        if (!(e instanceof SvcError)) throw e;
        err = e;
      }
      err.attempts = attempt;
      err.afterTimeout = afterTimeout;
      if (err.kind === 'network' && err.sent) {
        last = Math.min(last, attempt + 1);
        afterTimeout = true;
      }
      const giveUp = attempt >= last || !isRetryable(err) || (err instanceof SvcRateLimitError && !this.#retryRateLimited);
      if (giveUp) throw err;
      const wait = backoffMs(attempt, err.retryAfterMs, this.#random, this.#backoff);
      // Asked to wait longer than a caller may: hand the error back now (it carries Retry-After).
      if (wait > this.#longestWaitMs) throw err;
      await this.#sleep(wait, signal);
    }
  }

  /** One request. Throws SvcError for every failure except the caller's abort. */
  async #once<T>(
    path: string,
    parse: (b: unknown, warn: (m: string) => void) => T,
    signal: AbortSignal | undefined,
    textOk: boolean,
    postBody?: string,
  ): Promise<{ body: T; limits: LimitsSnapshot }> {
    let status: number;
    let headers: HeaderBag;
    let text: string;
    const started = performance.now();
    const took = (): number => (performance.now() - started) / 1000;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.#timeoutMs);
    try {
      const res = await this.#transport.request({
        method: postBody === undefined ? 'GET' : 'POST',
        path: this.#pathPrefix + path,
        headers: {
          authorization: `Bearer ${this.#apiKey}`,
          accept: 'application/json',
          'user-agent': USER_AGENT,
          ...(postBody === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(postBody === undefined ? {} : { body: postBody }),
        signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal,
      });
      status = res.status;
      headers = res.headers;
      text = res.body;
    } catch (e) {
      if (signal?.aborted) throw signal.reason ?? e;
      const err = deadline.signal.aborted ? deadlineError(this.baseUrl, this.#timeoutMs) : networkError(e, this.baseUrl, this.#timeoutMs);
      this.#onRequest?.(/timed out/.test(err.message) ? 'timeout' : err.kind, took());
      throw err;
    } finally {
      clearTimeout(timer);
    }
    this.#onRequest?.(String(status), took());
    // A server that echoes what it was sent must not carry the key into our errors.
    text = text.split(this.#apiKey).join('[redacted]');
    const now = this.#now();
    const route = path.split('?')[0]!;
    let requestId: string | null = null;
    const warn = (message: string): void => this.#onWarning?.(`${route}: ${message}`, { path: route, requestId });
    const limits = readLimits(headers, now, warn);
    requestId = limits.requestId;
    this.#onLimits?.(limits);

    let json: unknown;
    let isJson = true;
    try {
      json = JSON.parse(text);
    } catch {
      isJson = false;
    }
    if (status < 200 || status > 299) throw errorFromResponse(status, isJson ? json : undefined, headers, now, () => {});

    if (!isJson) {
      if (textOk) return { body: parse(text, warn), limits };
      throw new SvcInvalidResponseError({
        message: `HTTP ${status} from ${path.split('?')[0]} with a body that is not JSON: ${excerpt(text)}`,
        status,
        requestId: limits.requestId,
        limits,
      });
    }
    try {
      return { body: parse(json, warn), limits };
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      throw new SvcInvalidResponseError({
        message: `HTTP ${status} from ${path.split('?')[0]} is not what the contract says: ${detail}; body: ${excerpt(text)}`,
        status,
        requestId: limits.requestId,
        limits,
        cause: e,
      });
    }
  }
}
