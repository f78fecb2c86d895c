import type { UsageFigures, UsageSnapshot } from '../types.js';
import { checkEnv, iso, monthDays, usageFigure } from '../arg-checks.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { statement } from './sql.js';

export type { UsageRepo } from '../screening-repos.js';
import type { UsageRepo } from '../screening-repos.js';

export interface PgUsageOptions {
  /** The clock for "today" and for the timestamps it writes when the caller gives none. */
  now: () => Date;
}

// One statement: the increment is made on the row as committed, locked, so two hosts lose no count.
const recordLookup = statement<{ env: string; day: string }>(
  'usage_record_lookup',
  `INSERT INTO daily_lookups (env, day, lookups) VALUES (@env, @day, 1)
   ON CONFLICT (env, day) DO UPDATE SET lookups = daily_lookups.lookups + 1`,
);
const lookupsBetween = statement<{ env: string; from: string; to: string }>(
  'usage_lookups_between',
  'SELECT day, lookups FROM daily_lookups WHERE env = @env AND day >= @from AND day <= @to',
);
type UsageParams = {
  env: string;
  monthly_quota: number | null;
  used: number | null;
  remaining: number | null;
  rate_limit_per_minute: number | null;
  at: string;
};
const putUsage = statement<UsageParams>(
  'usage_put_snapshot',
  `INSERT INTO usage_snapshots (env, monthly_quota, used, remaining, rate_limit_per_minute, at)
   VALUES (@env, @monthly_quota, @used, @remaining, @rate_limit_per_minute, @at)
   ON CONFLICT (env) DO UPDATE SET monthly_quota = excluded.monthly_quota, used = excluded.used,
     remaining = excluded.remaining, rate_limit_per_minute = excluded.rate_limit_per_minute, at = excluded.at
   WHERE excluded.at >= usage_snapshots.at`,
);
const getUsage = statement<{ env: string }>(
  'usage_latest_snapshot',
  'SELECT monthly_quota, used, remaining, rate_limit_per_minute, at FROM usage_snapshots WHERE env = @env',
);

export function pgUsageOf(x: PgExecutor, opts: PgUsageOptions): AsyncRepo<UsageRepo> {
  const { now } = opts;
  return {
    async recordLookup(env, at) {
      checkEnv(env);
      await recordLookup.run(x, { env, day: iso(at ?? now(), 'at').slice(0, 10) });
    },

    async dailyLookups(env, month) {
      checkEnv(env);
      const days = monthDays(month, now().toISOString().slice(0, 10));
      if (days.length === 0) return [];
      const rows = await lookupsBetween.all<{ day: string; lookups: number }>(x, { env, from: days[0]!, to: days[days.length - 1]! });
      const counts = new Map(rows.map((r) => [r.day, r.lookups]));
      return days.map((day) => ({ day, lookups: counts.get(day) ?? 0 }));
    },

    async putUsageSnapshot(env, u: UsageFigures, at) {
      checkEnv(env);
      await putUsage.run(x, {
        env,
        monthly_quota: usageFigure(u?.monthly_quota, 'monthly_quota'),
        used: usageFigure(u?.used, 'used'),
        remaining: usageFigure(u?.remaining, 'remaining'),
        rate_limit_per_minute: usageFigure(u?.rate_limit_per_minute, 'rate_limit_per_minute'),
        at: iso(at ?? now(), 'at'),
      });
    },

    async latestUsageSnapshot(env): Promise<UsageSnapshot | undefined> {
      checkEnv(env);
      return getUsage.get<UsageSnapshot>(x, { env });
    },
  };
}
