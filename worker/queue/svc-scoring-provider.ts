import type { Logger } from 'pino';
import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { ScreeningError } from '../../shared/screening.js';
import type { SvcClient } from '../svc/client.js';
import { SvcError, screeningErrorCode } from '../svc/errors.js';
import { environmentMismatch } from '../svc/key-check.js';
import type { LimitsSnapshot } from '../svc/limits.js';
import { backoffMs, type BackoffOptions } from '../svc/retry.js';
import type { Env } from '../store/index.js';
import type { QuotaGate } from './quota-gate.js';
import { LONGEST_RATE_LIMIT_WAIT_MS, type ProviderAnswer, type ProviderStop, type ScoringProvider } from './scoring-provider.js';
import type { ServiceState } from './service-state.js';

/**
 * The /v1 Carrier Risk Scoring Service as a ScoringProvider (scoring-provider.ts): the client
 * (worker/svc/), which /v1 failure becomes which hold reason or retry, what its answers' headers
 * say (rate window, quota figures, pacing), the shared service state (reachable, key refused,
 * wrong environment) and the hold-off a long Retry-After sets. The pipeline sees none of it.
 */

export interface SvcScoringProviderDeps {
  env: Env;
  client: Pick<SvcClient, 'getScore'>;
  /** The monthly quota: the figures each answer carries, and its closing on a 429 monthly_quota_exceeded. */
  gate: Pick<QuotaGate, 'observe' | 'closeUntilMonthEnd'>;
  service: Pick<ServiceState, 'callsBlocked' | 'reachable' | 'unreachable' | 'keyRejected' | 'limits' | 'holdOff' | 'environmentMismatch'>;
  now: () => Date;
  logger: Logger;
  /** Called after every live answer that carried quota figures. */
  onQuota?: () => void;
  /** Make the whole queue wait (queue.rateLimit). */
  pauseQueue?: (ms: number) => Promise<void>;
  /** Pause until the rate window resets when fewer requests than this are left in it. */
  paceBelow?: number;
  /** The waits between a rate-limited screening's runs (the client's schedule; default DEFAULT_BACKOFF). */
  backoff?: BackoffOptions;
}

function errorOf(e: SvcError): ScreeningError {
  return { code: screeningErrorCode(e), message: e.message, request_id: e.requestId };
}

export class SvcScoringProvider implements ScoringProvider {
  constructor(private readonly d: SvcScoringProviderDeps) {}

  async blocked(): Promise<{ stopped: ProviderStop | null; holdOff: ProviderStop | null }> {
    // The service asked us (Retry-After) to stay away longer than a screening can wait, or it
    // answered from the wrong environment, or refused the key: no call.
    const { holdOffUntil, envMismatch, keyRejected } = await this.d.service.callsBlocked();
    const stopped: ProviderStop | null = envMismatch
      ? {
          cause: 'service_error',
          error: { code: 'environment_mismatch', message: `/v1 calls stopped: ${envMismatch}`, request_id: null },
          rescreenWaits: true,
        }
      : keyRejected
        ? // A re-screen still asks: the key may work again before the usage poll says so.
          {
            cause: 'service_error',
            error: { code: 'key_rejected', message: `/v1 calls stopped until a key check passes: ${keyRejected}`, request_id: null },
            rescreenWaits: false,
          }
        : null;
    const holdOff: ProviderStop | null =
      holdOffUntil === null
        ? null
        : {
            cause: 'scoring_unavailable',
            error: {
              code: 'rate_limit_exceeded',
              message: `/v1 asked for no calls until ${new Date(holdOffUntil).toISOString()} (Retry-After)`,
              request_id: null,
            },
            rescreenWaits: true,
          };
    return { stopped, holdOff };
  }

  retryWait(retry: number, retryAfterMs: number): number {
    return backoffMs(retry, retryAfterMs, Math.random, this.d.backoff);
  }

  /** One /v1 lookup; `bookkeeping` gets the recording of a score answer's headers, for the caller to wait for after finishing. */
  async lookup(
    query: CarrierQuery,
    o: { maxAttempts: number; bookkeeping: Array<Promise<unknown>> },
  ): Promise<ProviderAnswer & { attempts: number }> {
    const { client, env, gate } = this.d;
    this.d.logger.debug({ query }, '/v1 lookup');
    try {
      const res = await client.getScore(query, { maxAttempts: o.maxAttempts });
      const attempts = res.attempts;
      // A score from the other environment is not ours to act on or cache (livemode on every score).
      const mismatch = environmentMismatch(env, res.body.livemode, res.limits.environment, false);
      if (mismatch) {
        await this.d.service.environmentMismatch(mismatch);
        this.d.logger.error({ mismatch }, '/v1 answered from the wrong environment: calls stopped');
        return {
          kind: 'failed',
          cause: 'service_error',
          error: { code: 'environment_mismatch', message: mismatch, request_id: res.limits.requestId },
          attempts,
        };
      }
      const recorded = Promise.all([this.#observe(res.limits), this.d.service.reachable()]);
      recorded.catch(() => {}); // handled: the caller waits for it (and fails on it) after finishing
      o.bookkeeping.push(recorded);
      return { kind: 'score', score: res.body, attempts };
    } catch (e) {
      if (!(e instanceof SvcError)) throw e;
      const attempts = e.attempts;
      // On a 429 the Retry-After it carries is the wait; its window headers are not.
      if (e.limits) await this.#observe(e.limits, e.kind !== 'rate_limit');
      // Asked (429 or 5xx) to stay away longer than a screening may wait: nobody calls /v1
      // before then (capped, see ServiceState), and this screening ends on its fallback.
      if (e.retryAfterMs !== null && e.retryAfterMs > LONGEST_RATE_LIMIT_WAIT_MS)
        await this.d.service.holdOff(this.d.now().getTime() + e.retryAfterMs);
      const error = errorOf(e);
      switch (e.kind) {
        case 'not_found':
          await this.d.service.reachable();
          return { kind: 'not_found', error, attempts };
        case 'rate_limit':
          // After a time-out (a lookup that may have been counted) no re-run: ≤ 2 requests per screening.
          if (e.afterTimeout) return { kind: 'failed', cause: 'scoring_unavailable', error, attempts };
          return { kind: 'rate_limited', retryAfterMs: e.retryAfterMs ?? 1_000, error, attempts };
        case 'quota_exhausted':
          await gate.closeUntilMonthEnd();
          this.d.onQuota?.();
          return { kind: 'failed', cause: 'quota_exhausted', error, attempts };
        case 'authentication':
          await this.d.service.keyRejected(e.message);
          return { kind: 'failed', cause: 'service_error', error, attempts };
        case 'unavailable':
        case 'server':
        case 'network':
        case 'invalid_response':
          await this.d.service.unreachable(e.message);
          return { kind: 'failed', cause: 'scoring_unavailable', error, attempts };
        default:
          // bad_request and codes we do not know: not a guess at the carrier, a person looks.
          await this.d.service.reachable();
          return { kind: 'failed', cause: 'service_error', error, attempts };
      }
    }
  }

  /** What an answer's headers say, recorded in Redis; independent writes, so in parallel. */
  async #observe(l: LimitsSnapshot, pace = true): Promise<void> {
    const writes: Array<Promise<void>> = [this.d.service.limits(l)];
    // Steady-state pacing: with fewer requests left in this window than may be in flight,
    // wait for the window to reset rather than collect 429s.
    if (pace && l.rateRemaining !== null && l.rateResetAt !== null && this.d.pauseQueue && l.rateRemaining < (this.d.paceBelow ?? 1)) {
      const ms = Date.parse(l.rateResetAt) - this.d.now().getTime();
      if (ms > 0) writes.push(this.d.pauseQueue(Math.min(ms, 60_000)));
    }
    if (l.quotaRemaining !== null) writes.push(this.d.gate.observe(l.quotaLimit, l.quotaRemaining).then(() => this.d.onQuota?.()));
    await Promise.all(writes);
  }
}
