/** Monthly quota per account: successful live score lookups per UTC calendar month. */

export class MonthlyQuotaLedger {
  private readonly used = new Map<string, { month: string; used: number }>();

  constructor(private readonly now: () => Date) {}

  private month(): string {
    return this.now().toISOString().slice(0, 7); // YYYY-MM, UTC
  }

  /** Lookups used this month (a new month starts at 0: the reset on the 1st, 00:00 UTC). */
  usedThisMonth(accountId: string): number {
    const entry = this.used.get(accountId);
    return entry && entry.month === this.month() ? entry.used : 0;
  }

  remaining(accountId: string, quota: number): number {
    return Math.max(0, quota - this.usedThisMonth(accountId));
  }

  consume(accountId: string): void {
    this.used.set(accountId, { month: this.month(), used: this.usedThisMonth(accountId) + 1 });
  }
}
