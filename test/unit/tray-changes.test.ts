import { describe, expect, it } from 'vitest';
import { CHANGE_NOTES_AT_ONCE, Notifier, changeNotification, conditionsFrom } from '../../electron/main/notifier.js';
import { menuCommands } from '../../electron/main/tray-controller.js';
import { changesWaiting, computeTrayView, type TrayInput } from '../../electron/main/tray-state.js';
import { changeCarrierName, changeReasonText, changeSummary, isCarrierChange, tenderList } from '../../electron/shared/change-text.js';
import { problemsOf } from '../../electron/shared/status-problems.js';
import type { CarrierChange, CarrierSnapshot, StatusReport } from '../../shared/screening.js';

/** Carrier changes in the tray: what the icon, tooltip, menu and notifications make of them. */

function status(pending = 0): StatusReport {
  return {
    object: 'status',
    environment: 'live',
    queue: { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0, paused: false },
    quota: {
      livemode: true,
      monthly_quota: 1000,
      used: 100,
      remaining: 900,
      resets_at: '2026-04-01T00:00:00Z',
      gate: 'open',
      reserve: 50,
      updated_at: null,
    },
    rate_limit: { per_minute: 60, remaining: 60, resets_at: null },
    reviews: { pending },
    service: { reachable: true, checked_at: null, last_error: null, key_rejected: false },
  };
}

function snap(over: Partial<CarrierSnapshot> = {}): CarrierSnapshot {
  return {
    action: 'tender',
    hold_reason: null,
    decision: 'approved',
    score: 92,
    grade: 'A',
    knockout_codes: [],
    model_version: 'crs-3.5',
    screening_id: 'scr_before',
    fetched_at: '2026-03-02T10:00:00.000Z',
    ...over,
  };
}

let seq = 0;
function change(over: Partial<CarrierChange> = {}): CarrierChange {
  seq++;
  return {
    object: 'carrier_change',
    id: `chg_${String(seq).padStart(26, 'a')}`,
    dot_number: '3100007',
    mc_number: 'MC3100007',
    legal_name: 'Acme Freight LLC',
    reasons: ['action_changed', 'decision_changed', 'new_knockout', 'grade_drop'],
    before: snap(),
    after: snap({
      action: 'block',
      decision: 'rejected',
      score: 31,
      grade: 'F',
      knockout_codes: ['AUTHORITY_INACTIVE'],
      screening_id: 'scr_after',
    }),
    screening_id: 'scr_after',
    tenders: [
      { tender_id: 'T-1', screening_id: 'scr_t1', screened_at: '2026-03-02T10:00:00.000Z' },
      { tender_id: 'T-2', screening_id: 'scr_t2', screened_at: '2026-03-02T11:00:00.000Z' },
    ],
    state: 'new',
    acknowledged_by: null,
    acknowledged_at: null,
    detected_at: '2026-03-04T12:00:00.000Z',
    updated_at: '2026-03-04T12:00:00.000Z',
    ...over,
  };
}

const W = 'http://127.0.0.1:8787';
const input = (changes: CarrierChange[] | null, over: Partial<TrayInput> = {}): TrayInput => ({
  status: status(),
  connection: 'open',
  workerUrl: W,
  statusError: null,
  changes,
  ...over,
});
const labels = (i: TrayInput) => computeTrayView(i).menu.flatMap((m) => (m.kind === 'item' ? [m.label] : []));

describe('tray state with carrier changes', () => {
  it('counts unacknowledged changes as attention, in the headline and tooltip', () => {
    const v = computeTrayView(input([change(), change()]));
    expect(v.icon).toBe('attention');
    expect(v.headline).toBe('2 carrier changes to acknowledge');
    expect(v.tooltip).toBe('Carrier Screen (live)\n2 carrier changes to acknowledge');
    expect(computeTrayView(input([change()])).headline).toBe('1 carrier change to acknowledge');
  });

  it('is all clear with no changes, and with a worker that has no /changes (null)', () => {
    expect(computeTrayView(input([])).icon).toBe('ok');
    expect(computeTrayView(input(null)).icon).toBe('ok');
    // Acknowledged ones in the list do not count (a list read racing an acknowledgement).
    expect(changesWaiting(input([change({ state: 'acknowledged' })]))).toBe(0);
  });

  it('keeps trouble first: a lost worker outranks changes', () => {
    const v = computeTrayView(input([change()], { connection: 'reconnecting' }));
    expect(v.icon).toBe('trouble');
    expect(v.problems.map((p) => p.level)).toEqual(['trouble', 'attention']);
  });

  it('the menu says "N carrier changes" and the item opens the Changes view', () => {
    const withTwo = computeTrayView(input([change(), change()]));
    const item = withTwo.menu.find((m) => m.kind === 'item' && m.label === 'Changes: 2 carrier changes to acknowledge');
    expect(item).toMatchObject({ enabled: true, command: 'open-changes' });
    expect(menuCommands(withTwo.menu)).toContain('open-changes');
    expect(labels(input([]))).toContain('Changes: none to acknowledge');
    expect(labels(input(null))).toContain('Changes');
    // Right under the review desk item.
    const l = labels(input([change()]));
    expect(l.indexOf('Changes: 1 carrier change to acknowledge')).toBe(l.indexOf('Review desk: nothing pending') + 1);
  });

  it('marks the problems a dashboard tab counts, so the banner can leave them out', () => {
    const p = problemsOf({ status: status(2), connection: 'open', workerUrl: W, changesNew: 3 });
    expect(p.map((x) => [x.text, x.topic])).toEqual([
      ['2 carriers waiting for review', 'reviews'],
      ['3 carrier changes to acknowledge', 'changes'],
    ]);
  });
});

describe('change notifications', () => {
  it('names the carrier and the transition: "Carrier changed: <name> approved → rejected"', () => {
    const n = changeNotification(change());
    expect(n.title).toBe('Carrier changed: Acme Freight LLC approved → rejected');
    expect(n.body).toBe(
      'DOT 3100007 · MC3100007. Tender action changed, decision changed, new knockout AUTHORITY_INACTIVE, grade dropped. Now: block. Used for tenders T-1, T-2.',
    );
    expect(n).toMatchObject({ condition: 'carrier_changed', command: 'open-changes', urgency: 'critical' });
  });

  it('says the most telling transition, and shows reasons it does not know by name', () => {
    const toHold = change({
      reasons: ['action_changed', 'decision_changed'],
      after: snap({ action: 'hold', decision: 'review', score: 66, grade: 'D' }),
    });
    expect(changeSummary(toHold)).toBe('approved → review');
    expect(changeNotification(toHold).urgency).toBe('normal');
    expect(changeSummary(change({ after: snap({ action: 'hold', hold_reason: 'manual_review' }) }))).toBe('tender → hold');
    expect(changeSummary(change({ after: snap({ grade: 'D', score: 58 }) }))).toBe('grade A → D');
    expect(changeSummary(change({ after: snap({ knockout_codes: ['NO_BIPD'] }) }))).toBe('new knockout NO_BIPD');
    const odd = change({ reasons: ['decision_changed', 'model_version_changed', 'insurer_downgrade'] });
    expect(changeNotification(odd).body).toContain('Decision changed, scoring model changed, insurer_downgrade.');
    expect(changeReasonText('insurer_downgrade')).toBe('insurer_downgrade');
  });

  it('falls back to the numbers when the score named no carrier, and says when no tender used it', () => {
    const n = changeNotification(change({ legal_name: null, tenders: [] }));
    expect(n.title).toBe('Carrier changed: DOT 3100007 approved → rejected');
    expect(n.body).toContain('No recent tender used it.');
    expect(changeCarrierName({ legal_name: '  ', dot_number: null, mc_number: 'MC77' })).toBe('MC77');
    expect(
      tenderList(change({ tenders: ['A', 'B', 'C', 'D', 'E'].map((t) => ({ tender_id: t, screening_id: 's', screened_at: '' })) })),
    ).toBe('A, B, C and 2 more');
  });

  it('notifies once per change id, however often the list is read', () => {
    const n = new Notifier({ quietMs: 0 });
    const a = change();
    const first = n.update(conditionsFrom(input([a])));
    expect(first.map((x) => [x.condition, x.changeIds])).toEqual([['carrier_changed', [a.id]]]);
    expect(n.update(conditionsFrom(input([a])))).toEqual([]);
    // A second change: only it is news.
    const b = change({ legal_name: 'Beta Haulers' });
    const second = n.update(conditionsFrom(input([b, a])));
    expect(second.map((x) => x.title)).toEqual(['Carrier changed: Beta Haulers approved → rejected']);
    // Acknowledged (gone from the list) and then seen again (e.g. an older page of the list): not news.
    expect(n.update(conditionsFrom(input([b])))).toEqual([]);
    expect(n.update(conditionsFrom(input([b, a])))).toEqual([]);
    expect(n.hasTold(a.id) && n.hasTold(b.id)).toBe(true);
    // Carrier changes are not a held condition.
    expect(n.activeConditions()).toEqual([]);
  });

  it('sums up many new changes in one notification instead of a flood', () => {
    const n = new Notifier({ quietMs: 0 });
    const many = Array.from({ length: CHANGE_NOTES_AT_ONCE + 2 }, (_, i) => change({ legal_name: `Carrier ${i}` }));
    const notes = n.update(conditionsFrom(input(many)));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      condition: 'carrier_changed',
      title: '5 carrier changes to acknowledge',
      command: 'open-changes',
      urgency: 'critical',
    });
    expect(notes[0]?.changeIds).toEqual(many.map((c) => c.id));
    expect(notes[0]?.body).toBe('Carrier 0 approved → rejected; Carrier 1 approved → rejected; Carrier 2 approved → rejected and 2 more.');
    expect(n.update(conditionsFrom(input(many)))).toEqual([]);
  });

  it('announces nothing from a list read while the stream is down, and catches up once it is back', () => {
    const n = new Notifier({ quietMs: 0 });
    const a = change();
    const away = n.update(conditionsFrom(input([a], { connection: 'reconnecting' })));
    expect(away.map((x) => x.condition)).toEqual(['service_unavailable']);
    expect(n.update(conditionsFrom(input([a]))).map((x) => x.condition)).toEqual(['carrier_changed']);
  });

  it('raises change notifications beside the held conditions', () => {
    const n = new Notifier({ quietMs: 0 });
    const notes = n.update(conditionsFrom(input([change()], { status: status(1) })));
    expect(notes.map((x) => x.condition)).toEqual(['reviews_pending', 'carrier_changed']);
  });

  it('trusts only event payloads shaped like a change', () => {
    expect(isCarrierChange(change())).toBe(true);
    expect(isCarrierChange({ object: 'carrier_change', id: 'chg_x' })).toBe(false);
    expect(isCarrierChange({ ...change(), object: 'review' })).toBe(false);
    expect(isCarrierChange(null)).toBe(false);
    expect(isCarrierChange('carrier.changed')).toBe(false);
  });
});
