import type Database from 'better-sqlite3';
import type { SvcScore } from '../../shared/svc-contract.js';
import { StoreError } from './store-error.js';

/**
 * Each score fetched from /v1 is stored once (score_fetches) and screenings refer to it
 * (screenings.score_fetch_id) instead of copying ~1–3 KB of JSON per screening: a cache hit
 * writes a reference. Rows from before this (screenings.score filled in) read as they did.
 * Row reads take the parsed score of the fetch (scoresOf: parsed once per fetch and shared);
 * searches take COALESCE(s.score, <the fetch's body>) (SCORE_SQL), the audit export the same
 * expression over a join (one join per page, not a subquery per column).
 */

export const SCORE_FETCHES_MIGRATION_SQL = `
  CREATE TABLE score_fetches (
    id         INTEGER PRIMARY KEY,
    env        TEXT NOT NULL,
    dot_number TEXT NOT NULL,
    body       TEXT NOT NULL,
    fetched_at TEXT NOT NULL
  );
  ALTER TABLE score_cache ADD COLUMN fetch_id INTEGER;
  ALTER TABLE screenings ADD COLUMN score_fetch_id INTEGER;
  CREATE INDEX screenings_by_score_fetch ON screenings (score_fetch_id) WHERE score_fetch_id IS NOT NULL;
  CREATE INDEX score_cache_by_fetch ON score_cache (fetch_id) WHERE fetch_id IS NOT NULL;
`;

/**
 * Migration 15: a cache entry refers to its fetch and keeps no copy of the body ('' when
 * fetch_id is set). The copy sat before the columns a hit reads (fetched_at, fetch_id), so every
 * cache read walked its ~3 KB of overflow pages to reach them, and every lookup wrote it twice.
 */
export const CACHE_BODY_BY_FETCH_MIGRATION_SQL = `
  UPDATE score_cache SET body = '' WHERE fetch_id IS NOT NULL;
`;

/** A screening's score JSON (alias `s`): its own copy (older rows) or the fetch it refers to. */
export const SCORE_SQL = '(COALESCE(s.score, (SELECT f.body FROM score_fetches f WHERE f.id = s.score_fetch_id)))';

/** A screening's score from its row: its fetch's (`fetchId`) or its own copy (`inline`, older rows). */
export type ScoreOf = (fetchId: number | null, inline: string | null) => SvcScore | null;

/** Parsed scores kept per connection (about 3 KB each). */
const PARSED_FETCHES_KEPT = 5_000;
const resolvers = new WeakMap<Database.Database, ScoreOf>();

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/**
 * The scores of `db`'s rows. A fetch's body never changes once stored, so its parsed score is
 * kept (frozen: every screening of the fetch shares it) instead of read and parsed per row.
 */
export function scoresOf(db: Database.Database): ScoreOf {
  const known = resolvers.get(db);
  if (known) return known;
  const parsed = new Map<number, SvcScore>();
  const bodyOf = db.prepare<[number], { body: string }>('SELECT body FROM score_fetches WHERE id = ?');
  const resolve: ScoreOf = (fetchId, inline) => {
    if (fetchId === null) return inline === null ? null : (JSON.parse(inline) as SvcScore);
    let score = parsed.get(fetchId);
    if (!score) {
      const text = bodyOf.get(fetchId)?.body;
      if (text === undefined) throw new StoreError('sqlite_corrupt', `score fetch ${fetchId} is missing`);
      score = deepFreeze(JSON.parse(text) as SvcScore);
      if (parsed.size >= PARSED_FETCHES_KEPT) parsed.clear();
      parsed.set(fetchId, score);
    }
    return score;
  };
  resolvers.set(db, resolve);
  return resolve;
}
