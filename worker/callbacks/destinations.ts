/**
 * Each callback destination (an origin: scheme, host, port) on its own, in one sender process:
 * how many attempts it has on the wire, and a circuit breaker. A destination that keeps
 * failing is left alone for a cool-down (doubling, capped), then tried with one attempt
 * (half-open); a success closes it. So a hung or failing receiver holds only its own slots and
 * never delays another receiver's callbacks (docs/callbacks.md "Delivery").
 */

export interface DestinationLimits {
  /** Attempts on the wire to one destination at once (default 2). */
  perDestination: number;
  /** Consecutive failures that open the breaker (default 5). */
  failuresToOpen: number;
  /** First cool-down; doubles each time it opens again without a success (default 5 s)… */
  coolDownMs: number;
  /** …up to this (default 5 min). */
  maxCoolDownMs: number;
}

export const DEFAULT_DESTINATION_LIMITS: DestinationLimits = {
  perDestination: 2,
  failuresToOpen: 5,
  coolDownMs: 5_000,
  maxCoolDownMs: 300_000,
};

interface Destination {
  inFlight: number;
  failures: number;
  /** Times opened since the last success. */
  opens: number;
  openUntil: number;
}

export class Destinations {
  readonly #d = new Map<string, Destination>();

  constructor(private readonly limits: DestinationLimits) {}

  #of(dest: string): Destination {
    let d = this.#d.get(dest);
    if (!d) this.#d.set(dest, (d = { inFlight: 0, failures: 0, opens: 0, openUntil: 0 }));
    return d;
  }

  /** May one more attempt to `dest` start now? */
  mayStart(dest: string, nowMs: number): boolean {
    const d = this.#d.get(dest);
    if (!d) return true;
    if (d.failures >= this.limits.failuresToOpen) {
      if (nowMs < d.openUntil) return false;
      return d.inFlight === 0; // half-open: one probe
    }
    return d.inFlight < this.limits.perDestination;
  }

  started(dest: string): void {
    this.#of(dest).inFlight++;
  }

  /** An attempt ended: `ok` for a 2xx, false for a failure of the destination. */
  finished(dest: string, ok: boolean, nowMs: number): void {
    const d = this.#of(dest);
    d.inFlight = Math.max(0, d.inFlight - 1);
    if (ok) {
      Object.assign(d, { failures: 0, opens: 0, openUntil: 0 });
      if (d.inFlight === 0) this.#d.delete(dest);
      return;
    }
    d.failures++;
    // Attempts already on the wire when it opened do not open it again (nor double the cool-down).
    if (d.failures >= this.limits.failuresToOpen && nowMs >= d.openUntil) {
      d.opens++;
      d.openUntil = nowMs + Math.min(this.limits.maxCoolDownMs, this.limits.coolDownMs * 2 ** Math.min(d.opens - 1, 20));
    }
  }

  /** An attempt ended without saying anything about the destination (e.g. refused before sending). */
  released(dest: string): void {
    const d = this.#d.get(dest);
    if (!d) return;
    d.inFlight = Math.max(0, d.inFlight - 1);
    if (d.inFlight === 0 && d.failures === 0) this.#d.delete(dest);
  }

  /** Destinations that may not start an attempt now (the claim query skips their rows). */
  busy(nowMs: number): string[] {
    return [...this.#d.keys()].filter((k) => !this.mayStart(k, nowMs));
  }

  /**
   * How many attempts may start now, per destination: `room.of[d]` for those this process
   * knows, `room.others` for any other (a claim's `room`, worker/store/record.ts); `skip` those
   * with none (the claim leaves their rows out).
   */
  room(nowMs: number): { skip: string[]; room: { of: Record<string, number>; others: number } } {
    const skip: string[] = [];
    const of: Record<string, number> = {};
    for (const [k, d] of this.#d) {
      // Half-open: one probe, once nothing is on the wire; else the slots left.
      const n =
        d.failures >= this.limits.failuresToOpen
          ? nowMs < d.openUntil || d.inFlight > 0
            ? 0
            : 1
          : this.limits.perDestination - d.inFlight;
      of[k] = Math.max(0, n);
      if (of[k] === 0) skip.push(k);
    }
    return { skip, room: { of, others: this.limits.perDestination } };
  }

  /** Is the breaker of `dest` open now (for log lines)? */
  isOpen(dest: string, nowMs: number): boolean {
    const d = this.#d.get(dest);
    return d !== undefined && d.failures >= this.limits.failuresToOpen && nowMs < d.openUntil;
  }
}
