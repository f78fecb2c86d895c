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
import { startStack, type Stack } from '../helpers/stack.js';

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
      received.push({ body: JSON.parse(raw), verified: verifyCallback(stack.callbackSecret, typeof sig === "string" ? sig : undefined, raw, { now: () => new Date(clock) }).ok });
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

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

const screen = async (tender: string, extra: Record<string, unknown> = {}): Promise<Screening> => {
  const r = await call('POST', '/screenings?wait=20', { dot_number: '1000003', tender_id: tender, callback_url: `${receiverUrl}/tms`, ...extra });
  expect(r.status).toBe(200);
  return r.json as Screening;
};
const pending = async (): Promise<Review[]> => (await call('GET', '/reviews?state=pending')).json.data as Review[];

describe('one review per carrier; a decision that stands', () => {
  it('two tenders wait on one review; approving settles both, each with its own signed callback', async () => {
    const t1 = await screen('T-1');
    const t2 = await screen('T-2');
    expect([t1.action, t2.action]).toEqual(['hold', 'hold']);
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
    expect([t4.action, t4.settled_by]).toEqual(['hold', null]);
    expect(await pending()).toHaveLength(1);
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

describe('a change of the score\'s basis lapses the decision', () => {
  it('a fresh score with another grade ends it, and the reopened review says what changed', async () => {
    const store = stack.screener.store;
    const decisions = new CarrierDecisions({ store, env: 'sandbox', ttlMs: 30 * DAY, now: () => new Date(clock) });
    // Approve the review T-6 opened: the decision stands on grade D.
    const [open] = await pending();
    await call('POST', `/reviews/${open!.id}/approve`, { by: 'Dana Dispatcher' });
    const standing = decisions.list({ state: 'standing' });
    expect(standing).toHaveLength(1);
    // The same carrier's score, a grade better (what a re-check or the watch list brings in).
    const score = structuredClone(store.getScore('sandbox', { dot_number: '1000003' })!.score);
    score.grade = 'C';
    const lapsed = store.transaction(() => decisions.observe({ query: { dot_number: '1000003' } }, score));
    expect(lapsed).toMatchObject({ id: standing[0]!.id, state: 'lapsed', end_reason: 'grade D → C' });
    // The next hold opens a review showing the lapsed decision and the change.
    const t7 = await screen('T-7');
    expect(t7.action).toBe('hold');
    const [reopened] = await pending();
    expect(reopened!.previous_decision).toMatchObject({ id: standing[0]!.id, decision: 'approved', changes: ['grade D → C'] });
  });
});
