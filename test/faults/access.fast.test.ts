/**
 * Fault suite, scenario 7 — access to the intake API of a real `carrier-screen start` process:
 * every route needs the bearer token, the server binds loopback unless told otherwise, it
 * sends no framework banner, and request bodies are capped.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ensureBuilt } from '../helpers/processes.js';
import type { Answer, IntakeClient } from './support/intake-client.js';
import { startRecordingEmulator, type RecordingEmulator } from './support/recording-emulator.js';
import { installation, type Installation } from './support/worker-stack.js';

/** The server refused an upload by closing the connection before the client finished sending. */
function closedEarly(e: Error): boolean {
  return /EPIPE|ECONNRESET|closed|reset|other side/i.test(`${(e as NodeJS.ErrnoException).code ?? ''} ${e.message}`);
}

const SCREENING_ID = 'scr_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const REVIEW_ID = 'rev_aaaaaaaaaaaaaaaaaaaaaaaaaa';
/** Public by design (DESIGN.md: every route but /healthz; the dashboard's static files hold no data). */
// The contract holds no data: /openapi.json is public like the health probe and the UI files.
const PUBLIC = new Set(['/healthz', '/ui', '/ui/*', '/openapi.json']);

let emu: RecordingEmulator;
let inst: Installation;
let client: IntakeClient;

beforeAll(async () => {
  await ensureBuilt();
  emu = await startRecordingEmulator({ mode: 'sandbox', ratePerMinute: 100_000 });
  inst = await installation({ svcBaseUrl: emu.baseUrl, svcKey: emu.key, redisUrl: inject('redisUrl') });
  ({ client } = await inst.start());
}, 240_000); // room for a build of a stale dist/, or for waiting on another file's build

afterAll(async () => {
  await inst?.close();
  await emu?.close();
});

/** Every route the running intake serves, from its own OpenAPI document plus the hidden ones. */
async function routes(): Promise<Array<{ method: string; path: string; template: string }>> {
  const doc = (await client.call('GET', '/openapi.json')).json as { paths: Record<string, Record<string, unknown>> };
  const out: Array<{ method: string; path: string; template: string }> = [];
  for (const [template, ops] of Object.entries(doc.paths))
    for (const method of Object.keys(ops))
      out.push({
        method: method.toUpperCase(),
        template,
        path: template.replace('/screenings/{id}', `/screenings/${SCREENING_ID}`).replace('/reviews/{id}', `/reviews/${REVIEW_ID}`),
      });
  out.push({ method: 'GET', template: '/openapi.json', path: '/openapi.json' });
  return out;
}

function expectJsonError(a: Answer, status: number, code: string): void {
  expect(a.status).toBe(status);
  expect(String(a.headers['content-type'])).toMatch(/^application\/json/);
  expect(a.json?.error?.code).toBe(code);
  expect(typeof a.json?.error?.message).toBe('string');
}

describe('every intake route needs the bearer token', () => {
  it('answers 401 unauthorized without it, or with a wrong, truncated, padded or differently-carried one', async () => {
    const all = await routes();
    const guarded = all.filter((r) => !PUBLIC.has(r.template));
    // The document must list what the TMS and the tray use, or this test checks too little.
    expect(guarded.map((r) => `${r.method} ${r.template}`)).toEqual(
      expect.arrayContaining([
        'POST /screenings',
        'GET /screenings/{id}',
        'GET /reviews',
        'POST /reviews/{id}/approve',
        'POST /reviews/{id}/reject',
        'GET /status',
        'GET /events',
        'POST /queue/pause',
        'POST /queue/resume',
        'GET /usage/daily',
      ]),
    );
    const t = inst.token;
    const wrong: Array<[string, string | null]> = [
      ['no header', null],
      ['empty', ''],
      ['Bearer and nothing', 'Bearer '],
      ['wrong token', 'Bearer wrong-token-0123456789abcdef'],
      ['token minus its last character', `Bearer ${t.slice(0, -1)}`],
      ['token plus a character', `Bearer ${t}x`],
      ['token as Basic', `Basic ${Buffer.from(`user:${t}`).toString('base64')}`],
      ['token without the scheme', t],
      ['two tokens', `Bearer wrong-token-0123456789abcdef Bearer ${t}`],
    ];
    let checked = 0;
    for (const r of guarded) {
      for (const [why, authorization] of wrong) {
        const body = r.method === 'POST' ? (r.path.startsWith('/reviews') ? { by: 'x' } : { dot_number: '1000001' }) : undefined;
        const a = await client.call(r.method, r.path, { authorization, ...(body ? { body } : {}), timeoutMs: 5_000 });
        expect({ route: `${r.method} ${r.path}`, why, status: a.status, code: a.json?.error?.code }).toEqual({
          route: `${r.method} ${r.path}`,
          why,
          status: 401,
          code: 'unauthorized',
        });
        expect(String(a.headers['www-authenticate'])).toMatch(/^Bearer/);
        checked++;
      }
      // The token in the query string is not a way in either.
      const q = await client.call(r.method, `${r.path}?token=${encodeURIComponent(t)}&access_token=${encodeURIComponent(t)}`, {
        authorization: null,
      });
      expect(q.status, `${r.method} ${r.path} with the token in the query`).toBe(401);
    }
    expect(checked).toBeGreaterThanOrEqual(10 * wrong.length);
    // Nothing was accepted: no screening reached the worker.
    expect(emu.requests).toHaveLength(0);
    // Routes that are not there are 401 too: an unauthenticated caller learns nothing.
    expectJsonError(await client.call('GET', '/admin', { authorization: null }), 401, 'unauthorized');
  });

  it('with the token, the same routes answer (not 401)', async () => {
    const a = await client.call('GET', '/status');
    expect(a.status).toBe(200);
    expect((await client.call('GET', `/screenings/${SCREENING_ID}`)).status).toBe(404);
  });
});

/** Local addresses a TCP port listens on, from the kernel's socket table (Linux). */
function listening(port: number): string[] {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const out: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // st 0A = LISTEN
      if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A') out.push(f[1].split(':')[0]!);
    }
  }
  return out;
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port, timeout: 2_000 });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

const externalIPv4 = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe('where the intake listens', () => {
  it('binds 127.0.0.1 by default: not reachable on another interface', async () => {
    const port = inst.proc!.port;
    const addrs = listening(port);
    expect(addrs.length).toBeGreaterThan(0);
    // 0100007F is 127.0.0.1 in the kernel's byte order.
    expect(
      addrs.every((a) => a === '0100007F'),
      `listening on ${addrs.join(', ')}`,
    ).toBe(true);
    if (externalIPv4) expect(await canConnect(externalIPv4, port)).toBe(false);
  });

  it('binds another address only when INTAKE_HOST says so', async () => {
    // Plain HTTP on a wide address also needs INTAKE_INSECURE_HTTP=1 (a TLS proxy in front);
    // without it the start is refused (test/faults/intake-door.fast.test.ts).
    const other = await installation({
      svcBaseUrl: emu.baseUrl,
      svcKey: emu.key,
      redisUrl: inject('redisUrl'),
      env: { INTAKE_HOST: '0.0.0.0', INTAKE_INSECURE_HTTP: '1' },
    });
    try {
      const { proc } = await other.start();
      expect(listening(proc.port)).toContain('00000000');
      if (externalIPv4) expect(await canConnect(externalIPv4, proc.port)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('what the intake says about itself', () => {
  it('no framework banner: no Server or X-Powered-By header, no framework name in any header', async () => {
    const answers = [
      await client.call('GET', '/healthz', { authorization: null }),
      await client.call('GET', '/status'),
      await client.call('GET', '/status', { authorization: null }),
      await client.call('GET', '/no/such/route'),
      await client.call('POST', '/screenings', { raw: '{', contentType: 'application/json' }),
      await client.call('POST', '/screenings', { body: { dot_number: '1000004' } }),
      await client.call('GET', '/openapi.json'),
    ];
    for (const a of answers) {
      expect(a.headers.server, `status ${a.status}`).toBeUndefined();
      expect(a.headers['x-powered-by'], `status ${a.status}`).toBeUndefined();
      expect(JSON.stringify(a.headers)).not.toMatch(/fastify|express|node\.js/i);
      expect(a.headers['x-content-type-options']).toBe('nosniff');
    }
    // Error bodies are ours, not the framework's ({"statusCode":…,"error":"Bad Request"}).
    const bad = answers[4]!;
    expectJsonError(bad, 400, 'invalid_request');
    expect(bad.json.statusCode).toBeUndefined();
  });
});

describe('request bodies are capped', () => {
  it('a body just over the cap is 413 payload_too_large; a megabytes-long one is refused the same way, and the worker lives on', async () => {
    const justOver = { dot_number: '1000001', tender_id: 'x'.repeat(20 * 1024) };
    expectJsonError(await client.call('POST', '/screenings', { body: justOver }), 413, 'payload_too_large');
    // The server may answer 413 and close before the upload ends: the client then sees the
    // connection go (EPIPE, reset). Both are the refusal; a 2xx, a 5xx or no answer are not.
    const expectRefused = async (path: string, raw: Buffer): Promise<void> => {
      const a = await client.call('POST', path, { raw, contentType: 'application/json', timeoutMs: 20_000 }).catch((e: Error) => e);
      if (a instanceof Error) expect(closedEarly(a)).toBe(true);
      else expectJsonError(a, 413, 'payload_too_large');
    };
    await expectRefused('/screenings', Buffer.alloc(8 * 1024 * 1024, 'a'));
    await expectRefused(`/reviews/${REVIEW_ID}/approve`, Buffer.alloc(2 * 1024 * 1024, ' '));
    expect(inst.proc!.alive()).toBe(true);
    expect((await client.call('GET', '/healthz', { authorization: null })).status).toBe(200);
  });

  it('a chunked body without Content-Length is capped too', async () => {
    const { request } = await import('undici');
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, ' ');
    }
    const res = await request(`${inst.proc!.url}/screenings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json' },
      body: Readable.from(chunks()),
      signal: AbortSignal.timeout(15_000),
    }).catch((e: Error) => e);
    // The server may answer 413 and close before the client has sent it all; either way no 2xx, no 5xx.
    if (res instanceof Error) expect(closedEarly(res)).toBe(true);
    else {
      expect(res.statusCode).toBe(413);
      expect(((await res.body.json()) as any).error.code).toBe('payload_too_large');
    }
    expect(inst.proc!.alive()).toBe(true);
  });
});
