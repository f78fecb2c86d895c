/**
 * Retention on both backends: the same cases through the same interface (SQLite's retentionOf,
 * its answers awaited; PostgreSQL's pg/retention-repo.ts), each pass driven as
 * worker/retention/pruner.ts drives it (every task of PRUNE_TASKS, batch after batch until one
 * comes back short). Then what only several hosts on PostgreSQL need: one host prunes at a time
 * (the prune lock); a prune neither deletes nor waits on a callback another host is changing,
 * and cannot deadlock with it on the sharded callback counts.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { positional } from '../../worker/store/pg/sql.js';
import { poolExecutor, type PgExecutor } from '../../worker/store/pg/executor.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { PG_PRUNE_TASKS, pgRetentionOf } from '../../worker/store/pg/retention-repo.js';
import { PRUNE_TASKS, retentionOf, type PruneTask, type RetentionRepo } from '../../worker/store/retention-repo.js';
import { connectionOf, openStore } from '../../worker/store/sqlite-store.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const policy = { eventsMs: 7 * DAY, recordsMs: 3 * YEAR, notFoundMs: 15 * 60_000 };
const NOW = new Date('2025-01-16T00:00:00.000Z');

type Row = Record<string, string | number | null>;

/** One backend as a case sees it: the repository, and plain SQL to seed rows and look at them. */
interface Backend {
  repo: AsyncRepo<RetentionRepo>;
  insert(table: string, row: Row): Promise<void>;
  /** One column of every row of `table`, as text, sorted. */
  column(table: string, col: string): Promise<string[]>;
  /** callback_counts per state (PostgreSQL: its shards summed). */
  counts(): Promise<Record<string, number>>;
  /** Rows per state, counted. */
  outboxStates(): Promise<Record<string, number>>;
  /** A caller's unit of work around `fn` that then fails: what `fn` deleted must come back. */
  failingUnitOfWork(fn: (r: AsyncRepo<RetentionRepo>) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

interface Maker {
  open(): Promise<Backend>;
  afterAll(): Promise<void>;
}

const insertSql = (table: string, row: Row): string =>
  `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
    .map((k) => `@${k}`)
    .join(', ')})`;

/** SQLite's sync answers (and throws) as promises. */
function awaited(r: RetentionRepo): AsyncRepo<RetentionRepo> {
  return {
    isOpen: async () => r.isOpen(),
    pruneBatch: async (t, c, l) => r.pruneBatch(t, c, l),
    freePages: async () => r.freePages(),
    vacuum: async (p) => r.vacuum(p),
  };
}

const sqlite: Maker = {
  async open() {
    const file = tempDbPath();
    const store = openStore(file.path, { now: () => NOW });
    const db = connectionOf(store);
    const repo = awaited(retentionOf(store));
    let closed = false;
    return {
      repo,
      insert: async (table, row) => void db.prepare(insertSql(table, row)).run(row),
      column: async (table, col) =>
        (db.prepare(`SELECT CAST(${col} AS TEXT) AS v FROM ${table}`).all() as { v: string }[]).map((r) => r.v).sort(),
      counts: async () =>
        Object.fromEntries(
          (db.prepare('SELECT state, n FROM callback_counts').all() as { state: string; n: number }[]).map((r) => [r.state, r.n]),
        ),
      outboxStates: async () =>
        Object.fromEntries(
          (db.prepare('SELECT state, COUNT(*) AS n FROM callback_outbox GROUP BY state').all() as { state: string; n: number }[]).map(
            (r) => [r.state, r.n],
          ),
        ),
      async failingUnitOfWork(fn) {
        // The repository's own IMMEDIATE transaction nests in this one as a savepoint.
        db.exec('BEGIN IMMEDIATE');
        try {
          await fn(repo);
        } finally {
          db.exec('ROLLBACK');
        }
      },
      close: async () => {
        if (!closed) store.close();
        closed = true;
        file.cleanup();
      },
    };
  },
  afterAll: async () => undefined,
};

const TABLES =
  'events, callback_outbox, reviews, screenings, score_fetches, score_cache, watch_screenings, carrier_changes, local_blocks, decisions, idempotency_keys, not_found_cache';

let pgDb: Awaited<ReturnType<typeof migratedPgDatabase>> | undefined;
async function pgDatabase(): Promise<NonNullable<typeof pgDb>> {
  pgDb ??= await migratedPgDatabase();
  return pgDb;
}

async function pgInsert(q: pg.Pool | pg.PoolClient, table: string, row: Row): Promise<void> {
  // score_fetches.id is an identity: a seed names its ids, as SQLite's INTEGER PRIMARY KEY takes them.
  const { text, names } = positional(insertSql(table, row).replace(') VALUES (', ') OVERRIDING SYSTEM VALUE VALUES ('));
  await q.query(
    text,
    names.map((n) => row[n]),
  );
}

const postgres: Maker = {
  async open() {
    const { pool } = await pgDatabase();
    // One database per file: each case starts from empty tables, the counts' shards at 0
    // (TRUNCATE fires no row triggers).
    await pool.query(`TRUNCATE ${TABLES} RESTART IDENTITY`);
    await pool.query('UPDATE callback_counts SET n = 0');
    const x = poolExecutor(pool);
    const repo = pgRetentionOf(x, pool);
    return {
      repo,
      insert: (table, row) => pgInsert(pool, table, row),
      column: async (table, col) => (await pool.query<{ v: string }>(`SELECT ${col}::text AS v FROM ${table}`)).rows.map((r) => r.v).sort(),
      counts: async () =>
        Object.fromEntries(
          (
            await pool.query<{ state: string; n: number }>('SELECT state, SUM(n)::bigint AS n FROM callback_counts GROUP BY state')
          ).rows.map((r) => [r.state, r.n]),
        ),
      outboxStates: async () =>
        Object.fromEntries(
          (await pool.query<{ state: string; n: number }>('SELECT state, COUNT(*) AS n FROM callback_outbox GROUP BY state')).rows.map(
            (r) => [r.state, r.n],
          ),
        ),
      async failingUnitOfWork(fn) {
        const failed = new Error('the unit of work fails');
        await x
          .transaction(async (tx) => {
            await fn(pgRetentionOf(tx, pool));
            throw failed;
          })
          .catch((e: unknown) => {
            if (e !== failed) throw e;
          });
      },
      close: async () => undefined,
    };
  },
  afterAll: async () => {
    await pgDb?.close();
    pgDb = undefined;
  },
};

/** One pass as the Pruner makes it: rows per task, and each batch's count. */
async function pass(
  repo: AsyncRepo<RetentionRepo>,
  limit: number,
  now: Date = NOW,
  tasks: readonly PruneTask[] = PRUNE_TASKS,
): Promise<{ report: Record<string, number>; batches: Record<string, number[]> }> {
  const report: Record<string, number> = {};
  const batches: Record<string, number[]> = {};
  for (const t of tasks) {
    const cutoff = new Date(now.getTime() - policy[t.keep]).toISOString();
    const ns: number[] = [];
    for (;;) {
      const n = await repo.pruneBatch(t, cutoff, limit);
      expect(n).toBeLessThanOrEqual(limit);
      ns.push(n);
      if (n < limit) break;
    }
    batches[t.name] = ns;
    const total = ns.reduce((a, b) => a + b, 0);
    if (total > 0) report[t.name] = total;
  }
  return { report, batches };
}

const task = (name: string): PruneTask => PRUNE_TASKS.find((t) => t.name === name)!;

// Seeds -------------------------------------------------------------------------------------

const iso = (d: Date | string): string => (typeof d === 'string' ? d : d.toISOString());

function screening(id: string, at: string, over: Row = {}): Row {
  return {
    id,
    status: 'done',
    query_kind: 'dot_number',
    query_value: '1000003',
    priority: 'tender',
    created_at: at,
    completed_at: at,
    ...over,
  };
}

function callback(id: string, state: string, at: string): Row {
  return {
    id,
    delivery_id: `${id}:screening.completed`,
    kind: 'screening.completed',
    url: 'http://127.0.0.1:9/hook',
    destination: 'http://127.0.0.1:9',
    body: '{}',
    state,
    next_attempt_at: 0,
    retry_since: 0,
    created_at: at,
    updated_at: at,
  };
}

/**
 * One row of every kind retention handles, at `at`: screenings (decided, a pending review,
 * unfinished), their fetches (used by a screening, by the cache, by nobody), events, callbacks
 * in each state, watch history, a change, a lifted and an active block, a standing and a lapsed
 * decision, an idempotency key, a not-found answer. `n` keeps ids apart (fetch and event ids).
 */
async function seedSet(b: Backend, tag: string, n: number, when: Date | string): Promise<void> {
  const at = iso(when);
  await b.insert('score_fetches', { id: n * 10 + 1, env: 'live', dot_number: tag, body: '{}', fetched_at: at });
  await b.insert('score_fetches', { id: n * 10 + 2, env: 'live', dot_number: tag, body: '{}', fetched_at: at });
  await b.insert('score_fetches', { id: n * 10 + 3, env: 'live', dot_number: tag, body: '{}', fetched_at: at });
  await b.insert('score_fetches', { id: n * 10 + 4, env: 'live', dot_number: tag, body: '{}', fetched_at: at });
  await b.insert('score_cache', { env: 'live', dot_number: tag, body: '', model_version: 'm', fetched_at: at, fetch_id: n * 10 + 2 });
  await b.insert('screenings', screening(`${tag}_done`, at, { score_fetch_id: n * 10 + 4 }));
  await b.insert('reviews', {
    id: `rev_${tag}_done`,
    screening_id: `${tag}_done`,
    state: 'approved',
    hold_reason: 'manual_review',
    created_at: at,
  });
  await b.insert('screenings', screening(`${tag}_pending`, at, { score_fetch_id: n * 10 + 1 }));
  await b.insert('reviews', {
    id: `rev_${tag}_pending`,
    screening_id: `${tag}_pending`,
    state: 'pending',
    hold_reason: 'manual_review',
    created_at: at,
  });
  await b.insert('screenings', screening(`${tag}_queued`, at, { status: 'queued', completed_at: null }));
  for (let i = 1; i <= 3; i++) await b.insert('events', { id: n * 10 + i, event: 'screening.completed', data: '{}', created_at: at });
  for (const state of ['pending', 'delivered', 'dead', 'cancelled'])
    await b.insert('callback_outbox', callback(`${tag}_cb_${state}`, state, at));
  await b.insert('watch_screenings', { screening_id: `${tag}_done`, carrier_key: `dot:${tag}`, created_at: at });
  await b.insert('carrier_changes', {
    id: `${tag}_chg`,
    carrier_key: `dot:${tag}`,
    screening_id: `${tag}_chgscr`,
    reasons: '[]',
    before_state: '{}',
    after_state: '{}',
    tenders: '[]',
    state: 'new',
    detected_at: at,
  });
  await b.insert('local_blocks', {
    id: `${tag}_lifted`,
    carrier_key: `dot:${tag}`,
    reason: 'r',
    blocked_by: 'x',
    blocked_at: at,
    lifted_by: 'y',
    lifted_at: at,
  });
  await b.insert('local_blocks', { id: `${tag}_active`, carrier_key: `dot:${tag}`, reason: 'r', blocked_by: 'x', blocked_at: at });
  const decision = (id: string, state: string, key: string): Row => ({
    id,
    carrier_key: key,
    review_id: `rev_${tag}_done`,
    decision: 'approved',
    basis: '{}',
    decided_by: 'dana',
    decided_at: at,
    expires_at: at,
    state,
  });
  await b.insert('decisions', decision(`${tag}_standing`, 'standing', `live:dot:${tag}`));
  await b.insert('decisions', decision(`${tag}_lapsed`, 'lapsed', `live:dot:${tag}`));
  await b.insert('idempotency_keys', { scope: 'POST /screenings', key: tag, request_hash: 'h', resource_id: null, created_at: at });
  await b.insert('not_found_cache', { env: 'live', query_key: `dot:${tag}`, error: '{}', fetched_at: at });
}

/** What a pass left, table by table. */
async function left(b: Backend): Promise<Record<string, string[]>> {
  return {
    events: await b.column('events', 'id'),
    callback_outbox: await b.column('callback_outbox', 'id'),
    screenings: await b.column('screenings', 'id'),
    reviews: await b.column('reviews', 'id'),
    score_fetches: await b.column('score_fetches', 'id'),
    watch_screenings: await b.column('watch_screenings', 'screening_id'),
    carrier_changes: await b.column('carrier_changes', 'id'),
    local_blocks: await b.column('local_blocks', 'id'),
    decisions: await b.column('decisions', 'id'),
    idempotency_keys: await b.column('idempotency_keys', 'key'),
    not_found_cache: await b.column('not_found_cache', 'query_key'),
  };
}

describe.each([
  ['sqlite', sqlite],
  ['postgres', postgres],
])('retention on %s', (_name, maker) => {
  let b: Backend;
  afterAll(() => maker.afterAll());
  beforeEach(async () => {
    b = await maker.open();
  });
  afterEach(() => b.close());

  it('a pass prunes each kind of row past its period and keeps the record within it', async () => {
    await seedSet(b, 'old', 1, '2022-01-10T00:00:00.000Z'); // past every period
    await seedSet(b, 'mid', 2, '2025-01-05T00:00:00.000Z'); // past the event log's (7 days) only
    await seedSet(b, 'new', 3, new Date(NOW.getTime() - 5 * 60_000)); // within every period
    const { report } = await pass(b.repo, 2);
    expect(report).toEqual({
      events: 6,
      'delivered callbacks': 2,
      'dead and cancelled callbacks': 2,
      screenings: 1,
      // old's unused one and the one its pruned screening used; mid's unused one.
      'unreferenced score fetches': 3,
      'watch screenings': 1,
      'carrier changes': 1,
      'lifted blocks': 1,
      'ended decisions': 1,
      'idempotency keys': 2,
      'expired not-found answers': 2,
    });
    expect(await left(b)).toEqual({
      events: ['31', '32', '33'],
      callback_outbox: [
        'mid_cb_cancelled',
        'mid_cb_dead',
        'mid_cb_pending',
        'new_cb_cancelled',
        'new_cb_dead',
        'new_cb_delivered',
        'new_cb_pending',
        'old_cb_pending',
      ],
      // A review still pending keeps its screening; an unfinished screening stays.
      screenings: ['mid_done', 'mid_pending', 'mid_queued', 'new_done', 'new_pending', 'new_queued', 'old_pending', 'old_queued'],
      // The decided review went with its screening.
      reviews: ['rev_mid_done', 'rev_mid_pending', 'rev_new_done', 'rev_new_pending', 'rev_old_pending'],
      // A fetch a screening or the cache refers to stays, whatever its age.
      score_fetches: ['11', '12', '21', '22', '24', '31', '32', '33', '34'],
      watch_screenings: ['mid_done', 'new_done'],
      carrier_changes: ['mid_chg', 'new_chg'],
      local_blocks: ['mid_active', 'mid_lifted', 'new_active', 'new_lifted', 'old_active'],
      // A standing decision is in force whatever its age.
      decisions: ['mid_lapsed', 'mid_standing', 'new_lapsed', 'new_standing', 'old_standing'],
      idempotency_keys: ['new'],
      not_found_cache: ['dot:new'],
    });
    // The counts follow the rows (triggers).
    expect(await b.counts()).toEqual({ pending: 3, delivered: 1, dead: 2, cancelled: 2 });
    expect(await b.counts()).toEqual(await b.outboxStates());

    // A second pass finds nothing.
    expect((await pass(b.repo, 2)).report).toEqual({});
  });

  it('with nothing old, nothing goes', async () => {
    await seedSet(b, 'new', 1, NOW);
    const before = await left(b);
    expect(await pass(b.repo, 500)).toMatchObject({ report: {} });
    expect(await left(b)).toEqual(before);
  });

  it('deletes at most the batch size a batch; a short batch ends the task', async () => {
    for (let i = 1; i <= 17; i++) await b.insert('events', { id: i, event: 'e', data: '{}', created_at: '2024-01-01T00:00:00.000Z' });
    for (let i = 1; i <= 14; i++)
      await b.insert('not_found_cache', { env: 'live', query_key: `dot:${i}`, error: '{}', fetched_at: '2024-01-01' });
    const { batches } = await pass(b.repo, 7);
    expect(batches.events).toEqual([7, 7, 3]);
    expect(batches['expired not-found answers']).toEqual([7, 7, 0]);
    expect(await b.column('events', 'id')).toEqual([]);
  });

  it('events go oldest id first and never past the first kept one', async () => {
    const old = '2024-01-01T00:00:00.000Z';
    await b.insert('events', { id: 1, event: 'e', data: '{}', created_at: old });
    await b.insert('events', { id: 2, event: 'e', data: '{}', created_at: NOW.toISOString() });
    await b.insert('events', { id: 3, event: 'e', data: '{}', created_at: old }); // an old time after a new id
    const cutoff = new Date(NOW.getTime() - policy.eventsMs).toISOString();
    expect(await b.repo.pruneBatch(task('events'), cutoff, 2)).toBe(1);
    expect(await b.column('events', 'id')).toEqual(['2', '3']);
    // A batch that reaches past the kept id takes the old one after it.
    expect(await b.repo.pruneBatch(task('events'), cutoff, 3)).toBe(1);
    expect(await b.column('events', 'id')).toEqual(['2']);
  });

  it('dead and cancelled callbacks: each batch at most the batch size, the oldest of each state, until none is left', async () => {
    const at = (i: number) => new Date(Date.parse('2020-01-01T00:00:00Z') + i * 60_000).toISOString();
    for (let i = 0; i < 5; i++) await b.insert('callback_outbox', callback(`dead_${i}`, 'dead', at(2 * i)));
    for (let i = 0; i < 4; i++) await b.insert('callback_outbox', callback(`cancelled_${i}`, 'cancelled', at(2 * i + 1)));
    await b.insert('callback_outbox', callback('pending_old', 'pending', at(0)));
    await b.insert('callback_outbox', callback('dead_new', 'dead', NOW.toISOString()));
    const { batches } = await pass(b.repo, 3, NOW, [task('dead and cancelled callbacks')]);
    expect(batches['dead and cancelled callbacks']).toEqual([3, 3, 3, 0]);
    expect(await b.column('callback_outbox', 'id')).toEqual(['dead_new', 'pending_old']);
    expect(await b.counts()).toEqual({ pending: 1, delivered: 0, dead: 1, cancelled: 0 });
  });

  it('joins a caller’s unit of work: what a batch deleted comes back when the caller fails', async () => {
    await seedSet(b, 'old', 1, '2022-01-10T00:00:00.000Z');
    const before = await left(b);
    await b.failingUnitOfWork(async (r) => {
      const cutoff = new Date(NOW.getTime() - policy.recordsMs).toISOString();
      expect(await r.pruneBatch(task('screenings'), cutoff, 10)).toBe(1);
      expect(await r.pruneBatch(task('dead and cancelled callbacks'), cutoff, 10)).toBe(2);
    });
    expect(await left(b)).toEqual(before);
    expect(await b.counts()).toEqual({ pending: 1, delivered: 1, dead: 1, cancelled: 1 });
  });

  it('free pages: a count, and giving them back never adds any', async () => {
    await seedSet(b, 'old', 1, '2022-01-10T00:00:00.000Z');
    await pass(b.repo, 500);
    const before = await b.repo.freePages();
    expect(before).toBeGreaterThanOrEqual(0);
    await b.repo.vacuum(2_000);
    expect(await b.repo.freePages()).toBeLessThanOrEqual(before);
  });

  it('is open until the store closes', async () => {
    expect(await b.repo.isOpen()).toBe(true);
  });
});

describe('retention on postgres only', () => {
  let pool: pg.Pool;
  let hostB: pg.Pool | undefined;
  beforeAll(async () => {
    pool = (await pgDatabase()).pool;
  });
  beforeEach(async () => {
    await pool.query(`TRUNCATE ${TABLES} RESTART IDENTITY`);
    await pool.query('UPDATE callback_counts SET n = 0');
  });
  afterEach(async () => {
    await hostB?.end();
    hostB = undefined;
  });
  afterAll(() => postgres.afterAll());

  // This test's own database only: other test files share the server.
  const ADVISORY_HELD =
    "SELECT COUNT(*)::bigint AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())";

  const second = async (): Promise<pg.Pool> => (hostB = openPgPool((await pgDatabase()).db.url, { max: 2 }));

  /**
   * Host A on one connection (its pid known), and host B's connection on the same counts shard as
   * A's (pid % 8) or on another: the shard decides whether their count rows meet.
   */
  async function twoHosts(sameShard: boolean): Promise<{ a: pg.Pool; pidA: number; b: pg.Client }> {
    const { db } = await pgDatabase();
    const a = (hostB = openPgPool(db.url, { max: 1 }));
    const pidA = (await a.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const others: pg.Client[] = [];
    try {
      for (let i = 0; i < 200; i++) {
        const c = new pg.Client({ connectionString: db.url });
        await c.connect();
        const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        if ((pid % 8 === pidA % 8) === sameShard) return { a, pidA, b: c };
        others.push(c);
      }
      throw new Error('no connection on the shard wanted in 200 tries');
    } finally {
      await Promise.all(others.map((c) => c.end()));
    }
  }

  it('every task of PRUNE_TASKS has its statements, for the same period; a task it does not know is refused', async () => {
    expect([...PG_PRUNE_TASKS.keys()]).toEqual(PRUNE_TASKS.map((t) => t.name));
    for (const t of PRUNE_TASKS) expect(PG_PRUNE_TASKS.get(t.name)?.keep).toBe(t.keep);
    const repo = pgRetentionOf(poolExecutor(pool), pool);
    await expect(repo.pruneBatch({ name: 'audit', keep: 'recordsMs', sql: 'DELETE FROM audit' }, NOW.toISOString(), 5)).rejects.toThrow(
      /no PostgreSQL statement for the prune task "audit"/,
    );
  });

  it('each batch is chosen off an index in the order it deletes, with no sort', async () => {
    interface PlanNode {
      'Node Type': string;
      Plans?: PlanNode[];
    }
    const nodes = (p: PlanNode): PlanNode[] => [p, ...(p.Plans ?? []).flatMap(nodes)];
    const c = await pool.connect();
    try {
      for (const [name, t] of PG_PRUNE_TASKS) {
        for (const s of t.steps) {
          await c.query('BEGIN');
          // Sorting made as dear as the planner allows: a Sort in the plan means no index gives the order.
          await c.query('SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off');
          const { rows } = await c.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({
            text: `EXPLAIN (FORMAT JSON) ${s.delete.text}`,
            // @cutoff and @limit, in the order the text numbers them.
            values: /LIMIT \$1/.test(s.delete.text) ? [500, NOW.toISOString()] : [NOW.toISOString(), 500],
          });
          await c.query('ROLLBACK');
          expect({ name, nodes: nodes(rows[0]!['QUERY PLAN'][0]!.Plan).map((n) => n['Node Type']) }).not.toEqual(
            expect.objectContaining({ nodes: expect.arrayContaining(['Sort']) }),
          );
        }
      }
    } finally {
      c.release();
    }
  });

  it('a batch PostgreSQL aborted as a deadlock victim runs again, once', async () => {
    const fake = (failures: number): { x: PgExecutor; tries: () => number } => {
      let tries = 0;
      const tx: PgExecutor = {
        inTransaction: true,
        query: async () => {
          if (++tries <= failures) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
          return { rows: [], rowCount: 4 };
        },
        transaction: (fn) => fn(tx),
      };
      return { x: { ...tx, inTransaction: false }, tries: () => tries };
    };
    const sessions = { connect: () => Promise.reject(new Error('not used')), ending: false };
    const once = fake(1);
    expect(await pgRetentionOf(once.x, sessions).pruneBatch(task('events'), NOW.toISOString(), 10)).toBe(4);
    expect(once.tries()).toBe(2);
    const twice = fake(2);
    await expect(pgRetentionOf(twice.x, sessions).pruneBatch(task('events'), NOW.toISOString(), 10)).rejects.toMatchObject({
      code: '40P01',
    });
    expect(twice.tries()).toBe(2);
  });

  it('one host prunes at a time: a second host’s try fails while the first holds the lock, and succeeds after its release', async () => {
    const a = pgRetentionOf(poolExecutor(pool), pool);
    const other = await second();
    const b = pgRetentionOf(poolExecutor(other), other);
    const lock = await a.tryPruneLock();
    expect(lock).toBeDefined();
    expect(await b.tryPruneLock()).toBeUndefined();
    // Session-level, on a connection of its own: the holder's batches run meanwhile, in their own transactions.
    await pgInsert(pool, 'events', { id: 1, event: 'e', data: '{}', created_at: '2020-01-01T00:00:00.000Z' });
    expect(await a.pruneBatch(task('events'), NOW.toISOString(), 10)).toBe(1);
    expect(await b.tryPruneLock()).toBeUndefined();
    await lock!.release();
    await lock!.release(); // twice is once
    const lockB = await b.tryPruneLock();
    expect(lockB).toBeDefined();
    expect(await a.tryPruneLock()).toBeUndefined();
    await lockB!.release();
    // No session is left holding it, nor any connection taken for it.
    expect((await pool.query(ADVISORY_HELD)).rows[0]).toEqual({ n: 0 });
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it('a holder whose session dies loses the lock: another host takes it', async () => {
    const a = pgRetentionOf(poolExecutor(pool), pool);
    const other = await second();
    const b = pgRetentionOf(poolExecutor(other), other);
    const lock = await a.tryPruneLock();
    expect(lock).toBeDefined();
    const { rows } = await other.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    expect(rows).toHaveLength(1);
    await other.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    await expect.poll(async () => (await other.query(ADVISORY_HELD)).rows[0]).toEqual({ n: 0 });
    const lockB = await b.tryPruneLock();
    expect(lockB).toBeDefined();
    await lockB!.release();
    // Releasing on a dead session: the connection is closed, not given back to the pool.
    await lock!.release();
  });

  it('is not open once its pool is ending', async () => {
    const other = await second();
    const b = pgRetentionOf(poolExecutor(other), other);
    expect(await b.isOpen()).toBe(true);
    await other.end();
    hostB = undefined;
    expect(await b.isOpen()).toBe(false);
  });

  it('frees no pages (autovacuum does it)', async () => {
    const repo = pgRetentionOf(poolExecutor(pool), pool);
    expect(await repo.freePages()).toBe(0);
    await repo.vacuum(2_000);
    expect(await repo.freePages()).toBe(0);
  });

  it('a callback another host is changing is neither waited on nor deleted; the counts stay exact', async () => {
    const old = '2020-01-01T00:00:00.000Z';
    for (let i = 0; i < 4; i++) await pgInsert(pool, 'callback_outbox', callback(`dead_${i}`, 'dead', old));
    await pgInsert(pool, 'callback_outbox', callback('delivered_0', 'delivered', old));
    const cutoff = NOW.toISOString();
    // Another shard: B's count rows are not A's (on A's shard, A waits for them: the next case).
    const { a, b } = await twoHosts(false);
    const repo = pgRetentionOf(poolExecutor(a), a);
    try {
      // Host B retries dead_1 (dead -> pending), not yet committed.
      await b.query('BEGIN');
      await b.query("UPDATE callback_outbox SET state = 'pending', updated_at = $1 WHERE id = 'dead_1'", [NOW.toISOString()]);
      // The prune goes on without it: it neither waits for host B's COMMIT nor deletes its row.
      const pruned = repo.pruneBatch(task('dead and cancelled callbacks'), cutoff, 10);
      const waited = await Promise.race([pruned, new Promise((r) => setTimeout(() => r('waited'), 3_000))]);
      await b.query('COMMIT');
      expect(waited).toBe(3);
    } finally {
      await b.end();
    }
    // Its retry committed: pending now, not due for pruning.
    expect(await repo.pruneBatch(task('dead and cancelled callbacks'), cutoff, 10)).toBe(0);
    expect((await pool.query<{ id: string; state: string }>('SELECT id, state FROM callback_outbox ORDER BY id')).rows).toEqual([
      { id: 'dead_1', state: 'pending' },
      { id: 'delivered_0', state: 'delivered' },
    ]);
    const sums = await pool.query<{ state: string; n: number }>(
      'SELECT state, SUM(n)::bigint AS n FROM callback_counts GROUP BY state ORDER BY state',
    );
    expect(Object.fromEntries(sums.rows.map((r) => [r.state, r.n]))).toEqual({ cancelled: 0, dead: 0, delivered: 1, pending: 1 });
  });

  it('a batch never deadlocks with a host changing callbacks on its counts shard: it takes its count row before any callback', async () => {
    const old = '2020-01-01T00:00:00.000Z';
    for (const id of ['x1', 'x2', 'x3']) await pgInsert(pool, 'callback_outbox', callback(id, 'dead', old));
    const { a, pidA, b } = await twoHosts(true);
    const deadlocks = async () =>
      (await pool.query<{ n: number }>('SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0]!.n;
    const before = await deadlocks();
    try {
      // B retries x1 (dead -> pending): it holds x1 and its shard's dead and pending count rows.
      await b.query('BEGIN');
      await b.query("UPDATE callback_outbox SET state = 'pending', updated_at = $1 WHERE id = 'x1'", [NOW.toISOString()]);
      // A's batch waits for B's count row; had it locked x2 and x3 first, B's next change would close a cycle.
      const repo = pgRetentionOf(poolExecutor(a), a);
      const pruned = repo.pruneBatch(task('dead and cancelled callbacks'), NOW.toISOString(), 10);
      await expect
        .poll(
          async () =>
            (await pool.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pidA])).rows[0] as {
              wait_event_type: string;
            },
        )
        .toEqual({ wait_event_type: 'Lock' });
      // B cancels x2 (dead -> cancelled) and commits: it is not held by A.
      await b.query("UPDATE callback_outbox SET state = 'cancelled', updated_at = $1 WHERE id = 'x2'", [NOW.toISOString()]);
      await b.query('COMMIT');
      expect(await pruned).toBe(1);
    } finally {
      await b.end();
    }
    expect(await deadlocks()).toBe(before);
    expect((await pool.query('SELECT id, state FROM callback_outbox ORDER BY id')).rows).toEqual([
      { id: 'x1', state: 'pending' },
      { id: 'x2', state: 'cancelled' },
    ]);
  });

  it('pruning callbacks while other hosts retry and cancel them by URL: no deadlock, nothing owed deleted, the counts exact', async () => {
    const old = (i: number) => new Date(Date.parse('2020-01-01T00:00:00Z') + i * 1_000).toISOString();
    const URLS = 6;
    for (let u = 0; u < URLS; u++) {
      const url = `http://127.0.0.1:9/hook${u}`;
      const row = (id: string, state: string, at: string) => ({ ...callback(id, state, at), url });
      for (let i = 0; i < 30; i++) await pgInsert(pool, 'callback_outbox', row(`u${u}_dead_${i}`, 'dead', old(i)));
      for (let i = 0; i < 10; i++) await pgInsert(pool, 'callback_outbox', row(`u${u}_cancelled_${i}`, 'cancelled', old(i)));
      for (let i = 0; i < 5; i++) await pgInsert(pool, 'callback_outbox', row(`u${u}_pending_${i}`, 'pending', NOW.toISOString()));
    }
    const deadlocks = async () =>
      (await pool.query<{ n: number }>('SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0]!.n;
    const before = await deadlocks();
    const repo = pgRetentionOf(poolExecutor(pool), pool);
    const other = await second();
    // Hosts B and C: one transaction per URL, a retry of its oldest dead callback and then the URL's
    // callbacks cancelled (pending and dead -> cancelled in one statement), as outbox-repo.ts's.
    const host = async (urls: number[]) => {
      for (const u of urls) {
        const c = await other.connect();
        try {
          await c.query('BEGIN');
          await c.query("UPDATE callback_outbox SET state = 'pending', updated_at = $1 WHERE id = $2 AND state = 'dead'", [
            NOW.toISOString(),
            `u${u}_dead_29`,
          ]);
          await c.query("UPDATE callback_outbox SET state = 'cancelled', updated_at = $1 WHERE url = $2 AND state IN ('pending', 'dead')", [
            NOW.toISOString(),
            `http://127.0.0.1:9/hook${u}`,
          ]);
          await c.query('COMMIT');
        } catch (err) {
          await c.query('ROLLBACK');
          throw err;
        } finally {
          c.release();
        }
      }
    };
    const prune = async () => {
      for (let passes = 0; passes < 3; passes++) await pass(repo, 7, NOW, [task('dead and cancelled callbacks')]);
    };
    await Promise.all([prune(), host([0, 2, 4]), host([1, 3, 5])]);
    await pass(repo, 7, NOW, [task('dead and cancelled callbacks')]);
    expect(await deadlocks()).toBe(before);
    // What is left was changed by a host just now: none is old, none was lost.
    const { rows } = await pool.query<{ state: string; n: number; oldest: string }>(
      'SELECT state, COUNT(*)::bigint AS n, MIN(updated_at) AS oldest FROM callback_outbox GROUP BY state',
    );
    for (const r of rows) expect(r.oldest).toBe(NOW.toISOString());
    const sums = await pool.query<{ state: string; n: number }>('SELECT state, SUM(n)::bigint AS n FROM callback_counts GROUP BY state');
    const counted = Object.fromEntries(sums.rows.map((r) => [r.state, r.n]));
    for (const r of rows) expect(counted[r.state]).toBe(r.n);
    expect(Object.values(counted).reduce((a, b) => a + b, 0)).toBe(rows.reduce((a, r) => a + r.n, 0));
  });

  it('a row changed and committed by another host while the batch waits on it is checked again, not deleted', async () => {
    // A not-found answer refreshed by host B while the prune waits on its row lock.
    await pgInsert(pool, 'not_found_cache', { env: 'live', query_key: 'dot:1', error: '{}', fetched_at: '2020-01-01T00:00:00.000Z' });
    await pgInsert(pool, 'not_found_cache', { env: 'live', query_key: 'dot:2', error: '{}', fetched_at: '2020-01-01T00:00:00.000Z' });
    const repo = pgRetentionOf(poolExecutor(pool), pool);
    const other = await second();
    const c = await other.connect();
    try {
      await c.query('BEGIN');
      await c.query("UPDATE not_found_cache SET fetched_at = $1 WHERE query_key = 'dot:1'", [NOW.toISOString()]);
      const pruned = repo.pruneBatch(task('expired not-found answers'), new Date(NOW.getTime() - policy.notFoundMs).toISOString(), 10);
      // The batch is waiting on dot:1's row.
      await expect
        .poll(
          async () =>
            (
              await pool.query(
                "SELECT COUNT(*)::bigint AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
              )
            ).rows[0],
        )
        .toEqual({ n: 1 });
      await c.query('COMMIT');
      expect(await pruned).toBe(1);
    } finally {
      c.release();
    }
    expect((await pool.query('SELECT query_key FROM not_found_cache')).rows).toEqual([{ query_key: 'dot:1' }]);
  });
});
