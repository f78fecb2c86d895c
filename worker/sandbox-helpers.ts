import type { Decision, Screening, ScreeningRequest } from '../shared/screening.js';
import type { SandboxHelpers } from './screener-types.js';
import { SvcError } from './svc/index.js';
import type { Actor } from './tokens/intake-tokens.js';

/**
 * The sandbox's test helpers (docs/api.md, "Sandbox test helpers"): make a carrier's score
 * change and have it detected now, and lapse a standing decision, so a TMS can test its change
 * and decision handling end to end. Built only for a sandbox key; the intake also asks for an
 * admin token.
 */

/** The /v1 service has no sandbox controls (only the reference emulator does), or refused the change. */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly param?: string,
  ) {
    super(message);
  }
}

export function createSandboxHelpers(d: {
  svcBaseUrl: string;
  sandboxChange: (dot: string, change: string) => Promise<unknown>;
  submit: (req: ScreeningRequest) => Promise<Screening>;
  lapse: (id: string, actor: Actor, reason: string) => Promise<Decision>;
}): SandboxHelpers {
  return {
    async changeCarrier(dot, change, checkNow) {
      try {
        await d.sandboxChange(dot, change);
      } catch (e) {
        if (!(e instanceof SvcError)) throw e;
        // The emulator's own 400/404 name the field at fault; anything else means no controls there.
        if (e.status === 400 || (e.status === 404 && e.code === 'carrier_not_found'))
          throw new SandboxControlError(e.message, e.status, e.status === 400 ? 'change' : 'dot');
        throw new SandboxControlError(
          `the /v1 service at ${d.svcBaseUrl} offers no sandbox test controls (only the reference emulator does): ${e.message}`,
          e.status,
        );
      }
      // Refresh, background: the one path a watch re-screen takes, so change detection runs as it would.
      const screening = checkNow ? await d.submit({ query: { dot_number: dot }, priority: 'background', refresh: true }) : null;
      return { change, screening };
    },
    lapseDecision: (id, actor) => d.lapse(id, actor, `lapsed by ${actor.by} with the sandbox test helper`),
  };
}
