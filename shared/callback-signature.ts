import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Callback signatures: `X-Carrier-Screen-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.
 * The timestamp is inside the signed text so a captured request cannot be replayed later
 * (receivers reject a `t` outside their tolerance).
 */

export const SIGNATURE_HEADER = 'X-Carrier-Screen-Signature';
export const DELIVERY_HEADER = 'X-Carrier-Screen-Delivery';
export const EVENT_HEADER = 'X-Carrier-Screen-Event';

/** Default tolerance for `t`, in seconds, either side of the receiver's clock. */
export const DEFAULT_TOLERANCE_SEC = 300;

function hmacHex(secret: string, t: number, body: string | Buffer): string {
  const h = createHmac('sha256', secret);
  h.update(`${t}.`);
  h.update(body);
  return h.digest('hex');
}

/** The header value for `body` signed at unix time `t` (seconds). */
export function signCallback(secret: string, body: string | Buffer, t: number): string {
  if (!Number.isSafeInteger(t) || t < 0) throw new RangeError('t must be a whole number of seconds since 1970');
  return `t=${t},v1=${hmacHex(secret, t, body)}`;
}

export type VerifyResult = { ok: true; t: number } | { ok: false; reason: 'malformed' | 'expired' | 'mismatch' };

/**
 * Check a signature header against the raw body as received (not a re-serialised object).
 * Any `v1=` entry may match (a sender rotating secrets may send several); compared in
 * constant time.
 */
export function verifyCallback(
  secret: string,
  header: string | undefined | null,
  body: string | Buffer,
  opts: { toleranceSec?: number; now?: () => Date } = {},
): VerifyResult {
  if (typeof header !== 'string' || header.length > 4096) return { ok: false, reason: 'malformed' };
  let t: number | undefined;
  const sigs: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === 't' && /^\d{1,12}$/.test(v)) t = Number(v);
    else if (k === 'v1' && /^[0-9a-f]{64}$/.test(v)) sigs.push(v);
  }
  if (t === undefined || sigs.length === 0) return { ok: false, reason: 'malformed' };
  const tolerance = opts.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  const nowSec = Math.floor((opts.now?.() ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSec - t) > tolerance) return { ok: false, reason: 'expired' };
  const expected = Buffer.from(hmacHex(secret, t, body), 'hex');
  let match = false;
  for (const s of sigs) {
    // Both are 32 bytes (the regex above fixes the length), so timingSafeEqual cannot throw.
    if (timingSafeEqual(expected, Buffer.from(s, 'hex'))) match = true;
  }
  return match ? { ok: true, t } : { ok: false, reason: 'mismatch' };
}
