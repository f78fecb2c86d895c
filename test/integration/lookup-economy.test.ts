/**
 * Issue 29, "every lookup earns its quota": each paid /v1 lookup is spent once and kept. Real
 * emulator over HTTP, real Redis and SQLite through the screening core.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { pino, type Logger } from 'pino';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { RateGate } from '../../worker/queue/rate-gate.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { buildEmulator, DEMO_KEYS, liveCarrier } from '../../emulator/index.js';
import { ensureBuilt, mkdirTemp, spawnCli, startIntakeProcess, type StartedIntake } from '../helpers/processes.js';
import { SvcClient } from '../../worker/svc/client.js';
import { SvcNetworkError } from '../../worker/svc/errors.js';
import { withEmulator } from '../helpers/emulator.js';
import { testConfig, withScreener } from '../helpers/screener.js';
import { createScreener } from '../../worker/screener.js';
import { KeyCheckError } from '../../worker/svc/key-check.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

/** Live DOT numbers the emulator knows (every lookup of one is a real, counted score). */
function liveDots(n: number, from: number): string[] {
  const out: string[] = [];
  for (let d = from; out.length < n; d += 11) if (liveCarrier(String(d))) out.push(String(d));
  return out;
}

async function caught(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('a slow but correct service (stop after a time-out)', () => {
  it('a body dripped a few bytes at a time meets one deadline for headers and body, and is asked at most twice', async () => {
    // ~3 KB at 4 bytes every 20 ms: every gap is short, the whole body takes ~15 s.
    const emu = await withEmulator({ mode: 'live', monthlyQuota: 1000, faults: { dripShare: 1, dripBytes: 4, dripIntervalMs: 20 } });
    cleanup.push(() => emu.close());
    const c = new SvcClient({
      baseUrl: emu.baseUrl,
      apiKey: emu.keys.live,
      timeoutMs: 400,
      backoff: { baseMs: 10, capMs: 20, jitterMs: 0 },
    });
    cleanup.push(() => c.close());
    const [dot] = liveDots(1, 3_400_000);
    const e = await caught(c.getScore({ dot_number: dot! }));
    expect(e).toBeInstanceOf(SvcNetworkError);
    expect([e.code, e.timedOut, e.sent, e.attempts]).toEqual(['deadline_exceeded', true, true, 2]);
    expect(e.message).toMatch(/timed out after 400 ms \(headers and body together\)/);
    // Both were counted by the service (it sent a 200 each time): two lookups, not five.
    expect(emu.stats().scoreRequests).toBe(2);
  });

  it('a screening against the dripping service costs at most 2 lookups and ends on its fallback', async () => {
    const ctx = await withScreener({
      emulator: { mode: 'live', monthlyQuota: 1000, ratePerMinute: 10_000, faults: { dripShare: 1, dripBytes: 4, dripIntervalMs: 20 } },
      screener: { svcTimeoutMs: 400 },
    });
    cleanup.push(() => ctx.close());
    const [dot] = liveDots(1, 3_410_000);
    const s = await ctx.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect([s.status, s.action, s.hold_reason, s.error?.code]).toEqual(['done', 'hold', 'scoring_unavailable', 'deadline_exceeded']);
    expect(ctx.emulator.stats().scoreRequests).toBeLessThanOrEqual(2);
  });

  it('a refused connection (nothing sent) is still retried under the usual rule', async () => {
    const emu = await withEmulator({ mode: 'sandbox' });
    const base = emu.baseUrl;
    await emu.close(); // nothing listens there now
    const waits: number[] = [];
    const c = new SvcClient({ baseUrl: base, apiKey: 'svc_test_x', sleep: async (ms) => void waits.push(ms) });
    cleanup.push(() => c.close());
    const e = await caught(c.getUsage());
    expect([e.kind, e.sent, e.timedOut, e.attempts]).toEqual(['network', false, false, 5]);
  });
});

/** A logger whose lines the test reads. */
function capturedLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger: Logger = pino({ level: 'warn' }, { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) });
  return { logger, lines };
}

describe('answers that almost fit (nothing paid for thrown away)', () => {
  it('a score whose display fields drift is kept as it came, acted on, cached, with warnings logged', async () => {
    const { logger, lines } = capturedLogger();
    const ctx = await withScreener({
      emulator: { mode: 'live', monthlyQuota: 1000, ratePerMinute: 10_000, faults: { driftShare: 1 } },
      screener: { logger },
    });
    cleanup.push(() => ctx.close());
    const [dot] = liveDots(1, 3_420_000);
    const s = await ctx.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect([s.status, s.source, s.error]).toEqual(['done', 'service', null]);
    expect(s.action).not.toBeNull();
    const score = s.score as unknown as Record<string, any>;
    expect(score.data_confidence).toBe(1.0000001);
    expect(score.flags).toBeNull();
    expect(score.calculated_at).toMatch(/^\d{8}T\d{6}Z$/);
    expect(score.reasons.some((r: any) => r.facts.some((f: any) => f.value === 12))).toBe(true);
    expect(ctx.emulator.stats().scoreRequests).toBe(1);
    const warned = lines.map((l) => String(l.msg)).join('\n');
    for (const path of ['data_confidence', 'calculated_at', 'flags', '.value']) expect(warned).toContain(path);
    // Cached: asked again, answered without a lookup.
    const again = await ctx.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect(again.source).toBe('cache');
    expect(ctx.emulator.stats().scoreRequests).toBe(1);
  });

  it('an X-RateLimit-Reset out of range is ignored with a warning; the score is kept after one request', async () => {
    const { logger, lines } = capturedLogger();
    const ctx = await withScreener({
      emulator: {
        mode: 'live',
        monthlyQuota: 1000,
        ratePerMinute: 10_000,
        faults: { headerOverrides: { 'x-ratelimit-reset': '9999999999999', 'x-ratelimit-remaining': '-3' } },
      },
      screener: { logger },
    });
    cleanup.push(() => ctx.close());
    const [dot] = liveDots(1, 3_430_000);
    const s = await ctx.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect([s.status, s.source, s.error]).toEqual(['done', 'service', null]);
    expect(ctx.emulator.stats().scoreRequests).toBe(1);
    const warned = lines.map((l) => String(l.msg)).join('\n');
    expect(warned).toMatch(/x-ratelimit-reset: 9999999999999 is more than a day from now; ignored/);
    expect(warned).toMatch(/x-ratelimit-remaining: "-3" is not a whole number/);
  });
});

describe('a refused key stops calls', () => {
  it('a 401 at runtime stops later lookups in every process until a key check passes', async () => {
    // Score lookups answered 401 (a key revoked for scoring); GET /v1/usage, the key check, still passes.
    const ctx = await withScreener({
      emulator: {
        mode: 'live',
        monthlyQuota: 1000,
        ratePerMinute: 10_000,
        faults: { customErrorShare: 1, customError: { status: 401, code: 'invalid_api_key' } },
      },
    });
    cleanup.push(() => ctx.close());
    const [a, b] = liveDots(2, 3_440_000);
    const first = await ctx.screener.screen({ query: { dot_number: a! } }, { waitMs: 30_000 });
    expect([first.action, first.hold_reason, first.error?.code]).toEqual(['hold', 'service_error', 'invalid_api_key']);
    expect(ctx.emulator.stats().scoreRequests).toBe(1);
    // Another carrier: not sent with the refused key.
    const second = await ctx.screener.screen({ query: { dot_number: b! } }, { waitMs: 30_000 });
    expect([second.action, second.hold_reason, second.error?.code]).toEqual(['hold', 'service_error', 'key_rejected']);
    expect(ctx.emulator.stats().scoreRequests).toBe(1);
    expect((await ctx.screener.status()).service.key_rejected).toBe(true);
    // The key check passes again: lookups resume.
    await ctx.screener.pollUsage();
    const third = await ctx.screener.screen({ query: { dot_number: b! } }, { waitMs: 30_000 });
    expect(third.error?.code).toBe('invalid_api_key');
    expect(ctx.emulator.stats().scoreRequests).toBe(2);
  });
});

describe('a wrong base URL at start', () => {
  const answers: Array<[string, (res: ServerResponse) => void, RegExp]> = [
    ['404', (res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'), /answered 404/],
    ['a redirect', (res) => void res.writeHead(301, { location: 'https://elsewhere.example/' }).end(), /answered a redirect \(HTTP 301\)/],
    [
      'a 200 that is not JSON',
      (res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>welcome</html>'),
      /answered HTTP 200 with a body that is not a \/v1 usage object/,
    ],
  ];
  for (const [what, answer, message] of answers) {
    it(`${what} stops start with one line naming the problem`, async () => {
      const server = createServer((_req, res) => answer(res));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const config = await testConfig();
      cleanup.push(() => config.cleanup());
      const e = await caught(
        createScreener(config, { svc: { baseUrl: url, apiKey: 'svc_live_abc123' }, logger: pino({ level: 'silent' }) }),
      );
      expect(e).toBeInstanceOf(KeyCheckError);
      expect(e.code).toBe('wrong_base_url');
      expect(e.message).toMatch(message);
      expect(e.message).toContain(url);
      expect(e.message).not.toContain('\n');
    });
  }
});

describe('a wrong base URL at start: the real `carrier-screen start`', () => {
  it('exits 2 with one line naming the URL and its 404, before it serves anything', async () => {
    await ensureBuilt();
    const server = createServer((_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = mkdirTemp('cs-wrong-url-');
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const p = spawnCli(['start'], {
      env: {
        SVC_API_KEY: DEMO_KEYS.live,
        SVC_BASE_URL: url,
        REDIS_URL: inject('redisUrl'),
        SCREEN_DB: join(dir, 'screen.db'),
        SCREEN_REDIS_PREFIX: uniquePrefix(),
        INTAKE_TOKEN: 'lookup-economy-wrong-url-0123456789abcdef',
      },
    });
    cleanup.push(async () => void (await p.kill()));
    const exit = await p.exited;
    expect(exit.code).toBe(2);
    const lines = p
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('carrier-screen: '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(url);
    expect(lines[0]).toMatch(/answered 404/);
    expect(p.stdout()).not.toMatch(/carrier-screen is running/);
  }, 120_000);
});

describe('one rate window for all processes', () => {
  it('two gates on separate Redis connections count in the service window learned by either: no 429 from an off-minute emulator', async () => {
    // Windows of 4 s that start 1 s after the clock's: a gate that assumes clock windows sends
    // requests in the wrong window. (Whole seconds: X-RateLimit-Reset has no finer grain.)
    const WINDOW = 4_000;
    const LIMIT = 4;
    const emu = await withEmulator({ mode: 'sandbox', ratePerMinute: LIMIT, rateWindowMs: WINDOW, rateWindowOffsetMs: 1_000 });
    cleanup.push(() => emu.close());
    const prefix = uniquePrefix();
    const processes = [0, 1].map(() => {
      const redis = new Redis(inject('redisUrl'));
      const gate = new RateGate(redis, prefix, WINDOW, LIMIT);
      const client = new SvcClient({
        baseUrl: emu.baseUrl,
        apiKey: emu.keys.sandbox,
        beforeAttempt: (signal) => gate.acquire(signal),
        onLimits: (l) => gate.observe(l),
        retryRateLimited: false,
      });
      cleanup.push(async () => {
        await client.close();
        redis.disconnect();
      });
      return { gate, client };
    });
    // The first process learns the window from one answer; the second has never called /v1.
    await processes[0]!.client.getUsage();
    await new Promise((r) => setTimeout(r, 50)); // the phase written to Redis
    const sent: number[] = [];
    const results = await Promise.allSettled(
      processes.flatMap(({ client }) => Array.from({ length: 6 }, () => client.health().then(() => void sent.push(Date.now())))),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect(emu.stats().rateLimited).toBe(0);
    expect(sent).toHaveLength(12);
  });

  it('two `carrier-screen start` processes on one Redis and database: no 429, and at most the limit in each service window', async () => {
    await ensureBuilt();
    // Windows of 4 s starting 1 s after the clock's, 4 requests each. Every counted request
    // (each start-up key check, every lookup) is labelled with its window by the service's
    // own X-RateLimit-Reset, recorded here as the emulator answers.
    const WINDOW = 4_000;
    const OFFSET = 1_000;
    const LIMIT = 4;
    const app = buildEmulator({
      mode: 'live',
      host: '127.0.0.1',
      port: 0,
      ratePerMinute: LIMIT,
      rateWindowMs: WINDOW,
      rateWindowOffsetMs: OFFSET,
      monthlyQuota: 100_000,
    });
    const perWindow = new Map<string, number>();
    app.addHook('onResponse', async (_req, reply) => {
      if (reply.statusCode === 429) return;
      const reset = String(reply.getHeader('x-ratelimit-reset'));
      perWindow.set(reset, (perWindow.get(reset) ?? 0) + 1);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    cleanup.push(() => app.close());
    const dir = mkdirTemp('cs-two-starts-');
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const token = 'lookup-economy-two-starts-0123456789abcdef';
    const env = {
      SVC_API_KEY: DEMO_KEYS.live,
      SVC_BASE_URL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      REDIS_URL: inject('redisUrl'),
      SCREEN_DB: join(dir, 'screen.db'),
      SCREEN_REDIS_PREFIX: uniquePrefix(),
      SCREEN_RATE_WINDOW: '4s',
      // 4 lookups in flight at once across the two: the queue's pause on a low
      // X-RateLimit-Remaining comes too late for them, only the rate gate can hold them.
      SCREEN_CONCURRENCY: '2',
      INTAKE_TOKEN: token,
    };
    // One after the other, as an operator would: the second starts after the first learned the window.
    const starts: StartedIntake[] = [];
    for (let i = 0; i < 2; i++) {
      const p = await startIntakeProcess(env, { readyMs: 60_000 });
      cleanup.push(async () => void (await p.stop()));
      starts.push(p);
    }
    // Live: the banner's example names no sandbox carrier (there it would spend a real lookup).
    expect(starts[0]!.stdout()).toContain('"dot_number":"<DOT number>"');
    expect(starts[0]!.stdout()).not.toContain('1000003');
    const screen = (dots: string[], from: number): Promise<unknown[]> =>
      Promise.all(
        dots.map(async (dot, i) => {
          const res = await request(`${starts[i % 2]!.url}/screenings?wait=30`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ dot_number: dot, tender_id: `T-two-${from + i}` }),
          });
          return [res.statusCode, ((await res.body.json()) as { source: string }).source];
        }),
      );
    const at = async (t: number): Promise<void> => void (await new Promise((r) => setTimeout(r, Math.max(0, t - Date.now()))));
    const dots = liveDots(7, 3_500_000);
    // A service window W that begins after both key checks. 2 lookups early in W, then 4 at once
    // just after the clock's window begins, 1 s before W ends. Gates counting in the clock's
    // windows would let all 4 go (6 in W: 429s); gates in the service's window let 2 go and hold
    // 2 for the next. One lookup 1 s before W starts the queue's own limiter window (BullMQ's,
    // 4 s from its first job), so that window ends before the 4 and does not hold them itself.
    const start = (Math.floor((Date.now() - OFFSET) / WINDOW) + 2) * WINDOW + OFFSET;
    await at(start - 1_000);
    const primer = await screen(dots.slice(0, 1), 0);
    await at(start + 200);
    const early = await screen(dots.slice(1, 3), 1);
    await at(start + WINDOW - OFFSET + 100);
    const late = await screen(dots.slice(3), 3);
    expect([...primer, ...early, ...late]).toEqual(dots.map(() => [200, 'service']));
    expect(app.emulatorStats().rateLimited).toBe(0);
    expect(app.emulatorStats().scoreLookups).toBe(7);
    // 2 key checks + 7 lookups, each service window at most its limit.
    expect([...perWindow.values()].reduce((a, b) => a + b, 0)).toBe(9);
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(LIMIT);
  }, 180_000); // a build of dist/ when stale, two process starts and up to three 4 s windows
});

describe('a reserve that holds', () => {
  it('a 25-carrier background roster worked by two processes, with tenders beside it in both, never takes the quota below the reserve', async () => {
    const ctx = await withScreener({
      emulator: { mode: 'live', monthlyQuota: 20, ratePerMinute: 10_000, faults: { latencyMs: 30 } },
      env: { SCREEN_QUOTA_RESERVE: '5', SCREEN_CONCURRENCY: '8' },
    });
    cleanup.push(() => ctx.close());
    // A second process on the same Redis and SQLite (as `screen --file` beside `start`).
    const other = await createScreener(ctx.config, {
      svc: { baseUrl: ctx.emulator.baseUrl, apiKey: ctx.emulator.keys.live },
      logger: pino({ level: 'silent' }),
    });
    cleanup.push(() => other.close());
    const roster = liveDots(25, 3_450_000);
    const tenderDots = liveDots(4, 3_460_000);
    const screeners = [ctx.screener, other];
    // Three tenders beside the roster, in both processes, at a few moments while it runs.
    const tenders = Promise.all(
      tenderDots.slice(0, 3).map(async (dot, i) => {
        await new Promise((r) => setTimeout(r, 5 + 15 * i));
        return screeners[i % 2]!.screen({ query: { dot_number: dot }, priority: 'tender', tender_id: `T-beside-${i}` }, { waitMs: 30_000 });
      }),
    );
    const done = await Promise.all(
      roster.map((dot, i) => screeners[i % 2]!.screen({ query: { dot_number: dot }, priority: 'background' }, { waitMs: 60_000 })),
    );
    const beside = await tenders;
    expect(done.every((s) => s.status === 'done')).toBe(true);
    expect(beside.map((t) => t.source)).toEqual(['service', 'service', 'service']);
    const background = done.filter((s) => s.source === 'service').length;
    expect(background).toBeLessThanOrEqual(15); // 20 − the reserve of 5: background never goes below it
    expect(done.filter((s) => s.hold_reason === 'quota_reserved').length).toBe(25 - background);
    expect(ctx.emulator.stats().scoreLookups).toBe(background + 3);
    // What is left of the reserve is still there for a tender.
    const tender = await ctx.screener.screen({ query: { dot_number: tenderDots[3]! }, priority: 'tender' }, { waitMs: 30_000 });
    expect(tender.source).toBe('service');
  });

  it('a tender that joins a background lookup refused by the reserve gets a lookup of its own', async () => {
    const ctx = await withScreener({
      emulator: { mode: 'live', monthlyQuota: 10, ratePerMinute: 10_000, faults: { latencyMs: 100 } },
      env: { SCREEN_QUOTA_RESERVE: '10' },
    });
    cleanup.push(() => ctx.close());
    // Background screenings of a carrier first, then its tender while they run, at a few spacings
    // (which of them the tender joins depends on the queue): no tender may be held quota_reserved.
    const delays = [6, 10, 15, 20, 25, 30];
    const dots = liveDots(delays.length, 3_470_000);
    const rounds = [];
    for (const [i, delay] of delays.entries()) {
      const dot = dots[i]!;
      const bgs = Array.from({ length: 3 }, () =>
        ctx.screener.screen({ query: { dot_number: dot }, priority: 'background' }, { waitMs: 30_000 }),
      );
      await new Promise((r) => setTimeout(r, delay));
      rounds.push(await ctx.screener.screen({ query: { dot_number: dot }, priority: 'tender' }, { waitMs: 30_000 }));
      await Promise.all(bgs);
    }
    expect(rounds.map((t) => t.hold_reason)).not.toContain('quota_reserved');
    expect(rounds.every((t) => t.source === 'service')).toBe(true);
    expect(ctx.emulator.stats().scoreLookups).toBe(delays.length);
  });
});

describe('one carrier, one review', () => {
  it('an MC-keyed hold without a score joins the review its carrier has under its DOT, where the cache links them', async () => {
    // One lookup of quota and no stale fallback: the MC screening is held without a score.
    const ctx = await withScreener({
      emulator: { mode: 'live', monthlyQuota: 1, ratePerMinute: 10_000 },
      env: { SCREEN_STALE_IF_ERROR: '0s' },
    });
    cleanup.push(() => ctx.close());
    let dot = '';
    let mc = '';
    for (let d = 3_480_000; !dot; d++) {
      const p = liveCarrier(String(d));
      if (p && p.decision === 'review' && p.carrier.mc_number) [dot, mc] = [p.carrier.dot_number, p.carrier.mc_number];
    }
    const byDot = await ctx.screener.screen({ query: { dot_number: dot }, tender_id: 'T-dot' }, { waitMs: 30_000 });
    expect([byDot.action, byDot.source]).toEqual(['hold', 'service']);
    expect(await ctx.screener.store.reviews.countPendingReviews()).toBe(1);
    const byMc = await ctx.screener.screen({ query: { mc_number: mc }, tender_id: 'T-mc', refresh: true }, { waitMs: 30_000 });
    expect([byMc.action, byMc.hold_reason, byMc.score]).toEqual(['hold', 'quota_exhausted', null]);
    expect(await ctx.screener.store.reviews.countPendingReviews()).toBe(1);
    expect(byMc.review?.id).not.toBe(byDot.review?.id); // its own item, waiting on the carrier's review
    expect(await ctx.screener.store.reviews.getReview(byDot.review!.id)).toBeDefined();
  });

  it('a DOT and an MC query of one carrier, linked by the cache, share one lookup', async () => {
    const ctx = await withScreener({ emulator: { mode: 'live', monthlyQuota: 100, ratePerMinute: 10_000, faults: { latencyMs: 150 } } });
    cleanup.push(() => ctx.close());
    let dot = '';
    let mc = '';
    for (let d = 3_490_000; !dot; d++) {
      const p = liveCarrier(String(d));
      if (p && p.carrier.mc_number) [dot, mc] = [p.carrier.dot_number, p.carrier.mc_number];
    }
    await ctx.screener.screen({ query: { dot_number: dot } }, { waitMs: 30_000 }); // the cache now links the MC to the DOT
    const [a, b] = await Promise.all([
      ctx.screener.screen({ query: { dot_number: dot }, refresh: true }, { waitMs: 30_000 }),
      ctx.screener.screen({ query: { mc_number: mc }, refresh: true }, { waitMs: 30_000 }),
    ]);
    expect([a.source, b.source]).toEqual(['service', 'service']);
    expect(ctx.emulator.stats().scoreRequests).toBe(2);
  });
});
