/**
 * The client against a small real HTTP server on 127.0.0.1 for answers the emulator does not
 * give (a key echoed in an error, non-JSON 5xx, a stalled body, refused connections, a path
 * prefix). Real sockets, no HTTP mocks.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { SvcClient, type SvcClientOptions } from '../../worker/svc/client.js';
import { SvcAuthenticationError, SvcError, SvcNetworkError, SvcServerError, SvcUnknownError } from '../../worker/svc/errors.js';
import type { LimitsSnapshot } from '../../worker/svc/limits.js';
import { freePort } from '../helpers/free-port.js';

const KEY = 'svc_test_EdGeSeCrEt_9f8e7d6c5b4a';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface TestServer {
  url: string;
  requests: { path: string; auth: string | undefined }[];
  connections: number;
  server: Server;
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function serve(handler: Handler): Promise<TestServer> {
  const t: TestServer = { url: '', requests: [], connections: 0, server: createServer() };
  t.server.on('connection', () => t.connections++);
  t.server.on('request', (req, res) => {
    t.requests.push({ path: req.url ?? '', auth: req.headers.authorization });
    handler(req, res);
  });
  await new Promise<void>((r) => t.server.listen(0, '127.0.0.1', r));
  t.url = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  cleanup.push(
    () =>
      new Promise<void>((r) => {
        t.server.closeAllConnections();
        t.server.close(() => r());
      }),
  );
  return t;
}

function client(opts: Partial<SvcClientOptions> & { baseUrl: string }): { c: SvcClient; waits: number[] } {
  const waits: number[] = [];
  const c = new SvcClient({
    apiKey: KEY,
    random: () => 0,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...opts,
  });
  cleanup.push(() => c.close());
  return { c, waits };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_edge', 'svc-environment': 'sandbox', ...headers });
  res.end(JSON.stringify(body));
}

async function caught(p: Promise<unknown>): Promise<SvcError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(SvcError);
  return e as SvcError;
}

function expectNoKey(e: unknown): void {
  const secret = 'EdGeSeCrEt';
  const err = e as Error;
  expect(err.message).not.toContain(secret);
  expect(String(err.stack)).not.toContain(secret);
  expect(inspect(err, { depth: 10, showHidden: true })).not.toContain(secret);
  expect(JSON.stringify(err)).not.toContain(secret);
}

describe('SvcClient over real HTTP (edge cases)', () => {
  it('sends Bearer auth under the base path, reuses one keep-alive connection and reports limits', async () => {
    const t = await serve((_req, res) => json(res, 200, { status: 'ok' }, { 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '119' }));
    const seen: LimitsSnapshot[] = [];
    const { c } = client({ baseUrl: `${t.url}/prefix/`, onLimits: (s) => seen.push(s), connections: 1 });
    for (let i = 0; i < 3; i++) {
      const r = await c.health();
      expect(r.body).toEqual({ status: 'ok' });
      expect(r.attempts).toBe(1);
      expect(r.limits.requestId).toBe('req_edge');
    }
    expect(t.requests.map((r) => r.path)).toEqual(['/prefix/v1/health', '/prefix/v1/health', '/prefix/v1/health']);
    expect(t.requests.every((r) => r.auth === `Bearer ${KEY}`)).toBe(true);
    expect(t.connections).toBe(1);
    expect(seen).toHaveLength(3);
    expect(seen[0]).toMatchObject({ rateLimit: 120, rateRemaining: 119, environment: 'sandbox' });
  });

  it('sends the carrier query as dot_number or mc_number', async () => {
    const t = await serve((_req, res) => json(res, 404, { error: { code: 'carrier_not_found', message: 'no such carrier' } }));
    const { c } = client({ baseUrl: t.url });
    await caught(c.getScore({ dot_number: '42' }));
    await caught(c.getScore({ mc_number: 'mc-77' }));
    expect(t.requests.map((r) => r.path)).toEqual(['/v1/svc-score?dot_number=42', '/v1/svc-score?mc_number=MC77']);
  });

  it('a server that echoes the key does not carry it into the error', async () => {
    const t = await serve((req, res) =>
      json(res, 401, { error: { code: 'invalid_api_key', message: `Invalid API key: ${req.headers.authorization}` } }),
    );
    const { c } = client({ baseUrl: t.url });
    const e = await caught(c.getUsage());
    expect(e).toBeInstanceOf(SvcAuthenticationError);
    expect(e.message).toContain('Invalid API key: Bearer [redacted]');
    expectNoKey(e);
    expect(t.requests).toHaveLength(1);
  });

  it('a non-JSON 502 is a server error, retried up to five requests with growing waits', async () => {
    const t = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
    });
    const { c, waits } = client({ baseUrl: t.url, backoff: { baseMs: 100, capMs: 1000, jitterMs: 0 } });
    const e = await caught(c.getUsage());
    expect(e).toBeInstanceOf(SvcServerError);
    expect(e.status).toBe(502);
    expect(e.attempts).toBe(5);
    expect(t.requests).toHaveLength(5);
    expect(waits).toEqual([100, 200, 400, 800]);
  });

  it('recovers when a retry succeeds and reports the attempts', async () => {
    let n = 0;
    const t = await serve((_req, res) => {
      n++;
      if (n < 3) json(res, 500, { error: { code: 'internal', message: 'oops' } });
      else json(res, 200, { status: 'ok' });
    });
    const { c, waits } = client({ baseUrl: t.url });
    const r = await c.health();
    expect(r.attempts).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it('maxAttempts bounds the requests', async () => {
    const t = await serve((_req, res) => json(res, 503, { error: { code: 'scoring_unavailable', message: 'down' } }));
    const { c } = client({ baseUrl: t.url, maxAttempts: 2 });
    const e = await caught(c.health());
    expect(e.attempts).toBe(2);
    expect(t.requests).toHaveLength(2);
  });

  it('a 429 with an unknown code is an unknown error, not retried', async () => {
    const t = await serve((_req, res) =>
      json(res, 429, { error: { code: 'daily_cap_reached', message: 'slow down' } }, { 'retry-after': '9' }),
    );
    const { c, waits } = client({ baseUrl: t.url });
    const e = await caught(c.getUsage());
    expect(e).toBeInstanceOf(SvcUnknownError);
    expect(e.retryAfterMs).toBe(9000);
    expect(t.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('a body that stalls after the headers times out as a network error, asked once more at most', async () => {
    const t = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"object":'); // and never finish
    });
    const { c } = client({ baseUrl: t.url, timeoutMs: 200 });
    const e = await caught(c.getUsage());
    expect(e).toBeInstanceOf(SvcNetworkError);
    expect(e.code).toBe('deadline_exceeded');
    expect(e.message).toMatch(/timed out after 200 ms \(headers and body together\)/);
    expect(e.attempts).toBe(2);
    expect(t.requests).toHaveLength(2);
  });

  it('a refused connection is a network error, retried', async () => {
    const port = await freePort(); // closed again: nothing listens there
    const { c, waits } = client({ baseUrl: `http://127.0.0.1:${port}` });
    const e = await caught(c.getUsage());
    expect(e).toBeInstanceOf(SvcNetworkError);
    expect(e.status).toBeNull();
    expect(e.message).toMatch(/connection failed/);
    expect(e.attempts).toBe(5);
    expect(waits).toHaveLength(4);
    expectNoKey(e);
  });

  it("the caller's abort is passed through, not retried", async () => {
    const t = await serve(() => {
      /* never answers */
    });
    const { c } = client({ baseUrl: t.url, timeoutMs: 30_000 });
    const ac = new AbortController();
    const p = c.getScore({ dot_number: '1000003' }, { signal: ac.signal });
    while (t.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    ac.abort(new Error('caller gave up'));
    await expect(p).rejects.toThrow('caller gave up');
    expect(t.requests).toHaveLength(1);
  });

  it('health returns a non-JSON 200 body as text', async () => {
    const t = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('OK');
    });
    const { c } = client({ baseUrl: t.url });
    expect((await c.health()).body).toBe('OK');
  });
});
