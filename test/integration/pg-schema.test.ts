/**
 * PostgreSQL migration 1 (worker/store/pg/schema/001-initial.ts) is SQLite's schema at version 30
 * written for PostgreSQL. These tests migrate real databases (each dropped after), hold the two
 * schemas together table by table, and check what PostgreSQL does differently on purpose: the
 * triggers, the sharded callback counts, one open review per carrier, and text ordered as
 * SQLite's BINARY whatever the database's collation.
 */
import type Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { migratePg } from '../../worker/store/pg/pg-migrations.js';
import { PG_MIGRATIONS } from '../../worker/store/pg/schema/index.js';
import { migratedPgDatabase, pgTestDatabase, type PgTestDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

/** A SQLite store at the newest version, opened as the product opens it. */
function sqliteStore(): { store: Store; db: Database.Database; close(): void } {
  const t = tempDbPath();
  const store = openStore(t.path);
  return {
    store,
    db: connectionOf(store),
    close: () => {
      store.close();
      t.cleanup();
    },
  };
}

describe('PostgreSQL migration 1', () => {
  let db: PgTestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await pgTestDatabase();
    pool = openPgPool(db.url, { max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('migrates a fresh database, and again does nothing', async () => {
    const applied: number[] = [];
    expect(await migratePg(pool, { onMigration: (m) => applied.push(m.version) })).toBe(1);
    expect(applied).toEqual([1]);
    expect(PG_MIGRATIONS.map((m) => [m.version, m.name])).toEqual([[1, 'initial']]);
    expect(await migratePg(pool, { onMigration: (m) => applied.push(m.version) })).toBe(1);
    expect(applied).toEqual([1]);
    const { rows } = await pool.query('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(rows).toEqual([{ version: 1, name: 'initial' }]);
    // The seeded rows: the event head at 0, every callback state counted 0 on every shard.
    expect((await pool.query('SELECT id, last_id FROM event_head')).rows).toEqual([{ id: 1, last_id: 0 }]);
    const counts = await pool.query(
      'SELECT state, COUNT(*)::int AS shards, SUM(n)::int AS n FROM callback_counts GROUP BY state ORDER BY state',
    );
    expect(counts.rows).toEqual(['cancelled', 'dead', 'delivered', 'pending'].map((state) => ({ state, shards: 8, n: 0 })));
    expect((await pool.query('SELECT COUNT(*) AS n FROM operator_state')).rows).toEqual([{ n: 0 }]);
  });

  it('is applied once when several hosts start on a fresh database at once', async () => {
    const fresh = await pgTestDatabase();
    const hosts = [0, 1, 2].map(() => openPgPool(fresh.url, { max: 1 }));
    try {
      const applied: number[] = [];
      expect(await Promise.all(hosts.map((h) => migratePg(h, { onMigration: (m) => applied.push(m.version) })))).toEqual([1, 1, 1]);
      expect(applied).toEqual([1]);
    } finally {
      for (const h of hosts) await h.end();
      await fresh.drop();
    }
  });

  it('keeps event_head to one row', async () => {
    await expect(pool.query('INSERT INTO event_head (id, last_id) VALUES (2, 0)')).rejects.toThrow(/event_head_id_check/);
  });
});

/**
 * THE DRIFT GUARD. SQLite's schema (as `openStore` leaves a new file) and PostgreSQL's migrations,
 * compared table by table: tables, columns (names in order, type, NOT NULL, default), COLLATE "C"
 * on every text column, primary keys and unique constraints, foreign keys, CHECK counts, indexes
 * (name, unique, partial, key columns) and triggers. A later SQLite migration that adds a table,
 * column, index or trigger makes this test fail until a PostgreSQL step (worker/store/pg/schema/)
 * adds it too, or the difference is listed below with its reason.
 */
describe('the drift guard: SQLite at its newest version and PostgreSQL at its newest', () => {
  // SQLite only: its batched steps' progress, and AUTOINCREMENT's counters (event_head instead).
  const SQLITE_ONLY_TABLES = ['migration_progress', 'sqlite_sequence'];
  // PostgreSQL only: the event log's head (ids commit in order across hosts).
  const PG_ONLY_TABLES = ['event_head'];
  // SQLite's rowid tables: PostgreSQL gives each a `seq` (the rowid's tie-break). events and
  // score_fetches have none: their rowid is their `id` (INTEGER PRIMARY KEY).
  const SEQ_TABLES = ['callback_outbox', 'carrier_changes', 'decisions', 'intake_tokens', 'local_blocks', 'reviews', 'screenings'];
  const PG_ONLY_COLUMNS: Record<string, string[]> = {
    ...Object.fromEntries(SEQ_TABLES.map((t) => [t, ['seq']])),
    callback_counts: ['shard'], // sharded by backend
  };
  // Indexes PostgreSQL has and SQLite has not (the constraints' own indexes are compared as constraints).
  const PG_ONLY_INDEXES = ['reviews_one_open'];
  // Key columns PostgreSQL appends: SQLite's index entries end with the rowid (or a WITHOUT ROWID
  // table's key), which lists read as their tie-break (`ORDER BY k, rowid`); PostgreSQL's do not.
  const APPENDED: Record<string, string[]> = {
    ...Object.fromEntries(
      [
        'callback_outbox_by_state',
        'callback_outbox_by_updated',
        'carrier_changes_by_detected',
        'carrier_changes_by_state',
        'decisions_by_decided',
        'decisions_by_dot',
        'decisions_by_state',
        'decisions_ended_by_ended',
        'local_blocks_active_by_blocked',
        'local_blocks_by_blocked',
        'local_blocks_by_dot',
        'local_blocks_by_lifted',
        'reviews_by_state',
        'reviews_by_state_decided',
        'reviews_decided_recent',
        'reviews_open_by_carrier',
        'reviews_top_by_created',
        'screenings_by_action',
        'screenings_by_carrier',
        'screenings_by_carrier_dot',
        'screenings_by_carrier_mc',
        'screenings_by_created',
        'screenings_by_tender',
        'screenings_unfinished',
      ].map((n) => [n, ['seq']]),
    ),
    watch_entries_due: ['carrier_key'],
  };
  // Keys PostgreSQL has beyond SQLite's (seq's UNIQUE, event_head's), and callback_counts' wider one.
  const PG_KEYS_INSTEAD: Record<string, string[]> = {
    'callback_counts PRIMARY KEY (state)': ['callback_counts PRIMARY KEY (state, shard)'],
  };
  const PG_ONLY_KEYS = [...SEQ_TABLES.map((t) => `${t} UNIQUE (seq)`), 'event_head PRIMARY KEY (id)'];
  // CHECKs PostgreSQL adds (normalised as norm() writes them): callback_counts' shard range, event_head's one row and its id.
  const PG_ONLY_CHECKS: Record<string, string[]> = { callback_counts: ['shard>=0andshard<8'], event_head: ['id=1', 'last_id>=0'] };
  // Trigger timings PostgreSQL changes: the version is set on the row being written, not by a second UPDATE.
  const PG_TIMING: Record<string, string> = { screenings_version: 'BEFORE' };
  // The migration runner's own table: made by pg-migrations.ts, not ordered by text.
  const RUNNER_TABLES = ['schema_migrations'];

  let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>>;
  let lite: ReturnType<typeof sqliteStore>;
  beforeAll(async () => {
    pgDb = await migratedPgDatabase();
    lite = sqliteStore();
  });
  afterAll(async () => {
    lite?.close();
    await pgDb?.close();
  });
  const q = async <R extends pg.QueryResultRow>(sql: string): Promise<R[]> => (await pgDb.pool.query<R>(sql)).rows;

  interface LiteColumn {
    name: string;
    type: string;
    notnull: number;
    dflt_value: string | null;
    pk: number;
  }
  interface LiteIndex {
    name: string;
    unique: number;
    origin: 'c' | 'u' | 'pk';
    partial: number;
  }
  const liteTables = (): Array<{ name: string; sql: string }> =>
    lite.db.prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
  const liteColumns = (t: string) => lite.db.pragma(`table_info("${t}")`) as LiteColumn[];
  const liteIndexes = (t: string) => lite.db.pragma(`index_list("${t}")`) as LiteIndex[];
  const liteIndexSql = (i: string) =>
    lite.db.prepare<[string], { sql: string }>('SELECT sql FROM sqlite_master WHERE name = ?').get(i)!.sql;
  const liteIndexColumns = (i: string) =>
    (lite.db.pragma(`index_xinfo("${i}")`) as Array<{ name: string | null; key: number }>)
      .filter((c) => c.key === 1)
      .map((c) => c.name ?? '<expr>');
  const ported = () => liteTables().filter((t) => !SQLITE_ONLY_TABLES.includes(t.name));
  /**
   * A condition (CHECK, index WHERE, trigger WHEN) as both spell it: PostgreSQL writes IN as
   * `= ANY (ARRAY[…])` with casts and parentheses, and SQLite's `IS NOT` as `IS DISTINCT FROM`.
   */
  const norm = (sql: string): string =>
    sql
      .replace(/::text(\[\])?/g, '')
      .replace(/=\s*ANY\s*\(ARRAY\[(.*?)\]\)/gi, 'IN ($1)')
      .replace(/\bIS DISTINCT FROM\b/gi, 'IS NOT')
      .toLowerCase()
      .replace(/[()\s]/g, '');
  /** The bodies of a SQLite CREATE TABLE's CHECK (…) clauses. */
  const checksIn = (sql: string): string[] =>
    [...sql.matchAll(/\bCHECK\s*\(/gi)].map((m) => {
      const from = m.index + m[0].length;
      let depth = 1;
      let quoted = false;
      let i = from;
      for (; depth > 0; i++) {
        const ch = sql[i];
        if (ch === "'") quoted = !quoted;
        else if (!quoted && ch === '(') depth++;
        else if (!quoted && ch === ')') depth--;
      }
      return sql.slice(from, i - 1);
    });

  it('has the same tables', async () => {
    const pgTables = (
      await q<{ t: string }>(
        "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
      )
    ).map((r) => r.t);
    expect(pgTables.filter((t) => !PG_ONLY_TABLES.includes(t)).sort()).toEqual(ported().map((t) => t.name));
    expect(PG_ONLY_TABLES.every((t) => pgTables.includes(t))).toBe(true);
  });

  it('has the same columns in the same order, each of its type, NOT NULL and default; text is COLLATE "C"', async () => {
    const pgColumns = await q<{
      t: string;
      name: string;
      data_type: string;
      collation_name: string | null;
      is_nullable: 'YES' | 'NO';
      column_default: string | null;
      is_identity: 'YES' | 'NO';
    }>(
      `SELECT table_name AS t, column_name AS name, data_type, collation_name, is_nullable, column_default, is_identity
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    );
    for (const { name: table } of ported()) {
      const mine = pgColumns.filter((c) => c.t === table && !(PG_ONLY_COLUMNS[table] ?? []).includes(c.name));
      const theirs = liteColumns(table);
      expect(
        mine.map((c) => c.name),
        `columns of ${table}`,
      ).toEqual(theirs.map((c) => c.name));
      if (RUNNER_TABLES.includes(table)) continue;
      const types: Record<string, string> = { TEXT: 'text', INTEGER: 'bigint', REAL: 'double precision' };
      for (const c of theirs) {
        const p = mine.find((m) => m.name === c.name)!;
        const where = `${table}.${c.name}`;
        expect(p.data_type, where).toBe(types[c.type.toUpperCase()]);
        // SQLite lets a TEXT PRIMARY KEY of a rowid table be NULL (a legacy of its own); PostgreSQL's never is.
        expect(p.is_nullable, where).toBe(c.notnull === 1 || c.pk > 0 ? 'NO' : 'YES');
        // text keeps SQLite's BINARY order whatever the database's collation.
        expect(p.collation_name, where).toBe(p.data_type === 'text' ? 'C' : null);
        // PostgreSQL spells a default with its type ('2026-11-25'::text); an identity has none.
        expect(p.column_default?.replace(/::[a-z ]+$/, '') ?? null, where).toBe(c.dflt_value);
      }
    }
    // PostgreSQL's own columns, as documented.
    const own = pgColumns.filter((c) => (PG_ONLY_COLUMNS[c.t] ?? []).includes(c.name));
    for (const c of own.filter((c) => c.name === 'seq')) expect([c.t, c.data_type, c.is_identity]).toEqual([c.t, 'bigint', 'YES']);
    expect(own.find((c) => c.t === 'callback_counts')).toMatchObject({ name: 'shard', data_type: 'integer', is_nullable: 'NO' });
    // score_fetches.id is PostgreSQL's identity (SQLite's rowid), events.id is not (event_head hands it out).
    expect(pgColumns.filter((c) => c.is_identity === 'YES' && c.name !== 'seq').map((c) => `${c.t}.${c.name}`)).toEqual([
      'score_fetches.id',
    ]);
  });

  it('has the same primary keys, unique constraints, foreign keys and CHECKs', async () => {
    // SQLite: the primary key from table_info (an INTEGER PRIMARY KEY has no index), UNIQUE from index_list.
    const liteKeys: string[] = [];
    const liteFks: string[] = [];
    const liteChecks: Record<string, string[]> = {};
    for (const { name: t, sql } of ported()) {
      const pk = liteColumns(t)
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      if (pk.length) liteKeys.push(`${t} PRIMARY KEY (${pk.join(', ')})`);
      for (const i of liteIndexes(t).filter((i) => i.origin === 'u')) liteKeys.push(`${t} UNIQUE (${liteIndexColumns(i.name).join(', ')})`);
      for (const f of lite.db.pragma(`foreign_key_list("${t}")`) as Array<{ table: string; from: string; to: string; on_delete: string }>)
        liteFks.push(`${t} (${f.from}) REFERENCES ${f.table} (${f.to}) ON DELETE ${f.on_delete}`);
      liteChecks[t] = checksIn(sql).map(norm);
    }
    const pgKeys = await q<{ t: string; kind: string; cols: string[] }>(
      `SELECT c.conrelid::regclass::text AS t, CASE c.contype WHEN 'p' THEN 'PRIMARY KEY' ELSE 'UNIQUE' END AS kind,
         array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k (attnum, o)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.o) AS cols
       FROM pg_constraint c WHERE c.connamespace = 'public'::regnamespace AND c.contype IN ('p', 'u')`,
    );
    const expectedKeys = liteKeys.flatMap((k) => PG_KEYS_INSTEAD[k] ?? [k]).concat(PG_ONLY_KEYS);
    expect(pgKeys.map((k) => `${k.t} ${k.kind} (${k.cols.join(', ')})`).sort()).toEqual(expectedKeys.sort());

    const actions: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };
    const pgFks = await q<{ t: string; ref: string; cols: string[]; refcols: string[]; del: string }>(
      `SELECT c.conrelid::regclass::text AS t, c.confrelid::regclass::text AS ref, c.confdeltype AS del,
         array(SELECT a.attname::text FROM unnest(c.conkey) k (n) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS cols,
         array(SELECT a.attname::text FROM unnest(c.confkey) k (n) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS refcols
       FROM pg_constraint c WHERE c.connamespace = 'public'::regnamespace AND c.contype = 'f'`,
    );
    expect(
      pgFks.map((f) => `${f.t} (${f.cols.join(', ')}) REFERENCES ${f.ref} (${f.refcols.join(', ')}) ON DELETE ${actions[f.del]}`).sort(),
    ).toEqual(liteFks.sort());
    expect(liteFks).toEqual(['reviews (screening_id) REFERENCES screenings (id) ON DELETE CASCADE']);

    // Each CHECK as written: SQLite widens one by rebuilding its table (migrations 16, 17, 20), and PostgreSQL must follow.
    const pgChecks = await q<{ t: string; def: string }>(
      `SELECT c.conrelid::regclass::text AS t, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
       WHERE c.connamespace = 'public'::regnamespace AND c.contype = 'c'`,
    );
    const byTable = (entries: Array<[string, string]>) => {
      const out: Record<string, string[]> = {};
      for (const [t, c] of entries) (out[t] ??= []).push(c);
      for (const t of Object.keys(out)) out[t]!.sort();
      return out;
    };
    expect(byTable(pgChecks.map((c) => [c.t, norm(c.def.replace(/^CHECK\s*/, ''))]))).toEqual(
      byTable(
        [...Object.entries(liteChecks), ...Object.entries(PG_ONLY_CHECKS)].flatMap(([t, cs]) => cs.map((c): [string, string] => [t, c])),
      ),
    );
  });

  it('has the same indexes, each as unique and as partial, on the same key columns (PostgreSQL appending only the tie-breaks listed)', async () => {
    const pgIndexes = await q<{ t: string; name: string; unique: boolean; partial: string | null; cols: string[] }>(
      `SELECT t.relname AS t, i.relname AS name, x.indisunique AS unique, pg_get_expr(x.indpred, x.indrelid) AS partial,
         array(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) k) AS cols
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       WHERE t.relnamespace = 'public'::regnamespace
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.contype IN ('p', 'u'))`,
    );
    const ident = /^[a-z_][a-z0-9_]*$/;
    const mine = pgIndexes
      .filter((i) => !PG_ONLY_INDEXES.includes(i.name))
      .map((i) => ({
        t: i.t,
        name: i.name,
        unique: i.unique,
        partial: i.partial === null ? null : norm(i.partial),
        cols: i.cols.map((c) => (ident.test(c) ? c : '<expr>')),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const theirs = ported()
      .flatMap(({ name: t }) =>
        liteIndexes(t)
          .filter((i) => i.origin === 'c')
          .map((i) => ({
            t,
            name: i.name,
            unique: i.unique === 1,
            // The WHERE of a partial index, as written.
            partial: i.partial === 1 ? norm(liteIndexSql(i.name).replace(/^[\s\S]*?\bWHERE\b/i, '')) : null,
            cols: [...liteIndexColumns(i.name), ...(APPENDED[i.name] ?? [])],
          })),
      )
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(mine).toEqual(theirs);
    // The extra ones are there, as documented.
    expect(pgIndexes.filter((i) => PG_ONLY_INDEXES.includes(i.name))).toEqual([
      {
        t: 'reviews',
        name: 'reviews_one_open',
        unique: true,
        partial: "((state = 'pending'::text) AND (parent_id IS NULL))",
        cols: ['carrier_key'],
      },
    ]);
  });

  it('has the same triggers: on the same tables, events and columns, WHEN the same', async () => {
    const shape = (m: RegExpMatchArray | null) => {
      if (!m) throw new Error('a trigger this test cannot read');
      const [, name, timing, event, of, table, when] = m;
      return {
        name: name!,
        timing: timing!.toUpperCase(),
        event: event!.toUpperCase(),
        of: of?.split(',').map((c) => c.trim()) ?? [],
        table: table!.replace(/^public\./, ''),
        when: when === undefined ? null : norm(when),
      };
    };
    const liteTriggers = lite.db
      .prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
      .all()
      .map((r) =>
        shape(
          r.sql.match(
            /^CREATE TRIGGER (\w+) (BEFORE|AFTER) (INSERT|UPDATE|DELETE)(?: OF\s+([\s\S]+?))?\s+ON\s+(\w+)(?:\s+WHEN\s+([\s\S]+?))?\s+BEGIN\b/i,
          ),
        ),
      )
      .map((t) => ({ ...t, timing: PG_TIMING[t.name] ?? t.timing }));
    const pgTriggers = (
      await q<{ def: string }>('SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname')
    ).map((r) =>
      shape(
        r.def.match(
          /^CREATE TRIGGER (\w+) (BEFORE|AFTER) (INSERT|UPDATE|DELETE)(?: OF (.+?))? ON (\S+) FOR EACH ROW(?: WHEN \((.*)\))? EXECUTE FUNCTION/,
        ),
      ),
    );
    expect(pgTriggers).toEqual(liteTriggers);
  });
});

/** The same statements on both backends, the screening's version read after each. */
describe("the version triggers: a screening's version as SQLite's triggers keep it", () => {
  let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>>;
  let lite: ReturnType<typeof sqliteStore>;
  beforeAll(async () => {
    pgDb = await migratedPgDatabase();
    lite = sqliteStore();
  });
  afterAll(async () => {
    lite?.close();
    await pgDb?.close();
  });

  const WATCHED: Array<[string, string]> = [
    ['status', "'active'"],
    ['action', "'hold'"],
    ['hold_reason', "'scoring_unavailable'"],
    ['source', "'svc'"],
    ['score', "'{}'"],
    ['score_fetch_id', '7'],
    ['score_fetched_at', "'2026-11-27T08:00:00.000Z'"],
    ['model_version', "'m1'"],
    ['error', "'svc_unavailable'"],
    ['completed_at', "'2026-11-27T08:00:01.000Z'"],
    ['settled_by', "'review'"],
    ['standing_decision', "'{}'"],
  ];
  const UNWATCHED: Array<[string, string]> = [
    ['tender_id', "'T-2'"],
    ['query_value', "'2'"],
    ['priority', "'background'"],
    ['refresh', '1'],
    ['callback_url', "'http://tms.example/cb'"],
    ['created_at', "'2026-11-27T07:00:00.000Z'"],
    ['carrier_key', "'dot:2'"],
    ['rescreened_at', "'2026-11-27T09:00:00.000Z'"],
    ['carrier_dot', "'2'"],
    ['carrier_mc', "'MC2'"],
    ['load', '\'{"origin":"x"}\''],
  ];
  // [statement, the version's change]
  const SCREENING_STEPS: Array<[string, number]> = [
    ...WATCHED.map(([c, v]): [string, number] => [`UPDATE screenings SET ${c} = ${v} WHERE id = 's1'`, 1]),
    // The same values again: nothing changed.
    ...WATCHED.map(([c, v]): [string, number] => [`UPDATE screenings SET ${c} = ${v} WHERE id = 's1'`, 0]),
    ...UNWATCHED.map(([c, v]): [string, number] => [`UPDATE screenings SET ${c} = ${v} WHERE id = 's1'`, 0]),
    // A value to NULL and back is a change each way (IS DISTINCT FROM, SQLite's IS NOT).
    ["UPDATE screenings SET error = NULL WHERE id = 's1'", 1],
    ["UPDATE screenings SET error = 'svc_unavailable' WHERE id = 's1'", 1],
    // Several watched columns in one statement: one step.
    ["UPDATE screenings SET status = 'done', action = 'tender', hold_reason = NULL WHERE id = 's1'", 1],
    // Another row's change is not this one's.
    ["UPDATE screenings SET status = 'done' WHERE id = 's2'", 0],
  ];
  // A version written with a watched change: SQLite's AFTER trigger adds one to what was written
  // (no code writes it today; NEW.version + 1 keeps even that as SQLite has it). Alone: as written.
  const VERSION_WRITES: Array<[string, number]> = [
    ["UPDATE screenings SET version = 40, status = 'active' WHERE id = 's1'", 41],
    ["UPDATE screenings SET version = 50 WHERE id = 's1'", 50],
  ];
  const INSERT_SCREENING = (id: string) =>
    `INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, created_at)
     VALUES ('${id}', 'T-1', 'queued', 'dot_number', '1', 'tender', '2026-11-27T08:00:00.000Z')`;

  async function versionsOn(
    run: (sql: string) => Promise<void>,
    read: () => Promise<number>,
    steps: Array<[string, number]>,
  ): Promise<number[]> {
    const out = [await read()];
    for (const [sql] of steps) {
      await run(sql);
      out.push(await read());
    }
    return out;
  }
  const onPg = {
    run: async (sql: string) => void (await pgDb.pool.query(sql)),
    version: (id: string) => async () =>
      (await pgDb.pool.query<{ version: number }>('SELECT version FROM screenings WHERE id = $1', [id])).rows[0]!.version,
  };
  const onLite = {
    run: async (sql: string) => void lite.db.exec(sql),
    version: (id: string) => async () =>
      lite.db.prepare<[string], { version: number }>('SELECT version FROM screenings WHERE id = ?').get(id)!.version,
  };

  it("a watched column's change adds exactly one, an unwatched one's nothing, as on SQLite", async () => {
    for (const b of [onPg, onLite]) for (const id of ['s1', 's2']) await b.run(INSERT_SCREENING(id));
    const pgVersions = await versionsOn(onPg.run, onPg.version('s1'), SCREENING_STEPS);
    const liteVersions = await versionsOn(onLite.run, onLite.version('s1'), SCREENING_STEPS);
    expect(pgVersions).toEqual(liteVersions);
    const deltas = pgVersions.slice(1).map((v, i) => [SCREENING_STEPS[i]![0], v - pgVersions[i]!]);
    expect(deltas).toEqual(SCREENING_STEPS);
    expect(await onPg.version('s2')()).toBe(2); // its own change, once
    const pgWritten = await versionsOn(onPg.run, onPg.version('s1'), VERSION_WRITES);
    expect(pgWritten).toEqual(await versionsOn(onLite.run, onLite.version('s1'), VERSION_WRITES));
    expect(pgWritten.slice(1)).toEqual(VERSION_WRITES.map(([, v]) => v));
  });

  it("a change of a review as the API shows it adds one to its screening's version, as on SQLite", async () => {
    const REVIEW_STEPS: Array<[string, number]> = [
      [
        `INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key)
         VALUES ('r3', 's3', 'pending', 'scoring_unavailable', '2026-11-27T08:00:00.000Z', 'dot:3')`,
        0,
      ],
      ...(
        [
          ['state', "'approved'"],
          ['decided_by', "'desk'"],
          ['decided_at', "'2026-11-27T08:05:00.000Z'"],
          ['note', "'ok'"],
        ] as const
      ).flatMap(([c, v]): Array<[string, number]> => [
        [`UPDATE reviews SET ${c} = ${v} WHERE id = 'r3'`, 1],
        [`UPDATE reviews SET ${c} = ${v} WHERE id = 'r3'`, 0],
      ]),
      ["UPDATE reviews SET note = NULL WHERE id = 'r3'", 1],
      // What the API does not show of a review (or shows otherwise): no step.
      ...(
        [
          ['hold_reason', "'quota_exhausted'"],
          ['carrier_key', "'dot:33'"],
          ['parent_id', "'r0'"],
          ['previous_decision', "'{}'"],
          ['version', '9'],
          ['basis_since', '9'],
          ['facts_screening_id', "'s1'"],
          ['closed_by', "'local_block'"],
          ['closed_reason', "'x'"],
          ['token_id', "'tok_1'"],
        ] as const
      ).map(([c, v]): [string, number] => [`UPDATE reviews SET ${c} = ${v} WHERE id = 'r3'`, 0]),
      // Two columns in one statement: one step.
      ["UPDATE reviews SET state = 'closed', note = 'blocked' WHERE id = 'r3'", 1],
    ];
    for (const b of [onPg, onLite]) await b.run(INSERT_SCREENING('s3'));
    const pgVersions = await versionsOn(onPg.run, onPg.version('s3'), REVIEW_STEPS);
    const liteVersions = await versionsOn(onLite.run, onLite.version('s3'), REVIEW_STEPS);
    expect(pgVersions).toEqual(liteVersions);
    expect(pgVersions.slice(1).map((v, i) => [REVIEW_STEPS[i]![0], v - pgVersions[i]!])).toEqual(REVIEW_STEPS);
    // Deleting the screening takes its review with it (ON DELETE CASCADE).
    await onPg.run("DELETE FROM screenings WHERE id = 's3'");
    expect((await pgDb.pool.query("SELECT COUNT(*) AS n FROM reviews WHERE id = 'r3'")).rows).toEqual([{ n: 0 }]);
  });
});

describe('callback counts, sharded by backend', () => {
  let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>>;
  const clients: pg.Client[] = [];
  beforeAll(async () => {
    pgDb = await migratedPgDatabase();
  });
  afterAll(async () => {
    for (const c of clients) await c.end();
    await pgDb?.close();
  });

  /** A pool, a pool's client or a client of our own. */
  type Conn = Pick<pg.ClientBase, 'query'>;
  let n = 0;
  const insert = (c: Conn, state: string) => {
    n += 1;
    return c.query(
      `INSERT INTO callback_outbox (id, delivery_id, kind, url, destination, body, state, next_attempt_at, retry_since, created_at, updated_at)
       VALUES ($1, $2, 'screening.completed', 'http://127.0.0.1:9/cb', 'http://127.0.0.1:9', '{}', $3, 0, 0, '2026-11-27T08:00:00Z', '2026-11-27T08:00:00Z')`,
      [`cb_${n}`, `dlv_${n}`, state],
    );
  };
  const setState = (c: Conn, id: string, state: string) => c.query('UPDATE callback_outbox SET state = $2 WHERE id = $1', [id, state]);
  const remove = (c: Conn, id: string) => c.query('DELETE FROM callback_outbox WHERE id = $1', [id]);
  async function expectCountsExact(): Promise<void> {
    const summed = await pgDb.pool.query<{ state: string; n: number }>(
      'SELECT state, SUM(n)::bigint AS n FROM callback_counts GROUP BY state',
    );
    const counted = await pgDb.pool.query<{ state: string; n: number }>('SELECT state, COUNT(*) AS n FROM callback_outbox GROUP BY state');
    const want: Record<string, number> = { pending: 0, delivered: 0, dead: 0, cancelled: 0 };
    for (const r of counted.rows) want[r.state] = r.n;
    expect(Object.fromEntries(summed.rows.map((r) => [r.state, r.n]))).toEqual(want);
  }

  it('match COUNT(*) by state through inserts, changes of state and deletes from two connections', async () => {
    // Two backends on two shards, so neither waits on the other's row (one shard is tested below).
    const shardOf = async (c: pg.Client) => (await c.query<{ s: number }>('SELECT pg_backend_pid() % 8 AS s')).rows[0]!.s;
    const open = async () => {
      const c = new pg.Client({ connectionString: pgDb.db.url });
      await c.connect();
      return c;
    };
    const a = await open();
    clients.push(a);
    let b: pg.Client | undefined;
    for (let i = 0; i < 16 && !b; i++) {
      const c = await open();
      if ((await shardOf(c)) !== (await shardOf(a))) b = c;
      else await c.end();
    }
    if (!b) throw new Error('no second backend on another shard in 16 connections');
    clients.push(b);
    const shards = [await shardOf(a), await shardOf(b)];

    await a.query('BEGIN');
    await b.query('BEGIN');
    await insert(a, 'pending'); // cb_1
    await insert(b, 'pending'); // cb_2
    await insert(a, 'pending'); // cb_3
    await insert(b, 'dead'); // cb_4
    await setState(a, 'cb_1', 'delivered');
    await setState(b, 'cb_2', 'cancelled');
    await insert(a, 'pending'); // cb_5
    await remove(a, 'cb_5');
    await b.query('COMMIT');
    await a.query('COMMIT');
    await expectCountsExact();
    // Each other's rows, outside a transaction.
    await setState(b, 'cb_1', 'dead');
    await setState(a, 'cb_4', 'pending');
    await remove(b, 'cb_3');
    await setState(a, 'cb_2', 'cancelled'); // no change of state: no count moves
    await expectCountsExact();
    // A rolled-back transaction moves nothing.
    await a.query('BEGIN');
    await insert(a, 'pending');
    await setState(a, 'cb_4', 'delivered');
    await remove(a, 'cb_1');
    await a.query('ROLLBACK');
    await expectCountsExact();
    // Only the two backends' shards moved.
    const moved = await pgDb.pool.query<{ shard: number }>('SELECT DISTINCT shard FROM callback_counts WHERE n <> 0 ORDER BY shard');
    for (const r of moved.rows) expect(shards).toContain(r.shard);
  });

  it('stay exact under concurrent transactions on the pool', async () => {
    const x = pgDb.pool;
    await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const c = await x.connect();
        try {
          await c.query('BEGIN');
          const id = `cb_${n + 1}`;
          await insert(c, 'pending');
          if (i % 2 === 0) await setState(c, id, 'delivered');
          if (i % 3 === 0) await remove(c, id);
          await c.query('COMMIT');
        } finally {
          c.release();
        }
      }),
    );
    await expectCountsExact();
  });

  it('one shard: the second transaction waits for the first, and no count is lost', async () => {
    const c1 = await pgDb.pool.connect();
    try {
      const shard = (await c1.query<{ s: number }>('SELECT pg_backend_pid() % 8 AS s')).rows[0]!.s;
      // Another backend on the same shard (backend pids are dealt out in turn: a few tries).
      let other: pg.Client | undefined;
      for (let i = 0; i < 64 && !other; i++) {
        const c = new pg.Client({ connectionString: pgDb.db.url });
        await c.connect();
        if ((await c.query<{ s: number }>('SELECT pg_backend_pid() % 8 AS s')).rows[0]!.s === shard) other = c;
        else await c.end();
      }
      if (!other) throw new Error('no second backend on one shard in 64 connections');
      clients.push(other);
      await c1.query('BEGIN');
      await insert(c1, 'pending');
      let done = false;
      const waiting = insert(other, 'pending').then(() => (done = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(done).toBe(false); // queued on the shard's pending row
      await c1.query('COMMIT');
      await waiting;
      await expectCountsExact();
    } finally {
      c1.release();
    }
  });
});

describe('one open review per carrier (reviews_one_open)', () => {
  let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>>;
  beforeAll(async () => {
    pgDb = await migratedPgDatabase();
    for (let i = 1; i <= 9; i++)
      await pgDb.pool.query(
        `INSERT INTO screenings (id, status, query_kind, query_value, priority, created_at)
         VALUES ($1, 'done', 'dot_number', '1', 'tender', '2026-11-27T08:00:00.000Z')`,
        [`s${i}`],
      );
  });
  afterAll(async () => {
    await pgDb?.close();
  });
  const review = (id: string, screening: string, state: string, carrier: string | null, parent: string | null = null) =>
    pgDb.pool.query(
      `INSERT INTO reviews (id, screening_id, state, hold_reason, created_at, carrier_key, parent_id)
       VALUES ($1, $2, $3, 'scoring_unavailable', '2026-11-27T08:00:00.000Z', $4, $5)`,
      [id, screening, state, carrier, parent],
    );

  it("refuses a second pending carrier review, and allows closed ones, another carrier's and the tenders waiting on it", async () => {
    await review('r1', 's1', 'pending', 'dot:1');
    const err = await review('r2', 's2', 'pending', 'dot:1').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505', constraint: 'reviews_one_open' });
    for (const [id, s, state] of [
      ['r3', 's3', 'approved'],
      ['r4', 's4', 'closed'],
      ['r5', 's5', 'superseded'],
    ] as const)
      await review(id, s, state, 'dot:1');
    await review('r6', 's6', 'pending', 'dot:1', 'r1'); // a tender waiting on r1
    await review('r7', 's7', 'pending', 'dot:2');
    // Reviews from before carrier reviews name no carrier: several may be open (as in SQLite).
    await review('r8', 's8', 'pending', null);
    await review('r9', 's9', 'pending', null);
    // Once decided, the carrier may have a new open review.
    await pgDb.pool.query("UPDATE reviews SET state = 'approved' WHERE id = 'r1'");
    await review('r2', 's2', 'pending', 'dot:1');
    // A waiting tender cannot become a second carrier review while one is open.
    const promote = await pgDb.pool.query("UPDATE reviews SET parent_id = NULL WHERE id = 'r6'").catch((e: unknown) => e);
    expect(promote).toMatchObject({ code: '23505', constraint: 'reviews_one_open' });
  });
});

/**
 * Text keys are compared byte by byte, as SQLite's BINARY: 'B' < 'a', '_' between the capitals
 * and the small letters. A DBA's database may default to another collation (here ICU's en-US,
 * where 'a' < 'B' and '_' comes first); the schema's COLLATE "C" keeps SQLite's order regardless.
 */
describe('text ordered as SQLite orders it, whatever the database collation', () => {
  const IDS = ['a', 'B', '_x', 'Z', 'b', 'A', 'a_b', 'ab', 'aB', '0', '~', '-', 'a-c', 'é', 'E'];
  let db: PgTestDatabase;
  let pool: pg.Pool;
  let lite: ReturnType<typeof sqliteStore>;
  beforeAll(async () => {
    db = await pgTestDatabase({ icuLocale: 'en-US' });
    pool = openPgPool(db.url, { max: 2 });
    await migratePg(pool);
    lite = sqliteStore();
    const insert = `INSERT INTO screenings (id, status, query_kind, query_value, priority, created_at)
      VALUES ($1, 'done', 'dot_number', '1', 'tender', $1)`;
    for (const id of IDS) {
      await pool.query(insert, [id]);
      lite.db.prepare(insert.replace(/\$1/g, '?')).run(id, id);
    }
  });
  afterAll(async () => {
    lite?.close();
    await pool?.end();
    await db?.drop();
  });

  it('the database itself would order otherwise (so this test means something)', async () => {
    const dbOrder = (await pool.query<{ x: string }>('SELECT x FROM unnest($1::text[]) AS x ORDER BY x', [IDS])).rows.map((r) => r.x);
    const cOrder = (await pool.query<{ x: string }>('SELECT x FROM unnest($1::text[]) AS x ORDER BY x COLLATE "C"', [IDS])).rows.map(
      (r) => r.x,
    );
    expect(dbOrder).not.toEqual(cOrder);
    expect(dbOrder.indexOf('a')).toBeLessThan(dbOrder.indexOf('B'));
  });

  it('ORDER BY, ranges and keyset pages on text keys answer as on SQLite', async () => {
    const cases = [
      'SELECT id FROM screenings ORDER BY id',
      'SELECT id FROM screenings ORDER BY created_at DESC, id DESC',
      "SELECT id FROM screenings WHERE created_at < 'a' ORDER BY created_at",
      "SELECT id FROM screenings WHERE id > 'Z' AND id <= 'a_b' ORDER BY id",
      "SELECT MIN(id) AS id FROM screenings WHERE id >= '_'",
    ];
    for (const sql of cases) {
      const mine = (await pool.query<{ id: string }>(sql)).rows.map((r) => r.id);
      const theirs = lite.db
        .prepare<[], { id: string }>(sql)
        .all()
        .map((r) => r.id);
      expect(mine, sql).toEqual(theirs);
    }
    const ordered = (await pool.query<{ id: string }>('SELECT id FROM screenings ORDER BY id')).rows.map((r) => r.id);
    expect(ordered.indexOf('B')).toBeLessThan(ordered.indexOf('a'));
    expect(ordered.indexOf('Z')).toBeLessThan(ordered.indexOf('_x'));
    expect(ordered.indexOf('_x')).toBeLessThan(ordered.indexOf('a'));
  });
});

/**
 * A list SQLite read by (k, rowid) off an index is read by (k, seq) here: each such index ends
 * with seq, so PostgreSQL reads the page in order and stops, with no sort. The queries are spelt
 * as the brief's translation spells SQLite's (rowid → seq, INDEXED BY dropped); sorting is made
 * as dear as the planner allows, so a Sort in a plan means the index cannot give the order.
 */
describe('the lists SQLite read by (k, rowid) read their (k, seq) index in order', () => {
  let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>>;
  beforeAll(async () => {
    pgDb = await migratedPgDatabase();
  });
  afterAll(async () => {
    await pgDb?.close();
  });

  const PAGE = 'LIMIT 51';
  // [query, the index (or indexes) it may read]
  const LISTS: Array<[string, string[]]> = [
    // GET /screenings (screening-search.ts), the audit export (audit-rows.ts), the unfinished, a carrier's tenders (watch-store.ts).
    [`SELECT s.id FROM screenings s ORDER BY s.created_at DESC, s.seq DESC ${PAGE}`, ['screenings_by_created']],
    [
      `SELECT s.id FROM screenings s WHERE (s.created_at, s.seq) < ('2026-11-27', 5) ORDER BY s.created_at DESC, s.seq DESC ${PAGE}`,
      ['screenings_by_created'],
    ],
    [`SELECT s.id FROM screenings s WHERE s.tender_id = 'T-1' ORDER BY s.created_at DESC, s.seq DESC ${PAGE}`, ['screenings_by_tender']],
    [
      `SELECT s.id FROM screenings s WHERE s.carrier_dot = '1' ORDER BY s.created_at DESC, s.seq DESC ${PAGE}`,
      ['screenings_by_carrier_dot'],
    ],
    [
      `SELECT s.id FROM screenings s WHERE s.carrier_mc = 'MC1' ORDER BY s.created_at DESC, s.seq DESC ${PAGE}`,
      ['screenings_by_carrier_mc'],
    ],
    [
      `SELECT s.id FROM screenings s WHERE s.action <> 'tender' AND s.action = 'hold' ORDER BY s.created_at DESC, s.seq DESC ${PAGE}`,
      ['screenings_by_action'],
    ],
    [
      `SELECT s.id FROM screenings s WHERE s.status IN ('queued', 'active') AND s.status = 'queued' ORDER BY s.created_at DESC, s.seq DESC ${PAGE}`,
      ['screenings_unfinished'],
    ],
    [
      `SELECT s.id FROM screenings s WHERE s.status IN ('queued', 'active') ORDER BY s.created_at ASC, s.seq ASC`,
      ['screenings_unfinished'],
    ],
    [
      `SELECT s.id FROM screenings s WHERE (s.created_at, s.seq) > ('2026-11-01', 0) AND s.created_at < '2026-12-01' ORDER BY s.created_at, s.seq LIMIT 500`,
      ['screenings_by_created'],
    ],
    [
      `SELECT s.id FROM screenings s WHERE s.carrier_key = 'dot:1' AND s.created_at >= '2026-11-01' ORDER BY s.created_at ASC, s.seq ASC`,
      ['screenings_by_carrier'],
    ],
    // GET /reviews (sqlite-store.ts reviewList) and a carrier's open review (decisions-repo.ts).
    [
      `SELECT r.id FROM reviews r WHERE r.state = 'pending' AND r.parent_id IS NULL ORDER BY r.created_at ASC, r.seq ASC ${PAGE}`,
      // Either reads them in this order (carrier reviews by time, filtered to pending); the planner picks by statistics.
      ['reviews_by_state', 'reviews_top_by_created'],
    ],
    [
      `SELECT r.id FROM reviews r WHERE r.state = 'approved' AND r.parent_id IS NULL ORDER BY COALESCE(r.decided_at, r.created_at) DESC, r.seq DESC ${PAGE}`,
      ['reviews_by_state_decided'],
    ],
    [
      `SELECT r.id FROM reviews r WHERE r.state IN ('approved', 'rejected') AND r.parent_id IS NULL ORDER BY r.decided_at DESC, r.seq DESC ${PAGE}`,
      ['reviews_decided_recent'],
    ],
    [`SELECT r.id FROM reviews r WHERE r.parent_id IS NULL ORDER BY r.created_at DESC, r.seq DESC ${PAGE}`, ['reviews_top_by_created']],
    [
      `SELECT id FROM reviews WHERE carrier_key = 'dot:1' AND state = 'pending' AND parent_id IS NULL ORDER BY created_at ASC, seq ASC LIMIT 1`,
      ['reviews_open_by_carrier', 'reviews_one_open'],
    ],
    // GET /decisions (decisions-repo.ts), also as keyset.ts spells a page after a cursor.
    [`SELECT id FROM decisions ORDER BY decided_at DESC, seq DESC ${PAGE}`, ['decisions_by_decided']],
    [`SELECT id FROM decisions WHERE state = 'standing' ORDER BY decided_at DESC, seq DESC ${PAGE}`, ['decisions_by_state']],
    [
      `SELECT id FROM decisions WHERE state = 'standing' AND decided_at <= '2026-11-27' AND (decided_at < '2026-11-27' OR seq < 9) ORDER BY decided_at DESC, seq DESC ${PAGE}`,
      ['decisions_by_state'],
    ],
    [`SELECT id FROM decisions WHERE dot_number = '1' ORDER BY decided_at DESC, seq DESC ${PAGE}`, ['decisions_by_dot']],
    [
      `SELECT id FROM decisions WHERE state IN ('lapsed', 'revoked') ORDER BY ended_at DESC, seq DESC ${PAGE}`,
      ['decisions_ended_by_ended'],
    ],
    // GET /blocks (local-blocks-repo.ts pageBlocks).
    [`SELECT id FROM local_blocks ORDER BY blocked_at DESC, seq DESC ${PAGE}`, ['local_blocks_by_blocked']],
    [`SELECT id FROM local_blocks WHERE lifted_at IS NULL ORDER BY blocked_at DESC, seq DESC ${PAGE}`, ['local_blocks_active_by_blocked']],
    [`SELECT id FROM local_blocks WHERE lifted_at IS NOT NULL ORDER BY lifted_at DESC, seq DESC ${PAGE}`, ['local_blocks_by_lifted']],
    [`SELECT id FROM local_blocks WHERE dot_number = '1' ORDER BY blocked_at DESC, seq DESC ${PAGE}`, ['local_blocks_by_dot']],
    // GET /callbacks (outbox-repo.ts page).
    [`SELECT id FROM callback_outbox ORDER BY updated_at DESC, seq DESC ${PAGE}`, ['callback_outbox_by_updated']],
    [`SELECT id FROM callback_outbox WHERE state = 'dead' ORDER BY updated_at DESC, seq DESC ${PAGE}`, ['callback_outbox_by_state']],
    // GET /changes (watch-store.ts).
    [`SELECT id FROM carrier_changes ORDER BY detected_at DESC, seq DESC ${PAGE}`, ['carrier_changes_by_detected']],
    [`SELECT id FROM carrier_changes WHERE state = 'new' ORDER BY detected_at DESC, seq DESC ${PAGE}`, ['carrier_changes_by_state']],
    // GET /watchlist (watch-store.ts pageActive): its tie-break is the key.
    [`SELECT e.carrier_key FROM watch_entries e ORDER BY e.next_check_at ASC, e.carrier_key ASC ${PAGE}`, ['watch_entries_due']],
    // The event log: its id.
    [`SELECT id FROM events WHERE id > 5 ORDER BY id ASC LIMIT 100`, ['events_pkey']],
  ];

  interface PlanNode {
    'Node Type': string;
    'Index Name'?: string;
    Plans?: PlanNode[];
  }
  const nodes = (p: PlanNode): PlanNode[] => [p, ...(p.Plans ?? []).flatMap(nodes)];

  it.each(LISTS)('%s', async (sql, indexes) => {
    const c = await pgDb.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query('SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off');
      const plan = (await c.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${sql}`)).rows[0]!['QUERY PLAN'][0]!
        .Plan;
      await c.query('ROLLBACK');
      const all = nodes(plan);
      expect(all.map((n) => n['Node Type'])).not.toContain('Sort');
      expect(all.map((n) => n['Node Type'])).not.toContain('Incremental Sort');
      expect(indexes).toContain(all.find((n) => n['Index Name'] !== undefined)?.['Index Name']);
    } finally {
      c.release();
    }
  });
});
