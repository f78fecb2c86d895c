/**
 * The keys of our PostgreSQL advisory locks, in one place so no two jobs share one. Each is six
 * ASCII letters read as a number (below 2^53, so JavaScript holds it exactly).
 */
const key = (six: string): number => Number.parseInt(Buffer.from(six, 'ascii').toString('hex'), 16);

export const ADVISORY_KEYS = {
  /** Schema steps: several hosts starting at once apply each step once. */
  migrate: key('csmigr'),
} as const;

/**
 * Per-carrier locks, taken as `pg_advisory_xact_lock(<namespace>, hashtext(<key>))`: the two-int
 * form, so they never meet the one-bigint keys above, and each purpose has its own namespace (four
 * ASCII letters read as an int4). A lock is held to the end of its transaction (released too by a
 * ROLLBACK TO SAVEPOINT behind it); two carriers whose keys hash alike only wait on each other.
 * hashtext is computed by the server, so every host locks a key the same way.
 */
const namespace = (four: string): number => Buffer.from(four, 'ascii').readInt32BE(0);

export const ADVISORY_NAMESPACES = {
  /**
   * A carrier's reviews and standing decision, keyed by the review's carrier_key
   * (`<env>:dot:<n>`, `<env>:mc:<n>`): one open review per carrier across hosts, the second
   * host joining it (worker/store/pg/decisions-repo.ts).
   */
  review: namespace('crev'),
  /**
   * Adding a local block, keyed by `key:<carrier_key>`, `dot:<n>` and `mc:<n>`: the check by DOT
   * or MC number, then the insert (worker/store/pg/local-blocks-repo.ts).
   */
  block: namespace('cblk'),
  /**
   * A carrier's watch entry, keyed by its watch key (`dot:<n>`, `mc:MC<n>`): the watch list's
   * read-compare-write (a tender, an observed score, adding or removing by hand) sees what the
   * host before it committed, so several hosts record one change (worker/store/pg/watch-store.ts).
   */
  watch: namespace('cwat'),
} as const;

/** The SQL that takes the per-carrier lock of `ns` on the text expression `keySql` (a parameter or a column). */
export function carrierLockSql(ns: number, keySql: string): string {
  return `pg_advisory_xact_lock(${ns}, hashtext(${keySql}))`;
}
