/**
 * What every answer carries for an integrator (docs/api.md): X-Request-Id (theirs echoed, or
 * ours), Carrier-Screen-Version (pinnable), Retry-After on 202 and 503; and small refusals
 * that keep bad data out: credentials in a callback URL, an empty tender_id, DOT 0.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '../../worker/intake/server.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function call(method: 'GET' | 'POST', path: string, o: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(o.body ? { 'content-type': 'application/json' } : {}), ...o.headers },
    ...(o.body ? { body: JSON.stringify(o.body) } : {}),
  });
  return { status: res.statusCode, headers: res.headers, json: (await res.body.json()) as any };
}

describe('headers on every answer', () => {
  it("X-Request-Id: the caller's own when it is a sane id, else a new one", async () => {
    expect((await call('GET', '/status', { headers: { 'x-request-id': 'tms-7f3a.42' } })).headers['x-request-id']).toBe('tms-7f3a.42');
    expect((await call('GET', '/status')).headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
    expect((await call('GET', '/status', { headers: { 'x-request-id': 'has spaces <and> more' } })).headers['x-request-id']).toMatch(
      /^req_/,
    );
    // Errors carry it too.
    expect((await call('GET', '/screenings/scr_nope')).headers['x-request-id']).toMatch(/^req_/);
  });

  it('Carrier-Screen-Version on every answer; a request may pin it; an unknown one is 400 naming the header', async () => {
    expect((await call('GET', '/status')).headers['carrier-screen-version']).toBe(API_VERSION);
    expect((await call('GET', '/status', { headers: { 'carrier-screen-version': API_VERSION } })).status).toBe(200);
    const bad = await call('GET', '/status', { headers: { 'carrier-screen-version': '1999-01-01' } });
    expect([bad.status, bad.json.error.param]).toEqual([400, 'Carrier-Screen-Version']);
  });

  it('a 202 says when to look again (Retry-After)', async () => {
    const r = await call('POST', '/screenings', { body: { dot_number: '1000004' } });
    expect(r.status).toBe(202);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('refused at the door', () => {
  it('a callback_url with credentials, an empty tender_id, DOT 0: 400 naming the parameter, nothing kept', async () => {
    const before = (await call('GET', '/screenings?limit=100')).json.data.length;
    for (const [body, param] of [
      [{ dot_number: '1000003', callback_url: 'https://user:pass@tms.example/hook' }, 'callback_url'],
      [{ dot_number: '1000003', tender_id: '' }, 'tender_id'],
      [{ dot_number: '0' }, 'dot_number'],
      [{ dot_number: 0 }, 'dot_number'],
    ] as const) {
      const r = await call('POST', '/screenings', { body });
      expect([r.status, r.json.error.code, r.json.error.param]).toEqual([400, 'invalid_request', param]);
    }
    expect((await call('GET', '/screenings?limit=100')).json.data.length).toBe(before);
  });
});
