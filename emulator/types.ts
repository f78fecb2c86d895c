/** Public types of the emulator's programmatic API (re-exported by emulator/index.ts). */

export type EmulatorMode = 'sandbox' | 'live';

export interface EmulatorAccount {
  id: string;
  name: string;
  /** Keys of this account, `svc_test_…` and/or `svc_live_…`; all share the account's limits. */
  keys: string[];
  monthlyQuota?: number;
  ratePerMinute?: number;
}

export interface EmulatorFaults {
  /** Share (0–1) of score lookups answered 500 `internal_error`. */
  error500Share?: number;
  /** Share answered 503 `scoring_unavailable`. */
  error503Share?: number;
  /** Share answered 200 with a truncated (unparseable) JSON body. */
  malformedShare?: number;
  /** Delay added to every score lookup, in ms. */
  latencyMs?: number;
  /** Share of score lookups whose answer is delayed by hangMs (default 30 000). */
  hangShare?: number;
  hangMs?: number;
  /** Share of 200 answers with unknown fields and enum values added. */
  unknownFieldsShare?: number;
  /** Share answered 429 `rate_limit_exceeded` although the window has room. */
  rateLimitShare?: number;
  /** Retry-After value (seconds) on every `rate_limit_exceeded`, instead of the window's rest. */
  retryAfterSeconds?: number;
  /**
   * Share answered with `customError`: what the spec allows or leaves open, e.g. a 404 whose
   * code is not carrier_not_found, or a 429 that is neither rate_limit_exceeded nor
   * monthly_quota_exceeded.
   */
  customErrorShare?: number;
  customError?: { status: number; code: string; retryAfterSeconds?: number };
  /** Retry-After (seconds) sent with every 503, injected or the sandbox outage. */
  error503RetryAfterSeconds?: number;
  /** Share answered 200 with well-formed JSON that is not a score (an object of another kind). */
  notScoreShare?: number;
  /** Share of 200 answers whose carrier omits mc_number, legal_name and dba_name ("string or null"). */
  omitNullableShare?: number;
  /**
   * Share of 200 score answers sent slowly: headers at once, then the body `dripBytes` bytes
   * (default 8) every `dripIntervalMs` (default 100). Counted as a lookup like any 200: the
   * service did the work, however slowly it sends it.
   */
  dripShare?: number;
  dripBytes?: number;
  dripIntervalMs?: number;
  /**
   * Share of 200 score answers whose display fields drift from the document (decision untouched):
   * `data_confidence` 1.0000001, a numeric `facts[].value`, a basic-format `calculated_at`,
   * `flags: null`.
   */
  driftShare?: number;
  /** Headers set on every score answer after the real ones (e.g. an out-of-range `x-ratelimit-reset`). */
  headerOverrides?: Record<string, string>;
  /** PRNG seed (default 1): same seed and same request order give the same faults. */
  seed?: number;
}

export interface EmulatorOptions {
  mode?: EmulatorMode;
  host?: string;
  port?: number;
  /** Accounts besides the demo account. */
  accounts?: EmulatorAccount[];
  /** Requests per rate window for accounts without their own (default sandbox 120, live 60). */
  ratePerMinute?: number;
  /** Length of the rate-limit window in ms (default 60 000). */
  rateWindowMs?: number;
  /**
   * Where the rate windows start, in ms after the wall-clock window boundary (default 0: on the
   * minute). A real service's windows need not start on the minute; X-RateLimit-Reset says where.
   */
  rateWindowOffsetMs?: number;
  /** Monthly quota for accounts without their own (default 1000). */
  monthlyQuota?: number;
  now?: () => Date;
  faults?: EmulatorFaults;
  /**
   * Live mode: carriers whose record gets worse from a date on (emulator/dated-changes.ts).
   * Unset: a deterministic ~3% of carriers change on a day 1–30 days after the instance
   * started; `[]`: nothing changes.
   */
  datedChanges?: Array<{ dot: string; from: string; change: 'authority_revoked' | 'insurance_lapsed' | 'safety_downgrade' }>;
  logger?: boolean;
}

export interface EmulatorStats {
  /** Requests to /v1/svc-score, whatever their answer. */
  scoreRequests: number;
  /** 200 score answers (the ones that count against a live quota). */
  scoreLookups: number;
  /** 200 score answers per DOT number (MC lookups count under the carrier's DOT). */
  byDot: Record<string, number>;
  /** 429 `rate_limit_exceeded` answers, real or injected, on any route. */
  rateLimited: number;
  /** 429 `monthly_quota_exceeded` answers. */
  quotaRejected: number;
  /** Score lookups answered 5xx (real or injected) or with a malformed body. */
  errors: number;
}

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:4010, without /v1 */
  baseUrl: string;
  port: number;
  mode: EmulatorMode;
  /** The demo account's keys. */
  keys: { sandbox: string; live: string };
  stats(): EmulatorStats;
  resetStats(): void;
  close(): Promise<void>;
}
