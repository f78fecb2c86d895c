import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { Priority, ScreeningError } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import type { NoScoreCause } from '../../shared/tender-rules.js';
import type { Admission } from './quota-gate.js';

/**
 * The seam between the screening pipeline and whoever scores a carrier (ARCHITECTURE.md, "The
 * scoring-provider seam"). The pipeline (screening-pipeline.ts) asks a ScoringProvider for a
 * carrier's score and gets an answer in the pipeline's own words: a score, "not found", or
 * why there is none. Everything that belongs to one service (its client, which of its errors
 * is which hold reason, whether to retry, its hold-off, its reachability and key state) stays
 * behind the provider. Today's one provider is /v1: `svc-scoring-provider.ts`.
 *
 * The small interfaces below (gate, coalescer, event feed) are what the pipeline needs of the
 * Redis-backed classes, so the pipeline can be driven with in-memory ones
 * (test/unit/pipeline.test.ts).
 */

/** The longest Retry-After a queued screening waits out (the queue's maximumRateLimitDelay). */
export const LONGEST_RATE_LIMIT_WAIT_MS = 60_000;

/** What one lookup came to, in the pipeline's words. */
export type ProviderAnswer =
  | { kind: 'score'; score: SvcScore }
  /** The provider says it has no such carrier: block (tender-rules.ts). */
  | { kind: 'not_found'; error: ScreeningError }
  /** No score, and why (the hold reason, or a stale score's fallback). */
  | { kind: 'failed'; cause: Exclude<NoScoreCause, 'carrier_not_found'>; error: ScreeningError }
  /** Asked to come back after `retryAfterMs`: a queued screening may wait and ask again. */
  | { kind: 'rate_limited'; retryAfterMs: number; error: ScreeningError };

/** Why no lookup may be made now: the screening ends on its fallback, for `cause`. */
export interface ProviderStop {
  cause: Exclude<NoScoreCause, 'carrier_not_found'>;
  error: ScreeningError;
  /** A re-screen after an outage waits too (false: it still asks, e.g. to find out a key works again). */
  rescreenWaits: boolean;
}

export interface ScoringProvider {
  /**
   * What stops lookups now, checked before any: `stopped` until a person or a start fixes it
   * (wrong environment, refused key), `holdOff` while the provider asked for no calls for longer
   * than a screening can wait.
   */
  blocked(): Promise<{ stopped: ProviderStop | null; holdOff: ProviderStop | null }>;
  /**
   * One lookup of at most `maxAttempts` requests. Resolves with the answer and the requests
   * made; rejects only on what is not the provider's failure (a bug, the store). What the
   * answer's bookkeeping costs after (quota and rate figures) goes into `bookkeeping`, for the
   * caller to wait for once the screening is finished.
   */
  lookup(
    query: CarrierQuery,
    o: { maxAttempts: number; bookkeeping: Array<Promise<unknown>> },
  ): Promise<ProviderAnswer & { attempts: number }>;
  /**
   * The wait before a rate-limited screening asks again, as retry number `retry` (1 = the first),
   * at least the provider's `retryAfterMs`.
   */
  retryWait(retry: number, retryAfterMs: number): number;
}

/** The pipeline's view of the monthly-quota gate (quota-gate.ts). */
export interface QuotaAdmission {
  /** Take one lookup from the quota, or say why not. */
  admit(priority: Priority): Promise<Admission>;
}

/** The pipeline's view of the lookup coalescer (lookup-coalescer.ts): one lookup per carrier. */
export interface LookupSharing<T extends { at: number }> {
  run(key: string, notBefore: number, lookup: () => Promise<T>, shareForMs: (t: T) => number): Promise<T>;
}
