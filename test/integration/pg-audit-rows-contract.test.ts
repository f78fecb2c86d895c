/**
 * The audit export's rows on both backends: the same cases through the same interface (SQLite's
 * auditRowsOf, its answers awaited; PostgreSQL's pg/audit-rows.ts), and then both at once on the
 * same data: the rows equal, value and type, and the CSV the export writes from them equal byte
 * for byte (worker/decisions/audit-export.ts's paging and csv-stringify options), for fixed rows
 * and for any JSON a score, a standing decision or a load may hold.
 */
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_COLUMNS, auditCsvText } from '../../worker/decisions/audit-export.js';
import { auditRowsOf, type AuditRow, type AuditRowsRepo } from '../../worker/store/audit-rows.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { auditPage, jsonExtract, pgAuditRowsOf } from '../../worker/store/pg/audit-rows.js';
import { poolExecutor } from '../../worker/store/pg/executor.js';
import { positional } from '../../worker/store/pg/sql.js';
import { connectionOf, openStore } from '../../worker/store/sqlite-store.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

type Row = Record<string, string | number | null>;

interface Backend {
  repo: AsyncRepo<AuditRowsRepo>;
  insert(table: string, row: Row): Promise<void>;
  /** Empty tables, rowid/seq from 1 again. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const insertSql = (table: string, row: Row): string =>
  `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
    .map((k) => `@${k}`)
    .join(', ')})`;

async function openSqlite(): Promise<Backend> {
  const file = tempDbPath();
  const store = openStore(file.path);
  const db = connectionOf(store);
  const rows = auditRowsOf(store);
  return {
    repo: { page: async (after, to, limit) => rows.page(after, to, limit) },
    insert: async (table, row) => void db.prepare(insertSql(table, row)).run(row),
    // No AUTOINCREMENT: an empty table's next rowid is 1.
    reset: async () => void db.exec('DELETE FROM reviews; DELETE FROM screenings; DELETE FROM score_fetches'),
    close: async () => {
      store.close();
      file.cleanup();
    },
  };
}

let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>> | undefined;
async function pgDatabase(): Promise<NonNullable<typeof pgDb>> {
  pgDb ??= await migratedPgDatabase();
  return pgDb;
}

async function pgInsert(q: pg.Pool, table: string, row: Row): Promise<void> {
  // score_fetches.id is an identity: a seed names its ids, as SQLite's INTEGER PRIMARY KEY takes them.
  const { text, names } = positional(insertSql(table, row).replace(') VALUES (', ') OVERRIDING SYSTEM VALUE VALUES ('));
  await q.query(
    text,
    names.map((n) => row[n]),
  );
}

async function openPg(): Promise<Backend> {
  const { pool } = await pgDatabase();
  const reset = async () => void (await pool.query('TRUNCATE reviews, screenings, score_fetches RESTART IDENTITY'));
  await reset();
  return { repo: pgAuditRowsOf(poolExecutor(pool)), insert: (t, r) => pgInsert(pool, t, r), reset, close: async () => undefined };
}

/** Every row in [from, to), paged as the export pages (keyset on the last row's position). */
async function allRows(repo: AsyncRepo<AuditRowsRepo>, from: string, to: string, limit: number): Promise<AuditRow[]> {
  const out: AuditRow[] = [];
  let after: [string, number] = [from, 0];
  for (;;) {
    const rows = await repo.page(after, to, limit);
    expect(rows.length).toBeLessThanOrEqual(limit);
    out.push(...rows);
    if (rows.length < limit) return out;
    after = [rows.at(-1)!.k_created, rows.at(-1)!.k_rowid];
  }
}

/** The CSV as the export writes it (auditCsvText): a page at a time, the header with the first. */
async function csvOf(repo: AsyncRepo<AuditRowsRepo>, from: string, to: string, limit: number): Promise<string> {
  let out = '';
  for await (const chunk of auditCsvText({ auditRows: repo }, from, to, limit)) out += chunk;
  return out;
}

afterAll(async () => {
  await pgDb?.close();
  pgDb = undefined;
});

const T = (min: number): string => new Date(Date.UTC(2026, 0, 1) + min * 60_000).toISOString();
const FROM = T(0);
const TO = T(100);

function screening(id: string, at: string, over: Row = {}): Row {
  return {
    id,
    status: 'done',
    query_kind: 'dot_number',
    query_value: '1000003',
    priority: 'tender',
    action: 'tender',
    source: 'svc',
    created_at: at,
    completed_at: at,
    ...over,
  };
}

function review(id: string, screeningId: string, at: string, over: Row = {}): Row {
  return { id, screening_id: screeningId, state: 'pending', hold_reason: 'manual_review', created_at: at, ...over };
}

const SCORE_1 = {
  carrier: { dot_number: '1000003', mc_number: 'MC1000003', legal_name: 'Test Carrier 3 LLC', dba_name: null },
  score: 66,
  grade: 'D',
  decision: 'review',
  model_version: 'carrier-risk-3.5',
  // Read by no column, yet PostgreSQL's json operators would refuse the whole document for it.
  reasons: [{ detail: 'nul \u0000 and half a pair \ud800 here' }],
};

/**
 * Screenings of every shape the export meets: a score by fetch and by its own copy, none at all
 * (by DOT and by MC), a decided, a joined and a closed review, a standing decision, a load; JSON
 * numbers, a true, an object and half a surrogate pair where a column reads; a formula; two rows
 * created at one instant; rows at `from` (in), at `to` and before `from` (out).
 */
async function seedFixed(b: Backend): Promise<void> {
  await b.insert('score_fetches', { id: 7, env: 'live', dot_number: '1000003', body: JSON.stringify(SCORE_1), fetched_at: T(1) });
  await b.insert('screenings', screening('scr_before', T(-1)));
  await b.insert(
    'screenings',
    screening('scr_1', T(1), {
      tender_id: 'LOAD-1',
      action: 'hold',
      hold_reason: 'manual_review',
      score_fetch_id: 7,
      model_version: 'carrier-risk-3.5',
      score_fetched_at: T(1),
      load: JSON.stringify({
        customer_ref: 'C-1',
        pickup_at: '2026-01-02T08:00:00Z',
        origin: 'Chicago, IL',
        destination: 'Dallas, TX',
        equipment: 'van',
      }),
    }),
  );
  await b.insert(
    'reviews',
    review('rev_1', 'scr_1', T(1), { state: 'approved', decided_by: 'dana', decided_at: T(5), note: 'ok', token_id: 'tok_1' }),
  );
  await b.insert(
    'screenings',
    screening('scr_2', T(2), {
      tender_id: '=1+1',
      action: 'hold',
      hold_reason: 'manual_review',
      score: JSON.stringify({
        carrier: { dot_number: '42', mc_number: null, legal_name: '=HYPERLINK("x")' },
        score: 87.5,
        grade: 'B',
        decision: true,
      }),
    }),
  );
  await b.insert(
    'reviews',
    review('rev_2', 'scr_2', T(2), { state: 'approved', parent_id: 'rev_1', decided_by: 'dana', decided_at: T(5) }),
  );
  // Created at the same instant as scr_2, after it.
  await b.insert(
    'screenings',
    screening('scr_3', T(2), {
      query_kind: 'mc_number',
      query_value: 'MC77',
      action: 'hold',
      hold_reason: 'scoring_unavailable',
      source: 'none',
    }),
  );
  await b.insert(
    'reviews',
    review('rev_3', 'scr_3', T(2), { state: 'closed', closed_by: 'blocking_score', closed_reason: 'blocking_score' }),
  );
  await b.insert(
    'screenings',
    screening('scr_4', T(3), {
      query_value: '555',
      settled_by: 'standing_decision',
      standing_decision: JSON.stringify({ id: 'dec_1', decision: 'approved', decided_by: 'lee', token_id: 'tok_2', decided_at: T(-50) }),
    }),
  );
  await b.insert(
    'screenings',
    screening('scr_5', T(4), {
      score: JSON.stringify({
        carrier: { dot_number: 9, legal_name: { a: 1.25, b: [true, null, 'é'] } },
        score: 1e21,
        grade: 'x\ud800y',
        decision: false,
      }),
    }),
  );
  await b.insert('screenings', screening('scr_from', FROM));
  await b.insert('screenings', screening('scr_to', TO));
}

describe.each([
  ['sqlite', openSqlite],
  ['postgres', openPg],
])('audit rows on %s', (_name, open) => {
  let b: Backend;
  beforeEach(async () => {
    b = await open();
  });
  afterEach(() => b.close());

  it('reads each column as the export names it, JSON fields as SQLite’s json_extract reads them', async () => {
    await seedFixed(b);
    const rows = await allRows(b.repo, FROM, TO, 100);
    const byId = Object.fromEntries(rows.map((r) => [r.screening_id, r]));
    expect(Object.keys(rows[0]!)).toEqual(['k_created', 'k_rowid', ...AUDIT_COLUMNS]);
    expect(byId.scr_1).toStrictEqual({
      k_created: T(1),
      k_rowid: 2,
      screening_id: 'scr_1',
      created_at: T(1),
      completed_at: T(1),
      tender_id: 'LOAD-1',
      dot_number: '1000003',
      mc_number: 'MC1000003',
      legal_name: 'Test Carrier 3 LLC',
      action: 'hold',
      hold_reason: 'manual_review',
      source: 'svc',
      score: 66,
      grade: 'D',
      decision: 'review',
      model_version: 'carrier-risk-3.5',
      score_fetched_at: T(1),
      review_id: 'rev_1',
      review_state: 'approved',
      decided_by: 'dana',
      token_id: 'tok_1',
      decided_at: T(5),
      note: 'ok',
      standing_decision_id: null,
      load_customer_ref: 'C-1',
      load_pickup_at: '2026-01-02T08:00:00Z',
      load_origin: 'Chicago, IL',
      load_destination: 'Dallas, TX',
      load_equipment: 'van',
    });
    // Its own copy of the score; a joined review is shown as the review that decided it; a true is 1.
    expect(byId.scr_2).toMatchObject({ dot_number: '42', mc_number: null, legal_name: '=HYPERLINK("x")', score: 87.5, decision: 1 });
    expect(byId.scr_2).toMatchObject({ review_id: 'rev_1', review_state: 'approved' });
    // No score: the numbers asked by; a review closed without a person: what closed it, as its note.
    expect(byId.scr_3).toMatchObject({
      dot_number: null,
      mc_number: 'MC77',
      score: null,
      grade: null,
      review_id: 'rev_3',
      note: 'blocking_score',
    });
    // Settled by a standing decision: who decided it, with which credential, when.
    expect(byId.scr_4).toMatchObject({
      dot_number: '555',
      review_id: null,
      decided_by: 'lee',
      token_id: 'tok_2',
      decided_at: T(-50),
      standing_decision_id: 'dec_1',
    });
    // A number where a string was expected stays a number; an object is its JSON text; half a
    // surrogate pair is what SQLite's bytes read back as; false is 0.
    expect(byId.scr_5).toMatchObject({
      dot_number: 9,
      legal_name: '{"a":1.25,"b":[true,null,"é"]}',
      score: 1e21,
      grade: 'x\ufffd\ufffd\ufffdy',
      decision: 0,
    });
  });

  it('pages by (created_at, insertion order): every row once, in order, from `from` (in) to `to` (out)', async () => {
    await seedFixed(b);
    const all = await allRows(b.repo, FROM, TO, 100);
    expect(all.map((r) => r.screening_id)).toEqual(['scr_from', 'scr_1', 'scr_2', 'scr_3', 'scr_4', 'scr_5']);
    for (const size of [1, 2, 3, 5, 6]) expect(await allRows(b.repo, FROM, TO, size)).toStrictEqual(all);
    // After a row's position: the rows after it, a tie on created_at by insertion order.
    const scr2 = all[2]!;
    expect((await b.repo.page([scr2.k_created, scr2.k_rowid], TO, 10)).map((r) => r.screening_id)).toEqual(['scr_3', 'scr_4', 'scr_5']);
    expect(await b.repo.page([TO, 0], T(200), 10)).toMatchObject([{ screening_id: 'scr_to' }]);
    expect(await b.repo.page([FROM, 0], FROM, 10)).toEqual([]);
  });

  it('more rows than a page, created at one instant', async () => {
    for (let i = 0; i < 25; i++) await b.insert('screenings', screening(`scr_${String(i).padStart(2, '0')}`, T(i % 2 ? 10 : 20)));
    const all = await allRows(b.repo, FROM, TO, 4);
    expect(all).toHaveLength(25);
    // By time, then as inserted.
    const odd = Array.from({ length: 25 }, (_, i) => i).filter((i) => i % 2);
    const even = Array.from({ length: 25 }, (_, i) => i).filter((i) => !(i % 2));
    expect(all.map((r) => r.screening_id)).toEqual([...odd, ...even].map((i) => `scr_${String(i).padStart(2, '0')}`));
  });
});

describe('the audit export on both backends at once', () => {
  let sqliteB: Backend;
  let pgB: Backend;
  beforeEach(async () => {
    sqliteB = await openSqlite();
    pgB = await openPg();
  });
  afterEach(async () => {
    await sqliteB.close();
    await pgB.close();
  });

  const both = async (fn: (b: Backend) => Promise<void>) => {
    await fn(sqliteB);
    await fn(pgB);
  };

  it('the same rows, value and type, and the same CSV byte for byte', async () => {
    await both(seedFixed);
    for (const size of [2, 1_000]) {
      expect(await allRows(pgB.repo, FROM, TO, size)).toStrictEqual(await allRows(sqliteB.repo, FROM, TO, size));
      const csv = await csvOf(sqliteB.repo, FROM, TO, size);
      expect(csv.split('\n')).toHaveLength(8); // the header, six rows, the last newline
      expect(Buffer.from(await csvOf(pgB.repo, FROM, TO, size))).toEqual(Buffer.from(csv));
    }
  });

  it('property: any JSON in a score, a standing decision or a load exports the same on both', async () => {
    // Text with what CSV, JSON and the two databases each treat apart.
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\u0000', '\ud800', '\udfff', '"', ',', '\n', '\r', '=', '+', '-', '@', '\\', 'é', '😀', '\u2028', ' '),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      ),
      maxLength: 12,
    });
    const value = fc.oneof(
      text,
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const doc = (paths: readonly string[][]) =>
      fc.oneof(
        fc.constant(null),
        fc
          .tuple(
            ...paths.map(() => fc.option(value, { nil: undefined })),
            fc.dictionary(text, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
          )
          .map(([...vs]) => {
            const extra = vs.pop() as Record<string, unknown>;
            const o: Record<string, unknown> = { ...extra };
            paths.forEach((p, i) => {
              if (vs[i] === undefined) return;
              let at = o;
              for (const k of p.slice(0, -1))
                at = (at[k] = typeof at[k] === 'object' && at[k] !== null && !Array.isArray(at[k]) ? at[k] : {}) as Record<string, unknown>;
              at[p.at(-1)!] = vs[i];
            });
            return JSON.stringify(o);
          }),
      );
    const scoreDoc = doc([
      ['carrier', 'dot_number'],
      ['carrier', 'mc_number'],
      ['carrier', 'legal_name'],
      ['score'],
      ['grade'],
      ['decision'],
    ]);
    const standingDoc = doc([['decided_by'], ['token_id'], ['decided_at'], ['id']]);
    const loadDoc = doc([['customer_ref'], ['pickup_at'], ['origin'], ['destination'], ['equipment']]);
    const screeningArb = fc.record({
      score: scoreDoc,
      byFetch: fc.boolean(),
      standing: standingDoc,
      load: loadDoc,
      byMc: fc.boolean(),
      minute: fc.integer({ min: 0, max: 5 }),
      tender: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(screeningArb, { maxLength: 6 }), async (list) => {
        await both((b) => b.reset());
        for (const [i, s] of list.entries()) {
          await both(async (b) => {
            if (s.byFetch && s.score !== null)
              await b.insert('score_fetches', { id: i + 1, env: 'live', dot_number: '1', body: s.score, fetched_at: T(0) });
            await b.insert(
              'screenings',
              screening(`scr_${i}`, T(s.minute), {
                query_kind: s.byMc ? 'mc_number' : 'dot_number',
                query_value: s.byMc ? 'MC9' : '9',
                tender_id: s.tender,
                score: s.byFetch ? null : s.score,
                score_fetch_id: s.byFetch && s.score !== null ? i + 1 : null,
                standing_decision: s.standing,
                load: s.load,
              }),
            );
          });
        }
        const want = await allRows(sqliteB.repo, FROM, TO, 4);
        expect(await allRows(pgB.repo, FROM, TO, 4)).toStrictEqual(want);
        expect(Buffer.from(await csvOf(pgB.repo, FROM, TO, 4))).toEqual(Buffer.from(await csvOf(sqliteB.repo, FROM, TO, 4)));
      }),
      { numRuns: 40 },
    );
  });
});

describe('audit rows on postgres only', () => {
  it('a page is read off the index (created_at, seq) in order, with no sort', async () => {
    const { pool } = await pgDatabase();
    const c = await pool.connect();
    interface PlanNode {
      'Node Type': string;
      'Index Name'?: string;
      Plans?: PlanNode[];
    }
    const nodes = (p: PlanNode): PlanNode[] => [p, ...(p.Plans ?? []).flatMap(nodes)];
    try {
      await c.query('BEGIN');
      // Sorting made as dear as the planner allows: a Sort in the plan means the index cannot give the order.
      await c.query('SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off');
      const { rows } = await c.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({
        text: `EXPLAIN (FORMAT JSON) ${auditPage.text}`,
        values: [FROM, 0, TO, 1000],
      });
      await c.query('ROLLBACK');
      const all = nodes(rows[0]!['QUERY PLAN'][0]!.Plan);
      expect(all.map((n) => n['Node Type'])).not.toContain('Sort');
      expect(all.map((n) => n['Node Type'])).not.toContain('Incremental Sort');
      expect(all.find((n) => n['Index Name']?.startsWith('screenings'))?.['Index Name']).toBe('screenings_by_created');
    } finally {
      c.release();
    }
  });

  it('a write not yet committed is not exported; every committed row is, in order (audit-thread.test.ts on PostgreSQL)', async () => {
    const b = await openPg();
    const { pool } = await pgDatabase();
    for (let i = 0; i < 25; i++) await b.insert('screenings', screening(`scr_${String(i).padStart(2, '0')}`, T(i)));
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      await c.query(
        "INSERT INTO screenings (id, status, query_kind, query_value, priority, created_at) VALUES ('scr_uncommitted', 'done', 'dot_number', '1', 'tender', $1)",
        [T(5)],
      );
      const rows = await allRows(b.repo, FROM, TO, 10);
      expect(rows.map((r) => r.screening_id)).toEqual(Array.from({ length: 25 }, (_, i) => `scr_${String(i).padStart(2, '0')}`));
    } finally {
      await c.query('ROLLBACK');
      c.release();
    }
  });

  it('jsonExtract reads as json_extract does', () => {
    const doc = { a: { b: 1, t: true, f: false, n: null, o: { x: [1, 'é'] }, s: 'x\udc00' }, arr: [{ b: 2 }] };
    expect(jsonExtract(doc, ['a', 'b'])).toBe(1);
    expect(jsonExtract(doc, ['a', 't'])).toBe(1);
    expect(jsonExtract(doc, ['a', 'f'])).toBe(0);
    expect(jsonExtract(doc, ['a', 'n'])).toBeNull();
    expect(jsonExtract(doc, ['a', 'missing'])).toBeNull();
    expect(jsonExtract(doc, ['a', 'o'])).toBe('{"x":[1,"é"]}');
    expect(jsonExtract(doc, ['a', 's'])).toBe('x\ufffd\ufffd\ufffd');
    expect(jsonExtract(doc, ['arr', 'b'])).toBeNull();
    expect(jsonExtract(doc, ['a', 'b', 'c'])).toBeNull();
    expect(jsonExtract(null, ['a'])).toBeNull();
    expect(jsonExtract('text', ['length'])).toBeNull();
  });
});
