import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCarrier } from '../../emulator/index.js';
import { applyDatedChange, type DatedChange } from '../../emulator/dated-changes.js';
import type { CarrierChange, Screening, WatchEntry } from '../../shared/screening.js';
import { callbackCounts, verifyCallback } from '../../worker/callbacks/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { manualClock } from '../helpers/emulator.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { itSqlite } from '../helpers/test-db.js';

/**
 * The watch list end to end: tenders put carriers on it, the daily re-screen sees the
 * emulator's dated change, and exactly one change record, one carrier.changed event and one
 * callback per callback URL follow. Real Redis, SQLite, emulator, intake and receiver.
 */

const clock = manualClock('2026-03-02T10:00:00.000Z');
let stack: Stack;
let server: Server;
let receiverUrl: string;
const received: Array<{ path: string; headers: IncomingMessage['headers']; raw: string; verified: boolean }> = [];
const waiters: Array<() => void> = [];

/** Live carriers from `from` on that satisfy `pred`. */
function findCarriers(from: number, n: number, pred: (dot: string) => boolean, skip: Set<string>): string[] {
  const out: string[] = [];
  for (let d = from; out.length < n; d++) {
    const dot = String(d);
    if (!skip.has(dot) && pred(dot)) {
      out.push(dot);
      skip.add(dot);
    }
  }
  return out;
}
const cleanApproved = (dot: string): boolean => {
  const c = liveCarrier(dot);
  return c !== undefined && c.decision === 'approved' && !c.needs_manual_review && !c.knockout.triggered;
};
const used = new Set<string>();
/** Approved today; its authority is revoked from 2026-03-03 (a knockout: block). */
const [REVOKED] = findCarriers(3_100_000, 1, cleanApproved, used) as [string];
/** Approved and stays so: never a change. */
const [STEADY] = findCarriers(3_100_000, 1, cleanApproved, used) as [string];
/** Held for review at its tender and still so: a watch re-screen opens no second review. */
const [HELD] = findCarriers(3_100_000, 1, (d) => liveCarrier(d)?.decision === 'review', used) as [string];
/** Approved today; a safety downgrade from 2026-03-03 makes it `review`: a change to hold. */
const [DOWNGRADED] = findCarriers(
  3_100_000,
  1,
  (d) => cleanApproved(d) && applyDatedChange(liveCarrier(d)!, 'safety_downgrade').decision === 'review',
  used,
) as [string];

const DATED: DatedChange[] = [
  { dot: REVOKED, from: '2026-03-03T00:00:00Z', change: 'authority_revoked' },
  { dot: DOWNGRADED, from: '2026-03-03T00:00:00Z', change: 'safety_downgrade' },
];

function until(pred: () => boolean): Promise<void> {
  return (async () => {
    while (!pred()) await new Promise<void>((r) => waiters.push(r));
  })();
}

const changeCallbacks = () => received.filter((r) => r.headers['x-carrier-screen-event'] === 'carrier.changed');

const dotOf = (s: Screening): string | undefined => ('dot_number' in s.query ? s.query.dot_number : undefined);

async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

async function tender(dot: string, tenderId: string, hook: string): Promise<Screening> {
  const r = await call('POST', '/screenings?wait=20', { dot_number: dot, tender_id: tenderId, callback_url: `${receiverUrl}${hook}` });
  expect(r.status).toBe(200);
  return r.json as Screening;
}

/** Run one scheduler tick and wait for its re-screens to finish. */
async function tickAndWait(): Promise<Screening[]> {
  const t = await stack.screener.watch.tick();
  return Promise.all(t.screenings.map((id) => stack.screener.waitFor(id, 30_000)));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const sig = req.headers['x-carrier-screen-signature'];
      const verified = verifyCallback(stack.callbackSecret, typeof sig === 'string' ? sig : undefined, raw, { now: clock.now }).ok;
      received.push({ path: req.url ?? '', headers: req.headers, raw, verified });
      res.statusCode = 204;
      res.end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stack = await startStack({
    mode: 'live',
    now: clock.now,
    emulator: { datedChanges: DATED, monthlyQuota: 10_000 },
    env: { SCREEN_WATCH_DAYS: '14' },
  });
});
afterAll(async () => {
  await stack?.close();
  await new Promise((r) => server?.close(r));
});

describe('watch list and change alerts', () => {
  it('puts every carrier screened for a tender on the watch list', async () => {
    expect((await tender(REVOKED, 'T-1', '/hooks/a')).action).toBe('tender');
    expect((await tender(REVOKED, 'T-2', '/hooks/a')).action).toBe('tender');
    expect((await tender(REVOKED, 'T-3', '/hooks/b')).action).toBe('tender');
    expect((await tender(STEADY, 'T-4', '/hooks/a')).action).toBe('tender');
    expect((await tender(HELD, 'T-5', '/hooks/a')).action).toBe('hold');
    expect((await tender(DOWNGRADED, 'T-6', '/hooks/c')).action).toBe('tender');

    const list = await call('GET', '/watchlist');
    expect(list.status).toBe(200);
    expect(list.json.object).toBe('list');
    const entries = list.json.data as WatchEntry[];
    expect(entries.map((e) => e.dot_number).sort()).toEqual([REVOKED, STEADY, HELD, DOWNGRADED].sort());
    const revoked = entries.find((e) => e.dot_number === REVOKED)!;
    expect(revoked.manual).toBe(false);
    expect(revoked.last_tender_at).toBe('2026-03-02T10:00:00.000Z');
    expect(revoked.watch_until).toBe('2026-03-16T10:00:00.000Z');
    expect(revoked.last?.action).toBe('tender');
    // Spread over the day, at least 12 h after the tender that screened it.
    expect(Date.parse(revoked.next_check_at)).toBeGreaterThanOrEqual(Date.parse('2026-03-02T22:00:00.000Z'));
    expect(Date.parse(revoked.next_check_at)).toBeLessThan(Date.parse('2026-03-03T22:00:00.000Z'));
    expect((await call('GET', '/reviews?state=pending')).json.data).toHaveLength(1);
  });

  it('a carrier whose data changed makes one change, one event and one callback per callback URL', async () => {
    const lookupsBefore = stack.emulator.stats().scoreLookups;
    clock.set('2026-03-04T12:00:00.000Z');
    const rescreens = await tickAndWait();
    expect(rescreens).toHaveLength(4);
    for (const s of rescreens) {
      expect(s.status).toBe('done');
      expect(s.priority).toBe('background');
      expect(s.refresh).toBe(true);
      expect(s.tender_id).toBeNull();
      expect(s.source).toBe('service');
    }
    expect(stack.emulator.stats().scoreLookups).toBe(lookupsBefore + 4);
    expect(rescreens.find((s) => dotOf(s) === REVOKED)!.action).toBe('block');

    const changes = (await call('GET', '/changes?state=new')).json.data as CarrierChange[];
    expect(changes.map((c) => c.dot_number).sort()).toEqual([REVOKED, DOWNGRADED].sort());
    const c = changes.find((x) => x.dot_number === REVOKED)!;
    expect(c.object).toBe('carrier_change');
    expect(c.id).toMatch(/^chg_[a-z2-7]{26}$/);
    expect(c.before).toMatchObject({ action: 'tender', decision: 'approved', knockout_codes: [] });
    expect(c.after).toMatchObject({
      action: 'block',
      decision: 'rejected',
      knockout_codes: ['AUTHORITY_INACTIVE'],
      model_version: 'crs-3.5',
    });
    expect(c.after.score).toBeLessThanOrEqual(35);
    expect(c.reasons).toEqual(['action_changed', 'decision_changed', 'new_knockout', 'grade_drop']);
    expect(c.tenders.map((t) => t.tender_id)).toEqual(['T-1', 'T-2', 'T-3']);
    // What each load got when the change was found: all three went out.
    expect(c.tenders.map((t) => [t.action, t.settled_by])).toEqual([
      ['tender', null],
      ['tender', null],
      ['tender', null],
    ]);
    // The findings the new score added, by code (the old score had no knockout to remove).
    expect(c.findings?.added).toContainEqual(
      expect.objectContaining({ kind: 'knockout', code: 'AUTHORITY_INACTIVE', severity: 'critical' }),
    );
    expect(c.findings?.removed.some((f) => f.kind === 'knockout')).toBe(false);
    expect(c.screening_id).toBe(rescreens.find((s) => dotOf(s) === REVOKED)!.id);
    expect(c).not.toHaveProperty('tender_callbacks');

    // One event per change.
    const events = (await stack.screener.events.since(0)).filter((e) => e.event === 'carrier.changed');
    expect(events.map((e) => (e.data as CarrierChange).dot_number).sort()).toEqual([REVOKED, DOWNGRADED].sort());

    // REVOKED: one callback to /hooks/a naming T-1 and T-2, one to /hooks/b naming T-3. DOWNGRADED: one to /hooks/c.
    await until(() => changeCallbacks().length >= 3);
    const cbs = changeCallbacks();
    expect(cbs.every((r) => r.verified)).toBe(true);
    const bodies = cbs.map((r) => ({ path: r.path, delivery: r.headers['x-carrier-screen-delivery'], body: JSON.parse(r.raw) }));
    const a = bodies.filter((b) => b.path === '/hooks/a');
    const b = bodies.filter((b) => b.path === '/hooks/b');
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(a[0]!.body.event).toBe('carrier.changed');
    expect(a[0]!.body.change.id).toBe(c.id);
    expect(a[0]!.body.change.tenders.map((t: { tender_id: string }) => t.tender_id)).toEqual(['T-1', 'T-2']);
    expect(b[0]!.body.change.tenders.map((t: { tender_id: string }) => t.tender_id)).toEqual(['T-3']);
    expect(a[0]!.delivery).toBe(a[0]!.body.delivery_id);
    expect(a[0]!.delivery).not.toBe(b[0]!.delivery);
    expect(String(a[0]!.delivery)).toContain(c.id);
    const d = bodies.filter((x) => x.path === '/hooks/c');
    expect(d).toHaveLength(1);
    expect(d[0]!.body.change.dot_number).toBe(DOWNGRADED);
    expect(d[0]!.body.change.after.action).toBe('hold');
  });

  it('a watch re-screen opens a review only when the action became hold', async () => {
    const pending = (await call('GET', '/reviews?state=pending')).json.data as Array<{ screening: Screening }>;
    // HELD's review from its tender, DOWNGRADED's from the change; none for HELD's re-screen.
    expect(pending.map((r) => dotOf(r.screening)).sort()).toEqual([HELD, DOWNGRADED].sort());
    expect(pending.find((r) => dotOf(r.screening) === HELD)!.screening.tender_id).toBe('T-5');
  });

  it('the next day: no new change, event or callback for carriers already seen changed', async () => {
    clock.set('2026-03-06T12:00:00.000Z');
    const rescreens = await tickAndWait();
    expect(rescreens).toHaveLength(4);
    expect((await call('GET', '/changes')).json.data).toHaveLength(2);
    expect((await stack.screener.events.since(0)).filter((e) => e.event === 'carrier.changed')).toHaveLength(2);
    // Nothing more was queued for delivery, and everything queued was delivered.
    const delivered = (await call('GET', '/callbacks?state=delivered&limit=100')).json.data as Array<{ event: string }>;
    const owed = delivered.filter((c) => c.event === 'carrier.changed');
    expect(owed).toHaveLength(3);
    expect(await callbackCounts(stack.screener.store)).toMatchObject({ pending: 0, dead: 0 });
    expect(changeCallbacks()).toHaveLength(3);
    // Re-screens do not extend the watch window: still 14 days after the last tender.
    const entry = ((await call('GET', '/watchlist')).json.data as WatchEntry[]).find((e) => e.dot_number === STEADY)!;
    expect(entry.watch_until).toBe('2026-03-16T10:00:00.000Z');
    expect(entry.last_checked_at).toBe('2026-03-06T12:00:00.000Z');
  });

  it('the tray acknowledges a change once; a second time is 409', async () => {
    const [c] = (await call('GET', '/changes?state=new')).json.data as CarrierChange[];
    const tooLong = await call('POST', `/changes/${c!.id}/acknowledge`, { by: 'dana', note: 'x'.repeat(501) });
    expect(tooLong.status).toBe(400);
    const ok = await call('POST', `/changes/${c!.id}/acknowledge`, { by: 'dana', note: '  moved T-1 and T-2 to another carrier  ' });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      id: c!.id,
      state: 'acknowledged',
      acknowledged_by: 'dana',
      acknowledged_at: '2026-03-06T12:00:00.000Z',
      ack_note: 'moved T-1 and T-2 to another carrier',
    });
    expect((await call('GET', `/changes/${c!.id}`)).json.ack_note).toBe('moved T-1 and T-2 to another carrier');
    const again = await call('POST', `/changes/${c!.id}/acknowledge`, { by: 'eli' });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('change_conflict');
    expect((await call('GET', '/changes?state=new')).json.data).toHaveLength(1);
    expect((await call('GET', '/changes?state=acknowledged')).json.data.map((x: CarrierChange) => x.id)).toEqual([c!.id]);
    expect((await call('GET', `/changes/${c!.id}`)).json.state).toBe('acknowledged');
    expect((await stack.screener.events.since(0)).filter((e) => e.event === 'change.acknowledged')).toHaveLength(1);
  });

  itSqlite('a change stored before migration 29 reads back: no findings, no note, tenders without an action', async () => {
    const [c] = (await call('GET', '/changes?state=new')).json.data as CarrierChange[];
    const db = connectionOf(sqliteStoreOf(stack.screener.store));
    const old = (
      JSON.parse((db.prepare('SELECT tenders FROM carrier_changes WHERE id = ?').get(c!.id) as { tenders: string }).tenders) as Array<
        Record<string, unknown>
      >
    ).map(({ tender_id, screening_id, screened_at, callback_url }) => ({ tender_id, screening_id, screened_at, callback_url }));
    const before = db.prepare('SELECT tenders, findings FROM carrier_changes WHERE id = ?').get(c!.id) as {
      tenders: string;
      findings: string | null;
    };
    db.prepare('UPDATE carrier_changes SET tenders = ?, findings = NULL WHERE id = ?').run(JSON.stringify(old), c!.id);
    try {
      const read = await call('GET', `/changes/${c!.id}`);
      expect(read.status).toBe(200);
      expect(read.json).toMatchObject({ findings: null, ack_note: null });
      expect(read.json.tenders.length).toBe(c!.tenders.length);
      for (const t of read.json.tenders) expect(t).not.toHaveProperty('action');
      expect((await call('GET', '/changes?state=new')).status).toBe(200);
    } finally {
      db.prepare('UPDATE carrier_changes SET tenders = ?, findings = ? WHERE id = ?').run(before.tenders, before.findings, c!.id);
    }
  });

  it('GET /changes syncs a TMS by updated_since (its own read position) and dot_number', async () => {
    const all = (await call('GET', '/changes')).json.data as CarrierChange[];
    expect(all).toHaveLength(2);
    const acked = all.find((c) => c.state === 'acknowledged')!;
    const fresh = all.find((c) => c.state === 'new')!;
    // Acknowledging changed one of them at 2026-03-06T12:00: only it is newer than that.
    const since = (await call('GET', '/changes?updated_since=2026-03-06T12:00:00Z')).json.data as CarrierChange[];
    expect(since.map((c) => c.id)).toEqual([acked.id]);
    expect(((await call('GET', '/changes?updated_since=2026-03-01')).json.data as CarrierChange[]).map((c) => c.id)).toEqual(
      all.map((c) => c.id),
    );
    expect((await call('GET', '/changes?updated_since=2026-03-07T00:00:00Z')).json.data).toEqual([]);
    // By carrier, leading zeros and spaces as anywhere else; with state and paging too.
    const byDot = (await call('GET', `/changes?dot_number=0${fresh.dot_number}`)).json;
    expect([byDot.data.map((c: CarrierChange) => c.id), byDot.has_more]).toEqual([[fresh.id], false]);
    expect((await call('GET', `/changes?dot_number=${fresh.dot_number}&state=acknowledged`)).json.data).toEqual([]);
    expect((await call('GET', `/changes?dot_number=${STEADY}`)).json.data).toEqual([]);
    const page = (await call('GET', '/changes?updated_since=2026-03-01&limit=1')).json;
    expect([page.data.length, page.has_more]).toEqual([1, true]);
    const next = (await call('GET', `/changes?updated_since=2026-03-01&limit=1&starting_after=${page.data[0].id}`)).json;
    expect([next.data.map((c: CarrierChange) => c.id), next.has_more]).toEqual([[all[1]!.id], false]);
    // Bad values: 400 naming the parameter.
    for (const [q, param] of [
      ['updated_since=yesterday', 'updated_since'],
      ['dot_number=12a', 'dot_number'],
      ['dot_number=123456789', 'dot_number'],
    ] as const) {
      const r = await call('GET', `/changes?${q}`);
      expect([r.status, r.json.error.code, r.json.error.param], q).toEqual([400, 'invalid_request', param]);
    }
  });

  it('a tender answered from the cache is a tender, not a new check: the window moves, the last check does not', async () => {
    clock.set('2026-03-06T13:00:00.000Z');
    const before = ((await call('GET', '/watchlist')).json.data as WatchEntry[]).find((e) => e.dot_number === STEADY)!;
    const hit = await call('POST', '/screenings?wait=5', { dot_number: STEADY, tender_id: 'T-cache' });
    expect(hit.json.source).toBe('cache');
    const after = ((await call('GET', '/watchlist')).json.data as WatchEntry[]).find((e) => e.dot_number === STEADY)!;
    expect(after.last_tender_at).toBe('2026-03-06T13:00:00.000Z');
    expect(after.watch_until).toBe('2026-03-20T13:00:00.000Z');
    expect(after.last_checked_at).toBe(before.last_checked_at);
    expect(after.last).toEqual(before.last);
  });

  it('the watch window ends SCREEN_WATCH_DAYS after the last tender', async () => {
    // The last tender is the cache hit above, at 13:00 on the 6th.
    clock.set('2026-03-20T13:00:00.001Z');
    const t = await stack.screener.watch.tick();
    expect(t.submitted).toBe(0);
    expect((await call('GET', '/watchlist')).json.data).toEqual([]);
  });
});
