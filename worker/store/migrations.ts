import type { Database } from 'better-sqlite3';
import {
  CALLBACK_COUNTS_MIGRATION_SQL,
  OUTBOX_DESTINATIONS_MIGRATION_SQL,
  OUTBOX_MIGRATION_SQL,
  normalizeOutboxDestinations,
} from './schema/outbox-schema.js';
import { DECISIONS_MIGRATION_SQL, DECISION_NAMES_MIGRATION_SQL, REVIEW_FACTS_MIGRATION_SQL } from './schema/decisions-schema.js';
import { FILL_REVIEW_CARRIERS, joinOpenReviews } from './schema/review-carrier-schema.js';
import {
  ACTION_INDEX_MIGRATION_SQL,
  SCREENING_SEARCH_MIGRATION_SQL,
  DROP_QUERY_INDEX_MIGRATION_SQL,
  UNFINISHED_INDEX_MIGRATION_SQL,
} from './screening-search.js';
import { CACHE_BODY_BY_FETCH_MIGRATION_SQL, SCORE_FETCHES_MIGRATION_SQL } from './score-refs.js';
import { METRICS_ROLE_MIGRATION_SQL, TOKEN_API_VERSION_MIGRATION_SQL, TOKENS_MIGRATION_SQL } from './schema/tokens-schema.js';
import { OPERATOR_STATE_MIGRATION_SQL } from './schema/operator-state-schema.js';
import { WATCH_BACKLOG_MIGRATION_SQL } from './schema/watch-backlog-schema.js';
import { TENDER_CARRIER_MIGRATION_SQL } from './schema/tender-carrier-schema.js';
import { LIFT_NOTE_MIGRATION_SQL } from './schema/lift-note-schema.js';
import { CHANGE_STORY_MIGRATION_SQL } from './schema/change-story-schema.js';
import { ENDED_DECISIONS_MIGRATION_SQL } from './schema/ended-index-schema.js';
import { BLOCK_DOT_INDEX_MIGRATION_SQL } from './schema/block-dot-index-schema.js';
import { PARTIAL_INDEXES_MIGRATION_SQL } from './partial-indexes-schema.js';
import { SCREENING_VERSION_MIGRATION_SQL } from './screening-version-schema.js';
import { OUTAGE_RESCREEN_MIGRATION_SQL } from './schema/outage-rescreen-schema.js';
import { LIST_INDEXES_MIGRATION_SQL } from './list-indexes-schema.js';
import { LOAD_MIGRATION_SQL } from './load-schema.js';
import { CARRIER_COLUMNS_MIGRATION_SQL, CARRIER_INDEXES_MIGRATION_SQL, FILL_CARRIER_COLUMNS } from './carrier-columns.js';
import type { BatchedStep, MigrationLog } from './batched-step.js';
export type { MigrationLog } from './batched-step.js';
import { StoreArgumentError, StoreError } from './store-error.js';

/**
 * One numbered schema step. Steps are applied in order, each in its own transaction; a step
 * with `batched` first walks its rows a batch per transaction (progress kept in
 * migration_progress, so a crash resumes), then runs `sql` and takes its number in the last one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** A data step that SQL cannot say (e.g. parsing URLs), run after `sql` in the same transaction. */
  run?: (db: Database) => void;
  batched?: BatchedStep;
}

/** Rows per transaction of a batched step: one such transaction holds the write lock well under a second. */
export const MIGRATION_BATCH_ROWS = 5_000;
/** A batched step reports its progress at most this often. */
const PROGRESS_EVERY_MS = 2_000;

/** The schema, step by step. Never edit a released step: add a new one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      -- Score cache: one entry per environment and DOT number; the /v1 body kept whole.
      CREATE TABLE score_cache (
        env           TEXT NOT NULL CHECK (env IN ('sandbox', 'live')),
        dot_number    TEXT NOT NULL,
        body          TEXT NOT NULL,
        model_version TEXT NOT NULL,
        fetched_at    TEXT NOT NULL,
        PRIMARY KEY (env, dot_number)
      ) WITHOUT ROWID;

      -- MC numbers are aliases of the DOT number they were last seen with.
      CREATE TABLE mc_alias (
        env        TEXT NOT NULL,
        mc_number  TEXT NOT NULL,
        dot_number TEXT NOT NULL,
        PRIMARY KEY (env, mc_number)
      ) WITHOUT ROWID;
      CREATE INDEX mc_alias_by_dot ON mc_alias (env, dot_number);

      -- carrier_not_found answers, cached briefly (the caller decides how briefly).
      CREATE TABLE not_found_cache (
        env        TEXT NOT NULL,
        query_key  TEXT NOT NULL,
        error      TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        PRIMARY KEY (env, query_key)
      ) WITHOUT ROWID;

      CREATE TABLE screenings (
        id               TEXT PRIMARY KEY,
        tender_id        TEXT,
        status           TEXT NOT NULL CHECK (status IN ('queued', 'active', 'done')),
        query_kind       TEXT NOT NULL CHECK (query_kind IN ('dot_number', 'mc_number')),
        query_value      TEXT NOT NULL,
        priority         TEXT NOT NULL,
        refresh          INTEGER NOT NULL DEFAULT 0,
        callback_url     TEXT,
        action           TEXT,
        hold_reason      TEXT,
        source           TEXT,
        score            TEXT,
        score_fetched_at TEXT,
        model_version    TEXT,
        error            TEXT,
        created_at       TEXT NOT NULL,
        completed_at     TEXT
      );
      CREATE INDEX screenings_by_created ON screenings (created_at);
      CREATE INDEX screenings_by_status ON screenings (status, created_at);

      CREATE TABLE reviews (
        id           TEXT PRIMARY KEY,
        screening_id TEXT NOT NULL UNIQUE REFERENCES screenings (id) ON DELETE CASCADE,
        state        TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
        hold_reason  TEXT NOT NULL,
        decided_by   TEXT,
        decided_at   TEXT,
        note         TEXT,
        created_at   TEXT NOT NULL
      );
      CREATE INDEX reviews_by_state ON reviews (state, created_at);

      -- Successful live lookups per UTC day, for the quota chart.
      CREATE TABLE daily_lookups (
        env     TEXT NOT NULL,
        day     TEXT NOT NULL,
        lookups INTEGER NOT NULL,
        PRIMARY KEY (env, day)
      ) WITHOUT ROWID;

      -- The latest quota/rate-limit figures seen, per environment.
      CREATE TABLE usage_snapshots (
        env                   TEXT PRIMARY KEY,
        monthly_quota         INTEGER,
        used                  INTEGER,
        remaining             INTEGER,
        rate_limit_per_minute INTEGER,
        at                    TEXT NOT NULL
      ) WITHOUT ROWID;

      -- AUTOINCREMENT: an id is never reused after pruning, so Last-Event-ID stays meaningful.
      CREATE TABLE events (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        event      TEXT NOT NULL,
        data       TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'watch list, carrier changes, local blocks',
    sql: `
      -- Carriers re-screened daily (docs/watchlist.md). carrier_key: 'dot:<n>' (leading zeros
      -- dropped), or 'mc:MC<n>' until the carrier's DOT number is known.
      CREATE TABLE watch_entries (
        carrier_key     TEXT PRIMARY KEY,
        dot_number      TEXT,
        mc_number       TEXT,
        note            TEXT,
        manual          INTEGER NOT NULL DEFAULT 0,
        added_at        TEXT NOT NULL,
        last_tender_at  TEXT,
        watch_until     TEXT,
        last_checked_at TEXT,
        next_check_at   TEXT NOT NULL,
        last_state      TEXT
      ) WITHOUT ROWID;
      CREATE INDEX watch_entries_due ON watch_entries (next_check_at);

      -- Which tender screenings used a carrier: the tenders a change callback names.
      CREATE TABLE watch_tenders (
        screening_id TEXT PRIMARY KEY,
        carrier_key  TEXT NOT NULL,
        tender_id    TEXT NOT NULL,
        callback_url TEXT,
        created_at   TEXT NOT NULL
      );
      CREATE INDEX watch_tenders_by_carrier ON watch_tenders (carrier_key, created_at);

      -- Screenings the watch scheduler started (tender_id NULL, priority background, refresh).
      CREATE TABLE watch_screenings (
        screening_id TEXT PRIMARY KEY,
        carrier_key  TEXT NOT NULL,
        created_at   TEXT NOT NULL
      ) WITHOUT ROWID;

      -- One row per change seen; the observing screening makes it unique (a re-run adds none).
      CREATE TABLE carrier_changes (
        id              TEXT PRIMARY KEY,
        carrier_key     TEXT NOT NULL,
        dot_number      TEXT,
        mc_number       TEXT,
        legal_name      TEXT,
        screening_id    TEXT NOT NULL UNIQUE,
        reasons         TEXT NOT NULL,
        before_state    TEXT NOT NULL,
        after_state     TEXT NOT NULL,
        tenders         TEXT NOT NULL,
        state           TEXT NOT NULL CHECK (state IN ('new', 'acknowledged')),
        acknowledged_by TEXT,
        acknowledged_at TEXT,
        detected_at     TEXT NOT NULL
      );
      CREATE INDEX carrier_changes_by_state ON carrier_changes (state, detected_at);

      -- The local do-not-use list. Lifting is recorded, never deleted; one active block per carrier.
      CREATE TABLE local_blocks (
        id          TEXT PRIMARY KEY,
        carrier_key TEXT NOT NULL,
        dot_number  TEXT,
        mc_number   TEXT,
        reason      TEXT NOT NULL,
        blocked_by  TEXT NOT NULL,
        blocked_at  TEXT NOT NULL,
        lifted_by   TEXT,
        lifted_at   TEXT
      );
      CREATE UNIQUE INDEX local_blocks_one_active ON local_blocks (carrier_key) WHERE lifted_at IS NULL;
      CREATE INDEX local_blocks_active_dot ON local_blocks (dot_number) WHERE lifted_at IS NULL;
      CREATE INDEX local_blocks_active_mc ON local_blocks (mc_number) WHERE lifted_at IS NULL;
    `,
  },
  { version: 3, name: 'callback outbox', sql: OUTBOX_MIGRATION_SQL },
  { version: 4, name: 'operator state', sql: OPERATOR_STATE_MIGRATION_SQL },
  { version: 5, name: 'standing carrier decisions', sql: DECISIONS_MIGRATION_SQL },
  { version: 6, name: 'carrier names on decisions', sql: DECISION_NAMES_MIGRATION_SQL },
  { version: 7, name: 'screening search indexes', sql: SCREENING_SEARCH_MIGRATION_SQL },
  { version: 8, name: 'scoped intake tokens', sql: TOKENS_MIGRATION_SQL },
  { version: 9, name: 'scores stored once per fetch', sql: SCORE_FETCHES_MIGRATION_SQL },
  { version: 10, name: 'index of unfinished screenings only', sql: UNFINISHED_INDEX_MIGRATION_SQL },
  { version: 11, name: 'no index by query (never read)', sql: DROP_QUERY_INDEX_MIGRATION_SQL },
  { version: 12, name: 'watch list backlog of cache hits', sql: WATCH_BACKLOG_MIGRATION_SQL },
  { version: 13, name: 'tenders read from screenings by carrier', sql: TENDER_CARRIER_MIGRATION_SQL },
  { version: 14, name: 'no index entries nothing reads', sql: PARTIAL_INDEXES_MIGRATION_SQL },
  { version: 15, name: 'cache entries refer to their fetch without a copy of its body', sql: CACHE_BODY_BY_FETCH_MIGRATION_SQL },
  { version: 16, name: 'review versions, closed reviews, token ids', sql: REVIEW_FACTS_MIGRATION_SQL },
  { version: 17, name: 'superseded reviews and re-screens after an outage', sql: OUTAGE_RESCREEN_MIGRATION_SQL },
  {
    version: 18,
    name: 'screening versions; callbacks by destination, in version order, cancellable, failures as categories',
    sql: SCREENING_VERSION_MIGRATION_SQL + OUTBOX_DESTINATIONS_MIGRATION_SQL,
  },
  {
    version: 19,
    name: 'callback destinations of rows owed before 18 parsed as the sender does',
    sql: '',
    run: normalizeOutboxDestinations,
  },
  { version: 20, name: 'a metrics token role (GET /metrics only)', sql: METRICS_ROLE_MIGRATION_SQL },
  {
    version: 21,
    name: 'every list paged by keyset on an index; carrier columns of screenings',
    sql: LIST_INDEXES_MIGRATION_SQL + CARRIER_COLUMNS_MIGRATION_SQL,
  },
  {
    version: 22,
    name: 'carrier columns filled in batches, then indexed for carrier search',
    sql: CARRIER_INDEXES_MIGRATION_SQL,
    batched: FILL_CARRIER_COLUMNS,
  },
  { version: 23, name: 'callback counts per state kept beside the outbox', sql: CALLBACK_COUNTS_MIGRATION_SQL },
  { version: 24, name: 'each token pinned to an API version', sql: TOKEN_API_VERSION_MIGRATION_SQL },
  {
    version: 25,
    name: "reviews from before carrier reviews name their carrier (in batches), and a carrier's open reviews become one",
    sql: '',
    batched: FILL_REVIEW_CARRIERS,
    run: joinOpenReviews,
  },
  { version: 26, name: 'the load a tender is for, as sent (pickup, lane, equipment)', sql: LOAD_MIGRATION_SQL },
  { version: 27, name: 'a lift of a local block keeps its note', sql: LIFT_NOTE_MIGRATION_SQL },
  { version: 28, name: 'GET /screenings?action= on an index (holds, blocks and any action but tender)', sql: ACTION_INDEX_MIGRATION_SQL },
  {
    version: 29,
    name: 'a change keeps the findings added and removed, and the note of its acknowledgement',
    sql: CHANGE_STORY_MIGRATION_SQL,
  },
  {
    version: 30,
    name: "desk histories on indexes: ended decisions (lapsed or revoked) by their end, one carrier's blocks by DOT",
    sql: ENDED_DECISIONS_MIGRATION_SQL + BLOCK_DOT_INDEX_MIGRATION_SQL,
  },
];

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

function userVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Bring the database up to the newest step. Each step runs in an IMMEDIATE transaction that
 * re-reads user_version first, so several processes opening one file at once apply each step
 * exactly once. A failing step rolls back whole and leaves the version where it was.
 */
export interface MigrateOptions {
  now?: () => Date;
  log?: MigrationLog;
  /** Rows per transaction of a batched step (tests make it small). */
  batchRows?: number;
  /** The clock of the time taken (tests need not pin it). */
  clock?: () => number;
  /** Told of each step applied, with its time (the start's warning line per step). */
  onStep?: (m: { version: number; name: string; ms: number }) => void;
}

export function migrate(
  db: Database,
  path: string,
  migrations: readonly Migration[] = MIGRATIONS,
  opts: MigrateOptions | (() => Date) = {},
): number {
  const o: MigrateOptions = typeof opts === 'function' ? { now: opts } : opts;
  const now = o.now ?? (() => new Date());
  const clock = o.clock ?? (() => performance.now());
  const batchRows = o.batchRows ?? MIGRATION_BATCH_ROWS;
  if (!Number.isInteger(batchRows) || batchRows < 1)
    throw new StoreArgumentError('batchRows must be a whole number of at least 1', 'batchRows');
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration steps must be numbered 1, 2, 3…; got ${m.version} at position ${i + 1}`);
  });
  const latest = sorted.length;
  const tooNew = (v: number) =>
    new StoreError(
      'schema_too_new',
      `SQLite store ${path}: schema version ${v} is newer than this program knows (${latest}); upgrade carrier-screen`,
    );

  const start = userVersion(db);
  if (start > latest) throw tooNew(start);

  const ensureTables = () =>
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS migration_progress (version INTEGER PRIMARY KEY, position INTEGER NOT NULL, rows INTEGER NOT NULL)`);
  // After each step (and each batch of a batched one): the WAL holds one step's pages at most, not
  // every step's (a new file's steps came to 1 MB; a big file's rewrite, hundreds). No-op
  // without WAL.
  const checkpoint = () => db.pragma('wal_checkpoint(TRUNCATE)');
  // The step's own SQL and its number, in the (last) transaction of the step.
  const finish = (m: Migration) => {
    if (m.sql) db.exec(m.sql);
    m.run?.(db);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, now().toISOString());
    db.prepare('DELETE FROM migration_progress WHERE version = ?').run(m.version);
    db.pragma(`user_version = ${m.version}`);
  };
  for (const m of sorted) {
    if (m.version <= start) continue;
    const began = clock();
    let rows = 0;
    let applied = false;
    if (!m.batched) {
      db.transaction(() => {
        const v = userVersion(db);
        if (v > latest) throw tooNew(v);
        if (v >= m.version) return; // another process got here first
        ensureTables();
        finish(m);
        applied = true;
      }).immediate();
      checkpoint();
    } else {
      const step = m.batched;
      let total: number | undefined;
      let reported = began;
      for (let done = false; !done;) {
        // One batch per IMMEDIATE transaction that re-reads where the walk stands: another process
        // (or this one before a crash) may have walked part of it.
        db.transaction(() => {
          const v = userVersion(db);
          if (v > latest) throw tooNew(v);
          if (v >= m.version) return void (done = true);
          ensureTables();
          const at = db
            .prepare<[number], { position: number; rows: number }>('SELECT position, rows FROM migration_progress WHERE version = ?')
            .get(m.version);
          total ??= step.total(db);
          const r = step.run(db, at?.position ?? 0, batchRows);
          rows = (at?.rows ?? 0) + r.rows;
          if (r.last === null) {
            finish(m);
            applied = true;
            done = true;
          } else
            db.prepare(
              'INSERT INTO migration_progress (version, position, rows) VALUES (?, ?, ?) ON CONFLICT (version) DO UPDATE SET position = excluded.position, rows = excluded.rows',
            ).run(m.version, r.last, rows);
          const t = clock();
          if (!done && t - reported >= PROGRESS_EVERY_MS) {
            reported = t;
            o.log?.info(
              { migration: m.version, what: step.what, rows, position: r.last, of: total, ms: Math.round(t - began) },
              `migration ${m.version} (${m.name}): ${rows} ${step.what} so far`,
            );
          }
        }).immediate();
        checkpoint();
      }
    }
    if (applied) {
      const ms = Math.round(clock() - began);
      // One line per step: the caller's (the worker's warning) when it asks to be told.
      if (o.onStep) o.onStep({ version: m.version, name: m.name, ms });
      else
        o.log?.info(
          { migration: m.version, ms, ...(m.batched ? { what: m.batched.what, rows } : {}) },
          `migration ${m.version} applied (${m.name}) in ${ms} ms`,
        );
    }
  }
  return userVersion(db);
}
