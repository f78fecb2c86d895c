import { canonicalDot, canonicalMc, queryKey } from '../../../shared/carrier-id.js';
import type { ScreeningError } from '../../../shared/screening.js';
import { StoreArgumentError } from '../store-error.js';
import type { CachedNotFound, CachedScore } from '../types.js';
import { checkEnv, checkQuery, iso } from '../arg-checks.js';
import type { RecordScores } from '../record.js';
import type { QueryResultRow } from 'pg';
import type { PgExecutor } from './executor.js';
import { parsedFetches, type ParsedFetches } from './score-refs.js';
import { ahead, batchArray, readAheadMany, statement, type Statement } from './sql.js';

export type { ScoreCacheRepo } from '../screening-repos.js';

export interface PgScoreCacheOptions {
  /** The clock for the timestamps it writes when the caller gives none. */
  now: () => Date;
  /** The pool's parsed-score memo (score-refs.ts), shared with the screenings' reads; by default one per executor given here. */
  scores?: ParsedFetches;
}

interface CacheEntryRow {
  fetched_at: string;
  model_version: string;
  fetch_id: number | null;
  /** Only for an entry from before scores were stored per fetch (fetch_id null). */
  body: string | null;
}

type Keyed = { env: string; dot: string };
type HitRow = { [K in keyof CacheEntryRow]: CacheEntryRow[K] | null } & { any_block: boolean };

// The fetch, stored once, and the entry referring to it (no copy of the body), in one statement:
// the entry replaces one fetched earlier, never a newer one. Two hosts writing one carrier at once
// queue on the entry's row, and the second is checked against what the first committed.
const putScore = statement<Keyed & { body: string; model_version: string; fetched_at: string }>(
  'score_cache_put',
  `WITH f AS (
     INSERT INTO score_fetches (env, dot_number, body, fetched_at) VALUES (@env::text, @dot::text, @body::text, @fetched_at::text)
     RETURNING id
   ), c AS (
     INSERT INTO score_cache (env, dot_number, body, model_version, fetched_at, fetch_id)
     SELECT @env::text, @dot::text, '', @model_version::text, @fetched_at::text, f.id FROM f
     ON CONFLICT (env, dot_number) DO UPDATE SET
       body = excluded.body, model_version = excluded.model_version, fetched_at = excluded.fetched_at, fetch_id = excluded.fetch_id
     WHERE excluded.fetched_at >= score_cache.fetched_at
     RETURNING 1
   )
   SELECT f.id, EXISTS (SELECT 1 FROM c) AS replaced FROM f`,
);
const dropFetch = statement<{ id: number }>('score_cache_drop_fetch', 'DELETE FROM score_fetches WHERE id = @id');
// After the entry is ours (its row locked to COMMIT): the carrier's MC aliases become `mcs`
// (SQLite drops them all and adds these back; the rows left are the same), and the not-found
// answers the score contradicts go. A statement of its own, so it sees what a host that wrote
// this carrier before us committed.
const putAliases = statement<Keyed & { mcs: string[]; keys: string[] }>(
  'score_cache_aliases',
  `WITH gone AS (
     DELETE FROM mc_alias WHERE env = @env::text AND dot_number = @dot::text AND mc_number <> ALL (@mcs::text[])
   ), put AS (
     INSERT INTO mc_alias (env, mc_number, dot_number) SELECT @env::text, m, @dot::text FROM unnest(@mcs::text[]) AS m
     ON CONFLICT (env, mc_number) DO UPDATE SET dot_number = excluded.dot_number
   )
   DELETE FROM not_found_cache WHERE env = @env::text AND query_key = ANY (@keys::text[])`,
);
// The cache entry without its body: a hit takes the parsed score of its fetch (the memo).
const scoreByDot = statement<Keyed>(
  'score_cache_by_dot',
  `SELECT fetched_at, model_version, fetch_id, CASE WHEN fetch_id IS NULL THEN body END AS body
   FROM score_cache WHERE env = @env AND dot_number = @dot`,
);
const scoreByMc = statement<{ env: string; mc: string }>(
  'score_cache_by_mc',
  `SELECT c.fetched_at, c.model_version, c.fetch_id, CASE WHEN c.fetch_id IS NULL THEN c.body END AS body FROM mc_alias a
   JOIN score_cache c ON c.env = a.env AND c.dot_number = a.dot_number
   WHERE a.env = @env AND a.mc_number = @mc`,
);
// A new screening's first read, folded into one round trip: the entry (as scoreByDot/scoreByMc)
// and whether any local block is in force (local-blocks-repo.ts's anyActiveBlock), in one
// statement, so in one snapshot: no weaker than the two statements it replaces, each of which
// READ COMMITTED gave a snapshot of its own.
const ANY_ACTIVE_BLOCK = 'EXISTS (SELECT 1 FROM local_blocks WHERE lifted_at IS NULL) AS any_block';
const hitByDot = statement<Keyed>(
  'score_cache_hit_by_dot',
  `SELECT c.fetched_at, c.model_version, c.fetch_id, CASE WHEN c.fetch_id IS NULL THEN c.body END AS body, ${ANY_ACTIVE_BLOCK}
   FROM (SELECT 1) AS one LEFT JOIN score_cache c ON c.env = @env AND c.dot_number = @dot`,
  { plainRead: true },
);
const hitByMc = statement<{ env: string; mc: string }>(
  'score_cache_hit_by_mc',
  `SELECT c.fetched_at, c.model_version, c.fetch_id, CASE WHEN c.fetch_id IS NULL THEN c.body END AS body, ${ANY_ACTIVE_BLOCK}
   FROM (SELECT 1) AS one LEFT JOIN (mc_alias a JOIN score_cache c ON c.env = a.env AND c.dot_number = a.dot_number)
     ON a.env = @env AND a.mc_number = @mc`,
  { plainRead: true },
);
// Many carriers' hit rows at once (readAhead): the rows hitByDot and hitByMc give, each with the
// position of the carrier asked (DOTs first, then MCs). Its arrays are batchArray's: one generic
// plan, not one planned at every batch (sql.ts says why a growing table may have one).
const hitMany = statement<{ env: string; dots: string[]; mcs: string[] }>(
  'score_cache_hit_many',
  `SELECT q.i, c.fetched_at, c.model_version, c.fetch_id, CASE WHEN c.fetch_id IS NULL THEN c.body END AS body, ${ANY_ACTIVE_BLOCK}
   FROM unnest(${batchArray('dots', 'text')}) WITH ORDINALITY AS q(dot, i) LEFT JOIN score_cache c ON c.env = @env AND c.dot_number = q.dot
   UNION ALL
   SELECT cardinality(@dots::text[]) + q.i, c.fetched_at, c.model_version, c.fetch_id, CASE WHEN c.fetch_id IS NULL THEN c.body END AS body,
     ${ANY_ACTIVE_BLOCK}
   FROM unnest(${batchArray('mcs', 'text')}) WITH ORDINALITY AS q(mc, i)
   LEFT JOIN (mc_alias a JOIN score_cache c ON c.env = a.env AND c.dot_number = a.dot_number) ON a.env = @env AND a.mc_number = q.mc`,
  { plainRead: true },
);
const putNotFound = statement<{ env: string; key: string; error: string; at: string }>(
  'score_cache_put_not_found',
  `INSERT INTO not_found_cache (env, query_key, error, fetched_at) VALUES (@env, @key, @error, @at)
   ON CONFLICT (env, query_key) DO UPDATE SET error = excluded.error, fetched_at = excluded.fetched_at`,
);
const getNotFound = statement<{ env: string; key: string }>(
  'score_cache_get_not_found',
  'SELECT error, fetched_at FROM not_found_cache WHERE env = @env AND query_key = @key',
  { plainRead: true },
);

const defaultMemos = new WeakMap<PgExecutor, ParsedFetches>();

export function pgScoreCacheOf(x: PgExecutor, opts: PgScoreCacheOptions): RecordScores {
  let scores = opts.scores ?? defaultMemos.get(x);
  if (!scores) defaultMemos.set(x, (scores = parsedFetches()));
  const { now } = opts;
  // A carrier's row by the number asked (canonical), with the statement for that kind of number.
  const byCarrier = <R extends QueryResultRow>(
    env: unknown,
    query: unknown,
    byDot: Statement<Keyed>,
    byMc: Statement<{ env: string; mc: string }>,
  ): Promise<R | undefined> => {
    checkEnv(env);
    const q = checkQuery(query);
    return 'dot_number' in q
      ? byDot.get<R>(x, { env, dot: canonicalDot(q.dot_number) })
      : byMc.get<R>(x, { env, mc: canonicalMc(q.mc_number) });
  };
  const cachedOf = async (row: CacheEntryRow): Promise<CachedScore> => {
    // A cache entry always holds a score: its fetch's, or (an older entry) its own body.
    const scoreOf = await scores.scoresFor(x, [row.fetch_id]);
    return {
      score: scoreOf(row.fetch_id, row.body)!,
      fetched_at: row.fetched_at,
      model_version: row.model_version,
      fetch_id: row.fetch_id,
    };
  };

  return {
    async putScore(env, score, fetchedAt, asked) {
      checkEnv(env);
      if (!score || typeof score !== 'object' || typeof score.carrier?.dot_number !== 'string' || score.carrier.dot_number.trim() === '')
        throw new StoreArgumentError('score must be a /v1 score object with carrier.dot_number', 'score');
      if (typeof score.model_version !== 'string') throw new StoreArgumentError('score.model_version must be a string', 'score');
      const at = iso(fetchedAt ?? now(), 'fetchedAt');
      const askedMc = asked && 'mc_number' in asked ? asked.mc_number : undefined;
      const dot = canonicalDot(score.carrier.dot_number);
      // The bytes SQLite stores: a callback's signed body is built from them.
      const body = JSON.stringify(score);
      // The MC the score names, and the MC it was asked by (it may differ, or the score name none):
      // either way the next screening by that MC is a cache hit, not another lookup. Sorted: two
      // hosts take the alias rows' locks in one order.
      const aliases = new Set<string>();
      for (const mc of [score.carrier.mc_number, askedMc]) if (typeof mc === 'string' && mc.trim() !== '') aliases.add(canonicalMc(mc));
      const mcs = [...aliases].sort();
      // Its own transaction, as on SQLite (a savepoint inside the caller's).
      return x.transaction(async (tx) => {
        const put = await putScore.get<{ id: number; replaced: boolean }>(tx, {
          env,
          dot,
          body,
          model_version: score.model_version,
          fetched_at: at,
        });
        const fetchId = put!.id;
        if (!put!.replaced) {
          await dropFetch.run(tx, { id: fetchId }); // a newer entry is already there (another host fetched later)
          return null;
        }
        await putAliases.run(tx, { env, dot, mcs, keys: [`dot:${dot}`, ...mcs.map((mc) => `mc:${mc}`)] });
        return fetchId;
      });
    },

    async getScore(env, query): Promise<CachedScore | undefined> {
      const row = await byCarrier<CacheEntryRow>(env, query, scoreByDot, scoreByMc);
      return row && cachedOf(row);
    },

    async hitFacts(env, query) {
      const row = await byCarrier<HitRow>(env, query, hitByDot, hitByMc);
      // Always one row (the LEFT JOIN): fetched_at null when the carrier has no entry.
      return { score: row!.fetched_at === null ? undefined : await cachedOf(row as CacheEntryRow), anyActiveBlock: row!.any_block };
    },

    async readAhead(env, queries) {
      checkEnv(env);
      const dots = new Set<string>();
      const mcs = new Set<string>();
      for (const query of queries) {
        const q = checkQuery(query);
        if ('dot_number' in q) dots.add(canonicalDot(q.dot_number));
        else mcs.add(canonicalMc(q.mc_number));
      }
      // In hitMany's order: the DOTs, then the MCs.
      const rows = await readAheadMany(x, hitMany, { env, dots: [...dots], mcs: [...mcs] }, [
        ...[...dots].map((dot) => ahead(hitByDot, { env, dot })),
        ...[...mcs].map((mc) => ahead(hitByMc, { env, mc })),
      ]);
      // Their scores parsed at once too (one read of the fetches not parsed yet).
      await scores.scoresFor(
        x,
        rows.flatMap((r) => (r.fetch_id === null ? [] : [r.fetch_id as number])),
      );
    },

    async putNotFound(env, query, error, at) {
      checkEnv(env);
      const q = checkQuery(query);
      await putNotFound.run(x, { env, key: queryKey(q), error: JSON.stringify(error), at: iso(at ?? now(), 'at') });
    },

    async getNotFound(env, query): Promise<CachedNotFound | undefined> {
      checkEnv(env);
      const row = await getNotFound.get<{ error: string; fetched_at: string }>(x, { env, key: queryKey(checkQuery(query)) });
      if (!row) return undefined;
      return { fetched_at: row.fetched_at, error: JSON.parse(row.error) as ScreeningError };
    },
  };
}
