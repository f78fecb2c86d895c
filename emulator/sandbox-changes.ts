/**
 * Sandbox test controls (emulator extension, not part of /v1): a TMS testing its change handling
 * needs a sandbox carrier whose score changes. `POST /v1/sandbox/carriers/:dot/change` with
 * `{"change": "authority_revoked" | "insurance_lapsed" | "safety_downgrade" | "reset"}` makes the
 * carrier's next and later scores show that change (the live dataset's dated changes), until reset.
 */
import { applyDatedChange, DATED_CHANGE_KINDS, type DatedChangeKind } from './dated-changes.js';
import type { CarrierProfile } from './score-object.js';

export const SANDBOX_CHANGES = [...DATED_CHANGE_KINDS, 'reset'] as const;
export type SandboxChange = (typeof SANDBOX_CHANGES)[number];

export function isSandboxChange(v: unknown): v is SandboxChange {
  return typeof v === 'string' && (SANDBOX_CHANGES as readonly string[]).includes(v);
}

export class SandboxChanges {
  readonly #byDot = new Map<string, DatedChangeKind>();

  set(dot: string, change: SandboxChange): void {
    if (change === 'reset') this.#byDot.delete(dot);
    else this.#byDot.set(dot, change);
  }

  /** The profile as the sandbox shows it now. */
  apply(profile: CarrierProfile): CarrierProfile {
    const change = this.#byDot.get(profile.carrier.dot_number);
    return change ? applyDatedChange(profile, change) : profile;
  }

  current(dot: string): DatedChangeKind | null {
    return this.#byDot.get(dot) ?? null;
  }
}
