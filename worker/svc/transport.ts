/**
 * How the /v1 client moves one request: a small interface the client is given (as stripe-node's
 * HttpClient), with undici as the default. A transport makes exactly one request and reads the
 * whole body as text; it knows nothing of /v1, the key, retries (worker/svc/retry.ts) or the
 * errors (worker/svc/errors.ts): SvcClient does all of that around it.
 */
import { Pool } from 'undici';
import type { HeaderBag } from './limits.js';

export interface TransportRequest {
  method: 'GET' | 'POST';
  /** Path and query, from the origin (the base URL's path prefix included). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts the request: the caller's signal and the client's deadline together. */
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  headers: HeaderBag;
  /** The whole body, as text. */
  body: string;
}

/**
 * One request, one answer. Throws on a failure with no answer; an error with a string `code`
 * (undici's and Node's codes: `ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`,
 * `UND_ERR_RES_EXCEEDED_MAX_SIZE`…) is told apart by SvcClient (nothing sent, too large, …).
 * Any HTTP status is an answer, not a throw.
 */
export interface HttpTransport {
  request(req: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

export interface UndiciTransportOptions {
  /** Keep-alive connections. */
  connections: number;
  /** The client's per-request deadline: undici's own time-outs are set around it. */
  timeoutMs: number;
  /** A larger body fails with UND_ERR_RES_EXCEEDED_MAX_SIZE. */
  maxResponseSize: number;
}

/** The default transport: one keep-alive undici Pool to the service's origin. */
export class UndiciTransport implements HttpTransport {
  readonly #pool: Pool;

  constructor(origin: string, o: UndiciTransportOptions) {
    this.#pool = new Pool(origin, {
      connections: o.connections,
      // A safety net only: the client's per-request deadline ends a request first.
      headersTimeout: o.timeoutMs + 1_000,
      bodyTimeout: o.timeoutMs + 1_000,
      // Under the deadline, so a connection that never opens is told apart (nothing was sent).
      connect: { timeout: Math.max(1, Math.floor(o.timeoutMs * 0.9)) },
      maxResponseSize: o.maxResponseSize,
    });
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    const res = await this.#pool.request({
      method: req.method,
      path: req.path,
      headers: req.headers,
      ...(req.body === undefined ? {} : { body: req.body }),
      signal: req.signal,
    });
    const status = res.statusCode;
    const headers = res.headers as HeaderBag;
    return { status, headers, body: await res.body.text() };
  }

  async close(): Promise<void> {
    if (!this.#pool.closed) await this.#pool.close();
  }
}
