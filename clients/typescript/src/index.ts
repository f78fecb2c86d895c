/**
 * A typed client for the carrier-screen intake API, for a TMS: the generated types of
 * /openapi.json (openapi-fetch underneath, reachable as `.api` for every route) plus the helpers
 * an integration needs first: screen with an idempotency key, wait for the answer, walk a list,
 * and verify a callback's signature.
 */
import { randomUUID } from 'node:crypto';
import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../../shared/intake-api.js';
import { DEFAULT_TOLERANCE_SEC, SIGNATURE_HEADER, verifyCallback, type VerifyResult } from '../../../shared/callback-signature.js';

export type { components, paths };
export type Screening = components['schemas']['Screening'];
export type ScreeningRequest = NonNullable<paths['/screenings']['post']['requestBody']>['content']['application/json'];

/** An error answer of the intake: its HTTP status, the error envelope's code, message and param, and the request id to quote. */
export class CarrierScreenError extends Error {
  override readonly name = 'CarrierScreenError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly param: string | null,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** The intake's origin, e.g. https://screen.broker.internal:8787 */
  baseUrl: string;
  /** A `tms` (or `admin`) token from `carrier-screen token create --role tms`. */
  token: string;
  /** Pin the answers to one API version (`Carrier-Screen-Version`, a date). */
  apiVersion?: string;
  fetch?: typeof globalThis.fetch;
}

type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': { object: 'list' } } } } } } ? P : never;
}[keyof paths];
type ListItem<P extends ListPath> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': { data: Array<infer T> } } } } };
}
  ? T
  : never;

export class CarrierScreen {
  /** Every route, typed (openapi-fetch): `client.api.GET('/reviews', { params: { query: { state: 'pending' } } })`. */
  readonly api: Client<paths>;

  constructor(o: ClientOptions) {
    if (typeof o?.baseUrl !== 'string' || !/^https?:\/\//.test(o.baseUrl))
      throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(o?.baseUrl)}`);
    if (typeof o.token !== 'string' || o.token.trim() === '') throw new TypeError('token must be a non-empty string');
    this.api = createFetchClient<paths>({
      baseUrl: o.baseUrl.replace(/\/+$/, ''),
      headers: { authorization: `Bearer ${o.token.trim()}`, ...(o.apiVersion ? { 'Carrier-Screen-Version': o.apiVersion } : {}) },
      ...(o.fetch ? { fetch: o.fetch } : {}),
    });
  }

  /**
   * Screen a carrier for a tender. Send the same `idempotencyKey` again after a time-out: the
   * intake answers with the first request's screening instead of making a second (by default a
   * new key per call; pass the load's own id-derived key to make retries safe across restarts).
   * `waitSeconds` (0–30) lets a cache miss finish within the request.
   */
  async screen(input: ScreeningRequest, opts: { idempotencyKey?: string; waitSeconds?: number } = {}): Promise<Screening> {
    const { data, error, response } = await this.api.POST('/screenings', {
      body: input,
      params: { query: opts.waitSeconds === undefined ? {} : { wait: opts.waitSeconds } },
      headers: { 'Idempotency-Key': opts.idempotencyKey ?? randomUUID() },
    });
    if (error !== undefined || data === undefined) throw toError(error, response);
    return data;
  }

  /** Poll a screening until it is done: every `pollMs` (default 500 ms), up to `timeoutMs` (default 2 min). */
  async waitForScreening(id: string, opts: { timeoutMs?: number; pollMs?: number } = {}): Promise<Screening> {
    const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
    for (;;) {
      const { data, error, response } = await this.api.GET('/screenings/{id}', { params: { path: { id } } });
      if (error !== undefined || data === undefined) throw toError(error, response);
      if (data.status === 'done') return data;
      if (Date.now() >= deadline)
        throw new CarrierScreenError(
          `screening ${id} still ${data.status} after ${opts.timeoutMs ?? 120_000} ms`,
          0,
          'client_timeout',
          null,
          null,
        );
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 500));
    }
  }

  /** Every item of a list, page by page (`starting_after` the last id), in the list's order. */
  async *list<P extends ListPath>(path: P, query: Record<string, string | number | boolean> = {}): AsyncGenerator<ListItem<P>> {
    let after: string | undefined;
    for (;;) {
      const q = { limit: 100, ...query, ...(after === undefined ? {} : { starting_after: after }) };
      // The routes differ in their query types; each takes limit and starting_after.
      const { data, error, response } = await (
        this.api.GET as (
          p: string,
          init: unknown,
        ) => Promise<{ data?: { data: Array<Awaited<ListItem<P>>>; has_more: boolean }; error?: unknown; response: Response }>
      )(path, { params: { query: q } });
      if (error !== undefined || data === undefined) throw toError(error, response);
      for (const item of data.data) yield item;
      if (!data.has_more || data.data.length === 0) return;
      after = (data.data[data.data.length - 1] as { id: string }).id;
    }
  }
}

/**
 * Check a callback before acting on it: `rawBody` exactly as received (not re-serialised),
 * `signatureHeader` the `X-Carrier-Screen-Signature` value, `secret` the worker's
 * `callback-secret` file. A timestamp more than `toleranceSec` away from now is refused (replay).
 */
export function verifyCallbackSignature(
  secret: string,
  signatureHeader: string | null | undefined,
  rawBody: string | Uint8Array,
  opts: { toleranceSec?: number; now?: () => Date } = {},
): VerifyResult {
  return verifyCallback(secret, signatureHeader, typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody), opts);
}

export { DEFAULT_TOLERANCE_SEC, SIGNATURE_HEADER };

function toError(body: unknown, response: Response): CarrierScreenError {
  const e = (body as { error?: { code?: unknown; message?: unknown; param?: unknown } } | undefined)?.error;
  return new CarrierScreenError(
    typeof e?.message === 'string' ? e.message : `HTTP ${response.status}`,
    response.status,
    typeof e?.code === 'string' ? e.code : `http_${response.status}`,
    typeof e?.param === 'string' ? e.param : null,
    response.headers.get('x-request-id'),
  );
}
