import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_CSP } from '../../worker/intake/static-ui.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let uiRoot: string;
let secretDir: string;

async function send(method: string, path: string, headers: Record<string, string> = {}) {
  const res = await request(stack.intakeUrl + path, { method: method as 'GET', headers });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

beforeAll(async () => {
  const base = mkdtempSync(join(tmpdir(), 'cs-ui-'));
  uiRoot = join(base, 'renderer');
  secretDir = join(base, 'private');
  mkdirSync(join(uiRoot, 'assets'), { recursive: true });
  mkdirSync(secretDir);
  writeFileSync(join(uiRoot, 'index.html'), '<!doctype html><title>tray</title><script src="app.js"></script>');
  writeFileSync(join(uiRoot, 'app.js'), 'console.log("tray")');
  writeFileSync(join(uiRoot, 'assets', 'style.css'), 'body{}');
  writeFileSync(join(secretDir, 'secret.txt'), 'TOP-SECRET');
  symlinkSync(join(secretDir, 'secret.txt'), join(uiRoot, 'escape.txt'));
  stack = await startStack({ uiDir: uiRoot });
});
afterAll(async () => {
  await stack?.close();
  rmSync(join(uiRoot, '..'), { recursive: true, force: true });
});

describe('auth on every route', () => {
  it('every documented route and the hidden ones answer 401 without the token, with a wrong one, or a near miss', async () => {
    const doc = JSON.parse((await send('GET', '/openapi.json', { authorization: `Bearer ${stack.token}` })).text) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes: Array<[string, string]> = [['GET', '/events']];
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (path === '/healthz') continue;
      const concrete = path.replace('{id}', path.startsWith('/reviews') ? `rev_${'a'.repeat(26)}` : `scr_${'a'.repeat(26)}`);
      for (const m of Object.keys(methods)) if (m !== 'head') routes.push([m.toUpperCase(), concrete]);
    }
    expect(routes.length).toBeGreaterThanOrEqual(12);
    const wrong: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token-of-some-length' },
      { authorization: `Bearer ${stack.token}x` },
      { authorization: `Bearer ${stack.token.slice(0, -1)}` },
      { authorization: stack.token },
      { authorization: `Basic ${Buffer.from(`user:${stack.token}`).toString('base64')}` },
      { authorization: 'Bearer' },
    ];
    for (const [method, path] of routes) {
      for (const headers of wrong) {
        const r = await send(method, path, headers);
        expect(r.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(JSON.parse(r.text).error.code).toBe('unauthorized');
        expect(r.headers['www-authenticate']).toBe('Bearer');
      }
    }
  });

  it('/openapi.json needs no token (the contract holds no data) and names no secret', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-of-some-length' }] as Array<Record<string, string>>) {
      const r = await send('GET', '/openapi.json', headers);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text).openapi).toBe('3.1.0');
      expect(r.text).not.toContain(stack.token);
      expect(r.text).not.toContain(stack.callbackSecret);
    }
  });

  it('the token works in any case of "Bearer"; /healthz needs none', async () => {
    expect((await send('GET', '/status', { authorization: `bearer ${stack.token}` })).status).toBe(200);
    expect((await send('GET', '/status', { authorization: `Bearer ${stack.token}` })).status).toBe(200);
    const h = await send('GET', '/healthz');
    expect(h.status).toBe(200);
    expect(h.text).not.toContain(stack.token);
    expect(h.text).not.toContain(stack.callbackSecret);
    expect(h.headers['x-powered-by']).toBeUndefined();
    expect(h.headers.server).toBeUndefined();
  });
});

describe('GET /ui/* (static tray files)', () => {
  it('serves files without auth, with the strict CSP and the right types', async () => {
    const index = await send('GET', '/ui/');
    expect(index.status).toBe(200);
    expect(index.text).toContain('<title>tray</title>');
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['content-security-policy']).toBe(UI_CSP);
    expect(UI_CSP).toBe(
      "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    );
    const js = await send('GET', '/ui/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    const css = await send('GET', '/ui/assets/style.css');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const bare = await send('GET', '/ui');
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('/ui/');
  });

  it('404 JSON for a missing file; no path traversal, encoded or through a symlink', async () => {
    for (const path of [
      '/ui/missing.js',
      '/ui/%2e%2e/private/secret.txt',
      '/ui/..%2fprivate%2fsecret.txt',
      '/ui/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/ui/assets/..%2f..%2fprivate%2fsecret.txt',
      '/ui/escape.txt',
      '/ui/%00',
      '/ui/..%5cprivate%5csecret.txt',
    ]) {
      const r = await send('GET', path);
      // 401: the router resolved the dots and left /ui/ (unknown routes need the token).
      expect([400, 401, 404], path).toContain(r.status);
      expect(r.text).not.toContain('TOP-SECRET');
      expect(r.text).not.toContain('root:');
      expect(JSON.parse(r.text).error.code, path).toMatch(/^(resource_missing|route_not_found|invalid_request|unauthorized)$/);
    }
  });
});
