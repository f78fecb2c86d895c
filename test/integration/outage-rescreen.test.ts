/**
 * Re-screen after an outage (docs/decisions.md, "After an outage"): tenders held while /v1 was
 * down are screened again once it answers — one lookup per carrier, through the queue — their
 * TMS gets a callback with the new action, and their desk cards close as superseded. A tender
 * older than SCREEN_RESCREEN_WITHIN (2h) is left to a person. Real emulator (closed for the
 * outage, started again on its port), Redis, SQLite, the intake over HTTP, a real listener.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import type { Review, Screening } from '../../shared/screening.js';
import { startCallbackListener, type CallbackListener } from '../helpers/callback-listener.js';
import { until } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';

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
    expect(Object.fromEntries(resolved.map((b) => [b.screening.tender_id, b.screening.action]))).toEqual({ 'OK-1': 'tender', 'OK-2': 'tender', 'KO-1': 'block' });
    for (const b of resolved) expect([b.screening.settled_by, b.screening.hold_reason, b.screening.review.state]).toEqual(['rescreen', 'scoring_unavailable', 'superseded']);
    // One lookup per carrier, not per tender.
    expect(back.stats().byDot).toEqual({ '1000001': 1, '1000005': 1 });

    // The cards went away on their own; the old tender's stays for a person.
    const pending = (await call('GET', '/reviews?state=pending')).data as Review[];
    expect(pending.map((r) => r.screening.tender_id)).toEqual(['OLD-1']);
    const superseded = (await call('GET', '/reviews?state=superseded')).data as Review[];
    // (OK-2's item is listed too when OK-1's closed first: it became its carrier's card, then closed.)
    expect(superseded.map((r) => r.screening.tender_id)).toEqual(expect.arrayContaining(['KO-1', 'OK-1']));
    expect(superseded[0]!.decided_by).toMatch(/re-screen/);
    const ok1 = (await call('GET', `/screenings/${held[0]!.id}`)) as Screening;
    expect([ok1.action, ok1.source, ok1.score?.decision]).toEqual(['tender', 'service', 'approved']);

    // Done: another pass finds nothing to do.
    expect(await stack.screener.rescreenOutageHolds()).toEqual({ queued: 0 });
  });
});
