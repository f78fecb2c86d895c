import { queryKey, type CarrierQuery } from '../../shared/carrier-id.js';
import type { SvcScore } from '../../shared/svc-contract.js';

/** Queries remembered at most: more carriers than a broker tenders to in a month (each a reference to a parsed score). */
const MAX_QUERIES = 20_000;

/**
 * The score each query's cache hit gave last time, in this process: a group commit's read-ahead
 * guesses from it, before the scores are read, which carriers it will lock and what it will read
 * under those locks, and sends all of it beside the score read (one round trip, not two). A
 * guess only: what it read is kept under the keys it was read with, and each piece asks with its
 * score's, so a wrong guess never changes an answer. It may cost: the round trip it would have
 * saved; a lock held to the COMMIT for a hit that turned out tendered; a lock it missed, taken
 * after the others, on which two hosts may deadlock (PostgreSQL ends one after a second, and its
 * batch runs again).
 */
export class RecentScores {
  readonly #scores = new Map<string, SvcScore>();

  constructor(private readonly max = MAX_QUERIES) {}

  get(query: CarrierQuery): SvcScore | undefined {
    return this.#scores.get(queryKey(query));
  }

  note(query: CarrierQuery, score: SvcScore): void {
    const k = queryKey(query);
    // Re-inserted, so the Map's order is by last use and its first key the one to drop.
    this.#scores.delete(k);
    this.#scores.set(k, score);
    if (this.#scores.size > this.max) this.#scores.delete(this.#scores.keys().next().value!);
  }
}
