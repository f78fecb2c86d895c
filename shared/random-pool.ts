import { randomFillSync } from 'node:crypto';

/**
 * Cryptographically random bytes for ids, drawn from a 4 KiB pool refilled from the OS: one
 * getrandom call per 256 ids instead of one per id (each was a few µs on every request).
 * The bytes are the same CSPRNG output; a slice is never handed out twice.
 */
const POOL = Buffer.alloc(4096);
let offset = POOL.length;

export function randomBytesPooled(n: number): Buffer {
  if (n > POOL.length) throw new RangeError(`at most ${POOL.length} bytes at a time`);
  if (offset + n > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  // A copy: the caller may keep it while the pool is refilled.
  const out = Buffer.from(POOL.subarray(offset, offset + n));
  offset += n;
  return out;
}
