/**
 * The /v1 Carrier Risk Scoring Service contract, as the spec's tables say it.
 *
 * Enumerations are open (`'approved' | … | (string & {})`): the spec may add values within /v1
 * at any time, so code must handle an unknown value by showing its name or message.
 * The parsers check required fields and their types, keep every unknown field and never
 * reject an unknown enum value.
 */

export type OpenEnum<T extends string> = T | (string & {});

/** The known values of /v1's open enumerations (its spec's tables); the types are read from them. */
export const KNOWN_DECISIONS = ['approved', 'review', 'high_risk', 'rejected'] as const;
export const KNOWN_GRADES = ['A', 'B', 'C', 'D', 'F'] as const;
export const KNOWN_SEVERITIES = ['critical', 'review', 'medium', 'low'] as const;

export type Decision = OpenEnum<(typeof KNOWN_DECISIONS)[number]>;
export type Grade = OpenEnum<(typeof KNOWN_GRADES)[number]>;
export type Severity = OpenEnum<(typeof KNOWN_SEVERITIES)[number]>;
export type Flag = OpenEnum<'dual_authority' | 'new_authority'>;
export type KnockoutCode = OpenEnum<'AUTHORITY_INACTIVE' | 'NO_BIPD'>;
export type ReasonArea = OpenEnum<'Safety & Roadside' | 'Authority & Compliance' | 'Insurance & Financial'>;
export type SvcErrorCode = OpenEnum<
  'missing_api_key' | 'carrier_not_found' | 'rate_limit_exceeded' | 'monthly_quota_exceeded' | 'scoring_unavailable'
>;
export type SvcEnvironment = OpenEnum<'live' | 'sandbox'>;

export interface SvcFact {
  label: string;
  /** A string in the display form. A number that drifted in is kept as sent (parseScore warns): show it with String(). */
  value: string;
  [extra: string]: unknown;
}

export interface SvcReason {
  check: string;
  area: ReasonArea;
  severity: Severity;
  detail: string;
  facts: SvcFact[];
  [extra: string]: unknown;
}

export interface SvcKnockoutReason {
  code: KnockoutCode;
  message: string;
  [extra: string]: unknown;
}

export interface SvcCarrier {
  dot_number: string;
  mc_number: string | null;
  legal_name: string | null;
  dba_name: string | null;
  [extra: string]: unknown;
}

export interface SvcChecks {
  total: number;
  triggered: number;
  passed: number;
  not_checked: number;
  [extra: string]: unknown;
}

/** Score object (`object` = `svc_score`). `checks` and `flags` are absent in the shortened form. */
export interface SvcScore {
  object: 'svc_score';
  livemode: boolean;
  carrier: SvcCarrier;
  score: number;
  grade: Grade;
  decision: Decision;
  verdict: string | null;
  needs_manual_review: boolean;
  knockout: { triggered: boolean; reasons: SvcKnockoutReason[]; [extra: string]: unknown };
  reasons: SvcReason[];
  checks?: SvcChecks;
  /** Null or odd items are kept as sent (a display field; parseScore warns). */
  flags?: Flag[] | null;
  data_confidence: number | null;
  model_version: string;
  calculated_at: string;
  [extra: string]: unknown;
}

/** Usage object (`object` = `usage`). */
export interface SvcUsage {
  object: 'usage';
  livemode: boolean;
  account: { id: string; name: string; [extra: string]: unknown };
  live_requests_used: number;
  monthly_quota: number;
  remaining: number;
  rate_limit_per_minute: number;
  [extra: string]: unknown;
}

/** Error body: `{ error: { code, message, type? } }`. */
export interface SvcErrorBody {
  error: { code: SvcErrorCode; message: string; type?: string; param?: string; [extra: string]: unknown };
}

/** Response header names (lower case, as Node presents them). */
export const SvcHeader = {
  requestId: 'x-request-id',
  environment: 'svc-environment',
  apiVersion: 'svc-api-version',
  rateLimitLimit: 'x-ratelimit-limit',
  rateLimitRemaining: 'x-ratelimit-remaining',
  rateLimitReset: 'x-ratelimit-reset',
  quotaLimit: 'x-quota-limit',
  quotaRemaining: 'x-quota-remaining',
  retryAfter: 'retry-after',
} as const;

export const SVC_KEY_PREFIX = { sandbox: 'svc_test_', live: 'svc_live_' } as const;

/** The environment a key belongs to, by its prefix; undefined when it has neither. */
export function keyEnvironment(key: string): 'sandbox' | 'live' | undefined {
  if (key.startsWith(SVC_KEY_PREFIX.sandbox)) return 'sandbox';
  if (key.startsWith(SVC_KEY_PREFIX.live)) return 'live';
  return undefined;
}

/** A body that is not what the contract says. `path` names the offending field. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Field checkers: each throws a ContractError naming the path. */
const need = {
  obj(o: Obj, key: string, path: string): Obj {
    const v = o[key];
    if (!isObj(v)) throw new ContractError(`${path}${key} must be an object, got ${describe(v)}`, path + key);
    return v;
  },
  str(o: Obj, key: string, path: string): string {
    const v = o[key];
    if (typeof v !== 'string') throw new ContractError(`${path}${key} must be a string, got ${describe(v)}`, path + key);
    return v;
  },
  /** "string or null": an omitted field (the spec does not show whether it may be) reads as null. */
  strOrNull(o: Obj, key: string, path: string): string | null {
    if (o[key] === undefined) o[key] = null;
    const v = o[key];
    if (v !== null && typeof v !== 'string')
      throw new ContractError(`${path}${key} must be a string or null, got ${describe(v)}`, path + key);
    return v;
  },
  bool(o: Obj, key: string, path: string): boolean {
    const v = o[key];
    if (typeof v !== 'boolean') throw new ContractError(`${path}${key} must be a boolean, got ${describe(v)}`, path + key);
    return v;
  },
  int(o: Obj, key: string, path: string): number {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw new ContractError(`${path}${key} must be an integer, got ${describe(v)}`, path + key);
    return v;
  },
  numOrNull(o: Obj, key: string, path: string): number | null {
    if (o[key] === undefined) o[key] = null;
    const v = o[key];
    if (v !== null && (typeof v !== 'number' || !Number.isFinite(v)))
      throw new ContractError(`${path}${key} must be a number or null, got ${describe(v)}`, path + key);
    return v;
  },
  arr(o: Obj, key: string, path: string): unknown[] {
    const v = o[key];
    if (!Array.isArray(v)) throw new ContractError(`${path}${key} must be an array, got ${describe(v)}`, path + key);
    return v;
  },
  objects(o: Obj, key: string, path: string): Obj[] {
    return need.arr(o, key, path).map((item, i) => {
      if (!isObj(item)) throw new ContractError(`${path}${key}[${i}] must be an object`, `${path}${key}[${i}]`);
      return item;
    });
  },
};

/** A display field that did not fit the contract but was kept as it came. */
export type ContractWarning = (w: ContractError) => void;

/**
 * Check that `body` is a score object and return it typed. Unknown fields stay on the
 * returned object (it *is* the input, not a copy), unknown enum values are accepted, and a
 * "string or null" / "number or null" field that is missing is filled in as null.
 *
 * A lookup is paid, so only what decides the action, the carrier and what is stored with a
 * decision is checked strictly: `object`, `livemode`, `carrier.dot_number`/`mc_number`,
 * `decision`, `needs_manual_review`, `knockout.triggered`, `score`, `grade`, `model_version`,
 * and the shape of the arrays shown (`reasons`, `facts`, `knockout.reasons`). Display values
 * that drift (`data_confidence` out of 0–1, a `facts[].value` that is a number, a
 * `calculated_at` that is not extended ISO 8601, `flags: null`, odd `checks` counts, a names
 * or text field of another type) are kept as they came, each reported to `warn`.
 */
export function parseScore(body: unknown, warn: ContractWarning = () => {}): SvcScore {
  // A display check: a miss is reported, the value kept.
  const soft = (check: () => void): void => {
    try {
      check();
    } catch (e) {
      if (!(e instanceof ContractError)) throw e;
      warn(e);
    }
  };
  if (!isObj(body)) throw new ContractError(`score body must be an object, got ${describe(body)}`, '');
  if (body.object !== 'svc_score') throw new ContractError(`object must be "svc_score", got ${JSON.stringify(body.object)}`, 'object');
  need.bool(body, 'livemode', '');
  const carrier = need.obj(body, 'carrier', '');
  need.str(carrier, 'dot_number', 'carrier.');
  need.strOrNull(carrier, 'mc_number', 'carrier.');
  soft(() => need.strOrNull(carrier, 'legal_name', 'carrier.'));
  soft(() => need.strOrNull(carrier, 'dba_name', 'carrier.'));
  const score = need.int(body, 'score', '');
  if (score < 0 || score > 100) throw new ContractError(`score must be 0 to 100, got ${score}`, 'score');
  need.str(body, 'grade', '');
  need.str(body, 'decision', '');
  soft(() => need.strOrNull(body, 'verdict', ''));
  need.bool(body, 'needs_manual_review', '');
  const knockout = need.obj(body, 'knockout', '');
  need.bool(knockout, 'triggered', 'knockout.');
  need.objects(knockout, 'reasons', 'knockout.').forEach((r, i) => {
    soft(() => need.str(r, 'code', `knockout.reasons[${i}].`));
    soft(() => need.str(r, 'message', `knockout.reasons[${i}].`));
  });
  need.objects(body, 'reasons', '').forEach((r, i) => {
    const p = `reasons[${i}].`;
    for (const k of ['check', 'area', 'severity', 'detail']) soft(() => need.str(r, k, p));
    need.objects(r, 'facts', p).forEach((f, j) => {
      soft(() => need.str(f, 'label', `${p}facts[${j}].`));
      soft(() => need.str(f, 'value', `${p}facts[${j}].`));
    });
  });
  if (body.checks !== undefined)
    soft(() => {
      const checks = need.obj(body, 'checks', '');
      for (const k of ['total', 'triggered', 'passed', 'not_checked']) soft(() => need.int(checks, k, 'checks.'));
    });
  if (body.flags !== undefined)
    soft(() =>
      need.arr(body, 'flags', '').forEach((f, i) => {
        if (typeof f !== 'string') throw new ContractError(`flags[${i}] must be a string`, `flags[${i}]`);
      }),
    );
  const confidence = need.numOrNull(body, 'data_confidence', '');
  if (confidence !== null && (confidence < 0 || confidence > 1))
    warn(new ContractError(`data_confidence must be 0 to 1, got ${confidence}`, 'data_confidence'));
  need.str(body, 'model_version', '');
  const at = need.str(body, 'calculated_at', '');
  if (!ISO_8601_EXTENDED.test(at) || Number.isNaN(Date.parse(at)))
    warn(new ContractError(`calculated_at is not an extended ISO 8601 timestamp: ${at}`, 'calculated_at'));
  return body as SvcScore;
}

/** `2026-11-26T10:15:00Z`, with fractions and an offset allowed: the form the spec's examples use. */
const ISO_8601_EXTENDED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** Check that `body` is a usage object. */
export function parseUsage(body: unknown): SvcUsage {
  if (!isObj(body)) throw new ContractError(`usage body must be an object, got ${describe(body)}`, '');
  if (body.object !== 'usage') throw new ContractError(`object must be "usage", got ${JSON.stringify(body.object)}`, 'object');
  need.bool(body, 'livemode', '');
  const account = need.obj(body, 'account', '');
  need.str(account, 'id', 'account.');
  need.str(account, 'name', 'account.');
  for (const k of ['live_requests_used', 'monthly_quota', 'remaining', 'rate_limit_per_minute']) need.int(body, k, '');
  return body as SvcUsage;
}

/** The error object of an error body, or undefined when the body is not one. */
export function parseErrorBody(body: unknown): SvcErrorBody['error'] | undefined {
  if (!isObj(body) || !isObj(body.error)) return undefined;
  const e = body.error;
  if (typeof e.code !== 'string' || typeof e.message !== 'string') return undefined;
  return e as SvcErrorBody['error'];
}
