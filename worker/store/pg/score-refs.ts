import type { SvcScore } from '../../../shared/svc-contract.js';
import type { ScoreOf } from '../score-refs.js';
import { StoreError } from '../store-error.js';
import { statement, type Queryable } from './sql.js';

/**
 * The parsed-score memo of store/score-refs.ts on PostgreSQL: a fetch's body never changes once
 * stored and its id (an identity) is never reused, so its parsed score is kept per host and shared
 * (frozen) by every read of it. One memo per pool: the store makes it once and hands it to every
 * repository opened on the pool or on a unit of work's client.
 */
export interface ParsedFetches {
  /** The ScoreOf for rows referring to `fetchIds`: the bodies the memo lacks are read first, on `q`. */
  scoresFor(q: Queryable, fetchIds: Iterable<number | null>): Promise<ScoreOf>;
}

/** Parsed scores kept per memo (about 3 KB each), as on SQLite. */
const PARSED_FETCHES_KEPT = 5_000;

const bodies = statement<{ ids: number[] }>('score_refs_bodies', 'SELECT id, body FROM score_fetches WHERE id = ANY (@ids::bigint[])');

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

export function parsedFetches(): ParsedFetches {
  const parsed = new Map<number, SvcScore>();
  return {
    async scoresFor(q, fetchIds) {
      // This read's scores, whatever the memo drops meanwhile.
      const mine = new Map<number, SvcScore>();
      const missing: number[] = [];
      for (const id of fetchIds) {
        if (id === null || mine.has(id)) continue;
        const known = parsed.get(id);
        if (known) mine.set(id, known);
        else missing.push(id);
      }
      if (missing.length > 0) {
        const rows = await bodies.all<{ id: number; body: string }>(q, { ids: missing });
        if (parsed.size + rows.length > PARSED_FETCHES_KEPT) parsed.clear();
        for (const r of rows) {
          // Two reads that missed together: the first parse kept is the one shared.
          const score = parsed.get(r.id) ?? deepFreeze(JSON.parse(r.body) as SvcScore);
          parsed.set(r.id, score);
          mine.set(r.id, score);
        }
      }
      return (fetchId, inline) => {
        if (fetchId === null) return inline === null ? null : (JSON.parse(inline) as SvcScore);
        const score = mine.get(fetchId);
        // No PostgreSQL code of its own yet (the PG store's error mapping is to come): SQLite's, as callers map it.
        if (!score) throw new StoreError('sqlite_corrupt', `PostgreSQL record: score fetch ${fetchId} is missing`);
        return score;
      };
    },
  };
}
