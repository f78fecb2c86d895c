import { createPrivateFile, ensurePrivateDir, makeDatabasePrivate } from './private-files.js';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { canonicalDot, canonicalMc, queryKey } from '../../shared/carrier-id.js';
import type { IntakeEvent, IntakeEventName, Review, ReviewState, Screening, ScreeningError } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { BACKSTOP_CHECKPOINT_PAGES, startCheckpointer, type Checkpointer } from './checkpointer.js';
import { latestVersion, migrate } from './migrations.js';
import { checkEnv, checkId, checkLimit, checkNewScreening, checkQuery, checkResult, iso, monthDays, usageFigure } from './arg-checks.js';
import { carrierColumns, dotOf, mcOf } from './carrier-columns.js';
import { keysetPage, type KeysetList } from './keyset.js';
import {
  SCREENING_COLUMNS,
  insertedScreening,
  loadOf,
  toReview,
  toScreening,
  withFacts,
  type ReviewExtraRow,
  type ScreeningRow,
} from './rows.js';
import { scoresOf } from './score-refs.js';
import { NotFoundError, ReviewConflictError, StoreArgumentError, StoreError, type StoreErrorCode } from './store-error.js';
import { toStoreError } from './sqlite-errors.js';
import { reviewListOf } from './review-list.js';
import { SqliteUnits } from './unit-of-work.js';
import { noteStoreFailure, noteStoreSuccess } from './write-failures.js';
import type {
  CachedNotFound,
  CachedScore,
  Env,
  OpenStoreOptions,
  ReviewListState,
  ScreeningResult,
  Store,
  UsageFigures,
  UsageSnapshot,
} from './types.js';

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

// ---- cache keys: one carrier, one key, whatever zero-padding the caller used (shared/carrier-id.ts) ----
const dotKey = canonicalDot;
const mcKey = canonicalMc;

interface CacheEntryRow {
  fetched_at: string;
  model_version: string;
  fetch_id: number | null;
  /** Only for an entry from before scores were stored per fetch (fetch_id null). */
  body: string | null;
}

/**
 * A result's columns, bound by position in this order: named binding looks every name up on the
 * object per call, and a hit writes a screening per request.
 */
const RESULT_COLUMNS = [
  'action',
  'hold_reason',
  'source',
  'score',
  'score_fetch_id',
  'score_fetched_at',
  'model_version',
  'error',
] as const;
const RESULT_PLACEHOLDERS = RESULT_COLUMNS.map(() => '?').join(', ');

/** A result as the values of RESULT_COLUMNS. */
function resultValues(r: ScreeningResult): unknown[] {
  return [
    r.action,
    r.hold_reason,
    r.source,
    // A reference to the fetch when there is one: the score's JSON is stored once per fetch.
    r.score === null || (r.score_fetch_id ?? null) !== null ? null : JSON.stringify(r.score),
    r.score === null ? null : (r.score_fetch_id ?? null),
    r.score_fetched_at,
    r.score?.model_version ?? null,
    r.error === null ? null : JSON.stringify(r.error),
  ];
}

/**
 * The carrier columns a result sets (carrier-columns.ts): the number asked by stays, the other
 * kind is the score's. Bound after completed_at / rescreened_at: the score's DOT, then MC.
 */
const SCORE_CARRIER_SET = `carrier_dot = CASE WHEN query_kind = 'dot_number' THEN carrier_dot ELSE ? END,
  carrier_mc = CASE WHEN query_kind = 'mc_number' THEN carrier_mc ELSE ? END`;

/** The score's carrier ids, canonical, for SCORE_CARRIER_SET. */
function scoreCarrier(r: ScreeningResult): [string | null, string | null] {
  return [dotOf(r.score?.carrier?.dot_number), mcOf(r.score?.carrier?.mc_number)];
}

/** GET /reviews as a keyset list (review-list.ts), on SQLite: rowid breaks ties. */
export function reviewList(state: ReviewListState | undefined): KeysetList {
  return reviewListOf(state, {
    select: `SELECT ${SCREENING_COLUMNS} FROM reviews r JOIN screenings s ON s.id = r.screening_id`,
    tie: 'r.rowid',
    // Named: with state IN (…) SQLite reads both states' ranges of reviews_by_state_decided and sorts them all.
    decidedPageSelect: `SELECT ${SCREENING_COLUMNS} FROM reviews r INDEXED BY reviews_decided_recent JOIN screenings s ON s.id = r.screening_id`,
  });
}

/**
 * Fail at open, not at the first write, when the file cannot be written. BEGIN alone is not
 * enough (in WAL mode a read-only database file still begins a write transaction): write the
 * header's user_version back unchanged, then roll back.
 */
function probeWritable(db: Database.Database, version: number): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.pragma(`user_version = ${version}`);
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}

/** The store's connection, for the watch store to share its transactions (worker/store only). */
const SQLITE_CONNECTION: unique symbol = Symbol('carrier-screen sqlite connection');

/** The connection behind a store opened by openStore. */
export function connectionOf(store: Store): Database.Database {
  const db = (store as Store & { [SQLITE_CONNECTION]?: Database.Database })[SQLITE_CONNECTION];
  if (!db) throw new StoreArgumentError('not a store opened by openStore', 'store');
  return db;
}

/**
 * Run `fn` on `db` as a store method runs: SQLite/file errors leave as StoreError, and a write
 * the disk refused is noted (/healthz's write probe, metrics). Every store method runs through
 * it; code that uses the connection itself calls it too.
 */
export function guardCall<T>(db: Database.Database, fn: () => T): T {
  try {
    const out = fn();
    noteStoreSuccess(db);
    return out;
  } catch (err) {
    const e = toStoreError(err, db.name);
    noteStoreFailure(db, e);
    throw e;
  }
}

/** Store methods that answer with a promise (unit-of-work.ts). */
const ASYNC_METHODS: ReadonlySet<string> = new Set(['unitOfWork', 'unitOfWorkWithoutSavepoints', 'readCommitted']);

/**
 * `impl` with every method wrapped so SQLite/file errors leave only as StoreError (our own
 * argument, not-found and conflict errors pass as they are); other values are copied.
 * The Store and the watch store both go through it.
 */
export function guardMethods(impl: object, db: Database.Database, path: string): Record<string | symbol, unknown> {
  const out: Record<string | symbol, unknown> = {};
  for (const [name, value] of Object.entries(impl)) {
    if (typeof value !== 'function') {
      out[name] = value;
      continue;
    }
    if (ASYNC_METHODS.has(name)) {
      // They answer with a promise: a closed store is a rejection, and they note failures themselves.
      out[name] = (...args: unknown[]) =>
        db.open
          ? (value as (...a: unknown[]) => Promise<unknown>)(...args)
          : Promise.reject(new StoreError('store_closed', `SQLite store ${path}: the store is closed`));
      continue;
    }
    out[name] = (...args: unknown[]) => {
      if (!db.open && name !== 'close') throw new StoreError('store_closed', `SQLite store ${path}: the store is closed`);
      return guardCall(db, () => (value as (...a: unknown[]) => unknown)(...args));
    };
  }
  return out;
}

function guarded(impl: Store, db: Database.Database, path: string): Store {
  const out = guardMethods(impl, db, path);
  Object.defineProperty(out, SQLITE_CONNECTION, { value: db });
  return Object.freeze(out) as unknown as Store;
}

/**
 * Open (creating if missing) the SQLite store at `path`: WAL, busy_timeout, foreign keys, and
 * the schema migrated to the newest step. Several processes may open one file.
 * Failures are StoreError with a code (sqlite_readonly, sqlite_corrupt, sqlite_busy, …).
 */
export function openStore(path: string, opts: OpenStoreOptions = {}): Store {
  if (typeof path !== 'string' || path.trim() === '') throw new StoreArgumentError('path must be a non-empty file path', 'path');
  const memory = path === ':memory:';
  const file = memory ? path : resolve(path);
  const now = opts.now ?? (() => new Date());
  const readonly = opts.readonly === true;
  const busyTimeout = opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isInteger(busyTimeout) || busyTimeout < 0)
    throw new StoreArgumentError('busyTimeoutMs must be a whole number of milliseconds', 'busyTimeoutMs');

  let db: Database.Database | undefined;
  try {
    if (!memory && !readonly) {
      ensurePrivateDir(dirname(file));
      createPrivateFile(file);
    }
    db = new Database(file, { readonly, fileMustExist: readonly, timeout: busyTimeout });
    db.pragma(`busy_timeout = ${busyTimeout}`);
    db.pragma('foreign_keys = ON');
    // Statement journals (a write inside a savepoint, as every group-committed screening is) in
    // memory: as temp files each is created, written page by page and deleted, per statement.
    db.pragma('temp_store = MEMORY');
    if (readonly) {
      const v = db.pragma('user_version', { simple: true }) as number;
      if (v > latestVersion())
        throw new StoreError(
          'schema_too_new',
          `SQLite store ${file}: schema version ${v} is newer than this program knows (${latestVersion()}); upgrade carrier-screen`,
        );
      if (v < latestVersion())
        throw new StoreError(
          'schema_outdated',
          `SQLite store ${file}: schema version ${v}, this program needs ${latestVersion()}; open it writable once to migrate`,
        );
    } else {
      // A new file: let retention give freed pages back in small steps (PRAGMA incremental_vacuum).
      if (!memory && (db.pragma('page_count', { simple: true }) as number) === 0) db.pragma('auto_vacuum = INCREMENTAL');
      if (!memory) {
        db.pragma('journal_mode = WAL');
        // -wal and -shm of an older, looser install too.
        makeDatabasePrivate(file);
      }
      db.pragma('synchronous = NORMAL'); // with WAL: never corrupts; a power cut may lose the latest commits
      // migrate() checkpoints after each step: the WAL never holds every step's pages at once.
      const version = migrate(db, file, undefined, {
        now,
        ...(opts.log ? { log: opts.log } : {}),
        ...(opts.onMigration ? { onStep: opts.onMigration } : {}),
      });
      probeWritable(db, version);
    }
    let checkpointer: Checkpointer | undefined;
    if (opts.backgroundCheckpoints && !memory && !readonly) {
      db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
      checkpointer = startCheckpointer(file);
    }
    return guarded(
      build(db, file, now, () => checkpointer?.close()),
      db,
      file,
    );
  } catch (err) {
    try {
      db?.close();
    } catch {
      /* already failing; the first error is the one to report */
    }
    throw toStoreError(err, file);
  }
}

function build(db: Database.Database, path: string, now: () => Date, onClose: () => void): Store {
  // Prepared once; reused for every call.
  const st = {
    putScore: db.prepare<[string, string, string, string, string, number]>(`
      INSERT INTO score_cache (env, dot_number, body, model_version, fetched_at, fetch_id) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (env, dot_number) DO UPDATE SET
        body = excluded.body, model_version = excluded.model_version, fetched_at = excluded.fetched_at, fetch_id = excluded.fetch_id
      WHERE excluded.fetched_at >= score_cache.fetched_at`),
    putFetch: db.prepare<[string, string, string, string]>(
      'INSERT INTO score_fetches (env, dot_number, body, fetched_at) VALUES (?, ?, ?, ?)',
    ),
    dropFetch: db.prepare<[number]>('DELETE FROM score_fetches WHERE id = ?'),
    dropAliasesOf: db.prepare<[string, string]>('DELETE FROM mc_alias WHERE env = ? AND dot_number = ?'),
    putAlias: db.prepare<[string, string, string]>(`
      INSERT INTO mc_alias (env, mc_number, dot_number) VALUES (?, ?, ?)
      ON CONFLICT (env, mc_number) DO UPDATE SET dot_number = excluded.dot_number`),
    dropNotFound: db.prepare<[string, string]>('DELETE FROM not_found_cache WHERE env = ? AND query_key = ?'),
    // The cache entry without its body: a hit takes the parsed score of its fetch (kept below).
    scoreByDot: db.prepare<[string, string], CacheEntryRow>(
      'SELECT fetched_at, model_version, fetch_id, CASE WHEN fetch_id IS NULL THEN body END AS body FROM score_cache WHERE env = ? AND dot_number = ?',
    ),
    scoreByMc: db.prepare<[string, string], CacheEntryRow>(`
      SELECT c.fetched_at, c.model_version, c.fetch_id, CASE WHEN c.fetch_id IS NULL THEN c.body END AS body FROM mc_alias a
      JOIN score_cache c ON c.env = a.env AND c.dot_number = a.dot_number
      WHERE a.env = ? AND a.mc_number = ?`),
    putNotFound: db.prepare<[string, string, string, string]>(`
      INSERT INTO not_found_cache (env, query_key, error, fetched_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (env, query_key) DO UPDATE SET error = excluded.error, fetched_at = excluded.fetched_at`),
    getNotFound: db.prepare<[string, string], { error: string; fetched_at: string }>(
      'SELECT error, fetched_at FROM not_found_cache WHERE env = ? AND query_key = ?',
    ),

    insertScreening: db.prepare(`
      INSERT INTO screenings (id, tender_id, load, status, query_kind, query_value, priority, refresh, callback_url, created_at, carrier_dot, carrier_mc)
      VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?)`),
    insertFinished: db.prepare(`
      INSERT INTO screenings (id, tender_id, load, status, query_kind, query_value, priority, refresh, callback_url, created_at,
        ${RESULT_COLUMNS.join(', ')}, completed_at, carrier_key, carrier_dot, carrier_mc)
      VALUES (?, ?, ?, 'done', ?, ?, ?, ?, ?, ?, ${RESULT_PLACEHOLDERS}, ?, ?, ?, ?)`),
    markActive: db.prepare<[string]>("UPDATE screenings SET status = 'active' WHERE id = ? AND status = 'queued'"),
    rescreen: db.prepare(`
      UPDATE screenings SET action = ?, hold_reason = COALESCE(?, hold_reason), source = ?, score = ?, score_fetch_id = ?,
        score_fetched_at = ?, model_version = ?, error = ?, rescreened_at = ?, ${SCORE_CARRIER_SET}
      WHERE id = ? AND status = 'done' AND action = 'hold' AND settled_by IS NULL`),
    markRescreened: db.prepare<[string, string]>('UPDATE screenings SET rescreened_at = ? WHERE id = ?'),
    complete: db.prepare(`
      UPDATE screenings SET status = 'done', ${RESULT_COLUMNS.map((c) => `${c} = ?`).join(', ')}, completed_at = ?, ${SCORE_CARRIER_SET}
      WHERE id = ? AND status != 'done'`),
    // A resolved review's decision outlives a late (re-run) completion.
    keepReviewDecision: db.prepare<[string]>(`
      UPDATE screenings SET action = (
        SELECT CASE r.state WHEN 'approved' THEN 'tender' ELSE 'block' END FROM reviews r
        WHERE r.screening_id = screenings.id AND r.state IN ('approved', 'rejected'))
      WHERE id = ? AND action = 'hold'
        AND EXISTS (SELECT 1 FROM reviews r WHERE r.screening_id = screenings.id AND r.state IN ('approved', 'rejected'))`),
    discard: db.prepare<[string]>("DELETE FROM screenings WHERE id = ? AND status = 'queued'"),
    exists: db.prepare<[string], { id: string }>('SELECT id FROM screenings WHERE id = ?'),
    screening: db.prepare<[string], ScreeningRow>(
      `SELECT ${SCREENING_COLUMNS} FROM screenings s LEFT JOIN reviews r ON r.screening_id = s.id WHERE s.id = ?`,
    ),
    listUnfinished: db.prepare<[], ScreeningRow>(
      `SELECT ${SCREENING_COLUMNS} FROM screenings s LEFT JOIN reviews r ON r.screening_id = s.id
       WHERE s.status IN ('queued', 'active') ORDER BY s.created_at ASC, s.rowid ASC`,
    ),
    // The unfinished partial index is in created_at order: the first queued row there is the answer.
    oldestQueued: db.prepare<[], { created_at: string }>(
      "SELECT created_at FROM screenings WHERE status IN ('queued', 'active') AND status = 'queued' ORDER BY created_at ASC LIMIT 1",
    ),

    review: db.prepare<[string], ScreeningRow>(
      `SELECT ${SCREENING_COLUMNS} FROM reviews r JOIN screenings s ON s.id = r.screening_id WHERE r.id = ?`,
    ),
    reviewsPending: db.prepare<[number], ScreeningRow>(
      `SELECT ${SCREENING_COLUMNS} FROM reviews r JOIN screenings s ON s.id = r.screening_id
       WHERE r.state = 'pending' AND r.parent_id IS NULL ORDER BY r.created_at ASC, r.rowid ASC LIMIT ?`,
    ),
    reviewsByState: db.prepare<[string, number], ScreeningRow>(
      `SELECT ${SCREENING_COLUMNS} FROM reviews r JOIN screenings s ON s.id = r.screening_id
       WHERE r.state = ? AND r.parent_id IS NULL ORDER BY COALESCE(r.decided_at, r.created_at) DESC, r.rowid DESC LIMIT ?`,
    ),
    reviewsAll: db.prepare<[number], ScreeningRow>(
      `SELECT ${SCREENING_COLUMNS} FROM reviews r JOIN screenings s ON s.id = r.screening_id
       WHERE r.parent_id IS NULL ORDER BY r.created_at DESC, r.rowid DESC LIMIT ?`,
    ),
    // The carrier's tenders on a review: its own screening and those waiting on it.
    tendersOf: db.prepare<
      [string, string],
      { screening_id: string; tender_id: string | null; load: string | null; action: string | null; created_at: string }
    >(
      `SELECT s.id AS screening_id, s.tender_id, s.load, s.action, s.created_at FROM reviews r JOIN screenings s ON s.id = r.screening_id
       WHERE r.id = ? OR r.parent_id = ? ORDER BY s.created_at ASC, s.rowid ASC`,
    ),
    resolveReview: db.prepare<[string, string, string, string | null, string | null, string]>(
      "UPDATE reviews SET state = ?, decided_by = ?, decided_at = ?, note = ?, token_id = ? WHERE id = ? AND state = 'pending'",
    ),
    // What a review read adds to the joined row: its own closing and credential, its carrier
    // review's version and newest facts (a tender's own item shows its carrier's).
    reviewExtra: db.prepare<[string], ReviewExtraRow>(
      'SELECT version, facts_screening_id, closed_by, closed_reason, token_id FROM reviews WHERE id = ?',
    ),
    actionAfterReview: db.prepare<[string, string]>(
      'UPDATE screenings SET action = ? WHERE id = (SELECT screening_id FROM reviews WHERE id = ?)',
    ),
    reviewState: db.prepare<[string], { state: ReviewState }>('SELECT state FROM reviews WHERE id = ?'),
    countPending: db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM reviews WHERE state = 'pending' AND parent_id IS NULL"),

    recordLookup: db.prepare<[string, string]>(`
      INSERT INTO daily_lookups (env, day, lookups) VALUES (?, ?, 1)
      ON CONFLICT (env, day) DO UPDATE SET lookups = lookups + 1`),
    lookupsBetween: db.prepare<[string, string, string], { day: string; lookups: number }>(
      'SELECT day, lookups FROM daily_lookups WHERE env = ? AND day >= ? AND day <= ?',
    ),
    putUsage: db.prepare(`
      INSERT INTO usage_snapshots (env, monthly_quota, used, remaining, rate_limit_per_minute, at)
      VALUES (@env, @monthly_quota, @used, @remaining, @rate_limit_per_minute, @at)
      ON CONFLICT (env) DO UPDATE SET monthly_quota = excluded.monthly_quota, used = excluded.used,
        remaining = excluded.remaining, rate_limit_per_minute = excluded.rate_limit_per_minute, at = excluded.at
      WHERE excluded.at >= usage_snapshots.at`),
    getUsage: db.prepare<[string], UsageSnapshot>(
      'SELECT monthly_quota, used, remaining, rate_limit_per_minute, at FROM usage_snapshots WHERE env = ?',
    ),

    appendEvent: db.prepare<[string, string, string], { id: number }>(
      'INSERT INTO events (event, data, created_at) VALUES (?, ?, ?) RETURNING id',
    ),
    eventsSince: db.prepare<[number, number], { id: number; event: string; data: string }>(
      'SELECT id, event, data FROM events WHERE id > ? ORDER BY id ASC LIMIT ?',
    ),
    // sqlite_sequence survives pruning, so the last id never goes backwards.
    lastEventId: db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'events'"),
    // Everything at or below the (keep+1)-th newest id goes.
  };

  const reviewOf = (row: ScreeningRow): Review => {
    const own = st.reviewExtra.get(row.r_id!)!;
    const head = row.r_parent_id === null ? own : (st.reviewExtra.get(row.r_parent_id) ?? own);
    const base = toReview(
      row,
      scoreOf,
      st.tendersOf
        .all(row.r_id!, row.r_id!)
        .map((t) => ({ ...t, load: loadOf(t.load), action: t.action as Review['tenders'][number]['action'] })),
    );
    const factsRow = head.facts_screening_id === null ? undefined : st.screening.get(head.facts_screening_id);
    return withFacts(base, { ...own, version: head.version }, factsRow ? toScreening(factsRow, scoreOf) : undefined);
  };

  const mustScreening = (id: string): Screening => {
    const row = st.screening.get(id);
    if (!row) throw new NotFoundError(`no screening with id ${id}`);
    return toScreening(row, scoreOf);
  };

  const putScoreTx = db.transaction((env: Env, score: SvcScore, fetchedAt: string, askedMc: string | undefined): number | null => {
    const dot = dotKey(score.carrier.dot_number);
    const body = JSON.stringify(score);
    // The fetch, stored once: screenings of this score refer to it.
    const fetchId = Number(st.putFetch.run(env, dot, body, fetchedAt).lastInsertRowid);
    // The entry refers to the fetch: no copy of the body (migration 15).
    const replaced = st.putScore.run(env, dot, '', score.model_version, fetchedAt, fetchId).changes > 0;
    if (!replaced) {
      st.dropFetch.run(fetchId); // a newer entry is already there (another process fetched later)
      return null;
    }
    st.dropAliasesOf.run(env, dot);
    // The MC the score names, and the MC it was asked by (it may differ, or the score name none):
    // either way the next screening by that MC is a cache hit, not another lookup.
    const aliases = new Set<string>();
    for (const mc of [score.carrier.mc_number, askedMc]) if (typeof mc === 'string' && mc.trim() !== '') aliases.add(mcKey(mc));
    for (const mc of aliases) {
      st.putAlias.run(env, mc, dot);
      st.dropNotFound.run(env, `mc:${mc}`);
    }
    st.dropNotFound.run(env, `dot:${dot}`);
    return fetchId;
  });

  const completeTx = db.transaction((id: string, r: ScreeningResult): { screening: Screening; changed: boolean } => {
    const info = st.complete.run(...resultValues(r), now().toISOString(), ...scoreCarrier(r), id);
    if (info.changes > 0) st.keepReviewDecision.run(id);
    return { screening: mustScreening(id), changed: info.changes > 0 };
  });

  const resolveTx = db.transaction(
    (id: string, state: 'approved' | 'rejected', by: string, note: string | null, tokenId: string | null): Review => {
      const info = st.resolveReview.run(state, by, now().toISOString(), note, tokenId, id);
      if (info.changes === 0) {
        const current = st.reviewState.get(id);
        if (!current) throw new NotFoundError(`no review with id ${id}`);
        throw new ReviewConflictError(`review ${id} is already ${current.state}`, id);
      }
      st.actionAfterReview.run(state === 'approved' ? 'tender' : 'block', id);
      return reviewOf(st.review.get(id)!);
    },
  );

  // better-sqlite3's db.transaction(fn) builds four wrapper functions per call; a cache hit
  // nests several. The same statements, prepared once. IMMEDIATE at the top: take the write lock
  // up front, so two processes never deadlock upgrading; a savepoint when nested.
  const tx = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT nested'),
    release: db.prepare('RELEASE nested'),
    rollbackTo: db.prepare('ROLLBACK TO nested'),
  };
  // transactionWithoutSavepoints: nested transactions run inline, and whether one threw.
  // SQLite rolled the whole transaction back inside a nested one (SQLITE_FULL, IOERR, NOMEM):
  // `lost`: a new one is begun at once, so that whatever a caller that caught the error writes
  // next is not committed on its own, and the outermost transaction fails instead of committing.
  // `lostCode`: what rolled it back (sqlite_full …): the outermost failure says so, so a full disk
  // is a refused write (503, /healthz) rather than an unnamed database error.
  // Shared with the asynchronous unit of work (unit-of-work.ts), whose nested units may call this.
  const state = { inline: false, inlineThrew: false, lost: false, lostCode: 'sqlite_error' as StoreErrorCode };
  const UNDONE = Symbol('rolled back, to be done again with savepoints');
  const holdLostTransaction = (cause: unknown): void => {
    if (db.inTransaction) return;
    state.lost = true;
    const e = toStoreError(cause, path);
    state.lostCode = e instanceof StoreError ? e.code : 'sqlite_error';
    tx.begin.run();
  };
  const units = new SqliteUnits({ db, path, sql: tx, state, holdLostTransaction });
  const runTransaction = <T>(fn: () => T): T => {
    const nested = db.inTransaction;
    if (nested && state.inline) {
      try {
        return fn();
      } catch (e) {
        state.inlineThrew = true;
        holdLostTransaction(e);
        throw e;
      }
    }
    (nested ? tx.savepoint : tx.begin).run();
    if (!nested) {
      state.lost = false;
      state.lostCode = 'sqlite_error';
    }
    try {
      const result = fn();
      if (result instanceof Promise) throw new TypeError('a transaction cannot return a promise');
      if (!nested && state.lost)
        throw new StoreError(
          state.lostCode,
          `SQLite store ${path}: the transaction was rolled back after an error inside it (${state.lostCode}); nothing of it was kept`,
        );
      (nested ? tx.release : tx.commit).run();
      return result;
    } catch (e) {
      // SQLite may already have rolled back the whole transaction (e.g. SQLITE_FULL).
      if (db.inTransaction) {
        if (nested) {
          tx.rollbackTo.run();
          tx.release.run();
        } else tx.rollback.run();
      } else if (nested) holdLostTransaction(e);
      throw e;
    }
  };

  const scoreOf = scoresOf(db);

  let closed = false; // close() twice is harmless

  return {
    path,

    putScore(env, score, fetchedAt, asked) {
      checkEnv(env);
      if (!score || typeof score !== 'object' || typeof score.carrier?.dot_number !== 'string' || score.carrier.dot_number.trim() === '')
        throw new StoreArgumentError('score must be a /v1 score object with carrier.dot_number', 'score');
      if (typeof score.model_version !== 'string') throw new StoreArgumentError('score.model_version must be a string', 'score');
      return putScoreTx(env, score, iso(fetchedAt ?? now(), 'fetchedAt'), asked && 'mc_number' in asked ? asked.mc_number : undefined);
    },

    getScore(env, query): CachedScore | undefined {
      checkEnv(env);
      const q = checkQuery(query);
      const row = 'dot_number' in q ? st.scoreByDot.get(env, dotKey(q.dot_number)) : st.scoreByMc.get(env, mcKey(q.mc_number));
      if (!row) return undefined;
      // A cache entry always holds a score: its fetch's, or (an older entry) its own body.
      return {
        score: scoreOf(row.fetch_id, row.body)!,
        fetched_at: row.fetched_at,
        model_version: row.model_version,
        fetch_id: row.fetch_id,
      };
    },

    putNotFound(env, query, error, at) {
      checkEnv(env);
      const q = checkQuery(query);
      st.putNotFound.run(env, queryKey(q), JSON.stringify(error), iso(at ?? now(), 'at'));
    },

    getNotFound(env, query): CachedNotFound | undefined {
      checkEnv(env);
      const row = st.getNotFound.get(env, queryKey(checkQuery(query)));
      if (!row) return undefined;
      return { fetched_at: row.fetched_at, error: JSON.parse(row.error) as ScreeningError };
    },

    insertScreening(s, finished) {
      const { q, id } = checkNewScreening(s, finished);
      const [kind, value] = 'dot_number' in q ? (['dot_number', q.dot_number] as const) : (['mc_number', q.mc_number] as const);
      const createdAt = now().toISOString();
      const tenderId = s.tender_id ?? null;
      const callbackUrl = s.callback_url ?? null;
      const refresh = s.refresh ? 1 : 0;
      const load = s.load ?? null;
      const loadJson = load === null ? null : JSON.stringify(load);
      const [carrierDot, carrierMc] = carrierColumns(
        kind,
        value,
        finished?.score?.carrier?.dot_number,
        finished?.score?.carrier?.mc_number,
      );
      if (finished === undefined)
        st.insertScreening.run(id, tenderId, loadJson, kind, value, s.priority, refresh, callbackUrl, createdAt, carrierDot, carrierMc);
      else
        st.insertFinished.run(
          id,
          tenderId,
          loadJson,
          kind,
          value,
          s.priority,
          refresh,
          callbackUrl,
          createdAt,
          ...resultValues(finished),
          createdAt,
          s.carrier_key ?? null,
          carrierDot,
          carrierMc,
        );
      return insertedScreening({ id, query: q, loadJson, createdAt }, s, finished);
    },

    markActive(id) {
      checkId(id);
      if (st.markActive.run(id).changes === 0 && !st.exists.get(id)) throw new NotFoundError(`no screening with id ${id}`);
    },

    rescreenResult(id, r) {
      checkId(id);
      checkResult(r);
      return st.rescreen.run(...resultValues(r), now().toISOString(), ...scoreCarrier(r), id).changes > 0;
    },

    markRescreened(id) {
      checkId(id);
      st.markRescreened.run(now().toISOString(), id);
    },

    completeScreening(id, r) {
      checkId(id);
      checkResult(r);
      return completeTx(id, r);
    },

    discardScreening(id) {
      checkId(id);
      return st.discard.run(id).changes > 0;
    },

    getScreening(id) {
      checkId(id);
      const row = st.screening.get(id);
      return row ? toScreening(row, scoreOf) : undefined;
    },

    listUnfinished() {
      return st.listUnfinished.all().map((row) => toScreening(row, scoreOf));
    },

    oldestQueuedAt() {
      return st.oldestQueued.get()?.created_at ?? null;
    },

    getReview(id) {
      checkId(id);
      const row = st.review.get(id);
      return row ? reviewOf(row) : undefined;
    },

    listReviews(state, limit = 100) {
      const n = checkLimit(limit);
      if (state === undefined) return st.reviewsAll.all(n).map((row) => reviewOf(row));
      if (state === 'pending') return st.reviewsPending.all(n).map((row) => reviewOf(row));
      if (state === 'approved' || state === 'rejected' || state === 'closed' || state === 'superseded')
        return st.reviewsByState.all(state, n).map((row) => reviewOf(row));
      throw new StoreArgumentError(
        `state must be "pending", "approved", "rejected", "closed" or "superseded", got ${JSON.stringify(state)}`,
        'state',
      );
    },

    pageReviews(state, p) {
      const list = reviewList(state);
      const { rows, has_more } = keysetPage<ScreeningRow>(db, list, p);
      return { data: rows.map((row) => reviewOf(row)), has_more };
    },

    resolveReview(id, state, by, note, tokenId = null) {
      checkId(id);
      if (state !== 'approved' && state !== 'rejected')
        throw new StoreArgumentError(`state must be "approved" or "rejected", got ${JSON.stringify(state)}`, 'state');
      if (typeof by !== 'string' || by.trim() === '') throw new StoreArgumentError('by must name who decided', 'by');
      if (note !== null && typeof note !== 'string') throw new StoreArgumentError('note must be a string or null', 'note');
      return resolveTx(id, state, by, note, tokenId);
    },

    countPendingReviews() {
      return st.countPending.get()!.n;
    },

    recordLookup(env, at) {
      checkEnv(env);
      st.recordLookup.run(env, iso(at ?? now(), 'at').slice(0, 10));
    },

    dailyLookups(env, month) {
      checkEnv(env);
      const days = monthDays(month, now().toISOString().slice(0, 10));
      if (days.length === 0) return [];
      const counts = new Map(st.lookupsBetween.all(env, days[0]!, days[days.length - 1]!).map((r) => [r.day, r.lookups]));
      return days.map((day) => ({ day, lookups: counts.get(day) ?? 0 }));
    },

    putUsageSnapshot(env, u: UsageFigures, at) {
      checkEnv(env);
      st.putUsage.run({
        env,
        monthly_quota: usageFigure(u?.monthly_quota, 'monthly_quota'),
        used: usageFigure(u?.used, 'used'),
        remaining: usageFigure(u?.remaining, 'remaining'),
        rate_limit_per_minute: usageFigure(u?.rate_limit_per_minute, 'rate_limit_per_minute'),
        at: iso(at ?? now(), 'at'),
      });
    },

    latestUsageSnapshot(env) {
      checkEnv(env);
      const row = st.getUsage.get(env);
      return row ? { ...row } : undefined;
    },

    appendEvent(event, data): IntakeEvent {
      if (typeof event !== 'string' || event === '') throw new StoreArgumentError('event must be a non-empty string', 'event');
      const text = JSON.stringify(data) ?? 'null';
      const { id } = st.appendEvent.get(event, text, now().toISOString())!;
      // The data as given (a reader of the log gets it parsed back from the text).
      return { id, event, data: data ?? null };
    },

    eventsSince(lastId, limit = 1000) {
      if (typeof lastId !== 'number' || !Number.isInteger(lastId) || lastId < 0)
        throw new StoreArgumentError('lastId must be a whole number, 0 or more', 'lastId');
      return st.eventsSince.all(lastId, checkLimit(limit)).map((r) => ({ id: r.id, event: r.event, data: JSON.parse(r.data) as unknown }));
    },

    pageEvents(filter, p) {
      const where: string[] = [];
      const params: Record<string, unknown> = {};
      if (filter.types && filter.types.length > 0) {
        // json_each: one statement shape whatever the number of types.
        where.push('event IN (SELECT value FROM json_each(@types))');
        params.types = JSON.stringify(filter.types);
      }
      if (filter.createdGte !== undefined) {
        where.push('created_at >= @gte');
        params.gte = filter.createdGte;
      }
      if (filter.createdLt !== undefined) {
        where.push('created_at < @lt');
        params.lt = filter.createdLt;
      }
      // The id is the log's order (appended as they happen): its primary key is the index.
      const { rows, has_more } = keysetPage<{ id: number; event: string; data: string; created_at: string }>(
        db,
        {
          select: 'SELECT id, event, data, created_at FROM events',
          where,
          params,
          key: 'id',
          tie: 'id',
          direction: 'DESC',
          cursor: 'id = @cursor_id',
        },
        p,
      );
      return {
        data: rows.map((r) => ({
          id: r.id,
          event: r.event as IntakeEventName,
          data: JSON.parse(r.data) as unknown,
          created_at: r.created_at,
        })),
        has_more,
      };
    },

    lastEventId() {
      return st.lastEventId.get()?.seq ?? 0;
    },

    transaction(fn) {
      if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
      return runTransaction(fn);
    },

    unitOfWork(fn) {
      return units.run(fn);
    },

    unitOfWorkWithoutSavepoints(fn) {
      return units.runWithoutSavepoints(fn);
    },

    readCommitted(fn) {
      if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
      return units.readCommitted(fn);
    },

    transactionWithoutSavepoints(fn) {
      if (typeof fn !== 'function') throw new StoreArgumentError('fn must be a function', 'fn');
      if (db.inTransaction) throw new StoreArgumentError('transactionWithoutSavepoints cannot be nested', 'fn');
      state.inline = true;
      state.inlineThrew = false;
      try {
        // A throw inside (or one a nested transaction saw) rolls it all back: undefined, not the
        // error. A failed COMMIT is thrown.
        return runTransaction(() => {
          let value;
          try {
            value = fn();
          } catch {
            throw UNDONE;
          }
          if (state.inlineThrew || value instanceof Promise) throw UNDONE;
          return { value };
        });
      } catch (e) {
        if (e === UNDONE) return undefined;
        throw e;
      } finally {
        state.inline = false;
      }
    },

    close() {
      if (closed) return;
      closed = true;
      onClose();
      db.close();
    },
  };
}
