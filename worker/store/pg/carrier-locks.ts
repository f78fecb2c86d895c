import type { CarrierLockSet } from '../decisions-repo.js';
import { ADVISORY_NAMESPACES } from './advisory-keys.js';
import type { PgExecutor } from './executor.js';
import { batchArray, statement } from './sql.js';

// The named keys, one row each with its namespace.
const NAMED = `SELECT ${ADVISORY_NAMESPACES.block} AS ns, k FROM unnest(${batchArray('block', 'text')}) AS k
       UNION ALL SELECT ${ADVISORY_NAMESPACES.review}, k FROM unnest(${batchArray('review', 'text')}) AS k
       UNION ALL SELECT ${ADVISORY_NAMESPACES.watch}, k FROM unnest(${batchArray('watch', 'text')}) AS k`;
/**
 * Every carrier lock of a unit of work in one statement, in the one global order: namespace first
 * (block < review < watch, their int4 values), then hashtext of the key. The locks are sorted
 * before any is taken (a volatile select list is computed after the ORDER BY), so no unit holds
 * one of them while it waits for another that a unit taking them the same way holds. Keys that
 * hash alike are one lock, counted again (an advisory xact lock is re-entrant).
 */
const takeSorted = (keys: string) => `SELECT pg_advisory_xact_lock(l.ns, l.h) FROM (
     SELECT DISTINCT ns, hashtext(k) AS h FROM (
       ${keys}
     ) AS a
   ) AS l ORDER BY l.ns, l.h`;
const lockNamed = statement<{ block: string[]; review: string[]; watch: string[] }>('carrier_locks_take_named', takeSorted(NAMED), {
  locksOnly: true,
});
// With reviews looked up by id or by screening: each by its own unique index. Written as one
// OR, PostgreSQL scanned the whole table while it held a few thousand rows (a seq scan costed
// below two index scans of ten ids each), on every batch's lock.
const lockSet = statement<{ block: string[]; review: string[]; watch: string[]; reviews: string[]; screenings: string[] }>(
  'carrier_locks_take',
  takeSorted(`${NAMED}
       UNION ALL SELECT ${ADVISORY_NAMESPACES.review}, carrier_key FROM reviews
         WHERE carrier_key IS NOT NULL AND id = ANY(@reviews::text[])
       UNION ALL SELECT ${ADVISORY_NAMESPACES.review}, carrier_key FROM reviews
         WHERE carrier_key IS NOT NULL AND screening_id = ANY(@screenings::text[])`),
  { locksOnly: true },
);

/**
 * Reviews looked up by id or by screening for their carrier's lock (HeldLocks keys of their own:
 * a review's carrier never changes, and one made later in the unit is made under its key's lock).
 */
const LOOKED_UP = { reviews: -1, screenings: -2 } as const;

/** Takes what the unit does not hold yet (a group commit may have taken a batch's locks first); nothing missing: no statement. */
export async function lockCarrierSet(x: PgExecutor, set: CarrierLockSet): Promise<void> {
  const held = x.locks;
  const missing = (ns: number, keys: readonly string[] | undefined) => [...new Set(keys ?? [])].filter((k) => !held?.has(ns, k));
  const named = {
    block: missing(ADVISORY_NAMESPACES.block, set.block),
    review: missing(ADVISORY_NAMESPACES.review, set.review),
    watch: missing(ADVISORY_NAMESPACES.watch, set.watch),
  };
  const reviews = missing(LOOKED_UP.reviews, set.reviews);
  const screenings = missing(LOOKED_UP.screenings, set.reviewsOfScreenings);
  if (named.block.length + named.review.length + named.watch.length + reviews.length + screenings.length === 0) return;
  // What the unit read ahead about these carriers was read before the lock, and is forgotten when
  // it goes out (pg-store.ts); reads pipelined behind it are read under it.
  if (reviews.length + screenings.length === 0) await lockNamed.run(x, named);
  else await lockSet.run(x, { ...named, reviews, screenings });
  // Held to the unit's end: the repositories' own locks of these keys need no round trip.
  for (const ns of ['block', 'review', 'watch'] as const) held?.note(ADVISORY_NAMESPACES[ns], named[ns]);
  held?.note(LOOKED_UP.reviews, reviews);
  held?.note(LOOKED_UP.screenings, screenings);
}
