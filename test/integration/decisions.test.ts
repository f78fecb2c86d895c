import { recordOf } from '../../worker/store/index.js';
/**
 * Standing carrier decisions through the real intake API (docs/decisions.md): one review per
 * carrier, resolving settles every waiting tender (each with its signed callback), the decision
 * stands for later screenings, a revoke or the TTL ends it, a basis change lapses it and the
 * next review shows the previous decision. Real Redis, SQLite, emulator, HTTP, a real receiver.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decision, Review, Screening } from '../../shared/screening.js';
import { verifyCallback } from '../../worker/callbacks/index.js';
import { CarrierDecisions } from '../../worker/decisions/carrier-decisions.js';
import { until } from '../helpers/processes.js';
import { callApi, startStack, type Stack } from '../helpers/stack.js';
import { itSqlite } from '../helpers/test-db.js';

const DAY = 86_400_000;
let clock = Date.now();
let stack: Stack;
let server: Server;
let receiverUrl: string;
const received: Array<{ body: any; verified: boolean }> = [];

beforeAll(async () => {
  stack = await startStack({ now: () => new Date(clock), callbackBackoffMs: 50 });
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const sig = req.headers['x-carrier-screen-signature'];
      received.push({
        body: JSON.parse(raw),
        verified: verifyCallback(stack.callbackSecret, typeof sig === 'string' ? sig : undefined, raw, { now: () => new Date(clock) }).ok,
      });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await stack?.close();
  await new Promise((r) => server?.close(r));
});

const call = (method: 'GET' | 'POST', path: string, body?: unknown) => callApi(stack, method, path, body);

const screen = async (tender: string, extra: Record<string, unknown> = {}): Promise<Screening> => {
  const r = await call('POST', '/screenings?wait=20', {
    dot_number: '1000003',
    tender_id: tender,
    callback_url: `${receiverUrl}/tms`,
    ...extra,
  });
  expect(r.status).toBe(200);
  return r.json as Screening;
};
const pending = async (): Promise<Review[]> => (await call('GET', '/reviews?state=pending')).json.data as Review[];

describe('one review per carrier; a decision that stands', () => {
  it('two tenders wait on one review; approving settles both, each with its own signed callback', async () => {
    const t1 = await screen('T-1');
    const t2 = await screen('T-2');
    expect([t1.action, t2.action]).toEqual(['hold', 'hold']);
    // The held cache hit, answered as it was committed (written held at once, its item joined).
    expect(t2.source).toBe('cache');
    expect((await call('GET', `/screenings/${t2.id}`)).json).toEqual(t2);
    const reviews = await pending();
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.tenders.map((t) => t.tender_id)).toEqual(['T-1', 'T-2']);

    // The second tender's own item points at the carrier's review; approving either settles both.
    const approved = await call('POST', `/reviews/${t2.review!.id}/approve`, { by: 'Dana Dispatcher', note: 'called them' });
    expect(approved.status).toBe(200);
    expect((approved.json as Review).id).toBe(reviews[0]!.id);
    for (const id of [t1.id, t2.id]) {
      const s = (await call('GET', `/screenings/${id}`)).json as Screening;
      expect([s.action, s.settled_by, s.hold_reason]).toEqual(['tender', 'review', 'manual_review']);
    }
    await until('two review.resolved callbacks', 15_000, () => received.filter((r) => r.body.event === 'review.resolved').length >= 2);
    const resolved = received.filter((r) => r.body.event === 'review.resolved');
    expect(resolved.map((r) => r.body.screening.tender_id).sort()).toEqual(['T-1', 'T-2']);
    expect(resolved.every((r) => r.verified && r.body.screening.action === 'tender')).toBe(true);
    expect(await pending()).toHaveLength(0);
  });

  it('a third tender is tendered at once on the standing decision, with no new review', async () => {
    const t3 = await screen('T-3');
    expect([t3.action, t3.settled_by, t3.source]).toEqual(['tender', 'standing_decision', 'cache']);
    expect(t3.standing_decision).toMatchObject({ decision: 'approved', decided_by: 'Dana Dispatcher' });
    // Settled in the commit that answered it: the answer is the screening as stored.
    expect((await call('GET', `/screenings/${t3.id}`)).json).toEqual(t3);
    expect(await pending()).toHaveLength(0);
    const list = (await call('GET', '/decisions?dot_number=1000003&state=standing')).json.data as Decision[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: t3.standing_decision!.id, state: 'standing', model_version: expect.stringContaining('sandbox') });
    expect(Date.parse(list[0]!.expires_at) - Date.parse(list[0]!.decided_at)).toBe(30 * DAY);
  });

  it('revoking ends it: the next tender opens a review again; revoking twice is 409', async () => {
    const [d] = (await call('GET', '/decisions?state=standing')).json.data as Decision[];
    const revoked = await call('POST', `/decisions/${d!.id}/revoke`, { by: 'Sam Supervisor', note: 'new insurance doubts' });
    expect([revoked.status, revoked.json.state, revoked.json.ended_by]).toEqual([200, 'revoked', 'Sam Supervisor']);
    expect((await call('POST', `/decisions/${d!.id}/revoke`, { by: 'x' })).json.error.code).toBe('decision_conflict');
    const t4 = await screen('T-4');
    expect([t4.action, t4.settled_by, t4.source]).toEqual(['hold', null, 'cache']);
    // A held cache hit that opened the carrier's review: answered as stored, its own item pending.
    expect((await call('GET', `/screenings/${t4.id}`)).json).toEqual(t4);
    const open = await pending();
    expect(open).toHaveLength(1);
    expect(t4.review).toEqual({ id: open[0]!.id, state: 'pending', decided_by: null, decided_at: null, note: null });
  });

  it('a rejection stands the same way: block at once', async () => {
    const [open] = await pending();
    expect((await call('POST', `/reviews/${open!.id}/reject`, { by: 'Dana Dispatcher' })).status).toBe(200);
    const t5 = await screen('T-5');
    expect([t5.action, t5.settled_by, t5.standing_decision?.decision]).toEqual(['block', 'standing_decision', 'rejected']);
  });

  it('past SCREEN_DECISION_TTL it no longer stands: a review opens and shows the previous decision', async () => {
    clock += 31 * DAY;
    const t6 = await screen('T-6');
    expect([t6.action, t6.settled_by]).toEqual(['hold', null]);
    const [open] = await pending();
    expect(open!.previous_decision).toMatchObject({ decision: 'rejected', decided_by: 'Dana Dispatcher' });
    expect(open!.previous_decision!.changes.join(' ')).toMatch(/expired/);
  });
});

describe("a change of the score's basis lapses the decision", () => {
  it('a fresh score with another grade ends it, and the reopened review says what changed', async () => {
    const store = stack.screener.store;
    const decisions = new CarrierDecisions({ store, env: 'sandbox', ttlMs: 30 * DAY, now: () => new Date(clock) });
    // Approve the review T-6 opened: the decision stands on grade D.
    const [open] = await pending();
    await call('POST', `/reviews/${open!.id}/approve`, { by: 'Dana Dispatcher' });
    const standing = await decisions.list({ state: 'standing' });
    expect(standing).toHaveLength(1);
    // The same carrier's score, a grade better (what a re-check or the watch list brings in).
    const score = structuredClone((await store.scores.getScore('sandbox', { dot_number: '1000003' }))!.score);
    score.grade = 'C';
    const lapsed = await store.unitOfWork((tx) => decisions.observe(tx, { query: { dot_number: '1000003' } }, score));
    expect(lapsed).toMatchObject({ id: standing[0]!.id, state: 'lapsed', end_reason: 'grade D → C' });
    // The next hold opens a review showing the lapsed decision and the change.
    const t7 = await screen('T-7');
    expect(t7.action).toBe('hold');
    const [reopened] = await pending();
    expect(reopened!.previous_decision).toMatchObject({ id: standing[0]!.id, decision: 'approved', changes: ['grade D → C'] });
  });
});

describe('Idempotency-Key', () => {
  async function post(path: string, body: unknown, key?: string) {
    const res = await request(stack.intakeUrl + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.statusCode, replayed: res.headers['idempotent-replayed'], json: (await res.body.json()) as any };
  }

  itSqlite('a TMS retrying POST /screenings with its key gets the same screening, not a second one; another body is 409', async () => {
    const body = { dot_number: '1000005', tender_id: 'LOAD-9', callback_url: `${receiverUrl}/tms` };
    const first = await post('/screenings?wait=10', body, 'tms-req-0001');
    const again = await post(
      '/screenings?wait=10',
      { tender_id: 'LOAD-9', callback_url: `${receiverUrl}/tms`, dot_number: '1000005' },
      'tms-req-0001',
    );
    expect(first.replayed).toBeUndefined();
    expect([again.status, again.replayed, again.json.id]).toEqual([200, 'true', first.json.id]);
    const other = await post('/screenings', { ...body, tender_id: 'LOAD-10' }, 'tms-req-0001');
    expect([other.status, other.json.error.code, other.json.error.param]).toEqual([409, 'idempotency_conflict', 'Idempotency-Key']);
    expect((await post('/screenings', body, 'has space')).json.error).toMatchObject({ code: 'invalid_request', param: 'Idempotency-Key' });
    // Kept in SQLite: a process opening the file afresh (a restart) replays it too.
    const { openStore } = await import('../../worker/store/index.js');
    const { IdempotencyKeys, requestHash } = await import('../../worker/decisions/idempotency.js');
    const fresh = openStore(stack.dbPath);
    try {
      // Keys are per token: this one was sent with INTAKE_TOKEN.
      const scope = 'intake_token POST /screenings';
      expect(await new IdempotencyKeys(recordOf(fresh)).claim(scope, 'tms-req-0001', requestHash(scope, body))).toEqual({
        kind: 'replay',
        resourceId: first.json.id,
      });
    } finally {
      fresh.close();
    }
  });

  it("a dispatcher's repeated approve with its key answers the review as it is; without a key it is 409", async () => {
    const [open] = await pending();
    const path = `/reviews/${open!.id}/approve`;
    const a = await post(path, { by: 'Dana Dispatcher' }, 'desk-click-42');
    const b = await post(path, { by: 'Dana Dispatcher' }, 'desk-click-42');
    expect([a.status, b.status, b.replayed, b.json.state]).toEqual([200, 200, 'true', 'approved']);
    expect((await post(path, { by: 'Dana Dispatcher' })).json.error.code).toBe('review_conflict');
  });
});

describe('GET /audit.csv', () => {
  it('one RFC 4180 row per screening in the period, read back by a CSV parser: quotes and commas intact, who decided on which score', async () => {
    const odd = await screen('LOAD "7", dock 3');
    const res = await request(`${stack.intakeUrl}/audit.csv?from=2000-01-01&to=${new Date(clock + DAY).toISOString()}`, {
      headers: { authorization: `Bearer ${stack.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const { parse } = await import('csv-parse/sync');
    const rows = parse(await res.body.text(), { columns: true }) as Array<Record<string, string>>;
    const all = (await call('GET', '/screenings?limit=100')).json.data as Screening[];
    expect(rows.map((r) => r.screening_id).sort()).toEqual(all.map((s) => s.id).sort());
    const row = rows.find((r) => r.screening_id === odd.id)!;
    expect(row).toMatchObject({ tender_id: 'LOAD "7", dock 3', dot_number: '1000003', grade: 'D', decision: 'review', score: '66' });
    expect(row.model_version).toMatch(/sandbox/);
    // A tender settled by a review names the review and who decided; one settled by a standing decision names it.
    const t1 = rows.find((r) => r.tender_id === 'T-1')!;
    expect(t1).toMatchObject({ action: 'tender', review_state: 'approved', decided_by: 'Dana Dispatcher', note: 'called them' });
    const t3 = rows.find((r) => r.tender_id === 'T-3')!;
    expect(t3.standing_decision_id).toMatch(/^dec_/);
    expect(t3.decided_by).toBe('Dana Dispatcher');
  });

  it('refuses a date that is not ISO 8601, naming it', async () => {
    const r = await call('GET', '/audit.csv?from=yesterday');
    expect([r.status, r.json.error.param]).toEqual([400, 'from']);
  });
});

describe('reject and block in one step', () => {
  it('a rejection with block: true also puts the carrier on the local do-not-use list', async () => {
    for (const d of (await call('GET', '/decisions?state=standing')).json.data as Decision[])
      await call('POST', `/decisions/${d.id}/revoke`, { by: 'test' });
    const held = await screen('T-blk');
    expect(held.action).toBe('hold');
    const r = await call('POST', `/reviews/${held.review!.id}/reject`, { by: 'Dana Dispatcher', note: 'fraud report', block: true });
    expect(r.status).toBe(200);
    const blocks = (await call('GET', '/blocks?state=active')).json.data as Array<{
      dot_number: string;
      reason: string;
      blocked_by: string;
    }>;
    expect(blocks.find((b) => b.dot_number === '1000003')).toMatchObject({ reason: 'fraud report', blocked_by: 'Dana Dispatcher' });
    expect((await call('POST', `/reviews/${held.review!.id}/approve`, { by: 'x', block: true })).status).toBe(400);
  });
});

describe('a broader basis: severity, flags, data_confidence (docs/decisions.md, "What ends a decision")', () => {
  it('the same check escalating medium → critical ends a standing approval: the next tender is held, the review says why', async () => {
    // The carrier off the do-not-use list the test above put it on, and nothing standing.
    expect((await call('POST', '/blocks/1000003/lift', { by: 'test' })).status).toBe(200);
    for (const d of (await call('GET', '/decisions?state=standing')).json.data as Decision[])
      await call('POST', `/decisions/${d.id}/revoke`, { by: 'test' });
    for (const rv of await pending()) await call('POST', `/reviews/${rv.id}/reject`, { by: 'test' });
    const held = await screen('T-sev-1', { refresh: true });
    expect(held.action).toBe('hold');
    expect((await call('POST', `/reviews/${held.review!.id}/approve`, { by: 'Dana Dispatcher' })).status).toBe(200);
    // Standing: the next tender is settled at once.
    expect((await screen('T-sev-2')).settled_by).toBe('standing_decision');

    // /v1's next answer for the carrier: the same check, now critical (everything else the same).
    const store = stack.screener.store;
    const escalated = structuredClone((await store.scores.getScore('sandbox', { dot_number: '1000003' }))!.score);
    expect(escalated.reasons[0]!.severity).toBe('medium');
    escalated.reasons[0]!.severity = 'critical';
    await store.scores.putScore('sandbox', escalated, new Date(clock), { dot_number: '1000003' });

    const next = await screen('T-sev-3');
    expect([next.action, next.settled_by]).toEqual(['hold', null]);
    const lapsed = (await call('GET', '/decisions?dot_number=1000003&state=lapsed')).json.data as Decision[];
    expect(lapsed[0]!.end_reason).toBe(`severity of ${escalated.reasons[0]!.check}: medium → critical`);
    const [open] = await pending();
    expect(open!.previous_decision!.changes).toEqual([`severity of ${escalated.reasons[0]!.check}: medium → critical`]);
  });
});
