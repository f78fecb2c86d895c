/**
 * When does the monthly quota run out at the current pace? The pace is this month's
 * average: live lookups so far divided by the days elapsed since the 1st, 00:00 UTC
 * (at least one day, so the first hours of a month do not extrapolate wildly).
 */

export interface ForecastInput {
  used: number | null;
  remaining: number | null;
  monthlyQuota: number | null;
  /** When the quota resets (the 1st of next month, 00:00 UTC). */
  resetsAt: string;
  now: Date;
}

export type QuotaForecast =
  | { kind: 'unknown'; reason: string }
  | { kind: 'exhausted'; perDay: number }
  | { kind: 'idle'; perDay: 0 }
  /** Runs out before the reset, on `runsOutOn` (UTC day, YYYY-MM-DD). */
  | { kind: 'runs_out'; perDay: number; runsOutAt: string; runsOutOn: string; daysBeforeReset: number }
  /** Lasts to the reset; `projectedUsed` lookups used by then. */
  | { kind: 'lasts'; perDay: number; projectedUsed: number; projectedShare: number };

const DAY_MS = 86_400_000;

export function monthStartUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function forecastQuota(input: ForecastInput): QuotaForecast {
  const { used, remaining, monthlyQuota, now } = input;
  if (used === null || remaining === null || monthlyQuota === null) return { kind: 'unknown', reason: 'no live quota figures yet' };
  const resetsAt = Date.parse(input.resetsAt);
  if (Number.isNaN(resetsAt)) return { kind: 'unknown', reason: `resets_at is not a time: ${input.resetsAt}` };
  if (!(used >= 0 && remaining >= 0 && monthlyQuota >= 0)) return { kind: 'unknown', reason: 'quota figures are negative' };

  // /v1's remaining is the account's own count (every key, every worker): trust it over a local tally.
  const spent = Math.max(used, monthlyQuota - remaining);
  const elapsedDays = Math.max(1, (now.getTime() - monthStartUtc(now).getTime()) / DAY_MS);
  const perDay = spent / elapsedDays;
  if (remaining <= 0) return { kind: 'exhausted', perDay };
  if (perDay === 0) return { kind: 'idle', perDay: 0 };

  const runsOut = now.getTime() + (remaining / perDay) * DAY_MS;
  if (runsOut < resetsAt) {
    const at = new Date(runsOut);
    return {
      kind: 'runs_out',
      perDay,
      runsOutAt: at.toISOString(),
      runsOutOn: at.toISOString().slice(0, 10),
      daysBeforeReset: Math.floor((resetsAt - runsOut) / DAY_MS),
    };
  }
  const projectedUsed = Math.round(spent + (perDay * Math.max(0, resetsAt - now.getTime())) / DAY_MS);
  return { kind: 'lasts', perDay, projectedUsed, projectedShare: monthlyQuota > 0 ? projectedUsed / monthlyQuota : 0 };
}
