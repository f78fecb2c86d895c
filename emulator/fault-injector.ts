/**
 * Test-only fault injection, fixed when the instance starts. A seeded PRNG makes the same
 * sequence of score lookups meet the same faults on every run.
 */
import { seededRng, type Rng } from './prng.js';
import type { EmulatorFaults } from './types.js';

export type InjectedFault =
  'rate_limit' | 'error503' | 'error500' | 'malformed' | 'hang' | 'custom_error' | 'not_score' | 'drip' | undefined;

export interface FaultPlan {
  fault: InjectedFault;
  /** Add unknown fields/values to a 200 answer. */
  unknownFields: boolean;
  /** Leave the carrier's nullable fields out of a 200 answer. */
  omitNullable: boolean;
  /** Let display fields of a 200 answer drift from the document's types. */
  drift: boolean;
  delayMs: number;
}

const SHARES = [
  'rateLimitShare',
  'error503Share',
  'error500Share',
  'malformedShare',
  'hangShare',
  'unknownFieldsShare',
  'customErrorShare',
  'notScoreShare',
  'omitNullableShare',
  'dripShare',
  'driftShare',
] as const;

/** The faults that replace the answer; at most one per lookup, so their shares add up to ≤ 1. */
const EXCLUSIVE = [
  ['rateLimitShare', 'rate_limit'],
  ['error503Share', 'error503'],
  ['error500Share', 'error500'],
  ['malformedShare', 'malformed'],
  ['hangShare', 'hang'],
  ['customErrorShare', 'custom_error'],
  ['notScoreShare', 'not_score'],
  ['dripShare', 'drip'],
] as const;

export function validateFaults(f: EmulatorFaults): void {
  for (const k of SHARES) {
    const v = f[k];
    if (v !== undefined && !(v >= 0 && v <= 1)) throw new Error(`faults.${k} must be a number from 0 to 1`);
  }
  const exclusive = EXCLUSIVE.reduce((sum, [k]) => sum + (f[k] ?? 0), 0);
  if (exclusive > 1 + 1e-9) throw new Error(`faults: ${EXCLUSIVE.map(([k]) => k).join(' + ')} must not exceed 1`);
  if ((f.customErrorShare ?? 0) > 0) {
    const c = f.customError;
    if (!c || !Number.isInteger(c.status) || c.status < 400 || c.status > 599 || typeof c.code !== 'string' || c.code === '')
      throw new Error('faults.customError must be { status: 400–599, code: a non-empty string } when customErrorShare is set');
  }
  for (const k of ['latencyMs', 'hangMs', 'retryAfterSeconds', 'error503RetryAfterSeconds', 'dripIntervalMs'] as const) {
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
    for (const [share, name] of EXCLUSIVE) {
      edge += f[share] ?? 0;
      if (fault === undefined && u < edge) fault = name;
    }
    const delayMs = (f.latencyMs ?? 0) + (fault === 'hang' ? (f.hangMs ?? 30_000) : 0);
    // Both answer-shaping faults read the second draw, so adding one never shifts other faults.
    return {
      fault,
      unknownFields: v < (f.unknownFieldsShare ?? 0),
      omitNullable: v < (f.omitNullableShare ?? 0),
      drift: v < (f.driftShare ?? 0),
      delayMs,
    };
  }

  get retryAfterSeconds(): number | undefined {
    return this.f.retryAfterSeconds;
  }

  get error503RetryAfterSeconds(): number | undefined {
    return this.f.error503RetryAfterSeconds;
  }

  /** How a dripped body is sent: bytes per chunk, ms between chunks. */
  get drip(): { bytes: number; intervalMs: number } {
    return { bytes: Math.max(1, Math.floor(this.f.dripBytes ?? 8)), intervalMs: this.f.dripIntervalMs ?? 100 };
  }

  get headerOverrides(): Record<string, string> {
    return this.f.headerOverrides ?? {};
  }

  get customError(): { status: number; code: string; retryAfterSeconds?: number } | undefined {
    return this.f.customError;
  }
}
