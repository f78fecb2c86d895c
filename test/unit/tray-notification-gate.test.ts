import { describe, expect, it } from 'vitest';
import { BURST_MS, NotificationGate, TOAST_WINDOW_MS } from '../../electron/main/notification-gate.js';
import { Notifier, changeNotification, conditionsFrom } from '../../electron/main/notifier.js';
import type { DesktopNotification } from '../../electron/main/ports.js';
import type { CarrierChange, StatusReport } from '../../shared/screening.js';
import { ManualClock } from '../helpers/manual-clock.js';

function status(pending: number, quota: Partial<StatusReport['quota']> = {}): StatusReport {
  return {
    object: 'status',
    environment: 'live',
    queue: { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0, paused: false },
    quota: {
      livemode: true,
      monthly_quota: 1000,
      used: 100,
      remaining: 900,
      resets_at: '2025-04-01T00:00:00.000Z',
      gate: 'open',
      reserve: 50,
      updated_at: null,
      ...quota,
    },
    rate_limit: { per_minute: 60, remaining: 60, resets_at: null },
    reviews: { pending },
    service: { reachable: true, checked_at: null, last_error: null, key_rejected: false },
  };
}

function change(i: number, action: 'tender' | 'block' = 'tender'): CarrierChange {
  const snap = {
    hold_reason: null,
    knockout_codes: [] as string[],
    model_version: 'crs-3.5',
    screening_id: 'scr_1',
    fetched_at: '2026-03-02T10:00:00.000Z',
  };
  return {
    object: 'carrier_change',
    id: `chg_${String(i).padStart(26, '0')}`,
    dot_number: String(3100000 + i),
    mc_number: null,
    legal_name: `Carrier ${i} LLC`,
    reasons: ['decision_changed'],
    before: { ...snap, action: 'tender', decision: 'approved', score: 92, grade: 'A' },
    after: { ...snap, action, decision: action === 'block' ? 'rejected' : 'review', score: 60, grade: 'C' },
    screening_id: 'scr_2',
    tenders: [],
    state: 'new',
    acknowledged_by: null,
    acknowledged_at: null,
    detected_at: '2026-03-04T12:00:00.000Z',
    updated_at: '2026-03-04T12:00:00.000Z',
  } as CarrierChange;
}

/** The notifier and the gate as the tray controller chains them, on a hand-moved clock. */
function chain() {
  const clock = new ManualClock();
  const shown: DesktopNotification[] = [];
  const notifier = new Notifier({ quietMs: 0 });
  const gate = new NotificationGate({ show: (n) => shown.push(n), now: clock.now, schedule: clock.schedule });
  const W = 'http://127.0.0.1:8787';
  const look = (pending: number, changes: CarrierChange[] = []) =>
    gate.offer(notifier.update(conditionsFrom({ status: status(pending), connection: 'open', workerUrl: W, changes })));
  return { clock, shown, gate, look };
}

describe('toasts per burst', () => {
  it('pending rising 1 → 40 over a burst of events is one toast: "39 new carriers to review"', () => {
    const { clock, shown, look } = chain();
    look(1);
    clock.advance(BURST_MS);
    shown.length = 0;
    for (let p = 2; p <= 40; p++) {
      look(p);
      clock.advance(50);
    }
    expect(shown).toEqual([]);
    clock.advance(BURST_MS);
    expect(shown.map((n) => [n.title, n.count, n.total])).toEqual([['39 new carriers to review', 39, 40]]);
    // A later hold, after the burst, is news again.
    look(41);
    clock.advance(BURST_MS);
    expect(shown.map((n) => n.title)).toEqual(['39 new carriers to review', '1 new carrier to review']);
  });

  it('20 carrier changes arriving one event at a time are one summary toast naming the first three', () => {
    const { clock, shown, look } = chain();
    look(0);
    const list: CarrierChange[] = [];
    for (let i = 1; i <= 20; i++) {
      list.push(change(i));
      look(0, [...list]);
      clock.advance(100);
    }
    clock.advance(BURST_MS);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      condition: 'carrier_changed',
      title: '20 carrier changes to acknowledge',
      command: 'open-changes',
      count: 20,
    });
    expect(shown[0]?.body).toMatch(/^Carrier 1 LLC .*; Carrier 2 LLC .*; Carrier 3 LLC .* and 17 more\.$/);
    expect(shown[0]?.changeIds).toHaveLength(20);
  });

  it('a single change stays the detailed toast', () => {
    const { clock, shown, look } = chain();
    look(0, [change(1)]);
    clock.advance(BURST_MS);
    expect(shown.map((n) => n.title)).toEqual([changeNotification(change(1)).title]);
  });

  it('20 carriers blocked in a burst: the first at once, the other 19 in one critical summary, not limited', () => {
    const clock = new ManualClock();
    const shown: DesktopNotification[] = [];
    const gate = new NotificationGate({ show: (n) => shown.push(n), now: clock.now, schedule: clock.schedule, maxPerWindow: 1 });
    gate.offer([{ condition: 'quota_low', title: 'low', body: '', command: 'open-quota', urgency: 'normal' }]);
    clock.advance(BURST_MS); // the one normal slot is used
    for (let i = 1; i <= 20; i++) {
      gate.offer([changeNotification(change(i, 'block'))]);
      clock.advance(100);
    }
    expect(shown.map((n) => n.urgency)).toEqual(['normal', 'critical']);
    clock.advance(BURST_MS);
    expect(shown).toHaveLength(3);
    expect(shown[2]).toMatchObject({ title: '19 carrier changes to acknowledge', urgency: 'critical', count: 19 });
  });

  it('critical ones are shown at once and never limited; the rest wait for a slot and keep merging', () => {
    const clock = new ManualClock();
    const shown: DesktopNotification[] = [];
    const gate = new NotificationGate({ show: (n) => shown.push(n), now: clock.now, schedule: clock.schedule, maxPerWindow: 2 });
    const normal = (condition: DesktopNotification['condition'], title: string): DesktopNotification => ({
      condition,
      title,
      body: '',
      command: 'open-desk',
      urgency: 'normal',
    });
    const critical: DesktopNotification = {
      condition: 'quota_exhausted',
      title: 'Monthly quota used up',
      body: '',
      command: 'open-quota',
      urgency: 'critical',
    };
    gate.offer([normal('quota_low', 'low'), normal('quota_runs_out', 'runs out'), normal('service_unavailable', 'degraded')]);
    clock.advance(BURST_MS);
    expect(shown.map((n) => n.title)).toEqual(['low', 'runs out']);
    gate.offer([critical]);
    expect(shown.map((n) => n.title)).toEqual(['low', 'runs out', 'Monthly quota used up']); // at once, over the limit
    gate.offer([changeNotification(change(1))]);
    gate.offer([changeNotification(change(2))]);
    clock.advance(BURST_MS);
    expect(shown).toHaveLength(3); // the window is full
    clock.advance(TOAST_WINDOW_MS);
    expect(shown.slice(3).map((n) => n.title)).toEqual(['degraded', '2 carrier changes to acknowledge']);
  });

  it('a blocked carrier in a burst is told at once, the rest summarised', () => {
    const { clock, shown, look } = chain();
    look(0, [change(1)]);
    look(0, [change(1), change(2, 'block')]);
    expect(shown.map((n) => n.urgency)).toEqual(['critical']);
    look(0, [change(1), change(2, 'block'), change(3)]);
    clock.advance(BURST_MS);
    expect(shown.map((n) => n.title)).toEqual([changeNotification(change(2, 'block')).title, '2 carrier changes to acknowledge']);
  });

  it('clear() drops what was held (the worker changed)', () => {
    const { clock, shown, gate, look } = chain();
    look(0);
    look(3);
    gate.clear();
    clock.advance(BURST_MS);
    expect(shown).toEqual([]);
  });
});
