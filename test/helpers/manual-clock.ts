/**
 * A clock the test moves by hand, for logic that takes `now` and `schedule` ports: what runs
 * when is decided by advance(), never by the machine's speed.
 */
export class ManualClock {
  private t = 0;
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private nextId = 1;

  now = (): number => this.t;

  schedule = (fn: () => void, ms: number): (() => void) => {
    const id = this.nextId++;
    this.timers.push({ at: this.t + ms, fn, id });
    return () => {
      this.timers = this.timers.filter((x) => x.id !== id);
    };
  };

  /** Move time on, running what falls due in order (including what those schedule). */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
    }
    this.t = end;
  }

  pendingTimers(): number {
    return this.timers.length;
  }
}
