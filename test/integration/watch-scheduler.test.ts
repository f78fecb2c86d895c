import { afterEach, describe, expect, it } from 'vitest';
import { liveCarrier } from '../../emulator/index.js';
import type { IntakeEvent, Screening } from '../../shared/screening.js';
import { DAY_MS, MIN_FIRST_GAP_MS, WATCH_SCHEDULER_ID, maxPerTick, nextCheckAt, slotOf } from '../../worker/watch/index.js';
import { manualClock } from '../helpers/emulator.js';
import { withScreener } from '../helpers/screener.js';

/** The re-screen clock: a BullMQ job scheduler, and re-screens spread over the day. */

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('re-screen schedule', () => {
  it('spreads carriers over the whole day, each at least 12 h after it was added', () => {
    const hours = new Array<number>(24).fill(0);
    const added = new Date('2026-02-10T15:30:00.000Z');
    for (let d = 1; d <= 2400; d++) {
      const key = `dot:${d}`;
      hours[Math.floor(slotOf(key) / 3_600_000)]! += 1;
      const next = Date.parse(nextCheckAt(key, added));
      expect(next - added.getTime()).toBeGreaterThanOrEqual(MIN_FIRST_GAP_MS);
      expect(next - added.getTime()).toBeLessThan(MIN_FIRST_GAP_MS + DAY_MS);
      expect(next % DAY_MS).toBe(slotOf(key));
    }
    // 100 a hour on average; no hour empty or crowded.
    expect(Math.min(...hours)).toBeGreaterThan(50);
    expect(Math.max(...hours)).toBeLessThan(150);
  });

  it('a tick takes at most a quarter of what the rate limit allows over it', () => {
    expect(maxPerTick(60, 10 * 60_000)).toBe(150);
    expect(maxPerTick(60, 60_000)).toBe(15);
    expect(maxPerTick(1, 1_000)).toBe(1);
    // A sandbox's limit of millions a minute: one claim's most, not a claim refused every tick.
    expect(maxPerTick(10_000_000, 60_000)).toBe(10_000);
  });
});

describe('the job scheduler', () => {
  it('is registered once with BullMQ and its ticks re-screen what is due', async () => {
    const clock = manualClock('2026-02-10T08:00:00.000Z');
    const ctx = await withScreener({
      emulator: { mode: 'live', now: clock.now, datedChanges: [] },
      screener: { now: clock.now, watch: { tickMs: 250 } },
    });
    close = ctx.close;
    const { screener } = ctx;
    const scheduler = await screener.watch.schedulerQueue.getJobScheduler(WATCH_SCHEDULER_ID);
    expect(scheduler?.every).toBe(250);
    expect(await screener.watch.schedulerQueue.getJobSchedulersCount()).toBe(1);

    let dot = 6_100_000;
    while (!liveCarrier(String(dot))) dot++;
    const tendered = await screener.screen({ dot_number: String(dot), tender_id: 'T-1' }, { waitMs: 20_000 });
    expect(tendered.status).toBe('done');

    // Nothing is due yet, however often the scheduler ticks; two days on, the carrier is.
    const rescreened = new Promise<Screening>((resolve) => {
      const off = screener.events.subscribe((e: IntakeEvent) => {
        const s = e.data as Screening;
        if (e.event === 'screening.completed' && s.priority === 'background') {
          off();
          resolve(s);
        }
      });
    });
    clock.set('2026-02-12T08:00:00.000Z');
    const s = await rescreened;
    expect(s).toMatchObject({ tender_id: null, refresh: true, query: { dot_number: String(dot) }, source: 'service' });
  });
});
