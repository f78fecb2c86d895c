import { describe, expect, it } from 'vitest';
import { problemsOf } from '../../electron/shared/status-problems.js';
import type { StatusReport } from '../../shared/screening.js';

/** The tray's status: dead callbacks (the outbox) are trouble an operator must act on. */

function status(callbacks?: StatusReport['callbacks']): StatusReport {
  return {
    object: 'status',
    environment: 'sandbox',
    queue: { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0, paused: false },
    quota: {
      livemode: false,
      monthly_quota: null,
      used: null,
      remaining: null,
      resets_at: '2025-04-01T00:00:00.000Z',
      gate: 'open',
      reserve: null,
      updated_at: null,
    },
    rate_limit: { per_minute: 120, remaining: null, resets_at: null },
    reviews: { pending: 0 },
    service: { reachable: true, checked_at: null, last_error: null, key_rejected: false },
    ...(callbacks ? { callbacks } : {}),
  };
}

const problems = (s: StatusReport) => problemsOf({ status: s, connection: 'open', workerUrl: 'http://127.0.0.1:8787' });

describe('dead callbacks in the tray status', () => {
  it('none dead (or an older worker that does not say): no problem', () => {
    expect(problems(status({ pending: 3, delivered: 10, dead: 0 }))).toEqual([]);
    expect(problems(status())).toEqual([]);
  });

  it('dead ones are trouble, counted, with the way to retry them', () => {
    expect(problems(status({ pending: 0, delivered: 10, dead: 2 }))).toEqual([
      { level: 'trouble', text: '2 callbacks to the TMS gave up after 24 h (dead): retry with POST /callbacks/:id/retry' },
    ]);
    expect(problems(status({ pending: 0, delivered: 0, dead: 1 }))[0]!.text).toMatch(/^1 callback to the TMS/);
  });
});
