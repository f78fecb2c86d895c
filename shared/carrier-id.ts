/**
 * Carrier identifiers as the intake accepts them: exactly one of a DOT number (1–8 digits;
 * a JSON integer is accepted too) or an MC docket number (`MC` + digits; `mc123`, `MC-123`
 * and `MC 123` normalise to `MC123`). Leading zeros are dropped (`0001234` → `1234`); 0 is no
 * carrier.
 */

export type CarrierQuery = { dot_number: string } | { mc_number: string };

export class InvalidIdentifierError extends Error {
  override readonly name = 'InvalidIdentifierError';
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

const DOT_RE = /^\d{1,8}$/;
const MC_RE = /^MC[\s-]?(\d{1,8})$/i;

/**
 * The one normal form of a number, used in the /v1 request, the cache key, the coalescing key
 * and the watch list alike: "0001234" and "1234" are one carrier, "MC-001234", "mc 1234" and
 * "MC1234" one docket. Lenient on purpose (for numbers read back from /v1 or the store); the
 * intake checks the shape first with normalizeDot / normalizeMc.
 */
export function canonicalDot(dot: string): string {
  return dot.trim().replace(/^0+(?=\d)/, '');
}

export function canonicalMc(mc: string): string {
  const m = /^MC[\s-]?0*(\d+)$/i.exec(mc.trim());
  return m ? `MC${m[1] === '' ? '0' : m[1]}` : mc.trim().toUpperCase();
}

export function normalizeDot(value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new InvalidIdentifierError('dot_number must be a non-negative whole number', 'dot_number');
    value = String(value);
  }
  if (typeof value !== 'string') throw new InvalidIdentifierError('dot_number must be a string of 1 to 8 digits', 'dot_number');
  const v = value.trim();
  if (!DOT_RE.test(v)) throw new InvalidIdentifierError('dot_number must be 1 to 8 digits', 'dot_number');
  const n = canonicalDot(v);
  if (n === '0') throw new InvalidIdentifierError('dot_number must not be 0', 'dot_number');
  return n;
}

export function normalizeMc(value: unknown): string {
  if (typeof value !== 'string') throw new InvalidIdentifierError('mc_number must be a string like "MC123456"', 'mc_number');
  const m = MC_RE.exec(value.trim());
  if (!m) throw new InvalidIdentifierError('mc_number must be "MC" followed by 1 to 8 digits', 'mc_number');
  const n = canonicalMc(`MC${m[1]}`);
  if (n === 'MC0') throw new InvalidIdentifierError('mc_number must not be MC0', 'mc_number');
  return n;
}

/** Exactly one identifier, normalised. `input` is any object (e.g. a parsed JSON body). */
export function parseCarrierQuery(input: { dot_number?: unknown; mc_number?: unknown }): CarrierQuery {
  const hasDot = input.dot_number !== undefined && input.dot_number !== null;
  const hasMc = input.mc_number !== undefined && input.mc_number !== null;
  if (hasDot && hasMc) throw new InvalidIdentifierError('send exactly one of dot_number or mc_number, not both', 'dot_number');
  if (!hasDot && !hasMc) throw new InvalidIdentifierError('one of dot_number or mc_number is required', 'dot_number');
  return hasDot ? { dot_number: normalizeDot(input.dot_number) } : { mc_number: normalizeMc(input.mc_number) };
}

/** A stable key for one carrier query, e.g. `dot:1000003` or `mc:MC1000003` (normal forms). */
export function queryKey(q: CarrierQuery): string {
  return 'dot_number' in q ? `dot:${canonicalDot(q.dot_number)}` : `mc:${canonicalMc(q.mc_number)}`;
}
