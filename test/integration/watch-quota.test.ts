import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, liveCarrier } from '../../emulator/index.js';
import type { Screening } from '../../shared/screening.js';
import { manualClock } from '../helpers/emulator.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The daily re-screen runs at background priority: it never spends the monthly quota below
 * the reserve kept for tender-time requests. Live emulator with a quota of 10, reserve 6.
 */

const clock = manualClock('2026-05-04T09:00:00.000Z');
let stack: Stack;
const CARRIERS: string[] = [];
for (let d = 4_200_000; CARRIERS.length < 4; d++) if (liveCarrier(String(d))) CARRIERS.push(String(d));

async function usage(): Promise<{ live_requests_used: number; remaining: number }> {
  const res = await request(`${stack.emulator.baseUrl}/v1/usage`, { headers: { authorization: `Bearer ${DEMO_KEYS.live}` } });
  return (await res.body.json()) as { live_requests_used: number; remaining: number };
}

async function tender(dot: string, tenderId: string): Promise<Screening> {
  return stack.screener.screen({ dot_number: dot, tender_id: tenderId }, { waitMs: 20_000 });
}

beforeAll(async () => {
  stack = await startStack({
    mode: 'live',
    now: clock.now,
    emulator: { monthlyQuota: 10, datedChanges: [] },
    env: { SCREEN_QUOTA_RESERVE: '6' },
  });
});
afterAll(async () => {
  await stack?.close();
});

describe('watch re-screens and the quota reserve', () => {
  it('spends quota only down to the reserve; the rest end without a review', async () => {
    for (const [i, dot] of CARRIERS.slice(0, 3).entries()) expect((await tender(dot, `T-${i}`)).source).toBe('service');
    expect((await usage()).remaining).toBe(7);

    clock.set('2026-05-06T12:00:00.000Z');
    const before = stack.emulator.stats().scoreRequests;
    const reviewsBefore = await stack.screener.store.reviews.countPendingReviews();
    const t = await stack.screener.watch.tick();
    expect(t.submitted).toBe(3);
    const done = await Promise.all(t.screenings.map((id) => stack.screener.waitFor(id, 30_000)));
    // One admitted (7 → 6), the other two refused at the gate: no /v1 request at all.
    expect(stack.emulator.stats().scoreRequests).toBe(before + 1);
    expect(await usage()).toMatchObject({ live_requests_used: 4, remaining: 6 });
    const refused = done.filter((s) => s.source === 'none');
    expect(refused).toHaveLength(2);
    for (const s of refused) {
      expect(s.hold_reason).toBe('quota_reserved');
      expect(s.review).toBeNull();
    }
    expect(await stack.screener.store.reviews.countPendingReviews()).toBe(reviewsBefore);
  });

  it('at the reserve a tick starts nothing, while a tender still spends the reserve', async () => {
    clock.set('2026-05-08T12:00:00.000Z');
    const before = stack.emulator.stats().scoreRequests;
    const t = await stack.screener.watch.tick();
    expect(t).toEqual({ submitted: 0, screenings: [], skipped: 'quota_reserve' });
    expect(stack.emulator.stats().scoreRequests).toBe(before);
    expect((await usage()).remaining).toBe(6);

    const s = await tender(CARRIERS[3]!, 'T-9');
    expect(s.source).toBe('service');
    expect((await usage()).remaining).toBe(5);
  });
});
