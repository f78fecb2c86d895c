import { describe, expect, it } from 'vitest';
import { computeTrayView, formatResetUtc, quotaLow } from '../../electron/main/tray-state.js';
import { menuCommands } from '../../electron/main/tray-controller.js';
import type { StatusReport } from '../../shared/screening.js';

function status(
  over: {
    queue?: Partial<StatusReport['queue']>;
    quota?: Partial<StatusReport['quota']>;
    service?: Partial<StatusReport['service']>;
    pending?: number;
  } = {},
): StatusReport {
  return {
    object: 'status',
    environment: 'live',
    queue: { waiting: 4, active: 1, delayed: 2, failed: 0, completed: 90, paused: false, ...over.queue },
    quota: {
      livemode: true,
      monthly_quota: 1000,
      used: 400,
      remaining: 600,
      resets_at: '2025-04-01T00:00:00.000Z',
      gate: 'open',
      reserve: 50,
      updated_at: '2025-03-14T10:00:00.000Z',
      ...over.quota,
    },
    rate_limit: { per_minute: 60, remaining: 58, resets_at: null },
    reviews: { pending: over.pending ?? 0 },
    service: { reachable: true, checked_at: null, last_error: null, key_rejected: false, ...over.service },
  };
}

const URL_ = 'http://127.0.0.1:8787';
const view = (
  s: StatusReport | null,
  connection: Parameters<typeof computeTrayView>[0]['connection'] = 'open',
  statusError: string | null = null,
) => computeTrayView({ status: s, connection, workerUrl: URL_, statusError });

const labels = (v: ReturnType<typeof view>) => v.menu.flatMap((i) => (i.kind === 'item' ? [i.label] : []));

describe('tray icon state', () => {
  it('is ok when the worker is connected, nothing is pending and the quota has room', () => {
    const v = view(status());
    expect(v.icon).toBe('ok');
    expect(v.headline).toBe('All clear');
    expect(v.problems).toEqual([]);
  });

  it('asks for attention when reviews are pending', () => {
    const v = view(status({ pending: 3 }));
    expect(v.icon).toBe('attention');
    expect(v.headline).toBe('3 carriers waiting for review');
  });

  it('asks for attention when the quota drops under 10 % or into the reserve', () => {
    expect(view(status({ quota: { remaining: 99, used: 901 } })).icon).toBe('attention');
    expect(view(status({ quota: { remaining: 100, used: 900 } })).icon).toBe('ok');
    // Reserve above 10 %: the reserve decides.
    expect(view(status({ quota: { remaining: 150, reserve: 200 } })).icon).toBe('attention');
    expect(view(status({ quota: { gate: 'reserve' } })).icon).toBe('attention');
  });

  it('shows trouble when the worker cannot be reached, whatever the last status said', () => {
    for (const c of ['reconnecting', 'unauthorized', 'closed'] as const) expect(view(status(), c).icon).toBe('trouble');
    expect(view(null, 'connecting').icon).toBe('trouble');
    const failed = view(status(), 'open', 'connect ECONNREFUSED 127.0.0.1:8787');
    expect(failed.icon).toBe('trouble');
    expect(failed.headline).toContain('ECONNREFUSED');
    expect(view(status(), 'unauthorized').headline).toContain('token');
  });

  it('shows trouble when /v1 is unreachable, the key is rejected or the quota is used up', () => {
    const down = view(status({ service: { reachable: false, last_error: 'scoring_unavailable' } }));
    expect(down.icon).toBe('trouble');
    expect(down.headline).toContain('scoring_unavailable');
    expect(view(status({ service: { key_rejected: true } })).headline).toContain('rejected the API key');
    const out = view(status({ quota: { remaining: 0, used: 1000, gate: 'closed' } }));
    expect(out.icon).toBe('trouble');
    expect(out.headline).toBe('Monthly quota used up: no live lookups until Apr 1, 00:00 UTC');
  });

  it('puts trouble before attention', () => {
    const v = view(status({ pending: 2, service: { reachable: false } }));
    expect(v.problems.map((p) => p.level)).toEqual(['trouble', 'attention']);
  });

  it('counts a sandbox without quota figures as fine', () => {
    const s = status({ quota: { livemode: false, monthly_quota: null, used: null, remaining: null, reserve: null } });
    expect(quotaLow(s)).toBe(false);
    expect(view(s).icon).toBe('ok');
    expect(labels(view(s))).toContain('Quota: sandbox, lookups not counted');
  });
});

describe('tray tooltip and menu', () => {
  it('lists queue counts, quota with reset date and the pending reviews item that opens the desk', () => {
    const v = view(status({ pending: 1 }));
    expect(labels(v)).toEqual([
      '1 carrier waiting for review',
      'Review desk: 1 carrier pending',
      'Changes',
      'Queue: 4 waiting · 1 active · 2 delayed · 0 failed',
      'Quota: 600 of 1,000 left · resets Apr 1, 00:00 UTC',
      'Rate limit: 58 of 60 left this minute',
      'Pause queue',
      'Open dashboard',
      'Export audit CSV…',
      'Settings…',
      'Quit Carrier Screen',
    ]);
    expect(menuCommands(v.menu)).toEqual([
      'open-desk',
      'open-changes',
      'pause-queue',
      'open-dashboard',
      'export-audit',
      'settings',
      'quit',
    ]);
    expect(v.tooltip).toBe('Carrier Screen (live)\n1 carrier waiting for review');
  });

  it('offers resume when paused, and says so', () => {
    const v = view(status({ queue: { paused: true } }));
    expect(labels(v)).toContain('Queue: 4 waiting · 1 active · 2 delayed · 0 failed (paused)');
    expect(menuCommands(v.menu)).toContain('resume-queue');
    expect(menuCommands(v.menu)).not.toContain('pause-queue');
  });

  it('disables pause while the worker is not connected, and keeps settings and quit', () => {
    const v = view(status(), 'reconnecting');
    expect(menuCommands(v.menu)).toEqual(['open-desk', 'open-changes', 'open-dashboard', 'settings', 'quit']);
    expect(view(null, 'connecting').menu.some((i) => i.kind === 'item' && i.label.startsWith('Queue'))).toBe(false);
  });

  it('keeps the tooltip within the 127 characters Windows shows', () => {
    const v = view(
      status({ pending: 5, service: { reachable: false, last_error: 'x'.repeat(200) }, quota: { gate: 'closed', remaining: 0 } }),
    );
    expect(v.tooltip.length).toBeLessThanOrEqual(127);
    expect(v.tooltip.endsWith('…')).toBe(true);
  });

  it('formats reset times in UTC and passes unknown text through', () => {
    expect(formatResetUtc('2025-12-01T00:00:00Z')).toBe('Dec 1, 00:00 UTC');
    expect(formatResetUtc('soon')).toBe('soon');
    expect(formatResetUtc(null)).toBe('unknown');
  });
});

describe('tray texts when the worker is away or not set up', () => {
  it('names the worker address once when it is unreachable', () => {
    const url = 'http://127.0.0.1:8787';
    const v = computeTrayView({
      status: null,
      connection: 'reconnecting',
      workerUrl: url,
      statusError: `worker unreachable at ${url}: fetch failed (connect ECONNREFUSED 127.0.0.1:8787)`,
    });
    expect(v.tooltip.split(url).length - 1).toBe(1);
    expect(v.headline).toBe(`Worker unreachable at ${url}: fetch failed (connect ECONNREFUSED 127.0.0.1:8787)`);
  });

  it('says "not set up", not "token refused", before any token was entered', () => {
    const v = computeTrayView({ status: null, connection: 'unconfigured', workerUrl: 'http://127.0.0.1:8787' });
    expect(v.headline).toBe('Not set up: add the worker address and token in Settings');
    expect(v.tooltip).not.toMatch(/refused/);
  });
});

describe('tray menu extras', () => {
  it('shows an activity (an export in progress) under the headline and in the tooltip, and offers no second export meanwhile', () => {
    const v = computeTrayView({
      status: status(),
      connection: 'open',
      workerUrl: URL_,
      statusError: null,
      activity: 'Exporting audit CSV: 12.3 MB…',
    });
    expect(labels(v).slice(0, 2)).toEqual(['All clear', 'Exporting audit CSV: 12.3 MB…']);
    expect(v.tooltip.split('\n')[1]).toBe('Exporting audit CSV: 12.3 MB…');
    expect(menuCommands(v.menu)).not.toContain('export-audit');
  });

  it('hides Pause/Resume when admin actions are not allowed, and shows the version', () => {
    const v = computeTrayView({
      status: status({ queue: { paused: true } }),
      connection: 'open',
      workerUrl: URL_,
      statusError: null,
      canAdmin: false,
      appVersion: '2.0.1',
    });
    expect(menuCommands(v.menu)).not.toContain('resume-queue');
    expect(menuCommands(v.menu)).not.toContain('pause-queue');
    expect(labels(v)).toContain('Carrier Screen 2.0.1');
  });
});
