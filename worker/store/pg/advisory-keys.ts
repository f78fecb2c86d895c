/**
 * The keys of our PostgreSQL advisory locks, in one place so no two jobs share one. Each is six
 * ASCII letters read as a number (below 2^53, so JavaScript holds it exactly).
 */
const key = (six: string): number => Number.parseInt(Buffer.from(six, 'ascii').toString('hex'), 16);

export const ADVISORY_KEYS = {
  /** Schema steps: several hosts starting at once apply each step once. */
  migrate: key('csmigr'),
  /** A retention pass: one host prunes at a time, the others skip (worker/store/pg/retention-repo.ts). */
  prune: key('csprun'),
} as const;
