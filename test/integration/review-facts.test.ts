/**
 * Approve what you saw (docs/decisions.md, issue 25): a review carries a version of the facts it
 * shows; an approve or reject names the version its maker saw and is refused 409 review_stale
 * when the carrier's facts changed since (another basis, a blocking score, a local block). A
 * blocking score or a local block closes the open review at once and blocks its waiting
 * tenders, each with its callback and event. Who decided comes from the credential, and the
 * token id reaches the audit CSV. Real Redis, SQLite, the live emulator with dated changes,
 * the intake over HTTP and a real callback receiver.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCarrier } from '../../emulator/index.js';
import { applyDatedChange, type DatedChange } from '../../emulator/dated-changes.js';
import type { Review, Screening } from '../../shared/screening.js';
import { getCallbackByDelivery, verifyCallback } from '../../worker/callbacks/index.js';
import { CarrierDecisions } from '../../worker/decisions/carrier-decisions.js';
import { closedReviewNews } from '../../worker/decisions/review-news.js';
import type { SharedEventFeed } from '../../worker/events/event-feed.js';
import { GroupCommit } from '../../worker/store/group-commit.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { manualClock } from '../helpers/emulator.js';
import { until } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';

const clock = manualClock('2026-03-02T10:00:00.000Z');
let stack: Stack;
let server: Server;
let receiverUrl: string;
const received: Array<{ body: any; verified: boolean }> = [];
let desk = '';
let deskId = '';
let admin = '';
let adminId = '';

const used = new Set<string>();
function find(pred: (dot: string) => boolean): string {
  for (let d = 3_200_000; ; d++) {
    const dot = String(d);
    if (!used.has(dot) && pred(dot)) {
      used.add(dot);
      return dot;
    }
  }
}
const held = (dot: string): boolean => {
  const c = liveCarrier(dot);
  return c !== undefined && c.decision === 'review' && !c.knockout.triggered;
};
/** Held for review; put on the do-not-use list while its review is open. */
const BLOCKED = find(held);
/** Held for review today; its authority is revoked from 2026-03-03 (knockout AUTHORITY_INACTIVE). */
const KNOCKED = find((d) => held(d) && applyDatedChange(liveCarrier(d)!, 'authority_revoked').knockout.triggered);
/** Approved but for manual review today; a safety downgrade from 2026-03-03 makes it `review`: held on another basis. */
const DOWNGRADED = find((d) => {
  const c = liveCarrier(d);
  return (
    c !== undefined &&
    c.decision === 'approved' &&
    c.needs_manual_review &&
    !c.knockout.triggered &&
    applyDatedChange(c, 'safety_downgrade').decision === 'review'
  );
});
/** Held for review and never changes: a newer score has the same basis. */
const SAME = find(held);
/** Held for review: who decides it comes from the credential. */
const IDENT = find(held);
/** Held for review: blocked behind the review's back (no review closed then), then screened from the cache. */
const LATE = find(held);
/** Held for review: closed inside a group commit whose batch is run twice. */
const TWICE = find(held);

const DATED: DatedChange[] = [
  { dot: KNOCKED, from: '2026-03-03T00:00:00Z', change: 'authority_revoked' },
  { dot: DOWNGRADED, from: '2026-03-03T00:00:00Z', change: 'safety_downgrade' },
];

async function call(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

async function tender(dot: string, tenderId: string, extra: Record<string, unknown> = {}): Promise<Screening> {
  const r = await call(stack.token, 'POST', '/screenings?wait=20', {
    dot_number: dot,
    tender_id: tenderId,
    callback_url: `${receiverUrl}/tms`,
    ...extra,
  });
  expect(r.status).toBe(200);
  return r.json as Screening;
}

const screening = async (id: string): Promise<Screening> => (await call(stack.token, 'GET', `/screenings/${id}`)).json as Screening;
const review = async (id: string): Promise<Review> => (await call(stack.token, 'GET', `/reviews/${id}`)).json as Review;
const resolvedCallbacks = (tenderId: string) =>
  received.filter((r) => r.body.event === 'review.resolved' && r.body.screening.tender_id === tenderId);

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const sig = req.headers['x-carrier-screen-signature'];
      received.push({
        body: JSON.parse(raw),
        verified: verifyCallback(stack.callbackSecret, typeof sig === 'string' ? sig : undefined, raw, { now: clock.now }).ok,
      });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stack = await startStack({
    mode: 'live',
    now: clock.now,
    callbackBackoffMs: 50,
    emulator: { datedChanges: DATED, monthlyQuota: 10_000 },
  });
  const tokens = new IntakeTokens(stack.screener.store, clock.now);
  ({
    token: desk,
    record: { id: deskId },
  } = await tokens.create('desk', 'Dana Desk'));
  ({
    token: admin,
    record: { id: adminId },
  } = await tokens.create('admin', 'Ops Admin'));
});
afterAll(async () => {
  await stack?.close();
  await new Promise((r) => server?.close(r));
});

/** Tenders held on 2026-03-02, before the dated changes (the clock only goes forward). */
const first: Record<string, Screening> = {};

describe('a local block ends the open review at once', () => {
  it('holds each carrier for review before its record changes', async () => {
    for (const [dot, id] of [
      [KNOCKED, 'K-1'],
      [DOWNGRADED, 'D-1'],
      [SAME, 'S-1'],
    ] as const)
      first[id] = await tender(dot, id);
    expect(Object.values(first).map((s) => s.action)).toEqual(['hold', 'hold', 'hold']);
    expect(first['D-1']!.score?.decision).toBe('approved');
  });

  it('block, then approve: the review was closed, its tender blocked with a callback; the approve is 409 review_stale', async () => {
    const t1 = await tender(BLOCKED, 'B-1');
    expect(t1.action).toBe('hold');
    const opened = await review(t1.review!.id);
    expect([opened.state, opened.version, opened.latest.screening_id, opened.closed_by]).toEqual(['pending', 1, t1.id, null]);

    const block = await call(desk, 'POST', '/blocks', { dot_number: BLOCKED, reason: 'double-brokered a load' });
    expect(block.status).toBe(201);
    // Closed in the block's commit: the tender is blocked, its review says why.
    const closed = await review(t1.review!.id);
    expect(closed).toMatchObject({ state: 'closed', closed_by: 'local_block', version: 2 });
    expect(closed.closed_reason).toContain('double-brokered a load');
    const s1 = await screening(t1.id);
    expect([s1.action, s1.settled_by, s1.review?.state, s1.hold_reason]).toEqual(['block', 'review', 'closed', 'manual_review']);
    await until("the closed review's callback", 15_000, () => resolvedCallbacks('B-1').length === 1);
    const cb = resolvedCallbacks('B-1')[0]!;
    expect([cb.verified, cb.body.screening.action, cb.body.screening.review.state]).toEqual([true, 'block', 'closed']);
    const events = (await stack.screener.events.since(0)).filter(
      (e) => e.event === 'review.resolved' && (e.data as any).screening.id === t1.id,
    );
    expect(events.map((e) => [(e.data as Review).state, (e.data as Review).closed_by])).toEqual([['closed', 'local_block']]);
    expect((await call(stack.token, 'GET', '/reviews?state=pending')).json.data.map((r: Review) => r.id)).not.toContain(closed.id);
    expect((await call(stack.token, 'GET', '/reviews?state=closed')).json.data.map((r: Review) => r.id)).toContain(closed.id);

    // The dispatcher approves what they saw (version 1): refused, with the review as it is now.
    const stale = await call(desk, 'POST', `/reviews/${t1.review!.id}/approve`, { review_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({ code: 'review_stale', param: 'review_version' });
    expect(stale.json.error.review).toMatchObject({ id: closed.id, state: 'closed', closed_by: 'local_block', version: 2 });
    // Having seen the closed review, deciding it is a plain conflict; the tender stays blocked.
    expect((await call(desk, 'POST', `/reviews/${t1.review!.id}/approve`, { review_version: 2 })).json.error.code).toBe('review_conflict');
    expect((await screening(t1.id)).action).toBe('block');
  });

  it('a block the review missed (made behind its back) closes it with the next screening of the carrier, a cache hit in a group commit', async () => {
    const t1 = await tender(LATE, 'L-1');
    expect(t1.action).toBe('hold');
    // Only the block row, as a block made before this release would be: the review stays open.
    await stack.screener.blocks.add({ dot_number: LATE }, 'Old Tool', 'blocked elsewhere');
    expect((await review(t1.review!.id)).state).toBe('pending');
    const t2 = await tender(LATE, 'L-2');
    expect([t2.action, t2.source, t2.error?.code]).toEqual(['block', 'cache', 'local_block']);
    expect(await review(t1.review!.id)).toMatchObject({ state: 'closed', closed_by: 'local_block' });
    expect((await screening(t1.id)).action).toBe('block');
    await until("the closed review's callback", 15_000, () => resolvedCallbacks('L-1').length === 1);
  });
});

describe('the group-commit rule: a batched piece may run twice', () => {
  it('a closing run twice (its batch rolled back by a sibling that threw) closes once: one callback row and one event per tender', async () => {
    const t1 = await tender(TWICE, 'G-1');
    expect(t1.action).toBe('hold');
    const store = stack.screener.store;
    await stack.screener.blocks.add({ dot_number: TWICE }, 'Old Tool', 'blocked elsewhere');
    const decisions = new CarrierDecisions({ store, env: 'live', ttlMs: 86_400_000, now: clock.now });
    const blockedHit = { id: 'scr_twice', query: { dot_number: TWICE } };
    const r = {
      action: 'block' as const,
      hold_reason: null,
      source: 'cache' as const,
      score: null,
      score_fetched_at: null,
      error: { code: 'local_block', message: 'on the local do-not-use list: blocked elsewhere', request_id: null },
    };
    let runs = 0;
    const commits = new GroupCommit(store);
    const piece = commits.run(async (tx) => {
      runs++;
      const out = await decisions.onFacts(tx, blockedHit, r);
      return out?.kind === 'closed'
        ? (await closedReviewNews(tx, store, stack.screener.events as SharedEventFeed, out, clock.now())).map((e) => e.id)
        : [];
    });
    const failing = commits.run(() => {
      throw new Error('a sibling piece fails');
    });
    const [events, sibling] = await Promise.allSettled([piece, failing]);
    expect([runs, sibling.status]).toEqual([2, 'rejected']);
    expect(events.status === 'fulfilled' && events.value).toHaveLength(1);
    expect(await review(t1.review!.id)).toMatchObject({ state: 'closed', closed_by: 'local_block', version: 2 });
    // One row: delivery_id is unique in the outbox (both backends), so the row being there is the count.
    expect(await getCallbackByDelivery(store, `${t1.id}:review.resolved:closed`)).toBeDefined();
    const told = (await stack.screener.events.since(0)).filter(
      (e) => e.event === 'review.resolved' && (e.data as any).screening.id === t1.id,
    );
    expect(told).toHaveLength(1);
    await (stack.screener.events as SharedEventFeed).announce();
  });
});

describe('a blocking score ends the open review at once', () => {
  it('knockout, then approve: the fresh knockout closed the review and blocked the waiting tender; the approve is 409 review_stale', async () => {
    const t1 = first['K-1']!;
    clock.set('2026-03-03T12:00:00.000Z');
    // A fresh lookup for the next tender: authority revoked.
    const t2 = await tender(KNOCKED, 'K-2', { refresh: true });
    expect([t2.action, t2.score?.knockout.reasons.map((r) => r.code)]).toEqual(['block', ['AUTHORITY_INACTIVE']]);
    const closed = await review(t1.review!.id);
    expect(closed).toMatchObject({ state: 'closed', closed_by: 'blocking_score', version: 2, latest: { screening_id: t2.id } });
    expect(closed.closed_reason).toContain('AUTHORITY_INACTIVE');
    expect(closed.latest.changes).toContain('new knockout: AUTHORITY_INACTIVE');
    expect((await screening(t1.id)).action).toBe('block');
    await until("the closed review's callback", 15_000, () => resolvedCallbacks('K-1').length === 1);
    expect(resolvedCallbacks('K-1')[0]!.body.screening.action).toBe('block');

    // An API caller without review_version saw the facts it was opened with: refused.
    const stale = await call(desk, 'POST', `/reviews/${t1.review!.id}/approve`, {});
    expect([stale.status, stale.json.error.code]).toEqual([409, 'review_stale']);
    expect(stale.json.error.review.state).toBe('closed');
    // No decision was made: nothing stands for the carrier.
    expect((await call(stack.token, 'GET', `/decisions?dot_number=${KNOCKED}`)).json.data).toEqual([]);
  });
});

describe('a newer score on the open review', () => {
  it('with another basis: a new version; a decision on the old one is refused, one on the current version settles every tender', async () => {
    const t1 = first['D-1']!;
    const t2 = await tender(DOWNGRADED, 'D-2', { refresh: true });
    expect([t2.action, t2.score?.decision]).toEqual(['hold', 'review']);
    const now = await review(t1.review!.id);
    expect([now.state, now.version, now.latest.screening_id, now.tenders.length]).toEqual(['pending', 2, t2.id, 2]);
    expect(now.latest.changes).toContain('decision approved → review');
    expect(now.updated_at).toBe(t2.completed_at);
    // The review's own first score is kept as it was: the record of what it was opened on.
    expect(now.screening.score?.decision).toBe('approved');

    const noVersion = await call(desk, 'POST', `/reviews/${t1.review!.id}/approve`, { note: 'looked fine' });
    expect([noVersion.status, noVersion.json.error.code, noVersion.json.error.review.version]).toEqual([409, 'review_stale', 2]);
    const old = await call(desk, 'POST', `/reviews/${t2.review!.id}/reject`, { review_version: 1 });
    expect([old.status, old.json.error.code]).toEqual([409, 'review_stale']);
    for (const bad of [3, 0, 'two', 1.5])
      expect((await call(desk, 'POST', `/reviews/${t1.review!.id}/approve`, { review_version: bad })).json.error).toMatchObject({
        code: 'invalid_request',
        param: 'review_version',
      });
    expect([(await screening(t1.id)).action, (await screening(t2.id)).action]).toEqual(['hold', 'hold']);

    // Approving what is shown now: both tenders tendered; the decision stands on the newer facts.
    const ok = await call(desk, 'POST', `/reviews/${t1.review!.id}/approve`, { review_version: 2 });
    expect([ok.status, ok.json.state, ok.json.decided_by, ok.json.token_id]).toEqual([200, 'approved', 'Dana Desk', deskId]);
    expect([(await screening(t1.id)).action, (await screening(t2.id)).action]).toEqual(['tender', 'tender']);
    const [d] = (await call(stack.token, 'GET', `/decisions?dot_number=${DOWNGRADED}`)).json.data;
    expect(d).toMatchObject({ state: 'standing', token_id: deskId, basis: { decision: 'review' } });
  });

  it('with the same basis: a new version, and a decision on the older one still stands', async () => {
    const t1 = first['S-1']!;
    clock.advance(2 * 3_600_000);
    const t2 = await tender(SAME, 'S-2', { refresh: true });
    expect(t2.source).toBe('service');
    const now = await review(t1.review!.id);
    expect([now.version, now.latest.screening_id, now.latest.changes]).toEqual([2, t2.id, []]);
    const ok = await call(desk, 'POST', `/reviews/${t1.review!.id}/approve`, { review_version: 1 });
    expect([ok.status, ok.json.state]).toEqual([200, 'approved']);
    expect((await screening(t2.id)).action).toBe('tender');
  });
});

describe('who decided comes from the credential', () => {
  it("a desk token's `by` is ignored; an admin acts for the person named; the token id is in the audit CSV", async () => {
    const t1 = await tender(IDENT, 'I-1');
    const r = await call(desk, 'POST', `/reviews/${t1.review!.id}/reject`, {
      by: 'Mallory',
      note: 'no insurance papers',
      review_version: 1,
    });
    expect([r.status, r.json.decided_by, r.json.token_id]).toEqual([200, 'Dana Desk', deskId]);
    const [d] = (await call(stack.token, 'GET', `/decisions?dot_number=${IDENT}`)).json.data;
    expect([d.decided_by, d.token_id]).toEqual(['Dana Desk', deskId]);
    // An admin revokes it for Sam: Sam is recorded, with the admin token's id.
    const revoked = await call(admin, 'POST', `/decisions/${d.id}/revoke`, { by: 'Sam Supervisor', note: 'papers came' });
    expect([revoked.json.ended_by, revoked.json.ended_token_id]).toEqual(['Sam Supervisor', adminId]);

    const csv = await request(`${stack.intakeUrl}/audit.csv?from=2026-01-01&to=2026-04-01`, {
      headers: { authorization: `Bearer ${desk}` },
    });
    expect(csv.statusCode).toBe(200);
    const rows = parse(await csv.body.text(), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toContain('token_id');
    const row = rows.find((x) => x.tender_id === 'I-1')!;
    expect([row.decided_by, row.token_id, row.review_state, row.action]).toEqual(['Dana Desk', deskId, 'rejected', 'block']);
    // A review closed without a person: closed, blocked, what closed it as the note, no one's credential.
    const closedRow = rows.find((x) => x.tender_id === 'B-1')!;
    expect([closedRow.review_state, closedRow.action, closedRow.decided_by, closedRow.token_id]).toEqual(['closed', 'block', '', '']);
    expect(closedRow.note).toContain('double-brokered a load');
    expect(rows.find((x) => x.tender_id === 'K-1')!.note).toContain('AUTHORITY_INACTIVE');
    // A tender that waited on the review carries the credential that settled it.
    const waited = rows.find((x) => x.tender_id === 'D-2')!;
    expect([waited.decided_by, waited.token_id]).toEqual(['Dana Desk', deskId]);
  });
});
