/**
 * Child process: a cache hit's statement sequence (docs/design/postgres.md, section 1.4) through
 * the real PostgreSQL repositories, served over HTTP as the durable floors are (issue 34). Not the
 * product: no pipeline, no watch or callback rows; the statements a hit makes, in its order.
 *
 * Routes, each `POST /<variant>/screenings` with the floors' JSON body and a bearer token:
 * - `a`        plain: tokens.byHash on the pool (as IntakeTokens.lookup, before the pipeline); then
 *              in the group commit's transaction, per request, getScore (score_cache by PK, the body
 *              from the per-host parsed-score memo), the local-blocks "any active" read, and
 *              insertScreening done; the batch's events in one appendEvents, the last statement.
 * - `b`        folded: token, score entry and "any active block" in ONE statement on the pool; in
 *              the transaction only insertScreening per request and the batch's appendEvents.
 * - `c`        (b), and each batch's screenings and events written in ONE statement, committed on
 *              its own (no BEGIN/COMMIT): not the repositories' insertScreening, the same columns.
 * - `a-par`, `c-par`: (a), (c) with up to 4 batches in flight at once, each on its own client.
 * - `a-local`, `b-local`: the same with the score read from a local SQLite file (the product's
 *              SQLite Store, its own memo) in front of PostgreSQL, instead of score_cache: what a
 *              per-host score cache would save.
 * - `sqlite`   the SQLite equivalent: the same reads and writes on the product's SQLite Store, in
 *              the product's group commit (worker/store/group-commit.ts).
 *
 * Group commit on PostgreSQL (a simple one): pieces arriving within two event-loop turns share
 * BEGIN/COMMIT on one pool client; one batch at a time (a-par: 4), and what arrives meanwhile is
 * the next batch, started as soon as the previous one commits. Every answer follows its batch's COMMIT.
 * A failing piece fails its whole batch (the product retries pieces in savepoints; a hit never
 * fails here).
 */
import Fastify from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LATEST_API_VERSION } from '../shared/api-versions.js';
import type { Screening } from '../shared/screening.js';
import { liveCarrier, scoreBody } from '../emulator/index.js';
import { compactEvent } from '../worker/events/event-refs.js';
import { GroupCommit } from '../worker/store/group-commit.js';
import { localBlocksOf } from '../worker/store/local-blocks-repo.js';
import { pgEventLogOf } from '../worker/store/pg/event-log-repo.js';
import { poolExecutor, type PgExecutor } from '../worker/store/pg/executor.js';
import { openPgPool } from '../worker/store/pg/pg-pool.js';
import { pgScoreCacheOf } from '../worker/store/pg/score-cache-repo.js';
import { parsedFetches } from '../worker/store/pg/score-refs.js';
import { pgScreeningsOf } from '../worker/store/pg/screenings-repo.js';
import { statement } from '../worker/store/pg/sql.js';
import { pgTokensOf } from '../worker/store/pg/tokens-repo.js';
import { connectionOf, openStore } from '../worker/store/sqlite-store.js';
import { tokensOf } from '../worker/store/tokens-repo.js';
import type { CachedScore, ScreeningResult, Store } from '../worker/store/types.js';
import { keyOf } from '../worker/watch/carrier-key.js';
import { carrierColumns } from '../worker/store/carrier-columns.js';
import { newScreeningId } from '../worker/store/ids.js';
import { scoreAgeSeconds } from '../worker/store/rows.js';
import { serveRpc } from './rpc.js';
import { HIT_VARIANTS, type HitVariant } from './scenarios/pg.js';

const ENV = 'live';
/** a-par: batches in flight at once. */
const PAR_BATCHES = 4;
const TOKEN = `cs_${randomBytes(24).toString('hex')}`;
const hashToken = (t: string): string => createHash('sha256').update(t).digest('hex');

// local_blocks has no PostgreSQL repository on main yet: local-blocks-repo.ts's statement, as is.
const anyActiveBlock = statement('bench_blocks_any_active', 'SELECT 1 AS one FROM local_blocks WHERE lifted_at IS NULL LIMIT 1');

// Variant b: the hit's reads in one statement. Every subquery is keyed by the request (or by
// nothing), so they can be asked together before the piece decides anything.
type Folded = {
  token_id: string | null;
  fetched_at: string | null;
  model_version: string | null;
  fetch_id: number | null;
  body: string | null;
  any_block: boolean;
};
const foldedReads = statement<{ hash: string; env: string; dot: string }>(
  'bench_hit_folded_reads',
  `SELECT t.id AS token_id, c.fetched_at, c.model_version, c.fetch_id, CASE WHEN c.fetch_id IS NULL THEN c.body END AS body,
     EXISTS (SELECT 1 FROM local_blocks WHERE lifted_at IS NULL) AS any_block
   FROM (SELECT 1) AS one
   LEFT JOIN intake_tokens t ON t.hash = @hash AND t.revoked_at IS NULL
   LEFT JOIN score_cache c ON c.env = @env AND c.dot_number = @dot`,
);
// b-local: the same without the score.
const foldedNoScore = statement<{ hash: string }>(
  'bench_hit_folded_no_score',
  `SELECT (SELECT id FROM intake_tokens WHERE hash = @hash AND revoked_at IS NULL) AS token_id,
     EXISTS (SELECT 1 FROM local_blocks WHERE lifted_at IS NULL) AS any_block`,
);

type Event = { event: string; data: unknown };
type Stats = { answered: number; batches: number; pieces: number };

/** The repositories of one batch's transaction. */
interface TxRepos {
  tx: PgExecutor;
  screenings: ReturnType<typeof pgScreeningsOf>;
  scores: ReturnType<typeof pgScoreCacheOf>;
}

type Pending<I> = { item: I; resolve(v: unknown): void; reject(e: unknown): void };

/**
 * Group commit: items arriving within two event-loop turns are flushed together (`flush` commits
 * them and answers a value per item, in order); `inFlight` batches at once, and what arrives while
 * every slot is busy goes as soon as one frees.
 */
class Batcher<I> {
  #pending: Pending<I>[] = [];
  #scheduled = false;
  #running = 0;

  constructor(
    private readonly flush: (items: I[]) => Promise<unknown[]>,
    private readonly stats: Stats,
    private readonly inFlight = 1,
  ) {}

  run<T>(item: I): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ item, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#scheduled && this.#running < this.inFlight) {
        this.#scheduled = true;
        setImmediate(() =>
          setImmediate(() => {
            this.#scheduled = false;
            this.#start();
          }),
        );
      }
    });
  }

  #start(): void {
    if (this.#pending.length === 0 || this.#running >= this.inFlight) return;
    const batch = this.#pending;
    this.#pending = [];
    this.#running++;
    void this.#commit(batch).finally(() => {
      this.#running--;
      // What arrived while every slot was busy has waited already: at once.
      if (!this.#scheduled) this.#start();
    });
  }

  async #commit(batch: Pending<I>[]): Promise<void> {
    try {
      const values = await this.flush(batch.map((p) => p.item));
      this.stats.batches++;
      this.stats.pieces += batch.length;
      batch.forEach((p, i) => p.resolve(values[i]));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}

type Work = (r: TxRepos) => Promise<{ value: unknown; events: Event[] }>;

/** The pieces in one transaction on one client, one after another; the batch's events last. */
function inTransaction(x: PgExecutor, repos: (tx: PgExecutor) => TxRepos) {
  return (works: Work[]): Promise<unknown[]> =>
    x.transaction(async (tx) => {
      const r = repos(tx);
      const out: unknown[] = [];
      const events: Event[] = [];
      for (const work of works) {
        const piece = await work(r);
        out.push(piece.value);
        events.push(...piece.events);
      }
      // Last: the event head's row lock is held only for this statement and the COMMIT.
      await pgEventLogOf(tx, { now: () => new Date() }).appendEvents(events);
      return out;
    });
}

// Variant c: a batch's screenings and their events in ONE statement, committed on its own (no
// BEGIN/COMMIT): one round trip per batch. The head's row lock is held for that statement only.
const insertBatch = statement<{
  ids: string[];
  tenders: (string | null)[];
  dots: string[];
  created: string[];
  fetch_ids: (number | null)[];
  fetched: string[];
  models: string[];
  keys: string[];
  mcs: (string | null)[];
  datas: string[];
}>(
  'bench_hit_insert_batch',
  `WITH s AS (
     INSERT INTO screenings (id, tender_id, load, status, query_kind, query_value, priority, refresh, callback_url, created_at,
       action, hold_reason, source, score, score_fetch_id, score_fetched_at, model_version, error, completed_at, carrier_key, carrier_dot, carrier_mc)
     SELECT r.id, r.tender_id, NULL, 'done', 'dot_number', r.dot, 'tender', 0, NULL, r.created_at,
       'tender', NULL, 'cache', NULL, r.fetch_id, r.fetched_at, r.model_version, NULL, r.created_at, r.carrier_key, r.dot, r.mc
     FROM unnest(@ids::text[], @tenders::text[], @dots::text[], @created::text[], @fetch_ids::bigint[], @fetched::text[],
       @models::text[], @keys::text[], @mcs::text[]) AS r(id, tender_id, dot, created_at, fetch_id, fetched_at, model_version, carrier_key, mc)
   ), h AS (UPDATE event_head SET last_id = last_id + cardinality(@ids::text[]) RETURNING last_id)
   INSERT INTO events (id, event, data, created_at)
   SELECT h.last_id - cardinality(@ids::text[]) + e.ord, 'screening.completed', e.data, e.created_at
   FROM h CROSS JOIN unnest(@datas::text[], @created::text[]) WITH ORDINALITY AS e(data, created_at, ord)`,
);

/** Variant c's screening, as insertScreening answers it (what was written, no read back). */
function doneScreening(b: Body, c: CachedScore, createdAt: string): Screening {
  return {
    object: 'screening',
    id: newScreeningId(),
    tender_id: b.tender_id ?? null,
    load: null,
    status: 'done',
    query: { dot_number: b.dot_number },
    priority: 'tender',
    refresh: false,
    action: 'tender',
    hold_reason: null,
    source: 'cache',
    score: c.score,
    score_fetched_at: c.fetched_at,
    score_age_seconds: scoreAgeSeconds(createdAt, c.fetched_at),
    review: null,
    settled_by: null,
    standing_decision: null,
    error: null,
    callback_url: null,
    created_at: createdAt,
    completed_at: createdAt,
    updated_at: createdAt,
    version: 1,
  };
}

function oneStatement(x: PgExecutor) {
  return async (items: { s: Screening; c: CachedScore }[]): Promise<unknown[]> => {
    const cols = items.map(({ s, c }) => {
      const dot = 'dot_number' in s.query ? s.query.dot_number : '';
      const [carrierDot, carrierMc] = carrierColumns('dot_number', dot, c.score.carrier?.dot_number, c.score.carrier?.mc_number);
      return { s, c, carrierDot: carrierDot!, carrierMc };
    });
    await insertBatch.run(x, {
      ids: cols.map((r) => r.s.id),
      tenders: cols.map((r) => r.s.tender_id),
      dots: cols.map((r) => r.carrierDot),
      created: cols.map((r) => r.s.created_at),
      fetch_ids: cols.map((r) => r.c.fetch_id),
      fetched: cols.map((r) => r.c.fetched_at),
      models: cols.map((r) => r.c.model_version),
      keys: cols.map((r) => keyOf({ dot_number: r.carrierDot, mc_number: null })),
      mcs: cols.map((r) => r.carrierMc),
      datas: cols.map((r) => JSON.stringify(compactEvent('screening.completed', r.s))),
    });
    return items.map((i) => i.s);
  };
}

/** What a hit writes: a done screening from the cache. */
function hitResult(c: CachedScore): ScreeningResult {
  return {
    action: 'tender',
    hold_reason: null,
    source: 'cache',
    score: c.score,
    score_fetched_at: c.fetched_at,
    error: null,
    score_fetch_id: c.fetch_id,
  };
}
function newScreening(dot: string, tenderId: string | undefined) {
  return {
    query: { dot_number: dot },
    tender_id: tenderId ?? null,
    priority: 'tender' as const,
    refresh: false,
    callback_url: null,
    carrier_key: keyOf({ dot_number: dot, mc_number: null }),
  };
}
const completed = (s: Screening): Event[] => [{ event: 'screening.completed', data: compactEvent('screening.completed', s) }];

type Body = { dot_number: string; tender_id?: string };
type Answer = { status: 200; screening: Screening } | { status: 401 | 404 };

let opened:
  | {
      url: string;
      app: ReturnType<typeof Fastify>;
      pool: ReturnType<typeof openPgPool>;
      store: Store;
      dir: string;
      stats: Record<HitVariant, Stats>;
    }
  | undefined;

async function open(o: { url: string; poolMax: number }): Promise<string> {
  if (opened) return opened.url;
  const pool = openPgPool(o.url, { max: o.poolMax, applicationName: 'carrier-screen-bench-hit' });
  // Connections kept between runs (pg closes them after 10 s idle): the bench meters their backends' CPU.
  pool.options.idleTimeoutMillis = 0;
  const x = poolExecutor(pool);
  const now = () => new Date();
  const memo = parsedFetches(); // one per pool, as the PG store will keep it
  const tokens = pgTokensOf(x);
  const dir = mkdtempSync(join(tmpdir(), 'pg-hit-local-'));
  // The local SQLite file: the score cache in front of PostgreSQL (a-local, b-local), and the
  // whole record for the SQLite equivalent (sqlite).
  const store = openStore(join(dir, 'local.db'));
  const localTokens = tokensOf(store);
  const localBlocks = localBlocksOf(store);
  const sqliteCommit = new GroupCommit(store);
  const stats = Object.fromEntries(HIT_VARIANTS.map((v) => [v, { answered: 0, batches: 0, pieces: 0 }])) as Record<HitVariant, Stats>;
  const repos = (tx: PgExecutor): TxRepos => ({
    tx,
    screenings: pgScreeningsOf(tx, { now, scores: memo }),
    scores: pgScoreCacheOf(tx, { now, scores: memo }),
  });
  const tx = inTransaction(x, repos);
  const commits = {
    a: new Batcher<Work>(tx, stats.a),
    b: new Batcher<Work>(tx, stats.b),
    'a-par': new Batcher<Work>(tx, stats['a-par'], PAR_BATCHES),
    'a-local': new Batcher<Work>(tx, stats['a-local']),
    'b-local': new Batcher<Work>(tx, stats['b-local']),
  };
  const commitC = new Batcher<{ s: Screening; c: CachedScore }>(oneStatement(x), stats.c);
  const commitCPar = new Batcher<{ s: Screening; c: CachedScore }>(oneStatement(x), stats['c-par'], PAR_BATCHES);

  // The piece of a hit whose score is known: the screening row (and its event, with the batch's).
  const insertDone = (r: TxRepos, b: Body, c: CachedScore) =>
    r.screenings.insertScreening(newScreening(b.dot_number, b.tender_id), hitResult(c)).then((s) => ({ value: s, events: completed(s) }));

  // c, c-par: the folded read, then the batch's one statement.
  const oneRead = async (hash: string, b: Body, commit: Batcher<{ s: Screening; c: CachedScore }>): Promise<Answer> => {
    const f = await foldedReads.get<Folded>(x, { hash, env: ENV, dot: b.dot_number });
    if (!f?.token_id) return { status: 401 };
    if (f.model_version === null) return { status: 404 };
    const scoreOf = await memo.scoresFor(x, [f.fetch_id]);
    const c: CachedScore = {
      score: scoreOf(f.fetch_id, f.body)!,
      fetched_at: f.fetched_at!,
      model_version: f.model_version,
      fetch_id: f.fetch_id,
    };
    return { status: 200, screening: await commit.run<Screening>({ s: doneScreening(b, c, now().toISOString()), c }) };
  };

  const handlers: Record<HitVariant, (hash: string, b: Body) => Promise<Answer>> = {
    async a(hash, b) {
      if (!(await tokens.byHash(hash))) return { status: 401 };
      const s = await commits.a.run<Screening | undefined>(async (r) => {
        const c = await r.scores.getScore(ENV, { dot_number: b.dot_number });
        if (!c) return { value: undefined, events: [] };
        await anyActiveBlock.get(r.tx, {}); // none active: the common case, no further block read
        return insertDone(r, b, c);
      });
      return s ? { status: 200, screening: s } : { status: 404 };
    },
    async 'a-par'(hash, b) {
      if (!(await tokens.byHash(hash))) return { status: 401 };
      const s = await commits['a-par'].run<Screening | undefined>(async (r) => {
        const c = await r.scores.getScore(ENV, { dot_number: b.dot_number });
        if (!c) return { value: undefined, events: [] };
        await anyActiveBlock.get(r.tx, {});
        return insertDone(r, b, c);
      });
      return s ? { status: 200, screening: s } : { status: 404 };
    },
    async 'a-local'(hash, b) {
      if (!(await tokens.byHash(hash))) return { status: 401 };
      const c = store.getScore(ENV, { dot_number: b.dot_number });
      if (!c) return { status: 404 };
      const s = await commits['a-local'].run<Screening>(async (r) => {
        await anyActiveBlock.get(r.tx, {});
        return insertDone(r, b, c);
      });
      return { status: 200, screening: s };
    },
    async b(hash, b) {
      const f = await foldedReads.get<Folded>(x, { hash, env: ENV, dot: b.dot_number });
      if (!f?.token_id) return { status: 401 };
      if (f.model_version === null) return { status: 404 };
      const scoreOf = await memo.scoresFor(x, [f.fetch_id]);
      const c: CachedScore = {
        score: scoreOf(f.fetch_id, f.body)!,
        fetched_at: f.fetched_at!,
        model_version: f.model_version,
        fetch_id: f.fetch_id,
      };
      return { status: 200, screening: await commits.b.run<Screening>((r) => insertDone(r, b, c)) };
    },
    c: (hash, b) => oneRead(hash, b, commitC),
    'c-par': (hash, b) => oneRead(hash, b, commitCPar),
    async 'b-local'(hash, b) {
      const f = await foldedNoScore.get<{ token_id: string | null; any_block: boolean }>(x, { hash });
      if (!f?.token_id) return { status: 401 };
      const c = store.getScore(ENV, { dot_number: b.dot_number });
      if (!c) return { status: 404 };
      return { status: 200, screening: await commits['b-local'].run<Screening>((r) => insertDone(r, b, c)) };
    },
    async sqlite(hash, b) {
      if (!localTokens.byHash(hash)) return { status: 401 };
      const s = await sqliteCommit.run(() => {
        const c = store.getScore(ENV, { dot_number: b.dot_number });
        if (!c) return undefined;
        localBlocks.hasActiveBlocks();
        const screening = store.insertScreening(newScreening(b.dot_number, b.tender_id), hitResult(c));
        store.appendEvent('screening.completed', compactEvent('screening.completed', screening));
        return screening;
      });
      stats.sqlite.pieces++;
      return s ? { status: 200, screening: s } : { status: 404 };
    },
  };

  const app = Fastify({ logger: false });
  for (const v of HIT_VARIANTS) {
    app.post<{ Body: Body }>(`/${v}/screenings`, async (req, reply) => {
      const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
      if (!m) return reply.code(401).send({ error: { code: 'unauthorized' } });
      const a = await handlers[v](hashToken(m[1]!), req.body);
      if (a.status !== 200) return reply.code(a.status).send({ error: { code: a.status === 401 ? 'unauthorized' : 'resource_missing' } });
      stats[v].answered++;
      return reply.type('application/json').send(JSON.stringify(a.screening));
    });
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  opened = { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, app, pool, store, dir, stats };
  return opened.url;
}

serveRpc({
  open: (o: { url: string; poolMax: number }) => open(o),
  token: () => TOKEN,
  /**
   * Cache these live carriers' scores (as the emulator would answer them) in PostgreSQL and in the
   * local SQLite file, through each backend's putScore, and add the token to both.
   */
  seed: async (dots: string[]) => {
    if (!opened) throw new Error('not open');
    const x = poolExecutor(opened.pool);
    const scores = pgScoreCacheOf(x, { now: () => new Date() });
    const now = new Date();
    for (const dot of dots) {
      const profile = liveCarrier(dot);
      if (!profile) throw new Error(`no live carrier ${dot}`);
      const score = scoreBody(profile, 'live', now);
      await scores.putScore(ENV, score, now);
      opened.store.putScore(ENV, score, now);
    }
    const t = {
      id: 'tok_bench',
      name: 'bench',
      role: 'tms',
      hash: hashToken(TOKEN),
      prefix: TOKEN.slice(0, 11),
      created_at: now.toISOString(),
      api_version: LATEST_API_VERSION,
    };
    await pgTokensOf(x).insert(t);
    tokensOf(opened.store).insert(t);
    return dots.length;
  },
  /** Per variant: answers sent (200), batches and pieces committed; and screening rows committed in each record. */
  counts: async () => {
    if (!opened) throw new Error('not open');
    // `mixed`: carriers whose rows differ in anything but id, tender and time (c's statement must
    // write what insertScreening writes); `dangling`: events naming no screening.
    const { rows } = await opened.pool.query<{ screenings: number; events: number; mixed: number; dangling: number }>(
      `SELECT (SELECT count(*)::int FROM screenings) AS screenings, (SELECT count(*)::int FROM events) AS events,
         (SELECT count(*)::int FROM (
            SELECT carrier_dot FROM screenings GROUP BY carrier_dot
            HAVING count(DISTINCT ROW(status, query_kind, query_value, priority, refresh, callback_url, action, hold_reason, source, score,
              score_fetch_id, score_fetched_at, model_version, error, carrier_key, carrier_mc, load, version, settled_by,
              standing_decision, rescreened_at, completed_at = created_at)::text) > 1) m) AS mixed,
         (SELECT count(*)::int FROM events e WHERE e.event <> 'screening.completed'
            OR NOT EXISTS (SELECT 1 FROM screenings s WHERE s.id = e.data::json ->> 'screening_ref')) AS dangling`,
    );
    const db = connectionOf(opened.store);
    const local = db.prepare('SELECT (SELECT count(*) FROM screenings) AS screenings, (SELECT count(*) FROM events) AS events').get() as {
      screenings: number;
      events: number;
    };
    return { stats: opened.stats, pg: rows[0]!, sqlite: local };
  },
  close: async () => {
    if (!opened) return;
    await opened.app.close();
    await opened.pool.end();
    opened.store.close();
    rmSync(opened.dir, { recursive: true, force: true });
  },
});
