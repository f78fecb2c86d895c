import { Agent, request } from 'undici';

/**
 * A TMS (or the tray bridge) talking to a real intake process over HTTP. Every call has a
 * deadline: an answer that does not come is a failure of its own ("never hangs").
 */

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

export class NoAnswerError extends Error {
  override readonly name = 'NoAnswerError';
}

export interface CallOptions {
  body?: unknown;
  /** A raw body, sent as is (with `contentType` when given). */
  raw?: string | Buffer;
  contentType?: string;
  /** Authorization header: undefined = the client's token, null = none. */
  authorization?: string | null;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export class IntakeClient {
  readonly #agent = new Agent({ connections: 32, keepAliveTimeout: 2_000 });

  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  async call(method: string, path: string, o: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...o.headers };
    const auth = o.authorization === undefined ? `Bearer ${this.token}` : o.authorization;
    if (auth !== null) headers.authorization = auth;
    let body: string | Buffer | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) headers['content-type'] = o.contentType ?? 'application/json';
    else if (o.contentType !== undefined) headers['content-type'] = o.contentType;
    const timeoutMs = o.timeoutMs ?? 15_000;
    try {
      const res = await request(this.url + path, {
        method: method as 'GET',
        headers,
        body,
        dispatcher: this.#agent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.statusCode, headers: res.headers, text, json };
    } catch (e) {
      const err = e as Error;
      if (err.name === 'TimeoutError' || err.name === 'AbortError' || /timeout/i.test(err.message))
        throw new NoAnswerError(`${method} ${path}: no answer within ${timeoutMs} ms`);
      throw e;
    }
  }

  /** POST /screenings; returns the answer (200 done, 202 queued, or an error). */
  screen(body: Record<string, unknown>, query = ''): Promise<Answer> {
    return this.call('POST', `/screenings${query}`, { body });
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/** Run `f` over `items` with at most `n` at once. */
export async function mapLimit<T, R>(items: readonly T[], n: number, f: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  async function lane(): Promise<void> {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!, i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
  return out;
}
