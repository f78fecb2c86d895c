/**
 * Re-screen after an outage (docs/decisions.md, "After an outage"): tenders held while /v1 was
 * down are screened again once it answers — one lookup per carrier, through the queue — their
 * TMS gets a callback with the new action, and their desk cards close as superseded. A tender
 * older than SCREEN_RESCREEN_WITHIN (2h) is left to a person. Real emulator (closed for the
 * outage, started again on its port), Redis, SQLite, the intake over HTTP, a real listener.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { DEMO_KEYS, liveCarrier, scoreBody, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { createScreener } from '../../worker/screener.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { testConfig } from '../helpers/screener.js';
import { actionForScore } from '../../shared/tender-rules.js';
import type { Review, Screening } from '../../shared/screening.js';
import { startCallbackListener, type CallbackListener } from '../helpers/callback-listener.js';
import { until } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { itSqlite } from '../helpers/test-db.js';

const HOUR = 3_600_000;
let clock = Date.now();
const now = (): Date => new Date(clock);
let stack: Stack;
let tms: CallbackListener;
let back: RunningEmulator | undefined;

beforeAll(async () => {
  stack = await startStack({ now, callbackBackoffMs: 50 });
  tms = await startCallbackListener();
});
afterAll(async () => {
  await stack?.close().catch(() => {});
  await back?.close();
  await tms?.close();
});

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return res.body.json();
}
const screen = (dot: string, tender: string): Promise<Screening> =>
  call('POST', '/screenings?wait=20', { dot_number: dot, tender_id: tender, callback_url: tms.url }) as Promise<Screening>;

describe('holds of an outage are screened again when /v1 answers', () => {
  it('each held tender gets a callback with its new action, one lookup per carrier, the cards close as superseded; an old tender is left alone', async () => {
    const port = stack.emulator.port;
    await stack.emulator.close(); // the outage

    const old = await screen('1000003', 'OLD-1');
    clock += 3 * HOUR; // OLD-1 is now past the 2h bound
    const held = [await screen('1000001', 'OK-1'), await screen('1000001', 'OK-2'), await screen('1000005', 'KO-1')];
    for (const s of [old, ...held]) expect([s.action, s.hold_reason, s.source]).toEqual(['hold', 'scoring_unavailable', 'none']);
    expect(((await call('GET', '/reviews?state=pending')).data as Review[]).length).toBe(3); // one card per carrier

    // Still down: a pass queues nothing.
    expect(await stack.screener.rescreenOutageHolds()).toEqual({ queued: 0 });

    clock += 60_000; // a minute later, /v1 is back
    back = await startEmulator({ port, mode: 'sandbox', now });
    expect(await stack.screener.rescreenOutageHolds()).toEqual({ queued: 3 });

    await until('three review.resolved callbacks', 20_000, () => tms.received.filter((b) => b.event === 'review.resolved').length >= 3);
    const resolved = tms.received.filter((b) => b.event === 'review.resolved');
    expect(Object.fromEntries(resolved.map((b) => [b.screening.tender_id, b.screening.action]))).toEqual({
      'OK-1': 'tender',
      'OK-2': 'tender',
      'KO-1': 'block',
    });
    // A tender is settled by the re-screen (its card superseded); a blocking score closes the
    // carrier's review as any blocking news does (docs/decisions.md), blocking its tenders.
    for (const b of resolved)
      expect([b.screening.settled_by, b.screening.hold_reason, b.screening.review.state]).toEqual(
        b.screening.action === 'block' ? ['review', 'scoring_unavailable', 'closed'] : ['rescreen', 'scoring_unavailable', 'superseded'],
      );
    // One lookup per carrier, not per tender.
    expect(back.stats().byDot).toEqual({ '1000001': 1, '1000005': 1 });

    // The cards went away on their own; the old tender's stays for a person.
    const pending = (await call('GET', '/reviews?state=pending')).data as Review[];
    expect(pending.map((r) => r.screening.tender_id)).toEqual(['OLD-1']);
    const superseded = (await call('GET', '/reviews?state=superseded')).data as Review[];
    // (OK-2's item is listed too when OK-1's closed first: it became its carrier's card, then closed.)
    expect(superseded.map((r) => r.screening.tender_id)).toEqual(expect.arrayContaining(['OK-1']));
    const closed = (await call('GET', '/reviews?state=closed')).data as Review[];
    expect(closed.map((r) => [r.screening.tender_id, r.closed_by])).toEqual([['KO-1', 'blocking_score']]);
    expect(superseded[0]!.decided_by).toMatch(/re-screen/);
    const ok1 = (await call('GET', `/screenings/${held[0]!.id}`)) as Screening;
    expect([ok1.action, ok1.source, ok1.score?.decision]).toEqual(['tender', 'service', 'approved']);

    // Done: another pass finds nothing to do.
    expect(await stack.screener.rescreenOutageHolds()).toEqual({ queued: 0 });
  });
});

describe('holds of a closed quota are screened again when the quota returns', () => {
  let qclock = Date.parse('2026-11-30T23:00:00.000Z');
  const qnow = (): Date => new Date(qclock);
  let live: Stack;
  let listener: CallbackListener;
  beforeAll(async () => {
    live = await startStack({ mode: 'live', now: qnow, emulator: { monthlyQuota: 3, datedChanges: [] }, callbackBackoffMs: 50 });
    listener = await startCallbackListener();
  });
  afterAll(async () => {
    await live?.close();
    await listener?.close();
  });

  it('quota_exhausted holds wait while the gate is closed, and get their new action once the month turns', async () => {
    // Live carriers whose score tenders or blocks (a re-screen then settles them).
    const dots: string[] = [];
    for (let d = 4_300_000; dots.length < 5; d++) {
      const p = liveCarrier(String(d));
      if (p && actionForScore(scoreBody(p, 'live', qnow())).action !== 'hold') dots.push(String(d));
    }
    const post = async (dot: string, tender: string): Promise<Screening> => {
      const res = await request(`${live.intakeUrl}/screenings?wait=20`, {
        method: 'POST',
        headers: { authorization: `Bearer ${live.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ dot_number: dot, tender_id: tender, callback_url: listener.url }),
      });
      return (await res.body.json()) as Screening;
    };
    for (const [i, dot] of dots.slice(0, 3).entries()) expect((await post(dot, `Q-${i}`)).source).toBe('service'); // the month's 3 lookups
    const held = [await post(dots[3]!, 'Q-3'), await post(dots[4]!, 'Q-4')];
    for (const s of held) expect([s.action, s.hold_reason]).toEqual(['hold', 'quota_exhausted']);
    expect(await live.screener.rescreenOutageHolds()).toEqual({ queued: 0 }); // the gate is closed

    qclock = Date.parse('2026-12-01T00:30:00.000Z'); // the quota resets on the 1st
    expect(await live.screener.rescreenOutageHolds()).toEqual({ queued: 2 });
    await until('two review.resolved callbacks', 20_000, () => listener.received.filter((b) => b.event === 'review.resolved').length >= 2);
    for (const b of listener.received.filter((x) => x.event === 'review.resolved')) {
      const expected = actionForScore(b.screening.score).action;
      const [settledBy, state] = expected === 'block' ? ['review', 'closed'] : ['rescreen', 'superseded'];
      expect([b.screening.tender_id, b.screening.action, b.screening.settled_by, b.screening.review.state]).toEqual([
        b.screening.tender_id,
        expected,
        settledBy,
        state,
      ]);
      expect(['Q-3', 'Q-4']).toContain(b.screening.tender_id);
    }
    expect(await live.screener.store.reviews.countPendingReviews()).toBe(0);
  });
});

describe('across processes', () => {
  it('a pass in a process without a worker queues the holds; a worker process settles them; passes in both queue each hold once', async () => {
    let pclock = Date.now();
    const pnow = (): Date => new Date(pclock);
    const first = await startEmulator({ port: 0, now: pnow });
    const config = await testConfig();
    const common = {
      svc: { baseUrl: first.baseUrl, apiKey: DEMO_KEYS.sandbox },
      logger: pino({ level: 'silent' }),
      now: pnow,
      svcBackoff: { baseMs: 20, capMs: 200, jitterMs: 10 },
    };
    // The intake's process (no worker) and a worker process: one SQLite file, one Redis.
    const intake = await createScreener(config, { ...common, runWorker: false });
    const worker = await createScreener(config, { ...common, runWorker: true });
    let again: RunningEmulator | undefined;
    try {
      await first.close();
      const held = await worker.screen({ dot_number: '1000005', tender_id: 'X-1' }, { waitMs: 20_000 });
      expect([held.action, held.hold_reason]).toEqual(['hold', 'scoring_unavailable']);

      pclock += 60_000;
      again = await startEmulator({ port: first.port, now: pnow });
      const [a, b] = await Promise.all([intake.rescreenOutageHolds(), worker.rescreenOutageHolds()]);
      expect(a.queued + b.queued).toBeGreaterThanOrEqual(1);
      // 1000005's knockout closes its review (blocking news), which blocks the tender.
      await until('the hold settled by the worker process', 20_000, async () => (await intake.get(held.id))?.action === 'block');
      expect(await intake.get(held.id)).toMatchObject({ action: 'block', settled_by: 'review', review: { state: 'closed' } });
      // However many passes queued it, one lookup.
      expect(again.stats().byDot).toEqual({ '1000005': 1 });
    } finally {
      await worker.close();
      await intake.close();
      await again?.close();
      await config.cleanup();
    }
  });
});

describe('a carrier /v1 keeps failing', () => {
  itSqlite('is tried again with growing waits (1, 2, 4… minutes), at most two requests a try', async () => {
    let c = Date.now();
    const s = await startStack({ now: () => new Date(c) });
    try {
      const db = connectionOf(sqliteStoreOf(s.screener.store));
      const rescreenedAt = (id: string): string | null =>
        (db.prepare('SELECT rescreened_at FROM screenings WHERE id = ?').get(id) as { rescreened_at: string | null }).rescreened_at;
      // The sandbox's simulated outage: 503 for this carrier, whatever else answers.
      const held = await s.screener.screen({ dot_number: '1000503', tender_id: 'F-1' }, { waitMs: 20_000 });
      expect([held.action, held.hold_reason]).toEqual(['hold', 'scoring_unavailable']);
      const tryOnce = async (): Promise<void> => {
        const before = rescreenedAt(held.id);
        const requests = s.emulator.stats().scoreRequests;
        expect(await s.screener.rescreenOutageHolds()).toEqual({ queued: 1 });
        await until('the re-screen ran', 20_000, () => rescreenedAt(held.id) !== before);
        expect(s.emulator.stats().scoreRequests - requests).toBeLessThanOrEqual(2);
        expect((await s.screener.get(held.id))!.action).toBe('hold');
      };
      await tryOnce(); // at once
      expect(await s.screener.rescreenOutageHolds()).toEqual({ queued: 0 });
      c += 120_000;
      await tryOnce(); // two minutes on: it had waited two minutes, so the next wait is two
      c += 90_000;
      expect(await s.screener.rescreenOutageHolds()).toEqual({ queued: 0 });
      c += 40_000;
      await tryOnce();
    } finally {
      await s.close();
    }
  });
});
