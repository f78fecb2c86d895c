import { randomBytesPooled as randomBytes } from '../../shared/random-pool.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower case, no padding: ids stay URL- and filename-safe. */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** `bytes` random bytes as base32: 16 bytes give 26 characters, 25 give 40. */
export function randomBase32(bytes: number): string {
  return base32(randomBytes(bytes));
}

/** The same 32 characters in ASCII order, so a time written with them sorts as text. */
const SORTED = '234567abcdefghijklmnopqrstuvwxyz';

/** Milliseconds since 1970 as 10 characters (50 bits: good until the year 37 000) that sort by time. */
function timePart(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = SORTED[ms % 32]! + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * 26 characters a–z, 2–7: the creation time (10, sorting by time) and 80 random bits (16).
 * Ids made one after another land next to each other in the primary-key index, so a commit of
 * many new rows writes one index page, not one per row (random ids scatter over the whole index).
 */
export function orderedId(now = Date.now()): string {
  return timePart(now) + randomBase32(10);
}

/** `scr_` + 26 characters (time, then 80 random bits). */
export function newScreeningId(): string {
  return `scr_${orderedId()}`;
}

/** `rev_` + 26 characters (time, then 80 random bits). */
export function newReviewId(): string {
  return `rev_${orderedId()}`;
}

/** `cb_` + 26 characters (time, then 80 random bits): a callback outbox row. */
export function newCallbackId(): string {
  return `cb_${orderedId()}`;
}

/** `dec_` + 26 characters (time, then 80 random bits). */
export function newDecisionId(): string {
  return `dec_${orderedId()}`;
}
