import { describe, expect, it } from 'vitest';
import { forecastQuota, monthStartUtc } from '../../electron/renderer/quota-forecast.js';
import { dailySeries } from '../../electron/renderer/usage-series.js';

const RESET = '2025-04-01T00:00:00.000Z';

describe('quota forecast', () => {
  it('projects the day the quota runs out at this month\'s average pace', () => {
    // 10 days into March, 500 used: 50 a day; 500 left → 10 more days → March 21, 11 days before the reset.
    const f = forecastQuota({ used: 500, remaining: 500, monthlyQuota: 1000, resetsAt: RESET, now: new Date('2025-03-11T00:00:00Z') });
    expect(f).toEqual({ kind: 'runs_out', perDay: 50, runsOutAt: '2025-03-21T00:00:00.000Z', runsOutOn: '2025-03-21', daysBeforeReset: 11 });
  });

  it('says the quota lasts, and how much will be used by the reset', () => {
    // 20 days in, 200 used: 10 a day; 11 more days → 310 of 1000.
    const f = forecastQuota({ used: 200, remaining: 800, monthlyQuota: 1000, resetsAt: RESET, now: new Date('2025-03-21T00:00:00Z') });
    expect(f).toMatchObject({ kind: 'lasts', perDay: 10, projectedUsed: 310 });
    if (f.kind === 'lasts') expect(f.projectedShare).toBeCloseTo(0.31);
  });

  it('counts at least one day, so the first hours of a month do not extrapolate wildly', () => {
    const f = forecastQuota({ used: 30, remaining: 970, monthlyQuota: 1000, resetsAt: RESET, now: new Date('2025-03-01T02:00:00Z') });
    expect(f.kind).toBe('lasts');
    if (f.kind === 'lasts') expect(f.perDay).toBe(30);
  });

  it('handles exhausted, idle and unknown quotas', () => {
    const now = new Date('2025-03-15T12:00:00Z');
    expect(forecastQuota({ used: 1000, remaining: 0, monthlyQuota: 1000, resetsAt: RESET, now }).kind).toBe('exhausted');
    expect(forecastQuota({ used: 0, remaining: 1000, monthlyQuota: 1000, resetsAt: RESET, now })).toEqual({ kind: 'idle', perDay: 0 });
    expect(forecastQuota({ used: null, remaining: null, monthlyQuota: null, resetsAt: RESET, now }).kind).toBe('unknown');
    expect(forecastQuota({ used: 1, remaining: 1, monthlyQuota: 2, resetsAt: 'soon', now })).toEqual({ kind: 'unknown', reason: 'resets_at is not a time: soon' });
  });

  it('trusts the remaining count of /v1 when the local tally of used is behind', () => {
    const f = forecastQuota({ used: 0, remaining: 900, monthlyQuota: 1000, resetsAt: RESET, now: new Date('2025-03-11T00:00:00Z') });
    expect(f).toMatchObject({ kind: 'lasts', perDay: 10 });
  });

  it('finds the month start in UTC', () => {
    expect(monthStartUtc(new Date('2025-03-31T23:30:00-05:00')).toISOString()).toBe('2025-04-01T00:00:00.000Z');
  });
});

describe('daily usage series for the chart', () => {
  it('has every day of the month, zero for quiet past days and nothing for days to come', () => {
    const s = dailySeries(
      { object: 'usage_daily', month: '2025-02', monthly_quota: 280, days: [{ day: '2025-02-01', lookups: 7 }, { day: '2025-02-03', lookups: 2 }] },
      new Date('2025-02-04T10:00:00Z'),
    );
    expect(s.x).toHaveLength(28);
    expect(s.x[0]).toBe(Date.UTC(2025, 1, 1) / 1000);
    expect(s.lookups.slice(0, 6)).toEqual([7, 0, 2, 0, null, null]);
    expect(s.evenPace).toBe(10);
  });

  it('refuses a month it cannot read, naming the field', () => {
    expect(() => dailySeries({ object: 'usage_daily', month: 'March', monthly_quota: null, days: [] })).toThrow(/usage.month must be YYYY-MM/);
  });
});
