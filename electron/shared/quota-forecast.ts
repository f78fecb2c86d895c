import { formatCount, formatResetUtc, plural } from './status-problems.js';

/**
 * When does the monthly quota run out? At the *recent* pace — the faster of today's lookups and
 * the last 7 days' daily average — because a month's average hides a spike: 40 of a 60-lookup
 * quota spent today on a worker installed this month averages 1.7 a day, yet at today's pace
 * it runs out tomorrow. The month's average is given beside it.
 */

export interface ForecastInput {
  used: number | null;
  remaining: number | null;
  monthlyQuota: number | null;
  /** When the quota resets (the 1st of next month, 00:00 UTC). */
  resetsAt: string;
  /** Live lookups per UTC day this month (GET /usage/daily); absent: only the month's average is known. */
  days?: ReadonlyArray<{ day: string; lookups: number }>;
  now: Date;
}

export interface Pace {
  /** The pace the forecast uses: the faster of today and the last 7 days. */
  perDay: number;
  /** Which one that is. */
  basis: 'today' | 'last_7_days' | 'month';
  today: number | null;
  last7PerDay: number | null;
  monthPerDay: number;
}

export type QuotaForecast =
  | { kind: 'unknown'; reason: string }
  | { kind: 'exhausted'; pace: Pace }
  | { kind: 'idle'; pace: Pace }
  /** Runs out before the reset, at `runsOutAt` (`runsOutOn`: UTC day, YYYY-MM-DD). */
  | {
      kind: 'runs_out';
      pace: Pace;
      runsOutAt: string;
      runsOutOn: string;
      daysBeforeReset: number;
      daysLeft: number;
      calendarDaysAway: number;
    }
  /** Lasts to the reset; `projectedUsed` lookups used by then. */
  | { kind: 'lasts'; pace: Pace; projectedUsed: number; projectedShare: number };

const DAY_MS = 86_400_000;
/** Runs out within this many days: red, not amber. */
export const FORECAST_RED_DAYS = 2;

export function monthStartUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

const dayOf = (t: number): string => new Date(t).toISOString().slice(0, 10);

/** Today's lookups, the last 7 days' average (over the days since lookups began, at most 7) and the month's. */
export function recentPace(spent: number, days: ForecastInput['days'], now: Date): Pace {
  const monthPerDay = spent / Math.max(1, (now.getTime() - monthStartUtc(now).getTime()) / DAY_MS);
  if (!days) return { perDay: monthPerDay, basis: 'month', today: null, last7PerDay: null, monthPerDay };
  const byDay = new Map(days.map((d) => [d.day, d.lookups]));
  const today = byDay.get(dayOf(now.getTime())) ?? 0;
  const week = Array.from({ length: 7 }, (_, i) => dayOf(now.getTime() - i * DAY_MS));
  const first = [...byDay.entries()]
    .filter(([, n]) => n > 0)
    .map(([d]) => d)
    .sort()[0];
  // A worker installed 3 days ago has 3 days of history, not 7.
  const span =
    first === undefined
      ? 7
      : Math.min(7, Math.floor((Date.parse(`${dayOf(now.getTime())}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY_MS) + 1);
  const last7PerDay = week.reduce((n, d) => n + (byDay.get(d) ?? 0), 0) / Math.max(1, span);
  const perDay = Math.max(today, last7PerDay);
  return { perDay, basis: today > 0 && today >= last7PerDay ? 'today' : 'last_7_days', today, last7PerDay, monthPerDay };
}

export function forecastQuota(input: ForecastInput): QuotaForecast {
  const { used, remaining, monthlyQuota, now } = input;
  if (used === null || remaining === null || monthlyQuota === null) return { kind: 'unknown', reason: 'no live quota figures yet' };
  const resetsAt = Date.parse(input.resetsAt);
  if (Number.isNaN(resetsAt)) return { kind: 'unknown', reason: `resets_at is not a time: ${input.resetsAt}` };
  if (!(used >= 0 && remaining >= 0 && monthlyQuota >= 0)) return { kind: 'unknown', reason: 'quota figures are negative' };

  // /v1's remaining is the account's own count (every key, every worker): trust it over a local tally.
  const spent = Math.max(used, monthlyQuota - remaining);
  const pace = recentPace(spent, input.days, now);
  if (remaining <= 0) return { kind: 'exhausted', pace };
  if (pace.perDay === 0) return { kind: 'idle', pace };

  const daysLeft = remaining / pace.perDay;
  const runsOut = now.getTime() + daysLeft * DAY_MS;
  if (runsOut < resetsAt) {
    const at = new Date(runsOut);
    // 0: today, 1: tomorrow (UTC days, as the quota counts them).
    const calendarDaysAway = Math.round(
      (Date.parse(`${dayOf(runsOut)}T00:00:00Z`) - Date.parse(`${dayOf(now.getTime())}T00:00:00Z`)) / DAY_MS,
    );
    return {
      kind: 'runs_out',
      pace,
      runsOutAt: at.toISOString(),
      runsOutOn: dayOf(runsOut),
      daysBeforeReset: Math.floor((resetsAt - runsOut) / DAY_MS),
      daysLeft,
      calendarDaysAway,
    };
  }
  const projectedUsed = Math.round(spent + (pace.perDay * Math.max(0, resetsAt - now.getTime())) / DAY_MS);
  return { kind: 'lasts', pace, projectedUsed, projectedShare: monthlyQuota > 0 ? projectedUsed / monthlyQuota : 0 };
}

/** ok, warn (runs out before the reset) or bad (used up, or runs out within two days). */
export function forecastTone(f: QuotaForecast): 'ok' | 'warn' | 'bad' | 'muted' {
  if (f.kind === 'exhausted') return 'bad';
  if (f.kind === 'runs_out') return f.daysLeft <= FORECAST_RED_DAYS ? 'bad' : 'warn';
  if (f.kind === 'lasts') return 'ok';
  return 'muted';
}

const rate = (perDay: number): string => `${perDay < 10 ? perDay.toFixed(1) : formatCount(Math.round(perDay))} lookups a day`;
const BASIS: Record<Pace['basis'], string> = { today: "today's pace", last_7_days: "the last 7 days' pace", month: "this month's pace" };
const DAY_NAMES = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** One sentence for the Quota view and the notification: the pace used, when it runs out, the month's average beside. */
export function forecastSentence(f: QuotaForecast, resetsAt: string): string {
  const beside = (p: Pace): string => (p.basis === 'month' ? '' : ` (month average ${rate(p.monthPerDay)})`);
  switch (f.kind) {
    case 'unknown':
      return `No forecast: ${f.reason}.`;
    case 'exhausted':
      return `The quota is used up. Live lookups resume ${formatResetUtc(resetsAt)}.`;
    case 'idle':
      return 'No live lookups lately: the quota is not being spent.';
    case 'runs_out': {
      const when =
        f.calendarDaysAway <= 0 ? 'today' : f.calendarDaysAway === 1 ? 'tomorrow' : `on ${DAY_NAMES.format(new Date(f.runsOutAt))} (UTC)`;
      const before = f.daysBeforeReset === 0 ? 'just before the reset' : `${plural(f.daysBeforeReset, 'day')} before the reset`;
      return `At ${BASIS[f.pace.basis]} (${rate(f.pace.perDay)}) the quota runs out ${when}, ${before}${beside(f.pace)}.`;
    }
    case 'lasts':
      return `At ${BASIS[f.pace.basis]} (${rate(f.pace.perDay)}) the quota lasts until the reset: about ${formatCount(f.projectedUsed)} used (${Math.round(f.projectedShare * 100)} %)${beside(f.pace)}.`;
  }
}
