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

/** 128 random bits: `scr_` + 26 base32 characters. */
export function newScreeningId(): string {
  return `scr_${randomBase32(16)}`;
}

/** 128 random bits: `rev_` + 26 base32 characters. */
export function newReviewId(): string {
  return `rev_${randomBase32(16)}`;
}

/** 128 random bits: `cb_` + 26 base32 characters (a callback outbox row). */
export function newCallbackId(): string {
  return `cb_${randomBase32(16)}`;
}

/** 128 random bits: `dec_` + 26 base32 characters. */
export function newDecisionId(): string {
  return `dec_${randomBase32(16)}`;
}
