/**
 * The served /openapi.json against real traffic: Stoplight Prism (pinned, through npx, as CI has
 * the npm registry) as a validating proxy with --errors in front of the real stack. Every
 * operation is called with the answers a TMS, the desk and an operator meet — 2xx, 400, 401, 403,
 * 404, 409 — and Prism finds no request or answer (status, header, body) the document does not
 * declare. It is shown to catch one that breaks the document.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { freePort } from '../helpers/free-port.js';
import { startStack, type Stack } from '../helpers/stack.js';

export const PRISM = '@stoplight/prism-cli@5.14.2';

let stack: Stack;
let dir: string;
let prism: ChildProcess;
let base: string;
let log = '';
const tokens: Record<'tms' | 'desk', string> = { tms: '', desk: '' };

beforeAll(async () => {
  stack = await startStack({ mode: 'sandbox' });
  const t = new IntakeTokens(stack.screener.store);
  tokens.tms = (await t.create('tms', 'TMS')).token;
  tokens.desk = (await t.create('desk', 'Dana Desk')).token;
  dir = mkdtempSync(join(tmpdir(), 'openapi-prism-'));
  writeFileSync(join(dir, 'openapi.json'), await (await fetch(`${stack.intakeUrl}/openapi.json`)).text());
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  prism = await startPrism(join(dir, 'openapi.json'), port);
}, 120_000);

async function startPrism(doc: string, port: number): Promise<ChildProcess> {
  const p = spawn('npx', ['--yes', PRISM, 'proxy', doc, stack.intakeUrl, '--errors', '-h', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: npx runs Prism as a child, which a kill of npx alone would leave running.
    detached: true,
  });
  p.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  p.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/healthz`).then(
        () => true,
        () => false,
      )
    )
      return p;
    await new Promise((r) => setTimeout(r, 100));
  }
  stopPrism(p);
  throw new Error(`Prism did not start:\n${log.slice(-2000)}`);
}

/** Stop npx and the Prism it started (the whole group). */
function stopPrism(p: ChildProcess | undefined): void {
  if (p?.pid === undefined || p.exitCode !== null) return;
  try {
    process.kill(-p.pid, 'SIGTERM');
  } catch {
    p.kill();
  }
}

afterAll(async () => {
  stopPrism(prism);
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Seen {
  what: string;
  status: number;
  violations: string | null;
  problem: boolean;
  json: Record<string, any>;
}

async function call(
  what: string,
  method: string,
  path: string,
  o: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Seen> {
  const token = o.token === undefined ? stack.token : o.token;
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...o.headers,
    },
    ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
  });
  const text = await res.text();
  let json: Record<string, any> = {};
  try {
    json = JSON.parse(text) as Record<string, any>;
  } catch {
    /* CSV, Prometheus text */
  }
  // Prism's own answers are problem+json with its error type; violations it lets through ride in sl-violations.
  const problem = (res.headers.get('content-type') ?? '').includes('problem+json') && String(json.type ?? '').includes('prism');
  return { what, status: res.status, violations: res.headers.get('sl-violations'), problem, json };
}

describe('the OpenAPI document against real traffic (Prism proxy, --errors)', () => {
  it('declares every status, header and body the integration flows meet', async () => {
    const seen: Seen[] = [];
    const go = async (...a: Parameters<typeof call>) => {
      const s = await call(...a);
      seen.push(s);
      return s;
    };
    // Screenings: a cache miss answered within the wait, a hit, queued, bad input, no token, a
    // tms token asking for refresh, an idempotency conflict, the batch.
    const done = await go('screen (miss, waited)', 'POST', '/screenings?wait=10', {
      body: { dot_number: '1000001', tender_id: 'P-1' },
      headers: { 'idempotency-key': 'p-1' },
    });
    await go('screen (replayed)', 'POST', '/screenings?wait=10', {
      body: { dot_number: '1000001', tender_id: 'P-1' },
      headers: { 'idempotency-key': 'p-1' },
    });
    await go('screen (idempotency conflict)', 'POST', '/screenings', {
      body: { dot_number: '1000002', tender_id: 'P-1' },
      headers: { 'idempotency-key': 'p-1' },
    });
    await go('screen (hit)', 'POST', '/screenings', { body: { dot_number: '1000001' } });
    await go('screen (queued)', 'POST', '/screenings', { body: { dot_number: '1000006' } });
    await go('screen (refresh by tms)', 'POST', '/screenings', { token: tokens.tms, body: { dot_number: '1000001', refresh: true } });
    await go('batch', 'POST', '/screenings/batch', { body: { screenings: [{ dot_number: '1000001' }, { dot_number: 'bad' }] } });
    await go('get screening', 'GET', `/screenings/${(done.json as Screening).id}`);
    await go('get screening (missing)', 'GET', '/screenings/scr_aaaaaaaaaaaaaaaaaaaaaaaaaa');
    await go('list screenings', 'GET', '/screenings?limit=2');
    await go('find by tender', 'GET', '/screenings?tender_id=P-1');
    // Reviews and decisions: a hold, approved by the desk, approved again (409), revoked.
    const held = await go('screen (hold)', 'POST', '/screenings?wait=10', { body: { dot_number: '1000003', tender_id: 'P-2' } });
    const review = (held.json as Screening).review!;
    await go('list reviews', 'GET', '/reviews?state=pending');
    await go('get review', 'GET', `/reviews/${review.id}`);
    await go('approve (tms: 403)', 'POST', `/reviews/${review.id}/approve`, { token: tokens.tms, body: {} });
    await go('approve', 'POST', `/reviews/${review.id}/approve`, { token: tokens.desk, body: { note: 'checked' } });
    await go('approve again', 'POST', `/reviews/${review.id}/approve`, { token: tokens.desk, body: {} });
    const decisions = await go('list decisions', 'GET', '/decisions?state=standing');
    const decision = (decisions.json.data as Array<{ id: string }>)[0]!;
    await go('get decision', 'GET', `/decisions/${decision.id}`);
    await go('revoke', 'POST', `/decisions/${decision.id}/revoke`, { token: tokens.desk, body: { note: 'done' } });
    await go('revoke again', 'POST', `/decisions/${decision.id}/revoke`, { token: tokens.desk, body: { note: 'again' } });
    // Watch list, changes, blocks.
    await go('watch add', 'POST', '/watchlist', { body: { dot_number: '1000001' } });
    await go('watch list', 'GET', '/watchlist');
    await go('watch get', 'GET', '/watchlist/1000001');
    await go('watch remove', 'DELETE', '/watchlist/1000001');
    await go('changes', 'GET', '/changes?state=all');
    await go('block', 'POST', '/blocks', { token: tokens.desk, body: { dot_number: '1000002', reason: 'double brokering' } });
    await go('block again', 'POST', '/blocks', { token: tokens.desk, body: { dot_number: '1000002', reason: 'again' } });
    await go('blocks', 'GET', '/blocks');
    await go('get block', 'GET', '/blocks/1000002');
    await go('lift', 'POST', '/blocks/1000002/lift', { token: tokens.desk, body: {} });
    await go('lift again', 'POST', '/blocks/1000002/lift', { token: tokens.desk, body: {} });
    // Operations.
    for (const [what, path] of [
      ['status', '/status'],
      ['me', '/me'],
      ['usage', '/usage/daily'],
      ['callbacks', '/callbacks?state=all'],
      ['event log', '/event-log?limit=5'],
      ['audit', '/audit.csv'],
      ['metrics', '/metrics'],
      ['healthz', '/healthz'],
    ] as const)
      await go(what, 'GET', path);
    await go('callback missing', 'GET', '/callbacks/cb_aaaaaaaaaaaaaaaaaaaaaaaaaa');
    await go('pause', 'POST', '/queue/pause');
    await go('resume', 'POST', '/queue/resume');
    await go('pause (desk: 403)', 'POST', '/queue/pause', { token: tokens.desk });
    await go('sandbox change', 'POST', '/sandbox/carriers/1000005/change', { body: { change: 'reset', check_now: false } });

    const bad = seen.filter((s) => s.violations !== null || s.problem);
    expect(bad.map((s) => `${s.what} → ${s.status}: ${s.violations ?? JSON.stringify(s.json).slice(0, 300)}`)).toEqual([]);
    // The flows met the answers they were meant to (not all 2xx by accident).
    const statuses = new Set(seen.map((s) => s.status));
    for (const st of [200, 201, 202, 207, 403, 404, 409]) expect(statuses, `a ${st} among ${[...statuses].join(', ')}`).toContain(st);
  }, 180_000);

  it('refuses, by the document alone, the requests the server refuses (the two agree)', async () => {
    const cases: Array<[string, string, string, { token?: string | null; body?: unknown }]> = [
      ['a DOT that is not digits', 'POST', '/screenings', { body: { dot_number: 'x' } }],
      ['no token', 'POST', '/screenings', { token: null, body: { dot_number: '1000001' } }],
      ['a batch without its screenings', 'POST', '/screenings/batch', { body: { items: [] } }],
      ['a sandbox change that is not one', 'POST', '/sandbox/carriers/1000001/change', { body: { change: 'explode' } }],
    ];
    for (const [what, method, path, o] of cases) {
      const viaPrism = await call(what, method, path, o);
      expect(viaPrism.problem, `${what}: Prism let it through (${viaPrism.status})`).toBe(true);
      const token = o.token === undefined ? stack.token : o.token;
      const direct = await fetch(stack.intakeUrl + path, {
        method,
        headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), 'content-type': 'application/json' },
        body: JSON.stringify(o.body),
      });
      expect([400, 401], `${what}: the server answered ${direct.status}`).toContain(direct.status);
    }
  });

  it('would see an answer the document does not declare (a copy without GET /screenings/:id 404)', async () => {
    const doc = JSON.parse(await (await fetch(`${stack.intakeUrl}/openapi.json`)).text()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    delete doc.paths['/screenings/{id}']!.get!.responses['404'];
    writeFileSync(join(dir, 'tampered.json'), JSON.stringify(doc));
    const port = await freePort();
    const tampered = await startPrism(join(dir, 'tampered.json'), port);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/screenings/scr_aaaaaaaaaaaaaaaaaaaaaaaaaa`, {
        headers: { authorization: `Bearer ${stack.token}` },
      });
      await res.text();
      expect(res.headers.get('sl-violations') ?? (res.status === 500 ? 'refused' : null), `status ${res.status}`).not.toBeNull();
    } finally {
      stopPrism(tampered);
    }
  }, 120_000);
});
