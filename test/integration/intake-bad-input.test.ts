import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * Bad input of every kind: never a 5xx, always our JSON error, `param` naming the field at
 * fault. The queue is paused so valid cases stay queued instead of spending emulator calls.
 */

let stack: Stack;
const FIELDS = ['dot_number', 'mc_number', 'tender_id', 'callback_url', 'priority', 'refresh'];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
  text: string;
  contentType: string;
}

async function send(
  method: string,
  path: string,
  o: { body?: string | Uint8Array; headers?: Record<string, string>; auth?: boolean } = {},
): Promise<Answer> {
  const res = await request(stack.intakeUrl + path, {
    method: method as 'GET',
    headers: { ...(o.auth === false ? {} : { authorization: `Bearer ${stack.token}` }), ...o.headers },
    ...(o.body === undefined ? {} : { body: o.body }),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, json, text, contentType: String(res.headers['content-type'] ?? '') };
}

const postJson = (path: string, body: unknown): Promise<Answer> =>
  send('POST', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/** A 4xx in our shape; returns the error object. */
function expectError(a: Answer, statuses: number[], code?: string): { code: string; message: string; param?: string } {
  if (!statuses.includes(a.status)) throw new Error(`expected ${statuses.join('/')}, got ${a.status}: ${a.text}`);
  expect(a.contentType).toMatch(/^application\/json/);
  expect(a.json).toBeTypeOf('object');
  const err = a.json.error;
  expect(Object.keys(a.json)).toEqual(['error']);
  expect(typeof err.code).toBe('string');
  expect(typeof err.message).toBe('string');
  expect(err.message.length).toBeGreaterThan(0);
  if (code) expect(err.code).toBe(code);
  return err;
}

beforeAll(async () => {
  stack = await startStack();
  // Warm the cache for 1000005 so valid query-string cases answer at once.
  const warm = await postJson('/screenings?wait=10', { dot_number: '1000005' });
  expect(warm.json.status).toBe('done');
  await stack.screener.pause();
});
afterAll(async () => {
  await stack?.close();
});

// A near-valid field value or something random.
const fieldValue = fc.oneof(
  fc.jsonValue(),
  fc.stringMatching(/^\d{1,10}$/),
  fc.integer({ min: -10, max: 1_000_000_000 }),
  fc.stringMatching(/^(mc|MC)[ -]?\d{0,10}$/),
  fc.constantFrom('tender', 'background', 'urgent', true, false, 'true', null, 'http://127.0.0.1:9/cb', 'ftp://x/y', 'javascript:alert(1)'),
  fc.string({ maxLength: 200 }),
);
const bodyArb = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 12 })), fieldValue, { maxKeys: 5 }),
  fc.jsonValue(),
);

describe('POST /screenings bodies', () => {
  it('any JSON body: 200/202 when valid, else 400 invalid_request naming a field', async () => {
    await fc.assert(
      fc.asyncProperty(bodyArb, async (body) => {
        const a = await postJson('/screenings', body);
        if (a.status === 200 || a.status === 202) {
          expect(a.json.object).toBe('screening');
          return;
        }
        const err = expectError(a, [400], 'invalid_request');
        expect(typeof err.param).toBe('string');
        const allowed = new Set(['body', 'dot_number', 'mc_number', 'callback_url']);
        if (body !== null && typeof body === 'object' && !Array.isArray(body)) for (const k of Object.keys(body)) allowed.add(k);
        expect(allowed.has(err.param!)).toBe(true);
      }),
      { numRuns: 1200 },
    );
  });

  it('names the field: unknown field, bad tender_id, bad callback_url, both identifiers, bad refresh', async () => {
    expect(expectError(await postJson('/screenings', { dot_number: '1', colour: 'red' }), [400]).param).toBe('colour');
    expect(expectError(await postJson('/screenings', { dot_number: '1', tender_id: 'x'.repeat(129) }), [400]).param).toBe('tender_id');
    expect(expectError(await postJson('/screenings', { dot_number: '1', callback_url: 'ftp://example.com/x' }), [400]).param).toBe(
      'callback_url',
    );
    expect(expectError(await postJson('/screenings', { dot_number: '1', mc_number: 'MC1' }), [400]).param).toBe('dot_number');
    expect(expectError(await postJson('/screenings', {}), [400]).param).toBe('dot_number');
    expect(expectError(await postJson('/screenings', { dot_number: '123456789' }), [400]).param).toBe('dot_number');
    expect(expectError(await postJson('/screenings', { mc_number: 'MX12' }), [400]).param).toBe('mc_number');
    expect(expectError(await postJson('/screenings', { dot_number: '1', refresh: 'yes' }), [400]).param).toBe('refresh');
    expect(expectError(await postJson('/screenings', { dot_number: '1', priority: 'urgent' }), [400]).param).toBe('priority');
    expect(expectError(await postJson('/screenings', [1, 2]), [400]).param).toBe('body');
  });

  it('a NUL character anywhere is 400 naming where, on either backend (PostgreSQL text cannot hold it), and nothing is kept', async () => {
    const before = (await send('GET', '/screenings?limit=100')).json.data.length;
    expect(expectError(await postJson('/screenings', { dot_number: '1000001', tender_id: 'T\u00001' }), [400]).param).toBe('tender_id');
    expect(expectError(await postJson('/screenings', { dot_number: '1000001', load: { ref: ['ok', 'a\u0000'] } }), [400]).param).toBe(
      'load.ref[1]',
    );
    expect(expectError(await postJson('/screenings', { dot_number: '1000001', load: { 'k\u0000': 1 } }), [400]).param).toBe('load');
    expect(expectError(await postJson('/screenings', 'x\u0000'), [400]).param).toBe('body');
    expect(expectError(await send('GET', '/screenings?tender_id=T%001'), [400]).param).toBe('tender_id');
    expect((await send('GET', '/screenings?limit=100')).json.data.length).toBe(before);
  });

  it('raw bytes as JSON: 400 param body unless they happen to be a valid request', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
        ),
        async (raw) => {
          const a = await send('POST', '/screenings', { body: raw, headers: { 'content-type': 'application/json' } });
          if (a.status === 200 || a.status === 202) return;
          const err = expectError(a, [400], 'invalid_request');
          expect(typeof err.param).toBe('string');
        },
      ),
      { numRuns: 600 },
    );
  });

  it('malformed JSON, an empty JSON body and a missing body are 400 param body', async () => {
    expect(
      expectError(await send('POST', '/screenings', { body: '{"dot_number":', headers: { 'content-type': 'application/json' } }), [400]),
    ).toMatchObject({
      code: 'invalid_request',
      param: 'body',
    });
    expect(expectError(await send('POST', '/screenings', { body: '', headers: { 'content-type': 'application/json' } }), [400]).param).toBe(
      'body',
    );
    expect(expectError(await send('POST', '/screenings'), [400]).param).toBe('body');
    expect(
      expectError(
        await send('POST', '/screenings', {
          body: '{"__proto__":{"x":1},"dot_number":"1"}',
          headers: { 'content-type': 'application/json' },
        }),
        [400],
      ).param,
    ).toBe('body');
  });

  it('a body that is not JSON is 415 unsupported_media_type, whatever the content type', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            'text/html',
            'application/octet-stream',
            'application/jsonx',
          ),
          fc.stringMatching(/^[a-z]{1,10}\/[a-z0-9.+-]{1,15}$/).filter((t) => !/^application\/json$/i.test(t)),
        ),
        fc.string({ minLength: 1, maxLength: 100 }),
        async (type, body) => {
          const a = await send('POST', '/screenings', { body, headers: { 'content-type': type } });
          expectError(a, [415], 'unsupported_media_type');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a body over 16 KiB is 413 payload_too_large', async () => {
    const big = JSON.stringify({ dot_number: '1', tender_id: 'x'.repeat(17 * 1024) });
    expectError(
      await send('POST', '/screenings', { body: big, headers: { 'content-type': 'application/json' } }),
      [413],
      'payload_too_large',
    );
  });
});

describe('query strings', () => {
  it('wait: 0–30 accepted, anything else 400 param wait', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -100, max: 100 }).map(String), fc.double().map(String)),
        async (w) => {
          const a = await postJson(`/screenings?wait=${encodeURIComponent(w)}`, { dot_number: '1000005' });
          const valid = /^\d{1,15}$/.test(w) && Number(w) <= 30;
          if (valid) {
            expect(a.status).toBe(200);
            return;
          }
          expect(expectError(a, [400], 'invalid_request').param).toBe('wait');
        },
      ),
      { numRuns: 400 },
    );
    expect(expectError(await postJson('/screenings?wait=1&wait=2', { dot_number: '1000005' }), [400]).param).toBe('wait');
  });

  it('list queries: unknown or bad parameters are 400 naming them', async () => {
    const names = fc.oneof(fc.constantFrom('limit', 'status', 'state'), fc.stringMatching(/^[a-z_]{1,10}$/));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/screenings', '/reviews', '/status', '/usage/daily'),
        names,
        fc.string({ maxLength: 10 }),
        async (path, name, value) => {
          const a = await send('GET', `${path}?${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
          if (a.status === 200) return;
          const err = expectError(a, [400], 'invalid_request');
          expect(err.param).toBe(name);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('path parameters', () => {
  it('screening and review ids: 400 naming id or 404, JSON, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.stringMatching(/^(scr|rev)_[a-z2-7]{20,30}$/),
          fc.constantFrom('..', '%2e%2e', '../../etc/passwd', '%00', 'scr_%zz'),
        ),
        fc.constantFrom('GET /screenings/', 'POST /reviews/:approve', 'POST /reviews/:reject'),
        async (id, route) => {
          const raw = /%/.test(id) ? id : encodeURIComponent(id);
          const [method, base] = route.split(' ') as [string, string];
          const path = base.startsWith('/reviews/') ? `/reviews/${raw}/${base.split(':')[1]}` : `${base}${raw}`;
          const a =
            method === 'GET'
              ? await send('GET', path)
              : await send('POST', path, { body: JSON.stringify({ by: 'fuzz' }), headers: { 'content-type': 'application/json' } });
          const err = expectError(a, [400, 404, 405]); // '.' and '..' resolve to another route's path
          if (a.status === 400) expect(['id', 'url']).toContain(err.param);
          else expect(['resource_missing', 'route_not_found', 'method_not_allowed']).toContain(err.code);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('review decisions need a valid body: by 1–100 characters, note at most 2000', async () => {
    const id = `rev_${'a'.repeat(26)}`;
    const post = (body: unknown) => postJson(`/reviews/${id}/approve`, body);
    expect(expectError(await post({}), [400]).param).toBe('by');
    expect(expectError(await post({ by: '' }), [400]).param).toBe('by');
    expect(expectError(await post({ by: '   ' }), [400]).param).toBe('by');
    expect(expectError(await post({ by: 'x'.repeat(101) }), [400]).param).toBe('by');
    expect(expectError(await post({ by: 'ann', note: 'x'.repeat(2001) }), [400]).param).toBe('note');
    expect(expectError(await post({ by: 'ann', extra: 1 }), [400]).param).toBe('extra');
    expectError(await post({ by: 'ann' }), [404], 'resource_missing');
  });
});

describe('headers', () => {
  it('any Authorization value but the token is 401 unauthorized', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .oneof(
            fc.string({ maxLength: 80 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
            fc
              .string({ maxLength: 60 })
              .map((s) => `Bearer ${s}`)
              .filter((s) => /^[\x20-\x7e]*$/.test(s)),
            fc.constant(`Bearer ${'x'}`),
          )
          .filter((h) => !h.includes(stack.token)),
        fc.constantFrom('/status', '/screenings', '/reviews', '/events', '/usage/daily'),
        async (authorization, path) => {
          const a = await send('GET', path, { auth: false, headers: { authorization } });
          expectError(a, [401], 'unauthorized');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a bad Last-Event-ID is 400 naming it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[\x21-\x7e]{1,12}$/).filter((s) => !/^\d+$/.test(s)),
        async (v) => {
          const a = await send('GET', '/events', { headers: { 'last-event-id': v } });
          expect(expectError(a, [400], 'invalid_request').param).toBe('Last-Event-ID');
        },
      ),
      { numRuns: 200 },
    );
    expect(expectError(await send('GET', '/events?last_event_id=abc'), [400]).param).toBe('last_event_id');
  });
});

describe('unknown routes and methods', () => {
  it('are 404 route_not_found, or 405 with Allow for a known path, in our shape (after auth)', async () => {
    expectError(await send('GET', '/nope'), [404], 'route_not_found');
    const wrong = await send('DELETE', '/screenings');
    expectError(wrong, [405], 'method_not_allowed');
    expect(wrong.headers.allow).toBe('GET, HEAD, POST');
    const put = await send('PUT', '/reviews/rev_aaaaaaaaaaaaaaaaaaaaaaaaaa/approve');
    expectError(put, [405], 'method_not_allowed');
    expect(put.headers.allow).toBe('POST');
    expectError(await send('GET', '/nope', { auth: false }), [401], 'unauthorized');
    expectError(await send('GET', '/%zz'), [400, 404]);
  });
});
