import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withScreener } from '../helpers/screener.js';

describe('screening core against the sandbox emulator', () => {
  let ctx: Awaited<ReturnType<typeof withScreener>>;
  beforeAll(async () => {
    ctx = await withScreener();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it.each([
    ['1000003', 'hold', 'manual_review'],
    ['1000005', 'block', null],
  ])('DOT %s ends %s', async (dot, action, holdReason) => {
    const s = await ctx.screener.screen({ dot_number: dot }, { waitMs: 20_000 });
    expect(s.status).toBe('done');
    expect(s.action).toBe(action);
    expect(s.hold_reason).toBe(holdReason);
    expect(s.source).toBe('service');
    expect(s.score?.carrier.dot_number).toBe(dot);
  });

  it('a hold opens exactly one pending review', async () => {
    const s = await ctx.screener.screen({ dot_number: '1000003', refresh: true }, { waitMs: 20_000 });
    // One review per carrier: this tender is on exactly one pending review (its own, or the carrier's it waits on).
    const reviews = (await ctx.screener.store.reviews.listReviews('pending')).filter((r) => r.tenders.some((t) => t.screening_id === s.id));
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.hold_reason).toBe('manual_review');
  });

  it('a second screening of a fresh carrier is answered from the cache at submit', async () => {
    await ctx.screener.screen({ dot_number: '1000005' }, { waitMs: 20_000 });
    const before = ctx.emulator.stats().scoreRequests;
    const s = await ctx.screener.submit({ query: { mc_number: 'MC1000005' } });
    expect(s.status).toBe('done');
    expect(s.source).toBe('cache');
    expect(s.action).toBe('block');
    expect(ctx.emulator.stats().scoreRequests).toBe(before);
  });

  it('4242 blocks with carrier_not_found after exactly one request', async () => {
    const before = ctx.emulator.stats().scoreRequests;
    const s = await ctx.screener.screen({ dot_number: '4242' }, { waitMs: 20_000 });
    expect(s.action).toBe('block');
    expect(s.error?.code).toBe('carrier_not_found');
    expect(s.error?.request_id).toBeTruthy();
    // /v1 said so: the source is the service (not "none"); the next one is the cached answer.
    expect(s.source).toBe('service');
    expect(ctx.emulator.stats().scoreRequests - before).toBe(1);
    const again = await ctx.screener.submit({ query: { dot_number: '4242' } });
    expect([again.status, again.action, again.source, again.error?.code]).toEqual(['done', 'block', 'cache', 'carrier_not_found']);
    expect(ctx.emulator.stats().scoreRequests - before).toBe(1);
  });

  it('1000503 is retried five times, then held as scoring_unavailable', async () => {
    const before = ctx.emulator.stats().scoreRequests;
    const s = await ctx.screener.screen({ dot_number: '1000503' }, { waitMs: 30_000 });
    expect(s.action).toBe('hold');
    expect(s.hold_reason).toBe('scoring_unavailable');
    expect(s.source).toBe('none');
    expect(s.error?.code).toBe('scoring_unavailable');
    expect(ctx.emulator.stats().scoreRequests - before).toBe(5);
  });

  it('50 concurrent screenings of one new carrier make one lookup', async () => {
    const before = ctx.emulator.stats().scoreRequests;
    const all = await Promise.all(
      Array.from({ length: 50 }, (_, i) => ctx.screener.screen({ dot_number: '1000001', tender_id: `T-${i}` }, { waitMs: 30_000 })),
    );
    expect(all.every((s) => s.status === 'done' && s.action === all[0]!.action)).toBe(true);
    expect(ctx.emulator.stats().scoreRequests - before).toBe(1);
  });
});
