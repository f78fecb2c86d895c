import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay } from '../../electron/shared/backoff.js';
import { IntakeError, type ConnectionState } from '../../electron/shared/bridge.js';
import { HttpBridge } from '../../electron/shared/http-bridge.js';
import { SseParser, type SseMessage } from '../../electron/shared/sse-parser.js';
import type { IntakeEvent } from '../../shared/screening.js';

function parseAll(chunks: string[]): { messages: SseMessage[]; comments: string[]; retries: number[] } {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const p = new SseParser({ onMessage: (m) => messages.push(m), onComment: (c) => comments.push(c), onRetry: (ms) => retries.push(ms) });
  for (const c of chunks) p.push(c);
  return { messages, comments, retries };
}

describe('SSE parser', () => {
  it('reads id, event and data lines, and skips comments and unknown fields', () => {
    const { messages, comments, retries } = parseAll([
      ':hb\n\nid: 7\nevent: review.created\ndata: {"a":1}\nfoo: bar\n\n',
      'retry: 1500\n:hb\n\ndata: line one\ndata: line two\n\n',
    ]);
    expect(messages).toEqual([
      { id: '7', event: 'review.created', data: '{"a":1}' },
      { id: '7', event: 'message', data: 'line one\nline two' },
    ]);
    expect(comments).toEqual(['hb', 'hb']);
    expect(retries).toEqual([1500]);
  });

  it('takes LF, CRLF and CR line ends, even when a CRLF is split between chunks', () => {
    expect(parseAll(['id: 1\r\nevent: a\r\ndata: x\r\n\r\n']).messages).toEqual([{ id: '1', event: 'a', data: 'x' }]);
    expect(parseAll(['id: 2\revent: b\rdata: y\r\r']).messages).toEqual([{ id: '2', event: 'b', data: 'y' }]);
    expect(parseAll(['data: z\r', '\n\r', '\n']).messages).toEqual([{ id: '', event: 'message', data: 'z' }]);
  });

  it('keeps the last id for a block without data, and drops an unfinished event at the end', () => {
    const p = new SseParser({ onMessage: () => undefined });
    p.push('id: 41\n\nid: 42\ndata: partial');
    // 42 never ended: resuming must ask for it again.
    expect(p.lastEventId).toBe('41');
    const got: SseMessage[] = [];
    const q = new SseParser({ onMessage: (m) => got.push(m) }, '40');
    q.push('data: no id field\n\n');
    expect(got).toEqual([{ id: '40', event: 'message', data: 'no id field' }]);
  });

  it('gives the same messages however the stream is cut into chunks', () => {
    const stream =
      ':hb\n\nid: 1\nevent: screening.completed\ndata: {"id":"scr_1","name":"Ä & <b>"}\n\nid: 2\r\nevent: quota.changed\r\ndata: {}\r\n\r\n:hb\r\rid: 3\rdata: a\rdata: b\r\r';
    const whole = parseAll([stream]).messages;
    expect(whole).toHaveLength(3);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 12 }), (cuts) => {
        const sorted = [...cuts].sort((a, b) => a - b);
        const chunks: string[] = [];
        let at = 0;
        for (const c of sorted) {
          chunks.push(stream.slice(at, c));
          at = c;
        }
        chunks.push(stream.slice(at));
        expect(parseAll(chunks).messages).toEqual(whole);
      }),
    );
  });
});

describe('reconnect backoff', () => {
  it('grows exponentially to the cap, with jitter between 75 % and 100 %', () => {
    const opts = { initialMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, opts, () => 0.999999))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(2, opts, () => 0)).toBe(300);
    expect(() => backoffDelay(-1, opts)).toThrow(/attempt/);
  });
});

// ---- a real SSE server on a free loopback port ----

interface Conn {
  lastEventId: string | undefined;
  auth: string | undefined;
  res: ServerResponse;
}

let server: Server | undefined;
let bridge: HttpBridge | undefined;

afterEach(async () => {
  bridge?.close();
  bridge = undefined;
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server?.close(r));
    server = undefined;
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function until(cond: () => boolean, what: string | (() => string)): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${typeof what === 'string' ? what : what()}`);
}

function frame(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

describe('HttpBridge event stream against a real HTTP server', () => {
  it('reconnects after the server drops the stream and resumes with Last-Event-ID', async () => {
    const conns: Conn[] = [];
    const log = [frame(1, 'review.created', { n: 1 }), frame(2, 'queue.changed', { n: 2 }), frame(3, 'review.resolved', { n: 3 })];
    const base = await serve((req, res) => {
      if (req.url !== '/events') return void res.writeHead(404).end();
      const conn: Conn = { lastEventId: req.headers['last-event-id'] as string | undefined, auth: req.headers.authorization, res };
      conns.push(conn);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(':hb\n\n');
      const from = conn.lastEventId ? Number(conn.lastEventId) : 0;
      if (conns.length === 1) {
        // First connection: two events, then the connection breaks mid-stream.
        res.write(log[0]! + log[1]! + 'id: 3\nevent: review.res');
        setImmediate(() => req.socket.destroy());
      } else {
        res.write(log.slice(from).join(''));
      }
    });
    bridge = new HttpBridge({ baseUrl: base, token: 'tok-123', backoff: { initialMs: 5, maxMs: 20 } });
    const states: ConnectionState[] = [];
    bridge.onConnectionChange((s) => states.push(s));
    const events: IntakeEvent[] = [];
    bridge.onEvent((e) => events.push(e));
    await until(
      () => events.length >= 3,
      () => `three events (got ${JSON.stringify(events)}, ${conns.length} connections, states ${states.join(',')})`,
    );

    expect(events).toEqual([
      { id: 1, event: 'review.created', data: { n: 1 } },
      { id: 2, event: 'queue.changed', data: { n: 2 } },
      { id: 3, event: 'review.resolved', data: { n: 3 } },
    ]);
    expect(conns).toHaveLength(2);
    expect(conns[0]?.lastEventId).toBeUndefined();
    expect(conns[1]?.lastEventId).toBe('2');
    expect(conns.every((c) => c.auth === 'Bearer tok-123')).toBe(true);
    expect(states.slice(0, 4)).toEqual(['connecting', 'open', 'reconnecting', 'open']);
  });

  it('keeps retrying while the server answers 503, then opens', async () => {
    let calls = 0;
    const base = await serve((req, res) => {
      calls++;
      if (calls < 4)
        return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"unavailable","message":"down"}}');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame(9, 'quota.changed', { remaining: 5 }));
    });
    bridge = new HttpBridge({ baseUrl: base, token: 't', backoff: { initialMs: 5, maxMs: 20 } });
    const events: IntakeEvent[] = [];
    bridge.onEvent((e) => events.push(e));
    await until(() => events.length === 1, 'the event after recovery');
    expect(calls).toBe(4);
    expect(bridge.connectionState()).toBe('open');
  });

  it('reconnects when the stream goes silent past the idle limit', async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (calls === 1)
        res.write(frame(1, 'a', 1)); // then silence
      else res.write(frame(2, 'b', 2));
    });
    bridge = new HttpBridge({ baseUrl: base, token: 't', backoff: { initialMs: 5, maxMs: 20 }, idleTimeoutMs: 150 });
    const events: IntakeEvent[] = [];
    bridge.onEvent((e) => events.push(e));
    await until(() => events.length === 2, 'an event on the second connection');
    expect(events.map((e) => e.event)).toEqual(['a', 'b']);
    expect(calls).toBe(2);
  });

  it('on 401 says unauthorized and tries again later, not never; reconnect() tries at once and a re-enabled token gets in', async () => {
    let calls = 0;
    let accepted = false;
    const base = await serve((_req, res) => {
      calls++;
      if (!accepted)
        return void res
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"error":{"code":"unauthorized","message":"bad token"}}');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: 1\nevent: a\ndata: {}\n\n');
    });
    const states: ConnectionState[] = [];
    bridge = new HttpBridge({ baseUrl: base, token: 'wrong', backoff: { initialMs: 1, maxMs: 2 }, refusedRetryMs: 3_600_000 });
    bridge.onConnectionChange((s) => states.push(s));
    const events: IntakeEvent[] = [];
    bridge.onEvent((e) => events.push(e));
    await until(() => bridge?.connectionState() === 'unauthorized', 'unauthorized');
    expect(calls).toBe(1);
    // The old bridge stopped here for good. Now the token is re-enabled and Settings → Save asks again.
    accepted = true;
    bridge.reconnect();
    await until(() => events.length === 1, 'an event after the refusal');
    expect(calls).toBe(2);
    expect(states).toEqual(['connecting', 'unauthorized', 'open']);
  });

  it('after a refusal keeps trying at the slow pace by itself', async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls++;
      if (calls < 3) return void res.writeHead(403).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(':hb\n\n');
    });
    bridge = new HttpBridge({ baseUrl: base, token: 't', backoff: { initialMs: 1, maxMs: 2 }, refusedRetryMs: 5 });
    bridge.onEvent(() => undefined);
    await until(() => bridge?.connectionState() === 'open', 'open after two refusals');
    expect(calls).toBe(3);
  });
});

describe('HttpBridge JSON calls against a real HTTP server', () => {
  it('sends the token and JSON body, and turns error bodies into IntakeErrors with their code', async () => {
    const seen: Array<{ method?: string; url?: string; auth?: string; body: string }> = [];
    const base = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
        res.setHeader('content-type', 'application/json');
        if (req.url === '/reviews/rev_1/approve')
          return void res.writeHead(409).end('{"error":{"code":"review_conflict","message":"already approved by Sam"}}');
        if (req.url === '/reviews?state=pending&limit=100')
          return void res.end('{"object":"list","data":[{"object":"review","id":"rev_2"}]}');
        if (req.url === '/screenings?limit=5') return void res.writeHead(500).end('not json');
        res.writeHead(404).end('{"error":{"code":"not_found","message":"no such route","param":"id"}}');
      });
    });
    bridge = new HttpBridge({ baseUrl: `${base}/`, token: 'tok' });
    expect((await bridge.listReviews('pending')).map((r) => r.id)).toEqual(['rev_2']);

    const conflict = await bridge.resolveReview('rev_1', 'approve', { by: ' Dana ', note: 'ok by phone' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(IntakeError);
    expect(conflict).toMatchObject({ status: 409, code: 'review_conflict', message: 'already approved by Sam' });
    expect(seen[1]).toEqual({
      method: 'POST',
      url: '/reviews/rev_1/approve',
      auth: 'Bearer tok',
      body: '{"by":"Dana","note":"ok by phone"}',
    });

    await expect(bridge.getScreening('x')).rejects.toMatchObject({ status: 404, code: 'not_found', param: 'id' });
    await expect(bridge.listScreenings(5)).rejects.toMatchObject({ status: 500, code: 'http_500' });
  });

  it('a decision sends the review version it was made on and no `by` for a named token; a review_stale answer carries the newest review', async () => {
    const seen: string[] = [];
    const newest = { object: 'review', id: 'rev_3', version: 4, state: 'pending' };
    const base = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${body}`);
        res.setHeader('content-type', 'application/json');
        if (req.url === '/me') return void res.end('{"object":"caller","token_id":"tok_1","name":"Dana Desk","role":"desk"}');
        res
          .writeHead(409)
          .end(JSON.stringify({ error: { code: 'review_stale', message: 'the facts changed', param: 'review_version', review: newest } }));
      });
    });
    bridge = new HttpBridge({ baseUrl: base, token: 'tok' });
    expect(await bridge.whoAmI()).toEqual({ object: 'caller', token_id: 'tok_1', name: 'Dana Desk', role: 'desk' });
    const stale = await bridge
      .resolveReview('rev_3', 'reject', { note: 'wrong insurer', block: true, review_version: 3 })
      .catch((e: unknown) => e);
    expect(stale).toMatchObject({ status: 409, code: 'review_stale', param: 'review_version', review: newest });
    expect(seen[1]).toBe('POST /reviews/rev_3/reject {"note":"wrong insurer","review_version":3,"block":true}');
    // A typed name (a token without one) goes as `by`; a worker without versions gets none.
    await bridge.resolveReview('rev_3', 'approve', { by: 'Eli', note: '' }).catch(() => undefined);
    expect(seen[2]).toBe('POST /reviews/rev_3/approve {"by":"Eli","note":""}');
    await bridge.acknowledgeChange('chg_1', null).catch(() => undefined);
    expect(seen[3]).toBe('POST /changes/chg_1/acknowledge {}');
    expect(() => bridge!.resolveReview('rev_3', 'approve', { note: '', review_version: 1.5 })).toThrow(/review_version must be/);
  });

  it('the recent decisions are one request of one page, however many pages there are', async () => {
    const seen: string[] = [];
    const base = await serve((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      res.end(
        '{"object":"list","data":[{"object":"review","id":"rev_9","state":"rejected"},{"object":"review","id":"rev_8","state":"approved"}],"has_more":true}',
      );
    });
    bridge = new HttpBridge({ baseUrl: base, token: 'tok' });
    expect((await bridge.recentDecisions(12)).map((r) => r.id)).toEqual(['rev_9', 'rev_8']);
    expect(seen).toEqual(['GET /reviews?state=decided&limit=12']);
    await expect(bridge.recentDecisions(0)).rejects.toThrow(/limit must be/);
    expect(seen).toHaveLength(1);
  });

  it('says the worker is unreachable when nothing listens', async () => {
    const base = await serve(() => undefined);
    server?.close();
    server = undefined;
    const b = new HttpBridge({ baseUrl: base, token: 't' });
    await expect(b.getStatus()).rejects.toMatchObject({ code: 'unreachable', status: 0 });
  });

  it('rejects bad arguments naming the parameter, before any request', async () => {
    expect(() => new HttpBridge({ baseUrl: 'ftp://x', token: 't' })).toThrow(/baseUrl must use http or https/);
    expect(() => new HttpBridge({ baseUrl: 'http://x', token: ' ' })).toThrow(/token/);
    const b = new HttpBridge({ baseUrl: 'http://127.0.0.1:9', token: 't' });
    await expect(b.listReviews('maybe' as never)).rejects.toThrow(/state must be one of/);
    await expect(b.listScreenings(0)).rejects.toThrow(/limit must be/);
    expect(() => b.resolveReview('r', 'approve', { by: '  ', note: '' })).toThrow(/by must be/);
    expect(() => b.resolveReview('', 'approve', { by: 'x', note: '' })).toThrow(/id must be/);
  });
});
