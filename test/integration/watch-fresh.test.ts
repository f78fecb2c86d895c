import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCarrier } from '../../emulator/index.js';
import { manualClock } from '../helpers/emulator.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The daily re-screen does not fetch a carrier again whose score came from /v1 within the cache
 * TTL (issue 29): a lookup is paid, and a minutes-old score has nothing new to say.
 */

const clock = manualClock('2026-05-04T09:00:00.000Z');
let stack: Stack;
const CARRIERS: string[] = [];
for (let d = 4_300_000; CARRIERS.length < 2; d++) if (liveCarrier(String(d))) CARRIERS.push(String(d));

beforeAll(async () => {
  stack = await startStack({ mode: 'live', now: clock.now, emulator: { monthlyQuota: 100, datedChanges: [] } });
});
afterAll(async () => {
  await stack?.close();
});

describe('watch re-screens and the cache', () => {
  it('a due carrier fetched within the cache TTL is skipped; one fetched earlier is re-screened', async () => {
    const [fresh, stale] = CARRIERS as [string, string];
    for (const dot of CARRIERS)
      expect((await stack.screener.screen({ dot_number: dot, tender_id: `T-${dot}` }, { waitMs: 20_000 })).source).toBe('service');
    // Days later both are due; a tender has just fetched one of them again.
    clock.set('2026-05-08T12:00:00.000Z');
    expect((await stack.screener.screen({ dot_number: fresh, tender_id: 'T-again', refresh: true }, { waitMs: 20_000 })).source).toBe(
      'service',
    );
    clock.advance(60_000);
    const before = stack.emulator.stats().scoreRequests;
    const t = await stack.screener.watch.tick();
    expect([t.submitted, t.fresh]).toEqual([1, 1]);
    const [done] = await Promise.all(t.screenings.map((id) => stack.screener.waitFor(id, 30_000)));
    expect(done?.query).toEqual({ dot_number: stale });
    expect(stack.emulator.stats().scoreRequests).toBe(before + 1);
  });
});
