import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchEntry } from '../../shared/screening.js';
import { startStack, type Stack } from '../helpers/stack.js';

/** /watchlist, /blocks and /changes: input validation, auth and the manual watch list. */

let stack: Stack;

async function call(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  o: { token?: string | null; raw?: string; contentType?: string } = {},
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {};
  const token = o.token === undefined ? stack.token : o.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const payload = o.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined) headers['content-type'] = o.contentType ?? 'application/json';
  const res = await request(stack.intakeUrl + path, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
  return { status: res.statusCode, json: await res.body.json() };
}

function expect400(r: { status: number; json: any }, param: string): void {
  expect(r.status).toBe(400);
  expect(r.json.error.code).toBe('invalid_request');
  expect(r.json.error.param).toBe(param);
  expect(r.json.error.message).toContain(param);
}

beforeAll(async () => {
  stack = await startStack({ mode: 'sandbox' });
});
afterAll(async () => {
  await stack?.close();
});

describe('watch list routes', () => {
  it('adds, lists and removes a carrier by hand', async () => {
    // 10 digits is not a DOT number.
    expect400(await call('POST', '/watchlist', { dot_number: '0001000001' }), 'dot_number');

    const a = await call('POST', '/watchlist', { dot_number: 1000001, note: 'broker asked' });
    expect(a.status).toBe(201);
    expect(a.json).toMatchObject({
      object: 'watch_entry',
      dot_number: '1000001',
      manual: true,
      note: 'broker asked',
      watch_until: null,
      last: null,
    });
    const again = await call('POST', '/watchlist', { dot_number: '1000001' });
    expect(again.status).toBe(200);
    expect(again.json.note).toBe('broker asked');
    expect((await call('POST', '/watchlist', { mc_number: 'mc-1000002' })).json).toMatchObject({ mc_number: 'MC1000002', manual: true });

    const list = await call('GET', '/watchlist');
    expect(list.status).toBe(200);
    expect((list.json.data as WatchEntry[]).map((e) => e.dot_number ?? e.mc_number).sort()).toEqual(['1000001', 'MC1000002']);

    const del = await call('DELETE', '/watchlist/1000001');
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ object: 'watch_entry_removed', dot_number: '1000001', mc_number: null });
    expect((await call('DELETE', '/watchlist/MC1000002')).status).toBe(200);
    expect((await call('GET', '/watchlist')).json.data).toEqual([]);
    const gone = await call('DELETE', '/watchlist/1000001');
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe('resource_missing');
  });

  it('rejects bad input naming the parameter', async () => {
    expect400(await call('POST', '/watchlist', {}), 'dot_number');
    expect400(await call('POST', '/watchlist', { dot_number: '12a' }), 'dot_number');
    expect400(await call('POST', '/watchlist', { dot_number: '1', mc_number: 'MC1' }), 'dot_number');
    expect400(await call('POST', '/watchlist', { mc_number: 'XX1' }), 'mc_number');
    expect400(await call('POST', '/watchlist', { dot_number: '1', note: 5 }), 'note');
    expect400(await call('POST', '/watchlist', { dot_number: '1', until: 'never' }), 'until');
    expect400(await call('POST', '/watchlist', undefined, { raw: '[1]' }), 'body');
    expect400(await call('GET', '/watchlist?limit=0'), 'limit');
    expect400(await call('GET', '/watchlist?state=x'), 'state');
    expect400(await call('DELETE', '/watchlist/abc'), 'dot');
    expect400(await call('DELETE', '/watchlist/123456789'), 'dot');
    expect((await call('POST', '/watchlist', undefined, { raw: 'dot_number=1', contentType: 'text/plain' })).status).toBe(415);
  });
});

describe('block routes', () => {
  it('rejects bad input naming the parameter', async () => {
    expect400(await call('POST', '/blocks', { dot_number: '1000001', reason: 'x' }), 'by');
    expect400(await call('POST', '/blocks', { dot_number: '1000001', by: 'ops' }), 'reason');
    expect400(await call('POST', '/blocks', { dot_number: '1000001', by: '   ', reason: 'x' }), 'by');
    expect400(await call('POST', '/blocks', { dot_number: '1000001', by: 'ops', reason: '' }), 'reason');
    expect400(await call('POST', '/blocks', { dot_number: '1000001', by: 'ops', reason: 'x'.repeat(501) }), 'reason');
    expect400(await call('POST', '/blocks', { by: 'ops', reason: 'x' }), 'dot_number');
    expect400(await call('POST', '/blocks', { dot_number: 'one', by: 'ops', reason: 'x' }), 'dot_number');
    expect400(await call('POST', '/blocks', { dot_number: '1', by: 'ops', reason: 'x', extra: true }), 'extra');
    expect400(await call('DELETE', '/blocks/1000001', {}), 'by');
    expect400(await call('DELETE', '/blocks/x1', { by: 'ops' }), 'dot');
    expect400(await call('GET', '/blocks?state=gone'), 'state');
    const none = await call('DELETE', '/blocks/1000001', { by: 'ops' });
    expect(none.status).toBe(404);
    expect(none.json.error.code).toBe('resource_missing');
  });
});

describe('change routes', () => {
  it('rejects bad input naming the parameter', async () => {
    expect400(await call('GET', '/changes?state=old'), 'state');
    expect400(await call('GET', '/changes?limit=501'), 'limit');
    expect400(await call('POST', '/changes/chg_nope/acknowledge', { by: 'x' }), 'id');
    expect400(await call('POST', `/changes/chg_${'a'.repeat(26)}/acknowledge`, {}), 'by');
    const missing = await call('POST', `/changes/chg_${'a'.repeat(26)}/acknowledge`, { by: 'x' });
    expect(missing.status).toBe(404);
    expect((await call('GET', `/changes/chg_${'a'.repeat(26)}`)).status).toBe(404);
    expect((await call('GET', '/changes')).json).toEqual({ object: 'list', data: [], has_more: false });
  });
});

describe('auth and the API description', () => {
  it('every new route needs the bearer token', async () => {
    for (const [method, path] of [
      ['GET', '/watchlist'],
      ['POST', '/watchlist'],
      ['DELETE', '/watchlist/1'],
      ['GET', '/changes'],
      ['POST', `/changes/chg_${'a'.repeat(26)}/acknowledge`],
      ['GET', '/blocks'],
      ['POST', '/blocks'],
      ['DELETE', '/blocks/1'],
    ] as const) {
      const r = await call(method, path, method === 'GET' ? undefined : {}, { token: 'wrong' });
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.json.error.code).toBe('unauthorized');
    }
  });

  it('the OpenAPI document lists them', async () => {
    const paths = Object.keys((await call('GET', '/openapi.json')).json.paths);
    for (const p of [
      '/watchlist',
      '/watchlist/{dot}',
      '/changes',
      '/changes/{id}',
      '/changes/{id}/acknowledge',
      '/blocks',
      '/blocks/{dot}',
    ])
      expect(paths).toContain(p);
  });
});
