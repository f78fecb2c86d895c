/**
 * What the spec allows or leaves open, answered by the real emulator and worked by the real
 * worker (Redis, SQLite): the action, the number of /v1 requests, the time to the end and the
 * cache afterwards. None of these answers may cost a wrong decision, quota or an hour.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEYS, dotToMcDigits, liveCarrier, type EmulatorFaults } from '../../emulator/index.js';
import { HOLD_OFF_CAP_MS } from '../../worker/queue/service-state.js';
import { freePort } from '../helpers/free-port.js';
import { withScreener } from '../helpers/screener.js';

type Ctx = Awaited<ReturnType<typeof withScreener>>;
let ctx: Ctx | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

/** Live DOT numbers the emulator knows (a live carrier, so every lookup is a real score). */
function liveDots(n: number, from: number): string[] {
  const out: string[] = [];
  for (let d = from; out.length < n; d += 11) if (liveCarrier(String(d))) out.push(String(d));
  return out;
}

async function live(faults: EmulatorFaults): Promise<Ctx> {
  ctx = await withScreener({ emulator: { mode: 'live', monthlyQuota: 100_000, ratePerMinute: 10_000, faults } });
  return ctx;
}

const requests = (c: Ctx): number => c.emulator.stats().scoreRequests;

describe('error codes the spec does not name', () => {
  it('a /v1 nobody answers at (connection refused) shows the stable code service_unreachable, the raw one only in the message', async () => {
    const port = await freePort(); // nothing listens there
    ctx = await withScreener({ screener: { svc: { baseUrl: `http://127.0.0.1:${port}`, apiKey: DEMO_KEYS.sandbox } } });
    const s = await ctx.screener.screen({ query: { dot_number: '1000001' } }, { waitMs: 30_000 });
    expect([s.status, s.action, s.hold_reason, s.source, s.error?.code]).toEqual([
      'done',
      'hold',
      'scoring_unavailable',
      'none',
      'service_unreachable',
    ]);
    expect(s.error?.message).toMatch(/ECONNREFUSED/);
  });

  it('a 404 that is not carrier_not_found holds service_error, is not cached and is not retried', async () => {
    const c = await live({ customErrorShare: 1, customError: { status: 404, code: 'no_such_route' } });
    const [dot] = liveDots(1, 3_100_000);
    const s = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect([s.status, s.action, s.hold_reason, s.error?.code]).toEqual(['done', 'hold', 'service_error', 'no_such_route']);
    expect(requests(c)).toBe(1);
    expect(await c.screener.store.scores.getNotFound('live', { dot_number: dot! })).toBeUndefined();
    // Not cached as "not found": a re-check asks again, and is held again, not blocked.
    const again = await c.screener.screen({ query: { dot_number: dot! }, refresh: true }, { waitMs: 30_000 });
    expect([again.action, again.hold_reason]).toEqual(['hold', 'service_error']);
    expect(requests(c)).toBe(2);
  });

  it('a 429 that is neither rate_limit_exceeded nor monthly_quota_exceeded holds service_error after one request', async () => {
    const c = await live({ customErrorShare: 1, customError: { status: 429, code: 'daily_cap', retryAfterSeconds: 1 } });
    const [dot] = liveDots(1, 3_200_000);
    const s = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect([s.action, s.hold_reason, s.error?.code]).toEqual(['hold', 'service_error', 'daily_cap']);
    expect(requests(c)).toBe(1);
    expect((await c.screener.status()).quota.gate).toBe('open'); // not taken for an exhausted quota
  });
});

describe('retries and waits', () => {
  it('a repeated rate_limit_exceeded: five requests in all (client and queue together), then the fallback', async () => {
    const c = await live({ rateLimitShare: 1, retryAfterSeconds: 0 });
    const [dot] = liveDots(1, 3_300_000);
    const s = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 60_000 });
    expect([s.status, s.action, s.hold_reason, s.error?.code]).toEqual(['done', 'hold', 'scoring_unavailable', 'rate_limit_exceeded']);
    expect(requests(c)).toBe(5);
  });

  it('a 503 with Retry-After: 3600 ends the screening at once on its fallback and holds off at most 1 h, shown in /status and /healthz', async () => {
    const c = await live({ error503Share: 1, error503RetryAfterSeconds: 3600 });
    const [dot] = liveDots(1, 3_400_000);
    // Done within the wait (not after the hour's hold-off): `status: done` says so, no clock needed.
    const s = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect([s.status, s.action, s.hold_reason]).toEqual(['done', 'hold', 'scoring_unavailable']);
    expect(requests(c)).toBe(1);
    const st = await c.screener.status();
    const until = Date.parse(st.service.hold_off_until ?? '');
    expect(until).toBeGreaterThan(Date.now());
    expect(until - Date.now()).toBeLessThanOrEqual(HOLD_OFF_CAP_MS);
    expect((await c.screener.health()).svc).toBe(false);
    // During the hold-off no score request is made: the next screening ends at once too.
    const next = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect(next.hold_reason).toBe('scoring_unavailable');
    expect(requests(c)).toBe(1);
  });

  it('an absurd Retry-After on a 429 is capped at 1 h, and the hold-off lasts its time: /v1/health does not end it', async () => {
    const c = await live({ rateLimitShare: 1, retryAfterSeconds: 900_000_000 });
    const [dot] = liveDots(1, 3_500_000);
    const s = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect([s.action, s.hold_reason]).toEqual(['hold', 'scoring_unavailable']);
    expect(requests(c)).toBe(1);
    const until = Date.parse((await c.screener.status()).service.hold_off_until ?? '');
    expect(until - Date.now()).toBeGreaterThan(0);
    expect(until - Date.now()).toBeLessThanOrEqual(HOLD_OFF_CAP_MS);
    // Health says the service is up, not that our lookups are welcome again: the poll leaves the hold-off alone.
    await c.screener.pollUsage();
    expect(Date.parse((await c.screener.status()).service.hold_off_until ?? '')).toBe(until);
    const next = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect(next.hold_reason).toBe('scoring_unavailable');
    expect(requests(c)).toBe(1);
  });
});

describe('the quota gate counts /v1 lookups, not screenings', () => {
  it('with one lookup left, five tenders for one carrier at once all get its score', async () => {
    ctx = await withScreener({ emulator: { mode: 'live', monthlyQuota: 1, ratePerMinute: 10_000 } });
    const [dot] = liveDots(1, 4_000_000);
    const all = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => ctx!.screener.screen({ query: { dot_number: dot! }, tender_id: `T-${i}` }, { waitMs: 30_000 })),
    );
    expect(all.map((s) => s.source).sort()).toEqual(expect.arrayContaining(['service']));
    for (const s of all) expect(s.hold_reason === 'quota_exhausted' || s.error?.code === 'quota_exhausted').toBe(false);
    expect(requests(ctx)).toBe(1);
  });
});

describe('bodies', () => {
  it('a score whose carrier omits mc_number, legal_name and dba_name is a score: acted on, cached, not asked again', async () => {
    const c = await live({ omitNullableShare: 1 });
    const [dot] = liveDots(1, 3_600_000);
    const s = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect(s.source).toBe('service');
    expect(s.hold_reason).not.toBe('scoring_unavailable');
    expect(s.score?.carrier.legal_name).toBeNull();
    const again = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect(again.source).toBe('cache');
    expect(requests(c)).toBe(1);
  });

  it('a 200 that is not a score holds scoring_unavailable and keeps what came in the error', async () => {
    const c = await live({ notScoreShare: 1 });
    const [dot] = liveDots(1, 3_700_000);
    const s = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect([s.action, s.hold_reason, s.error?.code]).toEqual(['hold', 'scoring_unavailable', 'invalid_response']);
    expect(s.error?.message).toContain('maintenance_notice');
    expect(requests(c)).toBe(1); // not retried: a second try has no reason to differ
  });
});

describe('one normal form per number', () => {
  it('a zero-padded DOT is the same carrier: one lookup, sent without the zeros', async () => {
    const c = await live({});
    const [dot] = liveDots(1, 3_800_000);
    const a = await c.screener.screen({ query: { dot_number: `0${dot!}` } }, { waitMs: 30_000 });
    const b = await c.screener.screen({ query: { dot_number: dot! } }, { waitMs: 30_000 });
    expect(a.query).toEqual({ dot_number: dot });
    expect([a.source, b.source]).toEqual(['service', 'cache']);
    expect(c.emulator.stats().byDot[dot!]).toBe(1);
  });

  it('a lookup by MC is cached under the MC asked, also when the score names none', async () => {
    const c = await live({ omitNullableShare: 1 });
    const [dot] = liveDots(1, 3_900_000);
    const mc = `MC${dotToMcDigits(dot!)}`;
    const a = await c.screener.screen({ query: { mc_number: mc } }, { waitMs: 30_000 });
    expect(a.score?.carrier.mc_number).toBeNull();
    const b = await c.screener.screen({ query: { mc_number: mc.replace('MC', 'mc-') } }, { waitMs: 30_000 });
    expect([a.source, b.source]).toEqual(['service', 'cache']);
    expect(requests(c)).toBe(1);
  });
});

describe("the key's environment, checked on every answer", () => {
  /**
   * A proxy in front of the sandbox emulator that can answer as if it were another
   * environment: `flip` turns livemode over in bodies (and SVC-Environment with it), `down`
   * answers 503 to everything.
   */
  async function proxy(target: string, state: ProxyState) {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      void (async () => {
        if ((req.url ?? '').startsWith('/v1/svc-score')) state.scoreRequests++;
        if (state.down) {
          res.writeHead(503, { 'content-type': 'application/json', 'svc-environment': 'sandbox' });
          return res.end(JSON.stringify({ error: { code: 'scoring_unavailable', message: 'down' } }));
        }
        const up = await request(target + req.url, { headers: { authorization: req.headers.authorization ?? '' } });
        const body = (await up.body.json()) as Record<string, unknown>;
        const headers = { ...up.headers } as Record<string, string>;
        const isScore = body.object === 'svc_score';
        if ((isScore && state.flip.score) || (body.object === 'usage' && state.flip.usage)) {
          body.livemode = !body.livemode;
          headers['svc-environment'] = body.livemode ? 'live' : 'sandbox';
        }
        delete headers['content-length'];
        res.writeHead(up.statusCode, headers);
        res.end(JSON.stringify(body));
      })();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    return { url, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
  }

  type ProxyState = { flip: { usage: boolean; score: boolean }; down: boolean; scoreRequests: number };

  /** A screener whose /v1 is the sandbox emulator behind `proxy(state)`; `body` runs against it. */
  async function behindProxy(state: ProxyState, body: (c: Ctx) => Promise<void>): Promise<void> {
    const { startEmulator } = await import('../../emulator/index.js');
    const emu = await startEmulator({ port: 0 });
    const p = await proxy(emu.baseUrl, state);
    ctx = await withScreener({ screener: { svc: { baseUrl: p.url, apiKey: emu.keys.sandbox } } });
    try {
      await body(ctx);
    } finally {
      await ctx.close();
      ctx = undefined;
      await p.close();
      await emu.close();
    }
  }

  it('a score from the other environment is not acted on or cached, and stops /v1 calls', async () => {
    const state = { flip: { usage: false, score: true }, down: false, scoreRequests: 0 };
    await behindProxy(state, async (c) => {
      const s = await c.screener.screen({ query: { dot_number: '1000001' } }, { waitMs: 30_000 });
      expect([s.action, s.hold_reason, s.error?.code]).toEqual(['hold', 'service_error', 'environment_mismatch']);
      expect(await c.screener.store.scores.getScore('sandbox', { dot_number: '1000001' })).toBeUndefined();
      expect((await c.screener.status()).service.environment_mismatch).toMatch(/expected sandbox/);
      const next = await c.screener.screen({ query: { dot_number: '1000004' } }, { waitMs: 30_000 });
      expect(next.error?.code).toBe('environment_mismatch');
      expect(state.scoreRequests).toBe(1);
    });
  });

  it('unreachable at start: the first usage answer is checked, and a mismatch stops calls', async () => {
    const state = { flip: { usage: true, score: false }, down: true, scoreRequests: 0 };
    await behindProxy(state, async (c) => {
      state.down = false;
      await c.screener.pollUsage();
      expect((await c.screener.status()).service.environment_mismatch).toMatch(/livemode is true/);
      const s = await c.screener.screen({ query: { dot_number: '1000001' } }, { waitMs: 30_000 });
      expect([s.action, s.hold_reason, s.error?.code]).toEqual(['hold', 'service_error', 'environment_mismatch']);
      expect(state.scoreRequests).toBe(0);
    });
  });
});
