/**
 * Scoped tokens (docs/api.md "Tokens and roles"): every role against every route of the real
 * intake, table-driven; the table must cover every operation /openapi.json lists, so a new route
 * cannot go in without a role. Also: `by` defaults to the token's name, a revoked token is 401,
 * tokens are stored as hashes only.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '../../shared/screening.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import type { Role } from '../../worker/tokens/roles.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { itSqlite } from '../helpers/test-db.js';

let stack: Stack;
let tokens: IntakeTokens;
const secret: Record<Role, string> = { metrics: '', tms: '', desk: '', admin: '' };

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await request(stack.intakeUrl + path, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json };
}

beforeAll(async () => {
  stack = await startStack();
  tokens = new IntakeTokens(stack.screener.store);
  for (const role of ['metrics', 'tms', 'desk', 'admin'] as const)
    secret[role] = (await tokens.create(role, role === 'desk' ? 'Dana Desk' : `${role} token`)).token;
});
afterAll(async () => {
  await stack?.close();
});

const SCR = 'scr_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const REV = 'rev_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const DEC = 'dec_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const CHG = 'chg_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const CB = 'cb_aaaaaaaaaaaaaaaaaaaaaaaaaa';

/** Every operation: a request that reaches it, and the least role that may use it. */
const TABLE: Array<{ op: string; path: string; body?: unknown; needs: Role }> = [
  { op: 'POST /screenings', path: '/screenings', body: { dot_number: '1000001' }, needs: 'tms' },
  { op: 'POST /screenings/batch', path: '/screenings/batch', body: { screenings: [{ dot_number: '1000001' }] }, needs: 'tms' },
  { op: 'GET /screenings', path: '/screenings', needs: 'tms' },
  { op: 'GET /screenings/{id}', path: `/screenings/${SCR}`, needs: 'tms' },
  { op: 'GET /reviews', path: '/reviews', needs: 'tms' },
  { op: 'GET /reviews/{id}', path: `/reviews/${REV}`, needs: 'tms' },
  { op: 'POST /reviews/{id}/approve', path: `/reviews/${REV}/approve`, body: {}, needs: 'desk' },
  { op: 'POST /reviews/{id}/reject', path: `/reviews/${REV}/reject`, body: {}, needs: 'desk' },
  { op: 'GET /status', path: '/status', needs: 'tms' },
  { op: 'GET /me', path: '/me', needs: 'tms' },
  { op: 'GET /usage/daily', path: '/usage/daily', needs: 'tms' },
  { op: 'POST /queue/pause', path: '/queue/pause', needs: 'admin' },
  { op: 'POST /queue/resume', path: '/queue/resume', needs: 'admin' },
  { op: 'GET /metrics', path: '/metrics', needs: 'metrics' },
  { op: 'GET /watchlist', path: '/watchlist', needs: 'tms' },
  { op: 'POST /watchlist', path: '/watchlist', body: { dot_number: '1000006' }, needs: 'tms' },
  { op: 'GET /watchlist/{dot}', path: '/watchlist/7777777', needs: 'tms' },
  { op: 'DELETE /watchlist/{dot}', path: '/watchlist/7777777', needs: 'tms' },
  { op: 'GET /changes', path: '/changes', needs: 'tms' },
  { op: 'GET /changes/{id}', path: `/changes/${CHG}`, needs: 'tms' },
  { op: 'POST /changes/{id}/acknowledge', path: `/changes/${CHG}/acknowledge`, body: {}, needs: 'desk' },
  { op: 'GET /blocks', path: '/blocks', needs: 'tms' },
  { op: 'POST /blocks', path: '/blocks', body: { dot_number: '7777777', reason: 'test' }, needs: 'desk' },
  { op: 'GET /blocks/{dot}', path: '/blocks/7777778', needs: 'tms' },
  { op: 'DELETE /blocks/{dot}', path: '/blocks/7777778', needs: 'desk' },
  { op: 'POST /blocks/{dot}/lift', path: '/blocks/7777778/lift', body: {}, needs: 'desk' },
  { op: 'GET /callbacks', path: '/callbacks', needs: 'tms' },
  { op: 'GET /callbacks/{id}', path: `/callbacks/${CB}`, needs: 'tms' },
  { op: 'POST /callbacks/{id}/retry', path: `/callbacks/${CB}/retry`, needs: 'admin' },
  { op: 'POST /callbacks/{id}/cancel', path: `/callbacks/${CB}/cancel`, needs: 'admin' },
  { op: 'POST /callbacks/cancel', path: '/callbacks/cancel', body: { url: 'http://127.0.0.1:9/nothing-owed' }, needs: 'admin' },
  { op: 'GET /decisions', path: '/decisions', needs: 'tms' },
  { op: 'GET /decisions/{id}', path: `/decisions/${DEC}`, needs: 'tms' },
  { op: 'POST /decisions/{id}/revoke', path: `/decisions/${DEC}/revoke`, body: {}, needs: 'desk' },
  { op: 'GET /audit.csv', path: '/audit.csv', needs: 'desk' },
  { op: 'GET /event-log', path: '/event-log', needs: 'tms' },
  {
    op: 'POST /sandbox/carriers/{dot}/change',
    path: '/sandbox/carriers/1000001/change',
    body: { change: 'reset', check_now: false },
    needs: 'admin',
  },
  { op: 'POST /sandbox/decisions/{id}/lapse', path: `/sandbox/decisions/${DEC}/lapse`, needs: 'admin' },
];
const RANK: Record<Role, number> = { metrics: 0, tms: 1, desk: 2, admin: 3 };

describe('every role against every route', () => {
  it('the table covers every operation of /openapi.json (the events stream aside: tms, checked below)', async () => {
    const spec = (await call(secret.admin, 'GET', '/openapi.json')).json as { paths: Record<string, Record<string, unknown>> };
    const ops = Object.entries(spec.paths).flatMap(([p, methods]) =>
      Object.keys(methods)
        .filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    const listed = new Set([...TABLE.map((t) => t.op), 'GET /events', 'GET /healthz']);
    expect(ops.filter((op) => !listed.has(op))).toEqual([]);
    expect([...listed].filter((op) => !ops.includes(op))).toEqual([]);
  });

  for (const role of ['metrics', 'tms', 'desk', 'admin'] as const)
    it(`${role}: 403 forbidden naming the role needed exactly where its role is too low`, async () => {
      for (const t of TABLE) {
        const [method] = t.op.split(' ') as [string];
        const r = await call(secret[role], method, t.path, t.body);
        if (RANK[role] < RANK[t.needs]) {
          expect([r.status, r.json?.error?.code], `${role} ${t.op}`).toEqual([403, 'forbidden']);
          expect(r.json.error.message, t.op).toContain(`needs a ${t.needs} token`);
        } else {
          expect([401, 403], `${role} ${t.op}: ${r.status} ${JSON.stringify(r.json)}`).not.toContain(r.status);
          expect(r.status, `${role} ${t.op}`).toBeLessThan(500);
        }
      }
      // The events stream: any token but a metrics one (the health probe: none).
      const events = await request(`${stack.intakeUrl}/events`, { headers: { authorization: `Bearer ${secret[role]}` } });
      expect(events.statusCode).toBe(role === 'metrics' ? 403 : 200);
      // Closing an unread body is an abort by design: not an error of this test.
      events.body.on('error', () => {});
      events.body.destroy();
    });

  it('INTAKE_TOKEN is admin; no token or an unknown one is 401', async () => {
    expect((await call(stack.token, 'POST', '/queue/resume')).status).toBe(200);
    expect((await call('cs_admin_notarealtokenatall', 'GET', '/status')).status).toBe(401);
    expect((await call('', 'GET', '/status')).status).toBe(401);
  });
});

describe('who did it, and revoking', () => {
  it('a desk token decides as its own name, whatever `by` says; an admin token may act for a person named in `by`', async () => {
    const held = await call(secret.tms, 'POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'ROLE-1' });
    expect(held.json.action).toBe('hold');
    const approved = (await call(secret.desk, 'POST', `/reviews/${held.json.review.id}/approve`, {})).json as Review;
    expect(approved.decided_by).toBe('Dana Desk');
    const deskId = (await tokens.list()).find((t) => t.name === 'Dana Desk')!.id;
    expect(approved.token_id).toBe(deskId);
    // A desk token's `by` is ignored: the credential says who it is.
    const block = await call(secret.desk, 'POST', '/blocks', { dot_number: '1000005', by: 'Eli', reason: 'named in the body' });
    expect([block.json.blocked_by, block.json.token_id]).toEqual(['Dana Desk', deskId]);
    // An admin token acts for the person named, recorded with its own id.
    const adminId = (await tokens.list()).find((t) => t.name === 'admin token')!.id;
    const lifted = await call(secret.admin, 'POST', '/blocks/1000005/lift', { by: 'Eli' });
    expect([lifted.json.lifted_by, lifted.json.lifted_token_id]).toEqual(['Eli', adminId]);
    // INTAKE_TOKEN has no name: `by` is required.
    const noName = await call(stack.token, 'DELETE', '/blocks/1000005');
    expect([noName.status, noName.json.error.param]).toEqual([400, 'by']);
  });

  it('GET /me says who the token is: its id, name and role (no name for INTAKE_TOKEN)', async () => {
    const record = (await tokens.list()).find((t) => t.name === 'Dana Desk')!;
    expect((await call(secret.desk, 'GET', '/me')).json).toEqual({
      object: 'caller',
      token_id: record.id,
      name: 'Dana Desk',
      role: 'desk',
    });
    expect((await call(secret.tms, 'GET', '/me')).json).toMatchObject({ object: 'caller', name: 'tms token', role: 'tms' });
    expect((await call(stack.token, 'GET', '/me')).json).toEqual({ object: 'caller', token_id: null, name: null, role: 'admin' });
    expect((await call('cs_desk_notarealtokenatall', 'GET', '/me')).status).toBe(401);
    const bad = await call(secret.desk, 'GET', '/me?name=x');
    expect([bad.status, bad.json.error.code]).toEqual([400, 'invalid_request']);
  });

  itSqlite('a revoked token is refused from the next request; the database keeps only hashes', async () => {
    const { token, record } = await tokens.create('tms', 'short-lived');
    expect((await call(token, 'GET', '/status')).status).toBe(200);
    expect(await tokens.revoke(record.id)).toBe(true);
    expect((await call(token, 'GET', '/status')).status).toBe(401);
    const rows = connectionOf(sqliteStoreOf(stack.screener.store)).prepare('SELECT * FROM intake_tokens').all() as Array<
      Record<string, unknown>
    >;
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.find((r) => r.id === record.id)).toMatchObject({
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      revoked_at: expect.any(String),
    });
  });
});
