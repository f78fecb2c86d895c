import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStatus } from '../../worker/status-cli.js';
import { freePort } from '../helpers/free-port.js';
import { makeTestCerts } from '../helpers/test-ca.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;

async function run(o: { url?: string; token?: string | undefined; json?: boolean }) {
  let out = '';
  let err = '';
  const code = await runStatus({
    url: o.url ?? stack.intakeUrl,
    token: 'token' in o ? o.token : stack.token,
    json: o.json ?? false,
    out: (t) => (out += t),
    err: (t) => (err += t),
  });
  return { code, out, err };
}

beforeAll(async () => {
  stack = await startStack();
  const res = await request(`${stack.intakeUrl}/screenings?wait=10`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ dot_number: '1000003', tender_id: 'T-status' }),
  });
  expect(((await res.body.json()) as any).action).toBe('hold');
});
afterAll(async () => {
  await stack?.close();
});

describe('carrier-screen status', () => {
  it('prints queue, quota, rate limit, /v1 reachability and the pending reviews', async () => {
    const r = await run({});
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toContain('sandbox');
    expect(r.out).toMatch(/Queue\s+waiting \d+ · active \d+/);
    expect(r.out).toMatch(/Quota\s+sandbox: lookups are not counted · gate open/);
    expect(r.out).toMatch(/Rate limit\s+120\/min/);
    expect(r.out).toMatch(/Reviews\s+1 pending/);
    expect(r.out).toMatch(/\/v1\s+reachable/);
    expect(r.out).toMatch(/Callbacks\s+0 pending · 0 dead\n/);
    expect(r.out).toMatch(/rev_[a-z2-7]{26}\s+DOT 1000003\s+T-status\s+manual_review/);
    expect(r.out).not.toContain(stack.token);
    // Labels are aligned: every value starts in the same column.
    const rows = r.out.split('\n').filter((l) => /^(Queue|Quota|Rate limit|Reviews|Callbacks|\/v1) /.test(l));
    expect(rows).toHaveLength(6);
    // "Rate limit" is the widest label (10): every value starts at column 12.
    for (const l of rows) expect(l.slice(0, 12).trimEnd().length < 12 && l[12] !== ' ' && l.slice(10, 12) === '  ').toBe(true);
    if (process.env.SHOW_STATUS) console.log(r.out);
  });

  it('--json prints the status report', async () => {
    const r = await run({ json: true });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ object: 'status', environment: 'sandbox', reviews: { pending: 1 } });
  });

  it('a wrong or missing token: exit 2 with a clear message', async () => {
    const wrong = await run({ token: 'not-the-token-at-all' });
    expect(wrong.code).toBe(2);
    expect(wrong.out).toBe('');
    expect(wrong.err).toMatch(/refused the intake token/);
    const none = await run({ token: undefined });
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/no intake token/);
  });

  it('a worker whose TLS certificate this host does not trust: exit 2 saying it is the certificate, not a worker that is down', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-status-tls-'));
    const certs = makeTestCerts(dir);
    const server = createServer({ cert: readFileSync(certs.certPath), key: readFileSync(certs.keyPath) }, (_req, res) => res.end('{}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const r = await run({ url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        /answered, but its TLS certificate is not accepted here \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): trust its CA with NODE_EXTRA_CA_CERTS/,
      );
      expect(r.err).not.toMatch(/Is it running/);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a worker that is not running: exit 1 saying so', async () => {
    const port = await freePort();
    const r = await run({ url: `http://127.0.0.1:${port}` });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cannot reach the worker at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });
});

describe('carrier-screen status against a live-mode worker', () => {
  it('shows the monthly quota: used, limit, remaining, gate and reset date', async () => {
    const live = await startStack({ mode: 'live' });
    try {
      let out = '';
      const code = await runStatus({ url: live.intakeUrl, token: live.token, json: false, out: (t) => (out += t), err: () => {} });
      expect(code).toBe(0);
      expect(out).toContain('— live —');
      expect(out).toMatch(/Quota\s+used \d[\d,]* of 1,000 · remaining \d[\d,]* · gate open · resets \d{4}-\d{2}-01/);
      expect(out).toMatch(/Rate limit\s+60\/min/);
    } finally {
      await live.close();
    }
  });
});
