/**
 * Carrier search on an index (issue 35): a screening's canonical DOT and MC are stored in
 * carrier_dot / carrier_mc when it is written (the number asked by, and the score's carrier);
 * migration 22 fills them for a database written before, in batches, resumable after a crash,
 * logging its progress and time; GET /screenings?dot_number=|mc_number= reads them through
 * their indexes, never parsing scores. SQLite only by nature: an old SQLite file migrated, and
 * SQLite's query plans. What the search finds is pg-screening-search-contract.test.ts's "GET
 * /screenings?dot_number=|mc_number=" case on both backends (the carrier columns a screening is
 * written with: pg-screenings-contract.test.ts "sets the carrier columns"); PostgreSQL's plans
 * are its "postgres only: each filter reads its index".
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SvcScore } from '../../shared/svc-contract.js';
import { migrate, MIGRATIONS, openStore, type Migration, type Store } from '../../worker/store/index.js';
import { searchScreenings } from '../../worker/store/screening-search.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { describeSqlite } from '../helpers/test-db.js';

const T = (i: number): string => new Date(Date.UTC(2026, 4, 1) + i * 60_000).toISOString();

function score(dot: string, mc: string | null): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: dot, mc_number: mc, legal_name: `Carrier ${dot}`, dba_name: null },
    score: 80,
    grade: 'B',
    decision: 'approve',
    verdict: 'ok',
    needs_manual_review: false,
    knockout: { triggered: false, reasons: [] },
    reasons: [],
    checks: { total: 1, triggered: 0, passed: 1, not_checked: 0 },
    model_version: 'carrier-risk-3.5-sandbox',
  } as unknown as SvcScore;
}

let db: ReturnType<typeof tempDbPath>;
beforeEach(() => {
  db = tempDbPath();
});
afterEach(() => db.cleanup());

/** A database at schema 21's predecessors (18 here), written the way that version wrote screenings. */
function oldDatabase(filler: number): Database.Database {
  const raw = new Database(db.path);
  migrate(
    raw,
    db.path,
    MIGRATIONS.filter((m) => m.version <= 18),
  );
  const fetch = raw.prepare("INSERT INTO score_fetches (env, dot_number, body, fetched_at) VALUES ('sandbox', ?, ?, ?) RETURNING id");
  const put =
    raw.prepare(`INSERT INTO screenings (id, status, query_kind, query_value, priority, action, score, score_fetch_id, created_at, completed_at)
    VALUES (@id, @status, @kind, @value, 'tender', @action, @score, @fid, @at, @done)`);
  const row = (id: string, i: number, kind: string, value: string, o: { score?: SvcScore; inline?: boolean; queued?: boolean } = {}) => {
    const fid = o.score && !o.inline ? (fetch.get(o.score.carrier.dot_number, JSON.stringify(o.score), T(i)) as { id: number }).id : null;
    put.run({
      id,
      status: o.queued ? 'queued' : 'done',
      kind,
      value,
      action: o.queued ? null : 'tender',
      score: o.score && o.inline ? JSON.stringify(o.score) : null,
      fid,
      at: T(i),
      done: o.queued ? null : T(i),
    });
  };
  // Asked by DOT; the fetch's score names its MC (not in normal form).
  row('scr_dot', 1, 'dot_number', '1000003', { score: score('1000003', 'MC-00555') });
  // Asked by MC; an older row with its score inline, naming a DOT with leading zeros.
  row('scr_mc_inline', 2, 'mc_number', 'MC777', { score: score('01000004', 'MC777'), inline: true });
  // Asked by MC, the DOT known only from the fetch's score.
  row('scr_mc_fetch', 3, 'mc_number', 'MC888', { score: score('1000006', 'MC888') });
  // Still queued: only the number asked by.
  row('scr_queued', 4, 'mc_number', 'MC999', { queued: true });
  for (let i = 0; i < filler; i++)
    row(`scr_f${i}`, 10 + i, 'dot_number', String(3_000_000 + (i % 7)), { score: score(String(3_000_000 + (i % 7)), null) });
  return raw;
}

function columns(raw: Database.Database): Record<string, [string | null, string | null]> {
  const rows = raw.prepare("SELECT id, carrier_dot, carrier_mc FROM screenings WHERE id NOT LIKE 'scr_f%'").all() as Array<{
    id: string;
    carrier_dot: string | null;
    carrier_mc: string | null;
  }>;
  return Object.fromEntries(rows.map((r) => [r.id, [r.carrier_dot, r.carrier_mc]]));
}

const EXPECTED = {
  scr_dot: ['1000003', 'MC555'],
  scr_mc_inline: ['1000004', 'MC777'],
  scr_mc_fetch: ['1000006', 'MC888'],
  scr_queued: [null, 'MC999'],
};

describeSqlite('migration 22: the carrier columns of existing screenings', () => {
  it('fills every row in batches, logging progress and its time, then indexes the columns', () => {
    const raw = oldDatabase(23);
    const logs: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    let tick = 0;
    // Each look at the clock is 2 s later: every batch is past the progress interval.
    const version = migrate(raw, db.path, MIGRATIONS, {
      batchRows: 5,
      clock: () => (tick += 2000),
      log: { info: (obj, msg) => logs.push({ obj: obj as Record<string, unknown>, msg }) },
    });
    expect(version).toBe(MIGRATIONS.length);
    expect(columns(raw)).toEqual(EXPECTED);
    expect(
      (raw.prepare('SELECT COUNT(*) AS n FROM screenings WHERE carrier_dot IS NULL AND carrier_mc IS NULL').get() as { n: number }).n,
    ).toBe(0);
    const indexes = (
      raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'screenings'").all() as Array<{ name: string }>
    ).map((r) => r.name);
    expect(indexes).toEqual(expect.arrayContaining(['screenings_by_carrier_dot', 'screenings_by_carrier_mc']));
    expect(raw.prepare('SELECT * FROM migration_progress').all()).toEqual([]);

    // 27 rows in batches of 5: progress after each batch, then the step's time.
    const progress = logs.filter((l) => l.obj.migration === 22 && 'position' in l.obj);
    expect(progress.map((l) => l.obj.rows)).toEqual([5, 10, 15, 20, 25, 27]);
    expect(progress[0]!.msg).toMatch(/migration 22 .*: 5 screenings so far/);
    const done = logs.find((l) => l.obj.migration === 22 && !('position' in l.obj))!;
    expect(done.obj).toMatchObject({ rows: 27, what: 'screenings', ms: expect.any(Number) });
    expect(done.msg).toMatch(/^migration 22 applied .* in \d+ ms$/);
    // Every step says how long it took.
    expect(logs.filter((l) => /^migration \d+ applied/.test(l.msg)).map((l) => l.obj.migration)).toEqual(
      MIGRATIONS.filter((m) => m.version > 18).map((m) => m.version),
    );
    raw.close();
  });

  it('a crash in the middle resumes where it stopped; the step is taken once', () => {
    const raw = oldDatabase(23);
    const fill = MIGRATIONS.find((m) => m.version === 22)!;
    const starts: number[] = [];
    let calls = 0;
    const crashing: Migration[] = MIGRATIONS.map((m) =>
      m.version !== 22
        ? m
        : {
            ...m,
            batched: {
              ...fill.batched!,
              run(d, after, size) {
                starts.push(after);
                if (++calls === 3) throw new Error('killed');
                return fill.batched!.run(d, after, size);
              },
            },
          },
    );
    expect(() => migrate(raw, db.path, crashing, { batchRows: 5 })).toThrow('killed');
    expect(raw.pragma('user_version', { simple: true })).toBe(21);
    const at = raw.prepare('SELECT position, rows FROM migration_progress WHERE version = 22').get() as { position: number; rows: number };
    expect(at.rows).toBe(10);
    // The two committed batches stay; the third rolled back.
    expect(
      (raw.prepare('SELECT COUNT(*) AS n FROM screenings WHERE carrier_dot IS NOT NULL OR carrier_mc IS NOT NULL').get() as { n: number })
        .n,
    ).toBe(10);

    const resumed: number[] = [];
    const watching: Migration[] = MIGRATIONS.map((m) =>
      m.version !== 22
        ? m
        : { ...m, batched: { ...fill.batched!, run: (d, after, size) => (resumed.push(after), fill.batched!.run(d, after, size)) } },
    );
    expect(migrate(raw, db.path, watching, { batchRows: 5 })).toBe(MIGRATIONS.length);
    expect(resumed[0]).toBe(at.position);
    expect(columns(raw)).toEqual(EXPECTED);
    expect(raw.prepare('SELECT version FROM schema_migrations WHERE version IN (21, 22) ORDER BY version').all()).toEqual([
      { version: 21 },
      { version: 22 },
    ]);
    raw.close();
  });
});

describeSqlite("GET /screenings?dot_number=|mc_number= on the carrier columns (SQLite's plans)", () => {
  let store: Store;
  afterEach(() => store?.close());

  function migrated(): Database.Database {
    oldDatabase(5).close();
    store = openStore(db.path, { now: () => new Date(T(100)) });
    return connectionOf(store);
  }
  it('reads the carrier index, never a scan of screenings, on every page', () => {
    const conn = migrated();
    const plans: string[] = [];
    const prepare = conn.prepare.bind(conn);
    (conn as { prepare: typeof conn.prepare }).prepare = ((sql: string) => {
      if (sql.includes('LIMIT ?')) {
        const n = sql.split('?').length - 1;
        plans.push(
          (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(n).fill('x')) as Array<{ detail: string }>).map((r) => r.detail).join('\n'),
        );
      }
      return prepare(sql);
    }) as typeof conn.prepare;
    try {
      searchScreenings(conn, { dot_number: '1000003' }, { limit: 10 });
      searchScreenings(conn, { dot_number: '1000003' }, { limit: 10, starting_after: 'scr_dot' });
      searchScreenings(conn, { mc_number: 'MC555' }, { limit: 10, ending_before: 'scr_dot' });
    } finally {
      (conn as { prepare: typeof conn.prepare }).prepare = prepare;
    }
    expect(plans).toHaveLength(3);
    expect(plans[0]).toMatch(/^SEARCH s USING INDEX screenings_by_carrier_dot \(carrier_dot=\?\)/);
    expect(plans[1]).toMatch(/^SEARCH s USING INDEX screenings_by_carrier_dot \(carrier_dot=\? AND created_at<\?\)/);
    expect(plans[2]).toMatch(/^SEARCH s USING INDEX screenings_by_carrier_mc \(carrier_mc=\? AND created_at>\?\)/);
    for (const p of plans) {
      expect(p).not.toMatch(/^SCAN s\b/m);
      expect(p).not.toMatch(/TEMP B-TREE|json_extract|score_fetches/);
    }
  });
});

describeSqlite('GET /screenings?status=queued|active', () => {
  it('reads the index of unfinished screenings, not the whole time index', () => {
    oldDatabase(5).close();
    const store = openStore(db.path, { now: () => new Date(T(100)) });
    try {
      const conn = connectionOf(store);
      const plans: string[] = [];
      const prepare = conn.prepare.bind(conn);
      (conn as { prepare: typeof conn.prepare }).prepare = ((sql: string) => {
        if (sql.includes('LIMIT ?'))
          plans.push(
            (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(sql.split('?').length - 1).fill('x')) as Array<{ detail: string }>)
              .map((r) => r.detail)
              .join('\n'),
          );
        return prepare(sql);
      }) as typeof conn.prepare;
      let found: string[];
      try {
        found = searchScreenings(conn, { status: 'queued' }, { limit: 10 }).data.map((s) => s.id);
        searchScreenings(conn, { status: 'active' }, { limit: 10, starting_after: 'scr_queued' });
      } finally {
        (conn as { prepare: typeof conn.prepare }).prepare = prepare;
      }
      expect(found).toEqual(['scr_queued']);
      for (const p of plans) {
        // SCAN of a partial index: it holds only the unfinished rows.
        expect(p).toMatch(/^(SCAN|SEARCH) s USING INDEX screenings_unfinished/);
        expect(p).not.toMatch(/TEMP B-TREE/);
      }
    } finally {
      store.close();
    }
  });
});
