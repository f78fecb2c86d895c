import type { HealthCheck, ScoreRequest } from './recording-emulator.js';
import type { ScreeningLookups } from './store-inspect.js';

/**
 * The /v1 retry rule as the service sees it, read from the recording emulator's log and the
 * record. A carrier's score requests before its screening was done (`completed_at`) are the
 * screening's own lookup, held to the spec's rule strictly. A request after that is no retry:
 * the lookup had ended. The only thing that may ask again for a done screening is the outage
 * re-screen (docs/decisions.md, "After an outage"), and it is held to what the product promises:
 * only for a hold made for /v1 or the quota, only once /v1 answered again, at most two requests a
 * try with the client's backoff between them, tries at least a minute apart (and at least as far
 * apart as the hold had waited), and each try marked in the record (`rescreened_at`).
 */

/** The worker's /v1 client: 10 s time-out, waits max(Retry-After, 1 s·2^(n−1) capped at 30 s) + jitter, five attempts. */
export const CLIENT_TIMEOUT_MS = 10_000;
const BASE_MS = 1_000;
const CAP_MS = 30_000;
const MAX_ATTEMPTS = 5;
/** The outage re-screen: the holds it takes, requests per try, the least wait between tries. */
const RESCREEN_REASONS = ['scoring_unavailable', 'quota_exhausted', 'quota_reserved'];
const RESCREEN_ATTEMPTS = 2;
const RESCREEN_RETRY_MS = 60_000;
/** Timers may fire a millisecond early; arrival times are taken on another clock read. */
const SLACK_MS = 20;

export const timedOut = (r: ScoreRequest): boolean => r.answeredAt === undefined || r.answeredAt - r.at >= CLIENT_TIMEOUT_MS;
export const retryable = (r: ScoreRequest): boolean => timedOut(r) || (r.status !== undefined && r.status >= 500);
export const rateLimited = (r: ScoreRequest): boolean => !timedOut(r) && r.status === 429 && r.code === 'rate_limit_exceeded';
/** An answer that tells the worker /v1 is there: not a 5xx, a malformed body or a time-out. */
const answered = (r: ScoreRequest): boolean => !timedOut(r) && r.status !== undefined && r.status < 500 && !r.malformed;

export interface RetryRuleReport {
  /** Breaks of the rule, one line each. */
  breaks: string[];
  /** The outage re-screens seen: screenings looked up again, tries, requests. */
  rescreens: { screenings: number; tries: number; requests: number };
}

/**
 * `screenings`: one per carrier, read after the worker stopped (its jobs finished first, so the
 * record has every try the log shows). `cutShort`: the stop's deadline ended work in flight, so
 * the last try may lack its mark.
 */
export function checkRetryRule(
  requests: readonly ScoreRequest[],
  health: readonly HealthCheck[],
  screenings: readonly ScreeningLookups[],
  o: { cutShort: boolean },
): RetryRuleReport {
  const breaks: string[] = [];
  const rescreens = { screenings: 0, tries: 0, requests: 0 };
  const byCarrier = new Map<string, ScoreRequest[]>();
  for (const r of requests) byCarrier.set(r.carrier, [...(byCarrier.get(r.carrier) ?? []), r]);
  const screeningOf = new Map<string, ScreeningLookups>();
  for (const s of screenings) {
    if (screeningOf.has(s.carrier)) throw new Error(`${s.carrier} has two screenings: their lookups cannot be told apart`);
    screeningOf.set(s.carrier, s);
  }
  // When /v1 answered: a score request's answer that was not a failure, or a health check.
  const answers = [
    ...requests.filter(answered).map((r) => r.answeredAt!),
    ...health.filter((h) => h.status !== undefined && h.status < 500).map((h) => h.answeredAt!),
  ].sort((a, b) => a - b);
  const answeredBetween = (from: number, to: number): boolean => answers.some((t) => t > from && t < to);

  for (const [carrier, rs] of byCarrier) {
    const s = screeningOf.get(carrier);
    if (!s?.completed_at) {
      breaks.push(`${carrier}: asked for without a screening done for it`);
      continue;
    }
    const done = Date.parse(s.completed_at);
    const own = rs.filter((r) => r.at < done);
    const after = rs.filter((r) => r.at >= done);
    breaks.push(...ownLookupBreaks(carrier, own));
    if (after.length === 0) continue;
    rescreens.screenings++;
    rescreens.requests += after.length;
    if (!RESCREEN_REASONS.includes(s.held_for ?? ''))
      breaks.push(`${carrier}: asked again after its screening ended ${s.held_for ? `held for ${s.held_for}` : 'without a hold'}`);
    const created = Date.parse(s.created_at);
    // The previous lookup's last request: the own lookup's, then each try's.
    let prev: ScoreRequest | undefined = own.at(-1);
    let run = 0; // requests in the current try
    let tryStart = 0;
    for (const r of after) {
      const gap = prev ? r.at - prev.at : Number.POSITIVE_INFINITY;
      if (run > 0 && gap < RESCREEN_RETRY_MS) {
        // Sooner than a new try may start: a retry inside this one.
        run++;
        if (run > RESCREEN_ATTEMPTS) breaks.push(`${carrier}: request ${run} in one re-screen`);
        if (!retryable(prev!))
          breaks.push(
            `${carrier}: re-screen asked again after a final ${prev!.status}${prev!.malformed ? ' (malformed)' : ''} ${prev!.code ?? ''}`,
          );
        const min = Math.min(CAP_MS, BASE_MS * 2 ** (run - 2));
        if (gap < min - SLACK_MS) breaks.push(`${carrier}: re-screen retry ${run - 1} after ${gap} ms, less than ${min} ms`);
      } else {
        // A new try: after the wait the record enforces, and only once /v1 answered since the last lookup.
        if (run > 0 && prev) {
          const least = Math.max(RESCREEN_RETRY_MS, prev.at - created);
          if (gap < least - SLACK_MS)
            breaks.push(`${carrier}: re-screen try ${rescreens.tries + 1} ${gap} ms after the last, less than ${least} ms`);
        }
        if (prev && rateLimited(prev) && r.at < prev.answeredAt! + (prev.retryAfterSec ?? 0) * 1000 - SLACK_MS)
          breaks.push(`${carrier}: re-screen ${r.at - prev.answeredAt!} ms after a 429 with Retry-After ${prev.retryAfterSec} s`);
        if (!answeredBetween(prev?.at ?? created, r.at)) breaks.push(`${carrier}: re-screen before /v1 answered again`);
        rescreens.tries++;
        run = 1;
        tryStart = r.at;
      }
      prev = r;
    }
    // Each try is the recovery path's: it marks the screening when the try ends.
    const marked = s.rescreened_at === null ? Number.NEGATIVE_INFINITY : Date.parse(s.rescreened_at);
    if (marked < tryStart && !o.cutShort)
      breaks.push(`${carrier}: asked again after it was done, but the record shows no re-screen since (rescreened_at ${s.rescreened_at})`);
  }
  return { breaks, rescreens };
}

/** The spec's rule inside one screening's own lookup (job re-runs after a 429 included). */
function ownLookupBreaks(carrier: string, rs: readonly ScoreRequest[]): string[] {
  const breaks: string[] = [];
  let run = 0; // attempts in the current lookup
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i]!;
    const next = rs[i + 1];
    run++;
    if (run > MAX_ATTEMPTS) breaks.push(`${carrier}: attempt ${run} in one lookup`);
    if (!next) continue;
    const gap = next.at - r.at;
    if (rateLimited(r)) {
      // The job waits Retry-After before it asks again (a new lookup).
      const wait = (r.retryAfterSec ?? 0) * 1000;
      if (next.at < r.answeredAt! + wait - SLACK_MS)
        breaks.push(`${carrier}: asked again ${next.at - r.answeredAt!} ms after a 429 with Retry-After ${r.retryAfterSec} s`);
      run = 0;
    } else if (retryable(r)) {
      const min = Math.min(CAP_MS, BASE_MS * 2 ** (run - 1));
      if (gap < min - SLACK_MS) breaks.push(`${carrier}: retry ${run} after ${gap} ms, less than ${min} ms`);
    } else {
      // 2xx (a score, or a malformed body), 404 and other 4xx: not retried, the screening ends.
      breaks.push(`${carrier}: asked again after a final ${r.status}${r.malformed ? ' (malformed)' : ''} ${r.code ?? ''}`);
    }
  }
  return breaks;
}
