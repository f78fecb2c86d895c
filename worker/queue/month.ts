/** The next 1st of the month, 00:00 UTC, after `now`: when the monthly quota resets. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** 'YYYY-MM' of `now` in UTC. */
export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}
