/**
 * Fault suite, scenario 5 — bad input at scale: 10,000 fuzzed requests (fast-check) at a real
 * `carrier-screen start` process: malformed JSON, huge bodies, unicode, injection strings,
 * wrong types, path tricks on /screenings/:id and /reviews/:id, odd headers. Zero 5xx; every
 * answer that is not a success is a JSON error with a code.
 */
import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ensureBuilt } from '../helpers/processes.js';
import { mapLimit } from './support/intake-client.js';
import { rawRequest, type RawRequest, type RawResponse } from './support/raw-http.js';
import { startRecordingEmulator, type RecordingEmulator } from './support/recording-emulator.js';
import { storeFigures } from './support/store-inspect.js';
import { installation, type Installation } from './support/worker-stack.js';

const RUNS = 10_000;
const SEED = Number(process.env.FAULTS_SEED ?? 20_251_122);

let emu: RecordingEmulator;
let inst: Installation;

beforeAll(async () => {
  await ensureBuilt();
  emu = await startRecordingEmulator({ mode: 'sandbox', ratePerMinute: 1_000_000 });
  // warn: 20,000 request log lines would slow the run; errors (5xx) are still logged.
  inst = await installation({ svcBaseUrl: emu.baseUrl, svcKey: emu.key, redisUrl: inject('redisUrl'), env: { LOG_LEVEL: 'warn' } });
  await inst.start();
}, 240_000); // room for a build of a stale dist/, or for waiting on another file's build

afterAll(async () => {
  await inst?.close();
  await emu?.close();
});

// ---------- generators ----------

const INJECTIONS = [
  "' OR '1'='1",
  "1000003'; DROP TABLE screenings; --",
  '1000003" OR 1=1 --',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '#{7*7}',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '\u0000',
  '%00',
  '\r\nX-Injected: 1',
  '$(id)',
  '`id`',
  '__proto__',
  'constructor',
  'prototype',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x1F',
  '１２３４５６７', // full-width digits
  '١٢٣٤٥', // Arabic-Indic digits
  '1000003\u200b', // zero-width space
  '\u202e3000001', // right-to-left override
  '🚚'.repeat(50),
  'A'.repeat(5_000),
  'MC-1000003',
  'mc 1000003',
  'MC1000003',
  '1000003',
  ' 1000003 ',
  '99999999',
  '999999999',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  'gopher://127.0.0.1:6379/_FLUSHALL',
];

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(...INJECTIONS),
  fc.stringMatching(/^\d{1,12}$/),
);

const leaf = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt().map((b) => b.toString()),
);
const value = fc.oneof(
  { depthSize: 'small', withCrossShrink: true },
  leaf,
  fc.array(leaf, { maxLength: 4 }),
  fc.dictionary(text, leaf, { maxKeys: 4 }),
);

const screeningBody = fc.record(
  {
    dot_number: value,
    mc_number: value,
    tender_id: value,
    callback_url: fc.oneof(value, fc.webUrl(), fc.constantFrom('http://127.0.0.1:1/x', 'ftp://x.example/', 'http://', '//x')),
    priority: fc.oneof(value, fc.constantFrom('tender', 'background', 'TENDER', '')),
    refresh: value,
    __proto__: value,
    constructor: value,
    extra: value,
  },
  { requiredKeys: [] },
);

/** Valid in shape, odd in content: these get accepted and travel through SQLite and back. */
const nearlyValid = fc.record(
  {
    dot_number: fc.oneof(
      fc.stringMatching(/^\d{1,8}$/),
      fc.constantFrom('1000001', '1000003', '1000005', '4242', ' 1000004 ', '00001000006'),
      fc.integer({ min: 0, max: 99_999_999 }),
    ),
    tender_id: fc.oneof(
      text.map((s) => s.slice(0, 128)),
      fc.constant(null),
    ),
    priority: fc.constantFrom('tender', 'background'),
    refresh: fc.boolean(),
  },
  { requiredKeys: ['dot_number'] },
);

const resolveBody = fc.record({ by: value, note: value, extra: value }, { requiredKeys: [] });

/** Bodies that are not (valid) JSON at all. */
const malformed = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.jsonValue().map((v) => JSON.stringify(v).slice(0, -1)),
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '{"dot_number":',
    "{'dot_number':'1'}",
    '{"a":1,}',
    'null',
    'true',
    '[]',
    '"str"',
    '\uFEFF{"dot_number":"1000001"}',
    '{"dot_number":"1000001"}garbage',
    '{"dot_number":"1000001","dot_number":"1000002"}',
    'NaN',
    '['.repeat(5_000) + ']'.repeat(5_000),
    '{"a":'.repeat(2_000),
  ),
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
  '*/*',
  'application/json, text/plain',
];

const ID_TRICKS = [
  '',
  '.',
  '..',
  '../status',
  '..%2fstatus',
  '%2e%2e%2fstatus',
  '%2e%2e/%2e%2e/etc/passwd',
  '..%252fstatus',
  '%',
  '%zz',
  '%00',
  'scr_aaaaaaaaaaaaaaaaaaaaaaaaaa%00',
  '%c0%af',
  '%ff%fe',
  'scr_aaaaaaaaaaaaaaaaaaaaaaaaaa/approve',
  'rev_aaaaaaaaaaaaaaaaaaaaaaaaaa',
  'scr_' + 'a'.repeat(26),
  'SCR_' + 'A'.repeat(26),
  'scr_' + 'a'.repeat(5_000),
  '?',
  '#',
  ';',
  '%3f',
  '%23',
  'scr_aaaaaaaaaaaaaaaaaaaaaaaaaa?x=1',
  'scr_aaaaaaaaaaaaaaaaaaaaaaaaaa;jsessionid=1',
  '\\..\\..\\',
  '%5c..%5c..%5c',
  '*',
  '%2a',
];

/** Make a request target from a raw id: some ways leave traversal and percent signs alone. */
const idInPath = fc.tuple(fc.oneof(text, fc.constantFrom(...ID_TRICKS)), fc.integer({ min: 0, max: 3 })).map(([id, how]) => {
  // Spaces and control characters would break the request line itself: always encoded.
  const safe = (s: string): string => s.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c).replace(/%25/g, '%'));
  switch (how) {
    case 0:
      return encodeURIComponent(id);
    case 1:
      return encodeURI(id).replace(/[\s]/g, '%20');
    case 2:
      return encodeURIComponent(encodeURIComponent(id));
    default:
      return safe(id);
  }
});

const queryValue = fc.oneof(
  text,
  fc.integer(),
  fc.constantFrom('-1', '0', '1', '31', '30.5', '1e2', '', 'true', '[]', '%', '%zz', 'pending', 'done'),
);
const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom('wait', 'limit', 'state', 'status', 'last_event_id', 'token', '__proto__'), text), queryValue), {
    maxLength: 3,
  })
  .map((pairs) =>
    pairs.length === 0 ? '' : '?' + pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&'),
  );

interface Case {
  label: string;
  req: RawRequest;
}

function headersFor(
  token: string,
  contentType: string | null,
  auth: 'ok' | 'none' | 'odd',
  extra: Array<[string, string]> = [],
): Array<[string, string]> {
  const h: Array<[string, string]> = [];
  if (auth === 'ok') h.push(['Authorization', `Bearer ${token}`]);
  if (auth === 'odd') h.push(['Authorization', `Bearer ${token}\u00e9`]);
  if (contentType !== null) h.push(['Content-Type', contentType]);
  return [...h, ...extra];
}

function asBody(v: unknown): Buffer {
  return Buffer.from(typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'), 'utf8');
}

const auth = fc.constantFrom<'ok' | 'none' | 'odd'>('ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'none', 'odd');
const oddHeaders = fc.constantFrom<Array<[string, string]>>(
  [],
  [],
  [],
  [['Content-Encoding', 'gzip']],
  [['Accept', 'text/html']],
  [['Accept', 'application/xml']],
  [['X-Forwarded-For', '10.0.0.1']],
  [['Expect', '100-continue']],
  [['Last-Event-ID', 'abc']],
  [['Origin', 'http://evil.example']],
);

function cases(token: string): fc.Arbitrary<Case> {
  const postScreening = fc
    .tuple(fc.oneof(screeningBody, value, malformed, nearlyValid), fc.constantFrom(...CONTENT_TYPES), query, auth, oddHeaders)
    .map(([body, ct, q, a, extra]): Case => {
      // A valid wait could hold the request open: the fuzz keeps waits short.
      const target = `/screenings${q.replace(/wait=(\d+)/, (_m, n: string) => `wait=${Math.min(Number(n), 1)}`)}`;
      return {
        label: 'POST /screenings',
        req: { method: 'POST', target, headers: headersFor(token, ct || null, a, extra), body: asBody(body) },
      };
    });
  const nearlyValidPost = fc
    .tuple(nearlyValid, fc.constantFrom('application/json', 'application/json; charset=utf-8'))
    .map(([body, ct]): Case => ({
      label: 'POST /screenings',
      req: { method: 'POST', target: '/screenings', headers: headersFor(token, ct, 'ok'), body: asBody(body) },
    }));
  const hugeBody = fc
    .tuple(
      fc.integer({ min: 15_000, max: 400_000 }),
      fc.constantFrom('json', 'string', 'bytes'),
      fc.constantFrom('/screenings', '/reviews/rev_aaaaaaaaaaaaaaaaaaaaaaaaaa/approve'),
    )
    .map(([size, kind, target]): Case => {
      const body =
        kind === 'json'
          ? Buffer.from(JSON.stringify({ dot_number: '1000001', tender_id: 'x'.repeat(size) }))
          : kind === 'string'
            ? Buffer.from(JSON.stringify('🚚'.repeat(Math.ceil(size / 4))))
            : Buffer.alloc(size, 0xff);
      return {
        label: `POST ${target} (${size} bytes)`,
        req: { method: 'POST', target, headers: headersFor(token, 'application/json', 'ok'), body },
      };
    });
  const getScreening = fc.tuple(idInPath, query, auth).map(([id, q, a]): Case => ({
    label: 'GET /screenings/:id',
    req: { method: 'GET', target: `/screenings/${id}${q}`, headers: headersFor(token, null, a) },
  }));
  const resolveReview = fc
    .tuple(
      idInPath,
      fc.constantFrom('approve', 'reject', 'APPROVE', 'delete', ''),
      fc.oneof(resolveBody, value, malformed),
      fc.constantFrom(...CONTENT_TYPES),
      auth,
    )
    .map(([id, what, body, ct, a]): Case => ({
      label: `POST /reviews/:id/${what}`,
      req: { method: 'POST', target: `/reviews/${id}/${what}`, headers: headersFor(token, ct || null, a), body: asBody(body) },
    }));
  const lists = fc
    .tuple(
      fc.constantFrom(
        '/reviews',
        '/screenings',
        '/status',
        '/usage/daily',
        '/healthz',
        '/openapi.json',
        '/queue/resume',
        '/ui/',
        '/ui/..%2f..%2fpackage.json',
        '/ui/%2e%2e/%2e%2e/package.json',
        '//screenings',
        '/screenings/',
        '/SCREENINGS',
        '/screenings//x',
        '/./status',
      ),
      query,
      auth,
    )
    .map(([path, q, a]): Case => ({
      label: `GET ${path}`,
      req: { method: path === '/queue/resume' ? 'POST' : 'GET', target: path + q, headers: headersFor(token, null, a) },
    }));
  const methods = fc
    .tuple(
      fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'POST', 'GET'),
      fc.constantFrom('/screenings', '/screenings/scr_aaaaaaaaaaaaaaaaaaaaaaaaaa', '/reviews', '/status', '/healthz', '/queue/pause'),
      auth,
    )
    .map(([method, path, a]): Case => ({ label: `${method} ${path}`, req: { method, target: path, headers: headersFor(token, null, a) } }));
  return fc.oneof(
    { weight: 30, arbitrary: postScreening },
    { weight: 5, arbitrary: nearlyValidPost },
    { weight: 2, arbitrary: hugeBody },
    { weight: 20, arbitrary: getScreening },
    { weight: 20, arbitrary: resolveReview },
    { weight: 15, arbitrary: lists },
    { weight: 8, arbitrary: methods },
  );
}

/** What is wrong with an answer, or undefined when it keeps the rules. */
function problemWith(c: Case, r: RawResponse): string | undefined {
  if (r.status >= 500) return `${r.status} ${r.body.slice(0, 200)}`;
  if (c.req.method === 'HEAD')
    return r.status >= 400 && !/^application\/json/.test(r.headers['content-type'] ?? '') ? 'HEAD error without JSON type' : undefined;
  if (r.status >= 400) {
    if (!/^application\/json/.test(r.headers['content-type'] ?? ''))
      return `${r.status} with content-type ${r.headers['content-type']}: ${r.body.slice(0, 120)}`;
    let j: any;
    try {
      j = JSON.parse(r.body);
    } catch {
      return `${r.status} body is not JSON: ${r.body.slice(0, 120)}`;
    }
    if (typeof j?.error?.code !== 'string' || j.error.code === '' || typeof j.error.message !== 'string')
      return `${r.status} error without code/message: ${r.body.slice(0, 200)}`;
  }
  return undefined;
}

describe('10,000 fuzzed intake requests', () => {
  it('no 5xx; every error is JSON with a code; the worker keeps running and keeps its data sound', async () => {
    const samples = fc.sample(cases(inst.token), { numRuns: RUNS, seed: SEED });
    expect(samples).toHaveLength(RUNS);
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    let accepted = 0;
    await mapLimit(samples, 16, async (c) => {
      let r: RawResponse;
      try {
        r = await rawRequest(inst.proc!.port, c.req);
      } catch (e) {
        problems.push(`${c.label} ${c.req.target.slice(0, 100)}: ${(e as Error).message}`);
        return;
      }
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      let p = problemWith(c, r);
      // What was accepted comes back exactly as sent: no injection string is interpreted.
      if (!p && c.label === 'POST /screenings' && (r.status === 200 || r.status === 202)) {
        accepted++;
        const sent = JSON.parse(c.req.body!.toString('utf8')) as { tender_id?: unknown };
        const got = JSON.parse(r.body) as { tender_id?: unknown };
        if ((sent.tender_id ?? null) !== got.tender_id) p = `tender_id came back as ${JSON.stringify(got.tender_id)}`;
      }
      if (p)
        problems.push(
          `${c.label} ${c.req.target.slice(0, 100)} [${(c.req.body ?? Buffer.alloc(0)).subarray(0, 80).toString('utf8')}] → ${p}`,
        );
    });
    const fiveXx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, k]) => n + k, 0);
    console.info(
      `fuzz (seed ${SEED}): ${RUNS} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; accepted ${accepted}; 5xx ${fiveXx}; problems ${problems.length}`,
    );
    expect(problems.slice(0, 15), `seed ${SEED}; ${problems.length} problems`).toEqual([]);
    expect(fiveXx).toBe(0);
    // The fuzz reached the handlers, not only the auth check.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 10);
    expect(accepted).toBeGreaterThan(100);
    expect(inst.proc!.alive()).toBe(true);
    expect(inst.proc!.stderr()).not.toMatch(/"level":(50|60)/);
    // Whatever was accepted is a well-formed screening in the database.
    const f = await storeFigures(inst.reader);
    expect(f.screenings).toBe((f.byStatus.queued ?? 0) + (f.byStatus.active ?? 0) + (f.byStatus.done ?? 0));
    expect(f.doneWithoutAction).toBe(0);
  });
});

describe('broken HTTP itself', () => {
  /** Raw bytes on a socket: what a broken client, a scanner or a smuggling attempt sends. */
  function send(raw: string): Promise<string> {
    return new Promise((resolve) => {
      const s = connect(inst.proc!.port, '127.0.0.1', () => s.write(raw));
      let b = '';
      s.on('data', (d: Buffer) => (b += d.toString('latin1')));
      s.on('error', () => {});
      s.on('close', () => resolve(b));
      setTimeout(() => s.destroy(), 5_000).unref();
    });
  }

  it.each([
    ['a garbage request line', 'GARBAGE\r\n\r\n'],
    ['a header line without a colon', 'GET /status HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
    ['a Content-Length that is not a number', 'POST /screenings HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    [
      'Content-Length and Transfer-Encoding together (smuggling)',
      'POST /screenings HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['headers over 16 KiB', `GET /status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    [
      'a bad chunk size',
      'POST /screenings HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    ],
  ])('%s: a 4xx JSON error with a code', async (_why, raw) => {
    const answer = await send(raw);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(answer).toMatch(/\r\ncontent-type: application\/json/i);
    expect(JSON.parse(body)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    expect(inst.proc!.alive()).toBe(true);
  });
});
