import { describe, expect, it } from 'vitest';
import { Notifier, conditionsFrom } from '../../electron/main/notifier.js';
import type { StatusReport } from '../../shared/screening.js';

function status(pending: number, quota: Partial<StatusReport['quota']> = {}, service: Partial<StatusReport['service']> = {}): StatusReport {
  return {
    object: 'status',
    environment: 'live',
    queue: { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0, paused: false },
    quota: {
      livemode: true,
      monthly_quota: 1000,
      used: 100,
      remaining: 900,
      resets_at: '2025-04-01T00:00:00Z',
      gate: 'open',
      reserve: 50,
      updated_at: null,
      ...quota,
    },
    rate_limit: { per_minute: 60, remaining: 60, resets_at: null },
    reviews: { pending },
    service: { reachable: true, checked_at: null, last_error: null, key_rejected: false, ...service },
  };
}

const W = 'http://127.0.0.1:8787';
const open = (s: StatusReport) => conditionsFrom({ status: s, connection: 'open', workerUrl: W });

describe('notifier de-duplication', () => {
  it('announces every rise in pending holds with how many are new, and nothing on a fall', () => {
    const n = new Notifier({ quietMs: 0 });
    expect(n.update(open(status(0)))).toEqual([]);
    const first = n.update(open(status(1)));
    expect(first.map((x) => [x.condition, x.title, x.count])).toEqual([['reviews_pending', '1 carrier waiting for review', 1]]);
    expect(first[0]?.command).toBe('open-desk');
    expect(first[0]?.body).toContain('1 carrier on hold');
    // 1 → 40: the old notifier said nothing while any hold was pending.
    expect(n.update(open(status(40))).map((x) => [x.title, x.total])).toEqual([['39 new carriers to review', 40]]);
    expect(n.update(open(status(40)))).toEqual([]);
    expect(n.update(open(status(38)))).toEqual([]);
    expect(n.update(open(status(39))).map((x) => x.title)).toEqual(['1 new carrier to review']);
    expect(n.update(open(status(0)))).toEqual([]);
    expect(n.update(open(status(1))).map((x) => x.condition)).toEqual(['reviews_pending']);
  });

  it('raises quota low, then exhausted, and not low again on the way out of exhaustion', () => {
    const n = new Notifier({ quietMs: 0 });
    expect(n.update(open(status(0, { remaining: 80, used: 920 }))).map((x) => x.condition)).toEqual(['quota_low']);
    expect(n.update(open(status(0, { remaining: 40, used: 960 })))).toEqual([]);
    const ex = n.update(open(status(0, { remaining: 0, used: 1000, gate: 'closed' })));
    expect(ex.map((x) => [x.condition, x.urgency])).toEqual([['quota_exhausted', 'critical']]);
    expect(ex[0]?.body).toContain('Apr 1, 00:00 UTC');
    // Quota raised a little: still low, but "low" was already said.
    expect(n.update(open(status(0, { remaining: 30, monthly_quota: 1030, gate: 'reserve' })))).toEqual([]);
    // New month: all clear, and the next low is news again.
    expect(n.update(open(status(0, { remaining: 1000, used: 0 })))).toEqual([]);
    expect(n.update(open(status(0, { remaining: 10, used: 990 }))).map((x) => x.condition)).toEqual(['quota_low']);
  });

  it('goes straight to exhausted without a separate low notification', () => {
    const n = new Notifier({ quietMs: 0 });
    expect(n.update(open(status(0, { remaining: 0, used: 1000, gate: 'closed' }))).map((x) => x.condition)).toEqual(['quota_exhausted']);
  });

  it('raises service unavailable for /v1 down, key rejected or the worker lost; once per outage', () => {
    const n = new Notifier({ quietMs: 0 });
    const down = n.update(open(status(0, {}, { reachable: false, last_error: 'HTTP 503' })));
    expect(down.map((x) => x.condition)).toEqual(['service_unavailable']);
    expect(down[0]?.body).toContain('HTTP 503');
    expect(n.update(open(status(0, {}, { key_rejected: true })))).toEqual([]);
    expect(n.update(conditionsFrom({ status: status(0), connection: 'reconnecting', workerUrl: W }))).toEqual([]);
    expect(n.update(open(status(0)))).toEqual([]);
    const lost = n.update(conditionsFrom({ status: status(0), connection: 'reconnecting', workerUrl: W }));
    expect(lost.map((x) => x.condition)).toEqual(['service_unavailable']);
    expect(lost[0]?.body).toContain(W);
  });

  it('does not take a stale status for news, nor for all clear, while the worker is away', () => {
    const n = new Notifier({ quietMs: 0 });
    n.update(open(status(2)));
    expect(n.activeConditions()).toEqual(['reviews_pending']);
    // While reconnecting the old status says nothing about reviews: they stay raised…
    n.update(conditionsFrom({ status: status(0), connection: 'reconnecting', workerUrl: W }));
    expect(n.activeConditions()).toEqual(['reviews_pending', 'service_unavailable']);
    // …and come back without a second notification.
    expect(n.update(open(status(2))).map((x) => x.condition)).toEqual([]);
  });

  it('says nothing during the first connection attempt', () => {
    const n = new Notifier({ quietMs: 0 });
    expect(n.update(conditionsFrom({ status: null, connection: 'connecting', workerUrl: W }))).toEqual([]);
  });
});

describe('degraded: a quiet period, and the right door', () => {
  it('a worker restart of a few seconds raises nothing; an outage that lasts 30 s raises one notification', () => {
    let t = 0;
    const n = new Notifier({ now: () => t });
    const lost = () => conditionsFrom({ status: status(0), connection: 'reconnecting', workerUrl: W });
    expect(n.update(lost())).toEqual([]);
    t = 8_000;
    expect(n.update(open(status(0)))).toEqual([]); // back after 8 s: never announced
    t = 100_000;
    expect(n.update(lost())).toEqual([]);
    t = 120_000;
    expect(n.update(lost())).toEqual([]);
    t = 130_000;
    const note = n.update(lost());
    expect(note.map((x) => [x.condition, x.title])).toEqual([['service_unavailable', 'Carrier screening is degraded']]);
    t = 200_000;
    expect(n.update(lost())).toEqual([]);
  });

  it('a refused token is announced at once, and clicking it opens Settings', () => {
    const n = new Notifier({ now: () => 0 });
    const [note] = n.update(conditionsFrom({ status: null, connection: 'unauthorized', workerUrl: W }));
    expect(note).toMatchObject({ condition: 'service_unavailable', command: 'settings', title: expect.stringContaining('cannot sign in') });
    expect(note!.body).toContain('open Settings');
  });

  it('says nothing before a token was ever entered', () => {
    const n = new Notifier({ quietMs: 0 });
    expect(n.update(conditionsFrom({ status: null, connection: 'unconfigured', workerUrl: W }))).toEqual([]);
  });
});

describe('quota forecast notification', () => {
  it('notifies once when at the recent pace the quota runs out before the reset, again only after it calmed down', () => {
    const n = new Notifier({ quietMs: 0 });
    const now = new Date('2025-03-24T15:00:00Z');
    const s = status(0, { monthly_quota: 60, used: 40, remaining: 20, resets_at: '2025-04-01T00:00:00Z' });
    const input = (days: Array<{ day: string; lookups: number }>) =>
      conditionsFrom({
        status: s,
        connection: 'open',
        workerUrl: W,
        now,
        usage: { object: 'usage_daily', month: '2025-03', monthly_quota: 60, days },
      });
    const notes = n.update(input([{ day: '2025-03-24', lookups: 40 }]));
    // A third of the quota left is "low" too; the forecast says more: when.
    expect(notes.map((x) => x.condition)).toEqual(['quota_low', 'quota_runs_out']);
    const note = notes[1];
    expect(note).toMatchObject({ condition: 'quota_runs_out', command: 'open-quota', urgency: 'critical' });
    expect(note!.body).toContain("today's pace (40 lookups a day) the quota runs out tomorrow");
    expect(n.update(input([{ day: '2025-03-24', lookups: 40 }]))).toEqual([]);
    // Spread over weeks instead, the same figures last: cleared, and news again if it comes back.
    const calm = conditionsFrom({
      status: status(0, { monthly_quota: 600, used: 40, remaining: 560, resets_at: '2025-04-01T00:00:00Z' }),
      connection: 'open',
      workerUrl: W,
      now,
      usage: { object: 'usage_daily', month: '2025-03', monthly_quota: 600, days: [{ day: '2025-03-02', lookups: 40 }] },
    });
    expect(n.update(calm)).toEqual([]);
    expect(n.update(input([{ day: '2025-03-24', lookups: 40 }])).map((x) => x.condition)).toEqual(['quota_low', 'quota_runs_out']);
  });
});
