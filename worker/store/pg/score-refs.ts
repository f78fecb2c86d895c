import type { SvcScore } from '../../../shared/svc-contract.js';
import { StoreError } from '../store-error.js';
import { statement, type Queryable } from './sql.js';

/**
 * The parsed-score memo of store/score-refs.ts on PostgreSQL: a fetch's body never changes once
 * stored and its id (an identity) is never reused, so its parsed score is kept per host and shared
 * (frozen) by every read of it. One memo per pool: the store makes it once and gives it to every
 * repository opened on the pool or on a unit of work's client.
 */
export interface ParsedFetches {
  readonly parsed: Map<number, SvcScore>;
}

/** Parsed scores kept per memo (about 3 KB each), as on SQLite. */
const PARSED_FETCHES_KEPT = 5_000;

export function parsedFetches(): ParsedFetches {
  return { parsed: new Map() };
}

/** A screening's score from its row: its fetch's (`fetchId`) or its own copy (`inline`, older rows). */
export type PgScoreOf = (fetchId: number | null, inline: string | null) => Promise<SvcScore | null>;

const bodyOf = statement<{ id: number }>('score_refs_body', 'SELECT body FROM score_fetches WHERE id = @id');

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** The scores of rows read on `q`, parsed once per fetch into `memo`. */
export function pgScoresOf(q: Queryable, memo: ParsedFetches): PgScoreOf {
  const { parsed } = memo;
  return async (fetchId, inline) => {
    if (fetchId === null) return inline === null ? null : (JSON.parse(inline) as SvcScore);
    const known = parsed.get(fetchId);
    if (known) return known;
    const text = (await bodyOf.get<{ body: string }>(q, { id: fetchId }))?.body;
    // No PostgreSQL code of its own yet (pg-store's error mapping is to come): the SQLite one, as callers map it.
    if (text === undefined) throw new StoreError('sqlite_corrupt', `PostgreSQL record: score fetch ${fetchId} is missing`);
    // Two reads that missed together parse it twice; the first one kept is the one shared.
    const score = parsed.get(fetchId) ?? deepFreeze(JSON.parse(text) as SvcScore);
    if (parsed.size >= PARSED_FETCHES_KEPT) parsed.clear();
    parsed.set(fetchId, score);
    return score;
  };
}
