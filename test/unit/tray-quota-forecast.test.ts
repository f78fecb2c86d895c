import { describe, expect, it } from 'vitest';
import { forecastQuota, forecastSentence, forecastTone, monthStartUtc } from '../../electron/shared/quota-forecast.js';
import { dailySeries } from '../../electron/renderer/usage-series.js';

const RESET = '2025-04-01T00:00:00.000Z';

describe('quota forecast', () => {
  it("projects the day the quota runs out at the month's pace when no daily figures are known", () => {
    // 10 days into March, 500 used: 50 a day; 500 left → 10 more days → March 21, 11 days before the reset.
    const f = forecastQuota({ used: 500, remaining: 500, monthlyQuota: 1000, resetsAt: RESET, now: new Date('2025-03-11T00:00:00Z') });
    expect(f).toMatchObject({
      kind: 'runs_out',
      runsOutAt: '2025-03-21T00:00:00.000Z',
      runsOutOn: '2025-03-21',
      daysBeforeReset: 11,
      daysLeft: 10,
      calendarDaysAway: 10,
    });
    expect(f.kind !== 'unknown' && f.pace).toMatchObject({ perDay: 50, basis: 'month' });
  });

  it("warns when today's pace runs it out tomorrow, though the month average says it lasts (issue 15)", () => {
    // Installed this month; 40 of a 60-lookup quota spent today, the 24th.
    const now = new Date('2025-03-24T15:00:00Z');
    const days = [{ day: '2025-03-24', lookups: 40 }];
    const f = forecastQuota({ used: 40, remaining: 20, monthlyQuota: 60, resetsAt: RESET, now, days });
    expect(f.kind).toBe('runs_out');
    if (f.kind !== 'runs_out') return;
    expect(f.pace).toMatchObject({ perDay: 40, basis: 'today', today: 40 });
    expect(f.pace.monthPerDay).toBeCloseTo(40 / 23.625, 3);
    expect(f.runsOutOn).toBe('2025-03-25');
    expect(forecastTone(f)).toBe('bad');
    const text = forecastSentence(f, RESET);
    expect(text).toMatch(
      /^At today's pace \(40 lookups a day\) the quota runs out tomorrow, \d+ days before the reset \(month average 1\.7 lookups a day\)\.$/,
    );
    // The month's average alone would have said it lasts: the old forecast.
    expect(forecastQuota({ used: 40, remaining: 20, monthlyQuota: 60, resetsAt: RESET, now }).kind).toBe('lasts');
  });

  it("uses the last 7 days' average over the days since lookups began, when faster than today", () => {
    const now = new Date('2025-03-20T09:00:00Z');
    // Began 3 days ago (the 18th): 30 + 30 + 0 today = 20 a day over 3 days, not 60/7.
    const days = [
      { day: '2025-03-18', lookups: 30 },
      { day: '2025-03-19', lookups: 30 },
    ];
    const f = forecastQuota({ used: 60, remaining: 940, monthlyQuota: 1000, resetsAt: RESET, now, days });
    expect(f.kind !== 'unknown' && f.pace).toMatchObject({ basis: 'last_7_days', perDay: 20, today: 0 });
    expect(f.kind).toBe('lasts');
    expect(forecastTone(f)).toBe('ok');
    // Amber: runs out before the reset, more than two days away.
    const amber = forecastQuota({ used: 60, remaining: 200, monthlyQuota: 260, resetsAt: RESET, now, days });
    expect([amber.kind, forecastTone(amber)]).toEqual(['runs_out', 'warn']);
  });

  it('counts at least one day, so the first hours of a month do not extrapolate wildly', () => {
    const f = forecastQuota({ used: 30, remaining: 970, monthlyQuota: 1000, resetsAt: RESET, now: new Date('2025-03-01T02:00:00Z') });
    expect(f.kind).toBe('lasts');
    if (f.kind === 'lasts') expect(f.pace.perDay).toBe(30);
  });

  it('handles exhausted, idle and unknown quotas', () => {
    const now = new Date('2025-03-15T12:00:00Z');
    expect(forecastQuota({ used: 1000, remaining: 0, monthlyQuota: 1000, resetsAt: RESET, now }).kind).toBe('exhausted');
    expect(forecastQuota({ used: 0, remaining: 1000, monthlyQuota: 1000, resetsAt: RESET, now }).kind).toBe('idle');
    expect(forecastQuota({ used: null, remaining: null, monthlyQuota: null, resetsAt: RESET, now }).kind).toBe('unknown');
    expect(forecastQuota({ used: 1, remaining: 1, monthlyQuota: 2, resetsAt: 'soon', now })).toEqual({
      kind: 'unknown',
      reason: 'resets_at is not a time: soon',
    });
  });

  it('trusts the remaining count of /v1 when the local tally of used is behind', () => {
    const f = forecastQuota({ used: 0, remaining: 900, monthlyQuota: 1000, resetsAt: RESET, now: new Date('2025-03-11T00:00:00Z') });
    expect(f).toMatchObject({ kind: 'lasts', pace: { perDay: 10 } });
  });

  it('finds the month start in UTC', () => {
    expect(monthStartUtc(new Date('2025-03-31T23:30:00-05:00')).toISOString()).toBe('2025-04-01T00:00:00.000Z');
  });
});

describe('daily usage series for the chart', () => {
  it('has every day of the month, zero for quiet past days and nothing for days to come', () => {
    const s = dailySeries(
      {
        object: 'usage_daily',
        month: '2025-02',
        monthly_quota: 280,
        days: [
          { day: '2025-02-01', lookups: 7 },
          { day: '2025-02-03', lookups: 2 },
        ],
      },
      new Date('2025-02-04T10:00:00Z'),
    );
    expect(s.x).toHaveLength(28);
    expect(s.x[0]).toBe(Date.UTC(2025, 1, 1) / 1000);
    expect(s.lookups.slice(0, 6)).toEqual([7, 0, 2, 0, null, null]);
    expect(s.evenPace).toBe(10);
  });

  it('refuses a month it cannot read, naming the field', () => {
    expect(() => dailySeries({ object: 'usage_daily', month: 'March', monthly_quota: null, days: [] })).toThrow(
      /usage.month must be YYYY-MM/,
    );
  });
});
