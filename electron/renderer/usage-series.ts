import type { DailyUsage } from '../../shared/screening.js';

/** Every day of the usage month (1st to last), lookups per day; past days the worker did not list count 0. */
export interface DailySeries {
  /** Unix seconds at 00:00 UTC of each day (uPlot's x values). */
  x: number[];
  /** null for days still to come (nothing to show yet, not zero). */
  lookups: Array<number | null>;
  /** The even pace that spends exactly the quota by month end, per day; null without a quota. */
  evenPace: number | null;
}

export function dailySeries(usage: DailyUsage, now?: Date): DailySeries {
  const m = /^(\d{4})-(\d{2})$/.exec(usage.month);
  if (!m) throw new TypeError(`usage.month must be YYYY-MM, got ${JSON.stringify(usage.month)}`);
  const year = Number(m[1]);
  const month = Number(m[2]) - 1;
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const byDay = new Map<string, number>();
  for (const d of usage.days) byDay.set(d.day.slice(0, 10), (byDay.get(d.day.slice(0, 10)) ?? 0) + d.lookups);
  const x: number[] = [];
  const lookups: Array<number | null> = [];
  const today = now ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) : Infinity;
  for (let day = 1; day <= daysInMonth; day++) {
    const t = Date.UTC(year, month, day);
    x.push(t / 1000);
    lookups.push(t > today ? null : (byDay.get(new Date(t).toISOString().slice(0, 10)) ?? 0));
  }
  return { x, lookups, evenPace: usage.monthly_quota !== null ? usage.monthly_quota / daysInMonth : null };
}
