import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { Queue } from 'bullmq';
import { liveCarrier } from '../../emulator/index.js';
import { withScreener } from '../helpers/screener.js';

/** Distinct live carriers that the live emulator scores (not its ~3% not-found ones). */
function dots(n: number, from = 2_000_000): string[] {
  const out: string[] = [];
  for (let d = from; out.length < n; d += 7) if (liveCarrier(String(d))) out.push(String(d));
  return out;
}

describe('rate limit', () => {
  it('a backlog drains without a 429 from steady-state pacing, with two workers sharing the limit', async () => {
    const a = await withScreener({
      emulator: { mode: 'live', ratePerMinute: 10, rateWindowMs: 1_000, monthlyQuota: 100_000 },
      env: { SCREEN_RATE_WINDOW: '1s', SCREEN_CONCURRENCY: '2' },
    });
    // A second worker process's worth: its own core on the same Redis prefix and emulator.
    const { createScreener } = await import('../../worker/screener.js');
    const { pino } = await import('pino');
    const b = await createScreener(a.config, {
      svc: { baseUrl: a.emulator.baseUrl, apiKey: a.emulator.keys.live },
      logger: pino({ level: 'silent' }),
    });
    try {
      const list = dots(40);
      const all = await Promise.all(
        list.map((d, i) => (i % 2 ? a.screener : b).screen({ dot_number: d, priority: 'background' }, { waitMs: 60_000 })),
      );
      expect(all.every((s) => s.status === 'done')).toBe(true);
      expect(a.emulator.stats().rateLimited).toBe(0);
      expect(a.emulator.stats().scoreRequests).toBe(40);
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('a 429 with Retry-After makes the whole queue wait, and a job refused again and again still ends', async () => {
    const ctx = await withScreener({
      emulator: { mode: 'sandbox', faults: { rateLimitShare: 1, retryAfterSeconds: 1 } },
    });
    const q = new Queue('screenings', {
      connection: new Redis(inject('redisUrl'), { maxRetriesPerRequest: null }),
      prefix: ctx.config.redisPrefix,
    });
    try {
      const first = await ctx.screener.submit({ query: { dot_number: '1000001' } });
      // The queue-wide limiter is set as soon as the first 429 comes back.
      let ttl = 0;
      for (let i = 0; i < 200 && ttl <= 0; i++) {
        // With maxJobs, only a limit that is in force counts (not the limiter's own window key).
        ttl = await q.getRateLimitTtl(120);
        if (ttl <= 0) await new Promise((r) => setTimeout(r, 10));
      }
      expect(ttl).toBeGreaterThan(0);
      // Retry-After (1 s) plus the schedule's small jitter (jitterMs 10 in these tests).
      expect(ttl).toBeLessThanOrEqual(1_010);
      const done = await ctx.screener.waitFor(first.id, 45_000);
      expect(done.status).toBe('done');
      expect(done.action).toBe('hold');
      expect(done.hold_reason).toBe('scoring_unavailable');
      expect(done.error?.code).toBe('rate_limit_exceeded');
      // Bounded by the spec's schedule: five requests in all, never an endless loop.
      expect(ctx.emulator.stats().rateLimited).toBe(5);
    } finally {
      await q.close();
      await ctx.close();
    }
  });
});

describe('monthly quota', () => {
  it('after exhaustion: zero score calls, cached carriers answered, misses hold, the gate opens at the month boundary', async () => {
    let clock = new Date('2026-11-20T12:00:00Z');
    const now = (): Date => clock;
    const ctx = await withScreener({
      emulator: { mode: 'live', monthlyQuota: 3, now },
      env: { SCREEN_QUOTA_RESERVE: '0' },
      screener: { now },
    });
    try {
      const [d1, d2, d3, d4, d5] = dots(5, 3_000_000);
      for (const d of [d1, d2, d3]) {
        const s = await ctx.screener.screen({ dot_number: d! }, { waitMs: 20_000 });
        expect(s.error).toBeNull();
        expect(s.source).toBe('service');
      }
      // The third answer said 0 remain: the gate is closed without a refusal from /v1.
      const before = ctx.emulator.stats().scoreRequests;
      const miss = await ctx.screener.screen({ dot_number: d4! }, { waitMs: 20_000 });
      expect(miss.action).toBe('hold');
      expect(miss.hold_reason).toBe('quota_exhausted');
      const miss2 = await ctx.screener.screen({ dot_number: d5! }, { waitMs: 20_000 });
      expect(miss2.hold_reason).toBe('quota_exhausted');
      expect(ctx.emulator.stats().scoreRequests).toBe(before);
      const cached = await ctx.screener.screen({ dot_number: d1! }, { waitMs: 20_000 });
      expect(cached.source).toBe('cache');
      expect((await ctx.screener.status()).quota.gate).toBe('closed');

      clock = new Date('2026-12-01T00:00:01Z');
      const after = await ctx.screener.screen({ dot_number: d4!, refresh: true }, { waitMs: 20_000 });
      expect(after.source).toBe('service');
      expect(ctx.emulator.stats().scoreRequests).toBe(before + 1);
    } finally {
      await ctx.close();
    }
  });

  it('below the reserve only tender-time requests spend quota', async () => {
    const ctx = await withScreener({ emulator: { mode: 'live', monthlyQuota: 10 }, env: { SCREEN_QUOTA_RESERVE: '8' } });
    try {
      const [a, b, c] = dots(3, 4_000_000);
      expect((await ctx.screener.screen({ dot_number: a!, priority: 'background' }, { waitMs: 20_000 })).source).toBe('service');
      expect((await ctx.screener.screen({ dot_number: b!, priority: 'background' }, { waitMs: 20_000 })).source).toBe('service');
      // 8 left = the reserve: background requests no longer spend, tender ones do.
      const before = ctx.emulator.stats().scoreRequests;
      const bg = await ctx.screener.screen({ dot_number: c!, priority: 'background' }, { waitMs: 20_000 });
      expect(bg.hold_reason).toBe('quota_reserved');
      expect(ctx.emulator.stats().scoreRequests).toBe(before);
      // No load waits on a roster screening without a score: no review item, no desk card.
      expect([bg.action, bg.review]).toEqual(['hold', null]);
      expect(await ctx.screener.store.reviews.listReviews('pending')).toEqual([]);
      // A background screening for a tender does go to a person.
      const forLoad = await ctx.screener.screen({ dot_number: c!, priority: 'background', tender_id: 'LOAD-BG-1' }, { waitMs: 20_000 });
      expect([forLoad.hold_reason, forLoad.review?.state]).toEqual(['quota_reserved', 'pending']);
      expect((await ctx.screener.store.reviews.listReviews('pending')).map((r) => r.screening_id)).toEqual([forLoad.id]);
      const tender = await ctx.screener.screen({ dot_number: c!, priority: 'tender' }, { waitMs: 20_000 });
      expect(tender.source).toBe('service');
    } finally {
      await ctx.close();
    }
  });
});

describe('a hostile service', () => {
  it('500s, 503s, time-outs, malformed JSON and unknown values never crash the worker; every screening ends in an action', async () => {
    const ctx = await withScreener({
      emulator: {
        mode: 'live',
        monthlyQuota: 100_000,
        ratePerMinute: 10_000,
        faults: {
          error500Share: 0.15,
          error503Share: 0.15,
          malformedShare: 0.1,
          unknownFieldsShare: 0.3,
          hangShare: 0.05,
          hangMs: 2_000,
          seed: 7,
        },
      },
      screener: { svcTimeoutMs: 300, svcBackoff: { baseMs: 10, capMs: 50, jitterMs: 5 } },
    });
    try {
      const all = await Promise.all(dots(40, 5_000_000).map((d) => ctx.screener.screen({ dot_number: d }, { waitMs: 60_000 })));
      for (const s of all) {
        expect(s.status).toBe('done');
        expect(['tender', 'hold', 'block']).toContain(s.action);
      }
      // The unknown decision value is never guessed: it holds.
      const unknown = all.filter((s) => s.score && !['approved', 'review', 'high_risk', 'rejected'].includes(String(s.score.decision)));
      for (const s of unknown) if (!s.score?.knockout.triggered) expect(s.hold_reason).toBe('unknown_decision');
    } finally {
      await ctx.close();
    }
  });
});
