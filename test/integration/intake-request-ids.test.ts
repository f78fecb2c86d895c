/**
 * "Quote X-Request-Id to support" (issue 32): every answer carries it — those Node's parser
 * refuses before a request exists (431, 408) and the /events stream too — and each request is
 * logged at the default level (info) with that id, its route, its status and the screening it
 * concerns.
 */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  // The default level: nothing here may need LOG_LEVEL=debug. Short door time-outs for the 408.
  stack = await startStack({ logger: pino({ level: 'info' }, sink), limits: { headersTimeoutMs: 1_000, requestTimeoutMs: 1_000 } });
});
afterAll(async () => {
  await stack?.close();
});

/** Raw bytes to the intake; resolves with what came back when the server closes the socket. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(Number(new URL(stack.intakeUrl).port), '127.0.0.1');
    let got = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (got += d));
    s.on('error', () => resolve(got));
    s.on('close', () => resolve(got));
    s.on('connect', () => s.write(bytes));
    s.setTimeout(20_000, () => reject(new Error('no answer')));
  });
}
const headerOf = (answer: string, name: string): string | undefined => new RegExp(`^${name}: (.*)\\r$`, 'im').exec(answer)?.[1];
const logOf = (reqId: string) => lines.filter((l) => l.reqId === reqId);

describe('X-Request-Id on every answer', () => {
  it('a 431 (headers too large) carries one, and the log names it', async () => {
    const answer = await raw(`GET /status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    const id = headerOf(answer, 'X-Request-Id');
    expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe('headers_too_large');
    expect(logOf(id!)).toEqual([expect.objectContaining({ level: 30, status: 431, code: 'headers_too_large' })]);
  });

  it('a 408 (headers not received in time) carries one, and the log names it', async () => {
    // Half a request line, then nothing: Node's headers time-out answers.
    const answer = await raw('GET /status HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    const id = headerOf(answer, 'X-Request-Id');
    expect(id).toMatch(/^req_/);
    expect(logOf(id!)).toEqual([expect.objectContaining({ level: 30, status: 408, code: 'request_timeout' })]);
  });

  it("/events carries the caller's id (and the version), and its opening is logged", async () => {
    const c = new AbortController();
    const res = await request(`${stack.intakeUrl}/events`, {
      headers: { authorization: `Bearer ${stack.token}`, 'x-request-id': 'tms-stream-1' },
      signal: c.signal,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('tms-stream-1');
    expect(res.headers['carrier-screen-version']).toBeTruthy();
    c.abort();
    await res.body.text().catch(() => {});
    expect(logOf('tms-stream-1')).toEqual([expect.objectContaining({ level: 30, msg: 'request', route: '/events', status: 200 })]);
  });
});

describe('each request is logged at info', () => {
  it('with its id, route, status and the screening it made or read', async () => {
    const post = await request(`${stack.intakeUrl}/screenings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json', 'x-request-id': 'tms-post-1' },
      body: JSON.stringify({ dot_number: '1000001' }),
    });
    const s = (await post.body.json()) as { id: string };
    expect(post.headers['x-request-id']).toBe('tms-post-1');
    const get = await request(`${stack.intakeUrl}/screenings/${s.id}`, { headers: { authorization: `Bearer ${stack.token}` } });
    await get.body.text();
    const getId = String(get.headers['x-request-id']);
    const missing = await request(`${stack.intakeUrl}/reviews/rev_${'a'.repeat(26)}`, {
      headers: { authorization: `Bearer ${stack.token}` },
    });
    await missing.body.text();
    expect(logOf('tms-post-1')).toContainEqual(
      expect.objectContaining({
        level: 30,
        msg: 'request',
        method: 'POST',
        route: '/screenings',
        status: post.statusCode,
        screening_id: s.id,
      }),
    );
    expect(logOf(getId)).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'request', route: '/screenings/:id', status: 200, screening_id: s.id }),
    );
    expect(logOf(String(missing.headers['x-request-id']))).toContainEqual(
      expect.objectContaining({ level: 30, route: '/reviews/:id', status: 404 }),
    );
    // Never the token.
    expect(JSON.stringify(lines)).not.toContain(stack.token);
  });
});
