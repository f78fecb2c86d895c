/**
 * Test-only fault injection, fixed when the instance starts. A seeded PRNG makes the same
 * sequence of score lookups meet the same faults on every run.
 */
import { seededRng, type Rng } from './prng.js';
import type { EmulatorFaults } from './types.js';

export type InjectedFault = 'rate_limit' | 'error503' | 'error500' | 'malformed' | 'hang' | undefined;

export interface FaultPlan {
  fault: InjectedFault;
  /** Add unknown fields/values to a 200 answer. */
  unknownFields: boolean;
  delayMs: number;
}

const SHARES = ['rateLimitShare', 'error503Share', 'error500Share', 'malformedShare', 'hangShare', 'unknownFieldsShare'] as const;

export function validateFaults(f: EmulatorFaults): void {
  for (const k of SHARES) {
    const v = f[k];
    if (v !== undefined && !(v >= 0 && v <= 1)) throw new Error(`faults.${k} must be a number from 0 to 1`);
  }
  const exclusive = (f.rateLimitShare ?? 0) + (f.error503Share ?? 0) + (f.error500Share ?? 0) + (f.malformedShare ?? 0) + (f.hangShare ?? 0);
  if (exclusive > 1 + 1e-9)
    throw new Error('faults: rateLimitShare + error503Share + error500Share + malformedShare + hangShare must not exceed 1');
  for (const k of ['latencyMs', 'hangMs', 'retryAfterSeconds'] as const) {
    const v = f[k];
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw new Error(`faults.${k} must be a non-negative number`);
  }
}

export class FaultInjector {
  private readonly rng: Rng;

  constructor(private readonly f: EmulatorFaults = {}) {
    validateFaults(f);
    this.rng = seededRng(f.seed ?? 1);
  }

  /** Two draws per score lookup, always, so one fault's share does not shift the others. */
  plan(): FaultPlan {
    const f = this.f;
    const u = this.rng.next();
    const v = this.rng.next();
    let edge = 0;
    let fault: InjectedFault;
    for (const [share, name] of [
      [f.rateLimitShare, 'rate_limit'],
      [f.error503Share, 'error503'],
      [f.error500Share, 'error500'],
      [f.malformedShare, 'malformed'],
      [f.hangShare, 'hang'],
    ] as const) {
      edge += share ?? 0;
      if (fault === undefined && u < edge) fault = name;
    }
    const delayMs = (f.latencyMs ?? 0) + (fault === 'hang' ? (f.hangMs ?? 30_000) : 0);
    return { fault, unknownFields: v < (f.unknownFieldsShare ?? 0), delayMs };
  }

  get retryAfterSeconds(): number | undefined {
    return this.f.retryAfterSeconds;
  }
}
