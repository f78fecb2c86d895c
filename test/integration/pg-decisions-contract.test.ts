/**
 * The carrier decisions' and the local blocks' repositories, the same cases on both backends
 * (issue 34): SQLite's decisionsOf / decisionListsOf / localBlocksOf and PostgreSQL's
 * pgDecisionsOf / pgDecisionListsOf / pgLocalBlocksOf, through the repository interfaces only
 * (screenings rows come from a small per-backend fixture). Ported from the rules' uses
 * (worker/decisions/carrier-decisions.ts, worker/blocks/local-blocks.ts) and the list tests
 * (list-keyset, list-json: a page's rows, and so its JSON, are the same bytes on both).
 * Then PostgreSQL only: several hosts at once (one open review per carrier, the second joining;
 * a hold waiting for a decision or a supersede of the carrier's review to commit; one active block
 * per carrier by any of its names; one lift; the two-key deadlock PostgreSQL ends with 40P01).
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decisionListsOf,
  decisionsOf,
  type DecisionListsRepo,
  type DecisionRowFilter,
  type DecisionsRepo,
  type NewDecisionRow,
} from '../../worker/store/decisions-repo.js';
import { openStore, type ListPage } from '../../worker/store/index.js';
import { localBlocksOf, type LocalBlocksRepo, type NewBlock } from '../../worker/store/local-blocks-repo.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { NotFoundError, StoreArgumentError, WatchConflictError } from '../../worker/store/store-error.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { pgDecisionListsOf, pgDecisionsOf } from '../../worker/store/pg/decisions-repo.js';
import { poolExecutor, type PgExecutor } from '../../worker/store/pg/executor.js';
import { pgLocalBlocksOf } from '../../worker/store/pg/local-blocks-repo.js';
import { statement } from '../../worker/store/pg/sql.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

interface Repos {
  decisions: AsyncRepo<DecisionsRepo>;
  lists: AsyncRepo<DecisionListsRepo>;
  blocks: AsyncRepo<LocalBlocksRepo>;
}

interface ScreeningState {
  status: string;
  action: string | null;
  settled_by: string | null;
  standing_decision: string | null;
}

interface Backend extends Repos {
  /** A screening row: done and held (what a review settles), or still queued. */
  screening(id: string, status?: 'done' | 'queued'): Promise<void>;
  screeningState(id: string): Promise<ScreeningState | undefined>;
  /** The caller's transaction, as a unit of work runs the repositories. */
  tx<T>(fn: (r: Repos) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A SQLite repository answering Promises: its answer, or its error as a rejection. */
function asAsync<R extends object>(r: R): AsyncRepo<R> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r))
    out[k] = typeof v === 'function' ? async (...a: unknown[]) => (v as (...a: unknown[]) => unknown)(...a) : v;
  return out as AsyncRepo<R>;
}

const T0 = Date.UTC(2026, 10, 1, 0, 0);
/** Minute m of a fixed day; some rows share one, so the tie-breaks (rowid, seq) are exercised. */
const t = (m: number): string => new Date(T0 + m * 60_000).toISOString();

const INSERT_SCREENING = `INSERT INTO screenings (id, status, query_kind, query_value, priority, action, created_at, completed_at)
  VALUES (@id, @status, 'dot_number', '1000001', 'tender', @action, @at, @completed)`;
const SCREENING_STATE = 'SELECT status, action, settled_by, standing_decision FROM screenings WHERE id = @id';

function screeningParams(id: string, status: 'done' | 'queued') {
  return { id, status, action: status === 'done' ? 'hold' : null, at: t(0), completed: status === 'done' ? t(0) : null };
}

async function sqliteBackend(): Promise<Backend> {
  const file = tempDbPath();
  const store = openStore(file.path);
  const db = connectionOf(store);
  const repos: Repos = {
    decisions: asAsync(decisionsOf(store)),
    lists: asAsync(decisionListsOf(store)),
    blocks: asAsync(localBlocksOf(store)),
  };
  return {
    ...repos,
    screening: async (id, status = 'done') => void db.prepare(INSERT_SCREENING).run(screeningParams(id, status)),
    screeningState: async (id) => db.prepare<{ id: string }, ScreeningState>(SCREENING_STATE).get({ id }),
    // The repositories answer at once, so nothing else runs between BEGIN and COMMIT.
    async tx(fn) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const v = await fn(repos);
        db.exec('COMMIT');
        return v;
      } catch (e) {
        db.exec('ROLLBACK');
        throw e;
      }
    },
    close: async () => {
      store.close();
      file.cleanup();
    },
  };
}

const pgRepos = (x: PgExecutor): Repos => ({
  decisions: pgDecisionsOf(x),
  lists: pgDecisionListsOf(x),
  blocks: pgLocalBlocksOf(x),
});

const pgInsertScreening = statement<ReturnType<typeof screeningParams>>('pg_decisions_test_insert_screening', INSERT_SCREENING);
const pgScreeningState = statement<{ id: string }>('pg_decisions_test_screening_state', SCREENING_STATE);

/**
 * One PostgreSQL database for the file (creating one costs far more than a SQLite file), emptied
 * of these tables for each backend opened (the describes run one after another), dropped at the end.
 */
let database: ReturnType<typeof migratedPgDatabase> | undefined;
afterAll(async () => {
  await (await database)?.close();
});

async function pgBackend(): Promise<Backend & { pool: pg.Pool; x: PgExecutor }> {
  database ??= migratedPgDatabase();
  const { pool } = await database;
  await pool.query('TRUNCATE decisions, local_blocks, reviews, screenings');
  const x = poolExecutor(pool);
  return {
    ...pgRepos(x),
    pool,
    x,
    screening: async (id, status = 'done') => void (await pgInsertScreening.run(pool, screeningParams(id, status))),
    screeningState: (id) => pgScreeningState.get<ScreeningState>(pool, { id }),
    tx: (fn) => x.transaction((tx) => fn(pgRepos(tx))),
    close: async () => {},
  };
}

const BACKENDS = [
  ['sqlite', sqliteBackend],
  ['postgres', pgBackend],
] as const;

let unique = 0;
/** Ids of one case, apart from every other case's in the same database. */
function ids() {
  const u = ++unique;
  const dot = String(2_000_000 + u);
  return { u, dot, key: `sandbox:dot:${dot}`, scr: (s: string) => `scr_${u}_${s}`, rev: (s: string) => `rev_${u}_${s}` };
}

function decision(over: Partial<NewDecisionRow> & Pick<NewDecisionRow, 'id' | 'carrier_key'>): NewDecisionRow {
  return {
    dot_number: '1000001',
    mc_number: 'MC1',
    legal_name: 'Acme "Haul", Inc.',
    review_id: 'rev_x',
    decision: 'approved',
    basis: JSON.stringify({ grade: 'A', flags: ['a,b'] }),
    model_version: 'm-1',
    decided_by: 'Dana',
    decided_at: t(1),
    expires_at: t(60 * 24),
    token_id: 'tok_1',
    ...over,
  };
}

const review = (over: { id: string; screening_id: string; carrier_key: string; parent_id?: string | null; created_at?: string }) => ({
  hold_reason: 'manual_review',
  created_at: t(0),
  parent_id: null,
  previous_decision: null,
  ...over,
});

describe.each(BACKENDS)('%s: standing decisions (decisionsOf)', (_name, open) => {
  let b: Backend;
  beforeAll(async () => {
    b = await open();
  });
  afterAll(async () => {
    await b?.close();
  });

  it('stand until ended once: standing, get, end (false the second time), lastEnded the latest end', async () => {
    const { key, u } = ids();
    expect(await b.decisions.standing(key)).toBeUndefined();
    const d = decision({ id: `dec_${u}_a`, carrier_key: key });
    await b.decisions.insert(d);
    const row = await b.decisions.get(d.id);
    expect(row).toEqual({ ...d, state: 'standing', ended_at: null, ended_by: null, end_reason: null, ended_token_id: null });
    expect(await b.decisions.standing(key)).toEqual(row);
    const end = { state: 'revoked' as const, at: t(5), by: 'Eve', token_id: 'tok_2', reason: 'no longer' };
    expect(await b.decisions.end(d.id, end)).toBe(true);
    expect(await b.decisions.end(d.id, { ...end, state: 'lapsed' })).toBe(false);
    expect(await b.decisions.standing(key)).toBeUndefined();
    expect(await b.decisions.get(d.id)).toEqual({
      ...row,
      state: 'revoked',
      ended_at: t(5),
      ended_by: 'Eve',
      ended_token_id: 'tok_2',
      end_reason: 'no longer',
    });
    // Two more ended at the same minute: the one written last is the last ended.
    for (const s of ['b', 'c']) {
      await b.decisions.insert(decision({ id: `dec_${u}_${s}`, carrier_key: key }));
      await b.decisions.end(`dec_${u}_${s}`, { state: 'lapsed', at: t(9), by: null, token_id: null, reason: 'grade: A -> B' });
    }
    expect((await b.decisions.lastEnded(key))?.id).toBe(`dec_${u}_c`);
    expect(await b.decisions.lastEnded('sandbox:dot:0')).toBeUndefined();
    expect(await b.decisions.get('dec_none')).toBeUndefined();
  });

  it('one standing decision per carrier (decisions_one_standing)', async () => {
    const { key, u } = ids();
    await b.decisions.insert(decision({ id: `dec_${u}_a`, carrier_key: key }));
    await expect(b.decisions.insert(decision({ id: `dec_${u}_b`, carrier_key: key }))).rejects.toThrow(/UNIQUE|unique/);
    expect((await b.decisions.standing(key))?.id).toBe(`dec_${u}_a`);
  });

  it('settle a done screening (a queued one is left alone)', async () => {
    const { scr } = ids();
    await b.screening(scr('a'));
    await b.screening(scr('q'), 'queued');
    await b.decisions.settle(scr('a'), 'tender', 'standing_decision', '{"id":"dec_1"}');
    await b.decisions.settle(scr('q'), 'block', 'review', null);
    expect(await b.screeningState(scr('a'))).toEqual({
      status: 'done',
      action: 'tender',
      settled_by: 'standing_decision',
      standing_decision: '{"id":"dec_1"}',
    });
    expect(await b.screeningState(scr('q'))).toEqual({ status: 'queued', action: null, settled_by: null, standing_decision: null });
  });
});

describe.each(BACKENDS)("%s: a carrier's review (decisionsOf)", (_name, open) => {
  let b: Backend;
  beforeAll(async () => {
    b = await open();
  });
  afterAll(async () => {
    await b?.close();
  });

  /** A carrier review with `n` tenders waiting on it, each a minute later. */
  async function carrierReview(n: number) {
    const c = ids();
    await b.screening(c.scr('h'));
    expect(await b.decisions.insertReview(review({ id: c.rev('h'), screening_id: c.scr('h'), carrier_key: c.key }))).toBe(true);
    const waiting: string[] = [];
    for (let i = 0; i < n; i++) {
      await b.screening(c.scr(`w${i}`));
      await b.decisions.insertReview(
        review({ id: c.rev(`w${i}`), screening_id: c.scr(`w${i}`), carrier_key: c.key, parent_id: c.rev('h'), created_at: t(i + 1) }),
      );
      waiting.push(c.rev(`w${i}`));
    }
    return { ...c, head: c.rev('h'), waiting };
  }

  it('opens one review per carrier; a later hold waits on it; a re-run writes nothing', async () => {
    const c = ids();
    expect(await b.decisions.openReviewId(c.key)).toBeUndefined();
    await b.screening(c.scr('h'));
    await b.screening(c.scr('w'));
    const previous = JSON.stringify({ id: 'dec_0', state: 'revoked', changes: [] });
    expect(
      await b.decisions.insertReview({
        ...review({ id: c.rev('h'), screening_id: c.scr('h'), carrier_key: c.key }),
        previous_decision: previous,
      }),
    ).toBe(true);
    expect(await b.decisions.openReviewId(c.key)).toBe(c.rev('h'));
    expect(
      await b.decisions.insertReview(review({ id: c.rev('w'), screening_id: c.scr('w'), carrier_key: c.key, parent_id: c.rev('h') })),
    ).toBe(true);
    // The same screening again (a group-commit piece run twice): nothing written.
    expect(await b.decisions.insertReview(review({ id: c.rev('again'), screening_id: c.scr('w'), carrier_key: c.key }))).toBe(false);
    expect(await b.decisions.openReviewId(c.key)).toBe(c.rev('h'));
    expect(await b.decisions.reviewOfScreening(c.scr('h'))).toEqual({ id: c.rev('h'), parent_id: null });
    expect(await b.decisions.reviewOfScreening(c.scr('w'))).toEqual({ id: c.rev('w'), parent_id: c.rev('h') });
    expect(await b.decisions.reviewOfScreening('scr_none')).toBeUndefined();
    expect(await b.decisions.reviewHead(c.rev('h'))).toEqual({
      id: c.rev('h'),
      parent_id: null,
      state: 'pending',
      carrier_key: c.key,
      screening_id: c.scr('h'),
      version: 1,
      basis_since: 1,
      facts_screening_id: null,
      closed_by: null,
      closed_reason: null,
    });
    expect(await b.decisions.reviewHead('rev_none')).toBeUndefined();
  });

  it('lists its waiting items in the order they came; resolving them decides each', async () => {
    const c = await carrierReview(3);
    expect(await b.decisions.waiting(c.head)).toEqual(c.waiting.map((id, i) => ({ id, screening_id: c.scr(`w${i}`) })));
    expect(await b.decisions.pendingOn(c.head)).toEqual([c.scr('h'), c.scr('w0'), c.scr('w1'), c.scr('w2')]);
    await b.decisions.resolveWaiting(c.head, { state: 'approved', decided_by: 'Dana', decided_at: t(9), note: 'ok', token_id: 'tok_1' });
    expect(await b.decisions.waiting(c.head)).toEqual([]);
    expect((await b.decisions.reviewHead(c.waiting[0]!))?.state).toBe('approved');
    // The carrier's own item is the Store's to resolve (resolveReview): still pending here.
    expect(await b.decisions.pendingOn(c.head)).toEqual([c.scr('h')]);
  });

  it('closes the review and every item on it, a new version (the facts kept when none are given)', async () => {
    const c = await carrierReview(2);
    await b.screening(c.scr('facts'));
    await b.decisions.showFacts(c.head, c.scr('facts'), false);
    await b.decisions.close(c.head, { by: 'local_block', reason: 'on the list', at: t(9), factsScreeningId: null });
    const head = await b.decisions.reviewHead(c.head);
    expect(head).toMatchObject({
      state: 'closed',
      closed_by: 'local_block',
      closed_reason: 'on the list',
      version: 3,
      basis_since: 3,
      facts_screening_id: c.scr('facts'),
    });
    for (const w of c.waiting) expect((await b.decisions.reviewHead(w))?.state).toBe('closed');
    expect(await b.decisions.pendingOn(c.head)).toEqual([]);
    expect(await b.decisions.openReviewId(c.key)).toBeUndefined();
    // A blocking score's screening becomes the facts.
    const d = await carrierReview(0);
    await b.screening(d.scr('ko'));
    await b.decisions.close(d.head, { by: 'blocking_score', reason: 'knockout', at: t(9), factsScreeningId: d.scr('ko') });
    expect(await b.decisions.reviewHead(d.head)).toMatchObject({
      state: 'closed',
      version: 2,
      basis_since: 2,
      facts_screening_id: d.scr('ko'),
    });
  });

  it('shows newer facts: a new version, a new basis only when it changed; not on a review that is no longer pending', async () => {
    const c = await carrierReview(0);
    await b.screening(c.scr('f1'));
    await b.screening(c.scr('f2'));
    await b.decisions.showFacts(c.head, c.scr('f1'), true);
    expect(await b.decisions.reviewHead(c.head)).toMatchObject({ version: 2, basis_since: 2, facts_screening_id: c.scr('f1') });
    await b.decisions.showFacts(c.head, c.scr('f2'), false);
    expect(await b.decisions.reviewHead(c.head)).toMatchObject({ version: 3, basis_since: 2, facts_screening_id: c.scr('f2') });
    await b.decisions.close(c.head, { by: 'local_block', reason: 'x', at: t(9), factsScreeningId: null });
    await b.decisions.showFacts(c.head, c.scr('f1'), true);
    expect(await b.decisions.reviewHead(c.head)).toMatchObject({ version: 4, basis_since: 4, facts_screening_id: c.scr('f2') });
  });

  it('supersedes an item once; the oldest waiting item becomes the carrier review, the others wait on it', async () => {
    const c = ids();
    await b.screening(c.scr('h'));
    await b.decisions.insertReview(review({ id: c.rev('h'), screening_id: c.scr('h'), carrier_key: c.key }));
    // Written out of created_at order: the oldest by created_at, then by writing, comes first.
    for (const [s, m] of [
      ['w1', 3],
      ['w2', 2],
      ['w3', 2],
    ] as const) {
      await b.screening(c.scr(s));
      await b.decisions.insertReview(
        review({ id: c.rev(s), screening_id: c.scr(s), carrier_key: c.key, parent_id: c.rev('h'), created_at: t(m) }),
      );
    }
    expect(await b.decisions.firstWaiting(c.rev('h'))).toBe(c.rev('w2'));
    expect(await b.decisions.supersede(c.rev('h'), { by: 'carrier-screen (re-screen)', at: t(9), note: 'tendered' })).toBe(true);
    expect(await b.decisions.supersede(c.rev('h'), { by: 'carrier-screen (re-screen)', at: t(9), note: 'again' })).toBe(false);
    expect(await b.decisions.reviewHead(c.rev('h'))).toMatchObject({ state: 'superseded', version: 2, basis_since: 2 });
    await b.decisions.promote(c.rev('w2'), c.rev('h'));
    expect(await b.decisions.openReviewId(c.key)).toBe(c.rev('w2'));
    expect(await b.decisions.reviewOfScreening(c.scr('w2'))).toEqual({ id: c.rev('w2'), parent_id: null });
    expect(await b.decisions.waiting(c.rev('w2'))).toEqual([
      { id: c.rev('w1'), screening_id: c.scr('w1') },
      { id: c.rev('w3'), screening_id: c.scr('w3') },
    ]);
    expect(await b.decisions.waiting(c.rev('h'))).toEqual([]);
    expect(await b.decisions.firstWaiting(c.rev('w2'))).toBe(c.rev('w3'));
    // The promoted review's own screening first, then its items', though one was written before it.
    expect(await b.decisions.pendingOn(c.rev('w2'))).toEqual([c.scr('w2'), c.scr('w1'), c.scr('w3')]);
  });

  it("run in the caller's transaction: rolled back with it", async () => {
    const c = ids();
    await b.screening(c.scr('h'));
    await expect(
      b.tx(async (r) => {
        await r.decisions.insertReview(review({ id: c.rev('h'), screening_id: c.scr('h'), carrier_key: c.key }));
        expect(await r.decisions.openReviewId(c.key)).toBe(c.rev('h'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await b.decisions.openReviewId(c.key)).toBeUndefined();
    await b.tx(async (r) => r.decisions.insertReview(review({ id: c.rev('h'), screening_id: c.scr('h'), carrier_key: c.key })));
    expect(await b.decisions.openReviewId(c.key)).toBe(c.rev('h'));
  });
});

/** Decisions for the lists: three carriers, some ended; a few share a minute. */
async function listRows(b: Backend): Promise<void> {
  const rows: Array<[string, string, number, 'standing' | 'lapsed' | 'revoked', number?]> = [
    ['dec_l01', '1000001', 1, 'lapsed', 20],
    ['dec_l02', '1000002', 2, 'standing'],
    ['dec_l03', '1000001', 2, 'revoked', 20],
    ['dec_l04', '1000003', 3, 'lapsed', 15],
    ['dec_l05', '1000001', 4, 'standing'],
    ['dec_l06', '1000003', 4, 'revoked', 25],
    ['dec_l07', '1000003', 5, 'standing'],
  ];
  for (const [id, dot, m, state, ended] of rows) {
    await b.decisions.insert(
      decision({ id, carrier_key: `sandbox:dot:${dot}:${id}`, dot_number: dot, decided_at: t(m), review_id: `rev_${id}` }),
    );
    if (state !== 'standing')
      await b.decisions.end(id, { state, at: t(ended!), by: state === 'revoked' ? 'Eve' : null, token_id: null, reason: `${state} it` });
  }
}

describe.each(BACKENDS)('%s: the decisions lists (decisionListsOf)', (_name, open) => {
  let b: Backend;
  beforeAll(async () => {
    b = await open();
    await listRows(b);
  });
  afterAll(async () => {
    await b?.close();
  });

  const idsOf = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

  it('list: newest decided first (ties: the later written), by DOT, by state; ended by its end', async () => {
    expect(idsOf(await b.lists.list({}, 100))).toEqual(['dec_l07', 'dec_l06', 'dec_l05', 'dec_l04', 'dec_l03', 'dec_l02', 'dec_l01']);
    expect(idsOf(await b.lists.list({}, 2))).toEqual(['dec_l07', 'dec_l06']);
    expect(idsOf(await b.lists.list({ dot_number: '1000001' }, 100))).toEqual(['dec_l05', 'dec_l03', 'dec_l01']);
    expect(idsOf(await b.lists.list({ state: 'standing' }, 100))).toEqual(['dec_l07', 'dec_l05', 'dec_l02']);
    expect(idsOf(await b.lists.list({ state: 'ended' }, 100))).toEqual(['dec_l06', 'dec_l03', 'dec_l01', 'dec_l04']);
    expect(idsOf(await b.lists.list({ state: 'ended', dot_number: '1000003' }, 100))).toEqual(['dec_l06', 'dec_l04']);
    expect(idsOf(await b.lists.list({ state: 'revoked', dot_number: '1000001' }, 100))).toEqual(['dec_l03']);
  });

  it('page: by keyset, forward and back, with each filter; refusals name their parameter', async () => {
    for (const [f, all] of [
      [{}, ['dec_l07', 'dec_l06', 'dec_l05', 'dec_l04', 'dec_l03', 'dec_l02', 'dec_l01']],
      [{ state: 'ended' as const }, ['dec_l06', 'dec_l03', 'dec_l01', 'dec_l04']],
      [{ dot_number: '1000003' }, ['dec_l07', 'dec_l06', 'dec_l04']],
      [{ state: 'standing' as const }, ['dec_l07', 'dec_l05', 'dec_l02']],
    ] as const) {
      const seen: string[] = [];
      let page = await b.lists.page(f, { limit: 2 });
      for (;;) {
        seen.push(...idsOf(page.rows));
        if (!page.has_more) break;
        page = await b.lists.page(f, { limit: 2, starting_after: page.rows.at(-1)!.id });
      }
      expect(seen, JSON.stringify(f)).toEqual(all);
      const back = await b.lists.page(f, { limit: 2, ending_before: all.at(-1)! });
      expect(idsOf(back.rows)).toEqual(all.slice(-3, -1));
      expect(back.has_more).toBe(all.length > 3);
    }
    await expect(b.lists.page({ state: 'ended' }, { limit: 2, starting_after: 'dec_l07' })).rejects.toMatchObject({
      constructor: StoreArgumentError,
      param: 'starting_after',
    });
    await expect(b.lists.page({}, { limit: 0 })).rejects.toBeInstanceOf(StoreArgumentError);
    await expect(b.lists.page({}, { limit: 1, starting_after: 'dec_l01', ending_before: 'dec_l02' })).rejects.toBeInstanceOf(
      StoreArgumentError,
    );
  });
});

describe.each(BACKENDS)('%s: the local do-not-use list (localBlocksOf)', (_name, open) => {
  let b: Backend;
  beforeAll(async () => {
    b = await open();
  });
  afterAll(async () => {
    await b?.close();
  });

  const block = (over: Partial<NewBlock> & Pick<NewBlock, 'carrierKey'>): NewBlock => ({
    dot_number: null,
    mc_number: null,
    reason: 'fraud, "double brokered"',
    by: 'Dana',
    at: t(1),
    token_id: 'tok_1',
    ...over,
  });

  it('adds a block, found by DOT or MC; a second block of the carrier by any of its names is a conflict', async () => {
    const { dot, u } = ids();
    const mc = `MC${u}`;
    const added = await b.blocks.addBlock(block({ carrierKey: `dot:${dot}`, dot_number: dot, mc_number: mc }));
    expect(added).toEqual({
      object: 'local_block',
      id: expect.stringMatching(/^blk_/),
      dot_number: dot,
      mc_number: mc,
      reason: 'fraud, "double brokered"',
      state: 'active',
      blocked_by: 'Dana',
      blocked_at: t(1),
      token_id: 'tok_1',
      lifted_by: null,
      lifted_at: null,
      lifted_token_id: null,
      lift_note: null,
      updated_at: t(1),
    });
    expect(await b.blocks.hasActiveBlocks()).toBe(true);
    expect(await b.blocks.activeBlock({ dot_number: dot, mc_number: null })).toEqual(added);
    expect(await b.blocks.activeBlock({ dot_number: null, mc_number: mc })).toEqual(added);
    expect(await b.blocks.activeBlock({ dot_number: null, mc_number: null })).toBeUndefined();
    expect(await b.blocks.activeBlock({ dot_number: '1', mc_number: 'MC0' })).toBeUndefined();
    for (const again of [
      block({ carrierKey: `dot:${dot}`, dot_number: dot }),
      block({ carrierKey: `mc:${mc}`, mc_number: mc }),
      block({ carrierKey: `dot:${dot}0`, dot_number: `${dot}0`, mc_number: mc }),
    ])
      await expect(b.blocks.addBlock(again)).rejects.toMatchObject({
        constructor: WatchConflictError,
        code: 'block_conflict',
        resourceId: added.id,
      });
  });

  it('lifts it once (recorded, not deleted); then the carrier may be blocked again', async () => {
    const { dot } = ids();
    const added = await b.blocks.addBlock(block({ carrierKey: `dot:${dot}`, dot_number: dot }));
    expect(await b.blocks.lastLiftedBlock({ dot_number: dot, mc_number: null })).toBeUndefined();
    const lifted = await b.blocks.liftBlock(added.id, 'Eve', t(5), 'tok_2', 'cleared');
    expect(lifted).toEqual({
      ...added,
      state: 'lifted',
      lifted_by: 'Eve',
      lifted_at: t(5),
      lifted_token_id: 'tok_2',
      lift_note: 'cleared',
      updated_at: t(5),
    });
    await expect(b.blocks.liftBlock(added.id, 'Eve', t(6))).rejects.toMatchObject({
      constructor: WatchConflictError,
      resourceId: added.id,
    });
    await expect(b.blocks.liftBlock('blk_none', 'Eve', t(6))).rejects.toBeInstanceOf(NotFoundError);
    expect(await b.blocks.activeBlock({ dot_number: dot, mc_number: null })).toBeUndefined();
    expect(await b.blocks.lastLiftedBlock({ dot_number: dot, mc_number: null })).toEqual(lifted);
    const again = await b.blocks.addBlock(block({ carrierKey: `dot:${dot}`, dot_number: dot, at: t(7) }));
    expect((await b.blocks.activeBlock({ dot_number: dot, mc_number: null }))?.id).toBe(again.id);
    const second = await b.blocks.liftBlock(again.id, 'Fay', t(8));
    expect(second).toMatchObject({ lifted_token_id: null, lift_note: null });
    expect((await b.blocks.lastLiftedBlock({ dot_number: dot, mc_number: null }))?.id).toBe(again.id);
  });

  it("joins the caller's transaction: rolled back with it", async () => {
    const { dot } = ids();
    await expect(
      b.tx(async (r) => {
        await r.blocks.addBlock(block({ carrierKey: `dot:${dot}`, dot_number: dot }));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await b.blocks.activeBlock({ dot_number: dot, mc_number: null })).toBeUndefined();
    // A conflict inside a caller's transaction leaves the caller's work (a savepoint).
    const kept = await b.tx(async (r) => {
      const first = await r.blocks.addBlock(block({ carrierKey: `dot:${dot}`, dot_number: dot }));
      await expect(r.blocks.addBlock(block({ carrierKey: `dot:${dot}`, dot_number: dot }))).rejects.toBeInstanceOf(WatchConflictError);
      return first;
    });
    expect((await b.blocks.activeBlock({ dot_number: dot, mc_number: null }))?.id).toBe(kept.id);
  });
});

describe.each(BACKENDS)('%s: GET /blocks pages (localBlocksOf)', (_name, open) => {
  let b: Backend;
  const added: string[] = [];
  beforeAll(async () => {
    b = await open();
    expect(await b.blocks.hasActiveBlocks()).toBe(false);
    // Six blocks, two per minute; every second one lifted, the later block lifted first.
    for (let i = 0; i < 6; i++) {
      const dot = i < 3 ? '3000001' : String(3_000_010 + i);
      const blk = await b.blocks.addBlock({
        carrierKey: `dot:${dot}:${i}`,
        dot_number: i < 3 ? null : dot,
        mc_number: i < 3 ? `MC30${i}` : null,
        reason: `r${i}`,
        by: 'Dana',
        at: t(Math.floor(i / 2)),
      });
      added.push(blk.id);
      if (i % 2 === 1) await b.blocks.liftBlock(blk.id, 'Eve', t(20 - i));
    }
  });
  afterAll(async () => {
    await b?.close();
  });

  const at = (...i: number[]) => i.map((n) => added[n]);

  it('newest first; active, lifted (last lifted first), all; one DOT; walked by cursor both ways', async () => {
    const walk = async (state: 'active' | 'lifted' | undefined, dot?: string) => {
      const seen: string[] = [];
      let page = await b.blocks.pageBlocks(state, { limit: 2 }, dot);
      for (;;) {
        seen.push(...page.data.map((x) => x.id));
        if (!page.has_more) return seen;
        page = await b.blocks.pageBlocks(state, { limit: 2, starting_after: page.data.at(-1)!.id }, dot);
      }
    };
    expect(await walk(undefined)).toEqual(at(5, 4, 3, 2, 1, 0));
    expect(await walk('active')).toEqual(at(4, 2, 0));
    expect(await walk('lifted')).toEqual(at(1, 3, 5));
    expect(await walk(undefined, '3000014')).toEqual(at(4));
    const back = await b.blocks.pageBlocks(undefined, { limit: 2, ending_before: added[1]! });
    expect(back.data.map((x) => x.id)).toEqual(at(3, 2));
    expect(back.has_more).toBe(true);
    await expect(b.blocks.pageBlocks('active', { limit: 2, starting_after: added[1]! })).rejects.toMatchObject({
      constructor: StoreArgumentError,
      param: 'starting_after',
    });
    await expect(b.blocks.pageBlocks('gone' as 'active', { limit: 2 })).rejects.toMatchObject({
      constructor: StoreArgumentError,
      param: 'state',
    });
  });
});

type Page = { data: Array<{ id: string }>; has_more: boolean };
interface ListCase {
  name: string;
  /** Add the i-th row of the list at minute m; its id. */
  add(b: Backend, m: number, i: number): Promise<string>;
  /** Add a row that is not in this list. */
  other?(b: Backend, m: number, i: number): Promise<void>;
  page(b: Backend, p: ListPage): Promise<Page>;
}

const decisionRows = async (b: Backend, f: DecisionRowFilter, p: ListPage): Promise<Page> => {
  const r = await b.lists.page(f, p);
  return { data: r.rows, has_more: r.has_more };
};
/** A decision decided at minute m (or ended at m, `ended`), of a carrier of its own. */
async function addDecision(b: Backend, m: number, i: number, o: { dot?: string; state?: 'lapsed' | 'revoked'; ended?: boolean } = {}) {
  const id = `dec_k${String(i).padStart(4, '0')}_${o.dot ?? ''}${o.state ?? ''}`;
  await b.decisions.insert(
    decision({ id, carrier_key: `sandbox:dot:${id}`, dot_number: o.dot ?? '1000001', decided_at: t(o.ended ? 1 : m) }),
  );
  if (o.state) await b.decisions.end(id, { state: o.state, at: t(o.ended ? m : 900), by: null, token_id: null, reason: 'r' });
  return id;
}
/** A block made at minute m (lifted at m, `liftedAt`), of a carrier of its own. */
async function addBlock(b: Backend, m: number, i: number, o: { dot?: string; lift?: 'at' | 'after' } = {}) {
  const blk = await b.blocks.addBlock({
    carrierKey: `dot:${o.dot ?? 'k'}:${i}:${m}`,
    dot_number: o.dot ?? null,
    mc_number: o.dot === undefined ? `MCK${i}_${m}` : null,
    reason: 'r',
    by: 'D',
    at: t(o.lift === 'at' ? 1 : m),
  });
  if (o.lift) await b.blocks.liftBlock(blk.id, 'E', t(o.lift === 'at' ? m : m + 1));
  return blk.id;
}

const LIST_CASES: ListCase[] = [
  { name: 'GET /decisions', add: (b, m, i) => addDecision(b, m, i), page: (b, p) => decisionRows(b, {}, p) },
  {
    name: 'GET /decisions?state=standing',
    add: (b, m, i) => addDecision(b, m, i),
    other: async (b, m, i) => void (await addDecision(b, m, i, { state: 'lapsed' })),
    page: (b, p) => decisionRows(b, { state: 'standing' }, p),
  },
  {
    name: 'GET /decisions?state=ended (by its end)',
    add: (b, m, i) => addDecision(b, m, i, { state: i % 2 ? 'lapsed' : 'revoked', ended: true }),
    other: async (b, m, i) => void (await addDecision(b, m, i, { dot: '1000009' })),
    page: (b, p) => decisionRows(b, { state: 'ended' }, p),
  },
  {
    name: 'GET /decisions?dot_number=',
    add: (b, m, i) => addDecision(b, m, i, { dot: '1000007' }),
    other: async (b, m, i) => void (await addDecision(b, m, i, { dot: '1000008' })),
    page: (b, p) => decisionRows(b, { dot_number: '1000007' }, p),
  },
  {
    name: 'GET /blocks?state=active',
    add: (b, m, i) => addBlock(b, m, i),
    other: async (b, m, i) => void (await addBlock(b, m, i + 1000, { lift: 'after' })),
    page: (b, p) => b.blocks.pageBlocks('active', p),
  },
  {
    name: 'GET /blocks?state=lifted (by its lift)',
    add: (b, m, i) => addBlock(b, m, i, { lift: 'at' }),
    other: async (b, m, i) => void (await addBlock(b, m, i + 1000)),
    page: (b, p) => b.blocks.pageBlocks('lifted', p),
  },
  {
    name: 'GET /blocks?state=all&dot_number=',
    add: (b, m, i) => addBlock(b, m, i, { dot: '1000007', lift: 'after' }),
    other: async (b, m, i) => void (await addBlock(b, m, i, { dot: '1000008', lift: 'after' })),
    page: (b, p) => b.blocks.pageBlocks(undefined, p, '1000007'),
  },
  {
    name: 'GET /blocks?state=all',
    add: (b, m, i) => addBlock(b, m, i, { lift: i % 2 ? 'after' : undefined }),
    page: (b, p) => b.blocks.pageBlocks(undefined, p),
  },
];

describe.each(BACKENDS.flatMap(([name, open]) => LIST_CASES.map((c) => [name, c.name, open, c] as const)))(
  '%s: %s, by keyset (as list-keyset.test.ts)',
  (_name, _list, open, c) => {
    let b: Backend;
    let i = 0;
    beforeAll(async () => {
      b = await open();
    });
    afterAll(async () => {
      await b?.close();
    });

    async function walk(limit: number, between: () => Promise<void> = async () => {}): Promise<string[]> {
      const seen: string[] = [];
      let p = await c.page(b, { limit });
      for (;;) {
        seen.push(...p.data.map((x) => x.id));
        await between();
        if (!p.has_more) return seen;
        p = await c.page(b, { limit, starting_after: seen.at(-1)! });
      }
    }

    it('pages newest first, ties by writing, every row once while rows are added between pages; back by ending_before', async () => {
      // Three rows share every other minute; some rows not in the list among them.
      const made: Array<{ id: string; m: number; i: number }> = [];
      for (let n = 0; n < 17; n++) {
        const m = 10 + Math.floor(n / 3) * 2;
        made.push({ id: await c.add(b, m, ++i), m, i });
        if (c.other && n % 4 === 0) await c.other(b, m, ++i);
      }
      const expected = made.sort((x, y) => y.m - x.m || y.i - x.i).map((x) => x.id);
      for (const limit of [1, 4, 17, 100]) expect(await walk(limit)).toEqual(expected);
      // Newer rows added between pages are never seen by a walk that started before them.
      let k = 0;
      const seen = await walk(4, async () => void (await c.add(b, 500 + k++, ++i)));
      expect(seen).toEqual(expected);
      // Back from the last row, three at a time: the same list.
      const all = await walk(100);
      const back = [all.at(-1)!];
      for (;;) {
        const p = await c.page(b, { limit: 3, ending_before: back[0]! });
        back.unshift(...p.data.map((x) => x.id));
        if (!p.has_more) break;
      }
      expect(back).toEqual(all);
      for (const param of ['starting_after', 'ending_before'] as const)
        await expect(c.page(b, { limit: 2, [param]: 'nope_1' })).rejects.toMatchObject({
          constructor: StoreArgumentError,
          param,
          message: expect.stringMatching(/is not in this list/),
        });
    });
  },
);

describe('the same bytes on both backends (a list page is made JSON as it is read)', () => {
  let sqlite: Backend;
  let postgres: Backend;
  beforeAll(async () => {
    [sqlite, postgres] = await Promise.all([sqliteBackend(), pgBackend()]);
  });
  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
  });

  it('decision rows and pages: the same JSON', async () => {
    await listRows(sqlite);
    await listRows(postgres);
    const json = async (b: Backend) =>
      JSON.stringify([
        await b.lists.page({}, { limit: 3 }),
        await b.lists.page({ state: 'ended' }, { limit: 10, starting_after: 'dec_l06' }),
        await b.lists.list({ dot_number: '1000001' }, 10),
        await b.decisions.get('dec_l03'),
        await b.decisions.standing('sandbox:dot:1000003:dec_l07'),
      ]);
    const a = await json(sqlite);
    expect(a).toContain('"legal_name":"Acme \\"Haul\\", Inc."');
    expect(await json(postgres)).toBe(a);
  });

  it('block pages: the same JSON (but for the new ids)', async () => {
    const json = async (b: Backend) => {
      const x = await b.blocks.addBlock({
        carrierKey: 'dot:4000001',
        dot_number: '4000001',
        mc_number: 'MC4',
        reason: 'é "q"',
        by: 'D',
        at: t(1),
      });
      await b.blocks.addBlock({
        carrierKey: 'dot:4000002',
        dot_number: '4000002',
        mc_number: null,
        reason: 'r',
        by: 'D',
        at: t(1),
        token_id: 't',
      });
      await b.blocks.liftBlock(x.id, 'E', t(2), null, 'n');
      let n = 0;
      const named = new Map<string, string>();
      return JSON.stringify(
        [await b.blocks.pageBlocks(undefined, { limit: 5 }), await b.blocks.pageBlocks('lifted', { limit: 5 })],
        (k, v: unknown) => {
          if (k !== 'id' || typeof v !== 'string') return v;
          if (!named.has(v)) named.set(v, `blk_${++n}`);
          return named.get(v);
        },
      );
    };
    expect(await json(postgres)).toBe(await json(sqlite));
  });
});

describe('postgres only: several hosts at once', () => {
  let b: Awaited<ReturnType<typeof pgBackend>>;
  beforeAll(async () => {
    b = await pgBackend();
  });
  afterAll(async () => {
    await b?.close();
  });

  /**
   * Until a session of this database waits on a lock (so the race is the one meant, not a lucky
   * order): an advisory lock with the repositories' locks, a row or index entry without them.
   * Callers release their paused transaction after it whatever it found (`.finally`), so a failing
   * case still ends its transactions and the file its pool.
   */
  async function someoneWaits(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await b.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()',
      );
      if (rows[0]!.n > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('nobody waited on the lock');
  }

  /** A hold as carrier-decisions' onHold writes it: the standing decision, the open review, then its own item. */
  async function hold(r: Repos, key: string, screeningId: string, id: string, pause?: Promise<void>) {
    await r.decisions.standing(key);
    const openId = await r.decisions.openReviewId(key);
    await pause;
    await r.decisions.insertReview(review({ id, screening_id: screeningId, carrier_key: key, parent_id: openId ?? null }));
    return openId;
  }

  it('two hosts holding one carrier at once: one review opens, the other joins it', async () => {
    const c = ids();
    await b.screening(c.scr('a'));
    await b.screening(c.scr('b'));
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let first!: () => void;
    const locked = new Promise<void>((r) => (first = r));
    const a = b.tx(async (r) => {
      await r.decisions.standing(c.key);
      first();
      return hold(r, c.key, c.scr('a'), c.rev('a'), paused);
    });
    await locked;
    const second = b.tx((r) => hold(r, c.key, c.scr('b'), c.rev('b')));
    await someoneWaits().finally(release);
    expect(await a).toBeUndefined();
    expect(await second).toBe(c.rev('a'));
    expect(await b.decisions.openReviewId(c.key)).toBe(c.rev('a'));
    expect(await b.decisions.reviewOfScreening(c.scr('b'))).toEqual({ id: c.rev('b'), parent_id: c.rev('a') });
  });

  it('four hosts at once, no order imposed: one open review, three waiting on it', async () => {
    const c = ids();
    const n = ['a', 'b', 'c', 'd'];
    for (const s of n) await b.screening(c.scr(s));
    await Promise.all(n.map((s) => b.tx((r) => hold(r, c.key, c.scr(s), c.rev(s)))));
    const open = await b.decisions.openReviewId(c.key);
    expect(open).toBeDefined();
    expect((await b.decisions.waiting(open!)).length).toBe(3);
  });

  it('reviewHead takes the same lock: a hold waits for a decision being made, then sees it', async () => {
    const c = ids();
    await b.screening(c.scr('h'));
    await b.decisions.insertReview(review({ id: c.rev('h'), screening_id: c.scr('h'), carrier_key: c.key }));
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let first!: () => void;
    const locked = new Promise<void>((r) => (first = r));
    // resolve: the head read (locked), the review decided, the decision standing; then COMMIT.
    const decide = b.tx(async (r) => {
      await r.decisions.reviewHead(c.rev('h'));
      first();
      await paused;
      await r.decisions.supersede(c.rev('h'), { by: 'Dana', at: t(3), note: 'decided' });
      await r.decisions.insert(decision({ id: `dec_${c.u}`, carrier_key: c.key }));
    });
    await locked;
    const standing = b.tx((r) => r.decisions.standing(c.key));
    await someoneWaits().finally(release);
    await decide;
    expect((await standing)?.id).toBe(`dec_${c.u}`);
  });

  it('reviewOfScreening takes it too: a hold never joins a review a re-screen is superseding', async () => {
    const c = ids();
    await b.screening(c.scr('h'));
    await b.screening(c.scr('n'));
    await b.decisions.insertReview(review({ id: c.rev('h'), screening_id: c.scr('h'), carrier_key: c.key }));
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let first!: () => void;
    const locked = new Promise<void>((r) => (first = r));
    // carrier-decisions' supersede: its own item found (locked), closed, the next one promoted.
    const supersede = b.tx(async (r) => {
      const own = await r.decisions.reviewOfScreening(c.scr('h'));
      first();
      await paused;
      await r.decisions.supersede(own!.id, { by: 'carrier-screen (re-screen)', at: t(3), note: 'tendered' });
      const next = await r.decisions.firstWaiting(own!.id);
      if (next !== undefined) await r.decisions.promote(next, own!.id);
    });
    await locked;
    const joined = b.tx((r) => hold(r, c.key, c.scr('n'), c.rev('n')));
    await someoneWaits().finally(release);
    await supersede;
    // It came after: no review was open, so it opened one (not an item left on a superseded review).
    expect(await joined).toBeUndefined();
    expect(await b.decisions.openReviewId(c.key)).toBe(c.rev('n'));
  });

  it('the database keeps one open review per carrier (reviews_one_open), so promote comes after the former head left pending', async () => {
    const c = ids();
    await b.screening(c.scr('a'));
    await b.screening(c.scr('b'));
    await b.decisions.insertReview(review({ id: c.rev('a'), screening_id: c.scr('a'), carrier_key: c.key }));
    await expect(b.decisions.insertReview(review({ id: c.rev('b'), screening_id: c.scr('b'), carrier_key: c.key }))).rejects.toMatchObject({
      code: '23505',
      constraint: 'reviews_one_open',
    });
    await b.decisions.insertReview(review({ id: c.rev('b'), screening_id: c.scr('b'), carrier_key: c.key, parent_id: c.rev('a') }));
    await expect(b.tx((r) => r.decisions.promote(c.rev('b'), c.rev('a')))).rejects.toMatchObject({ constraint: 'reviews_one_open' });
    await b.tx(async (r) => {
      expect(await r.decisions.supersede(c.rev('a'), { by: 'x', at: t(2), note: 'n' })).toBe(true);
      await r.decisions.promote(c.rev('b'), c.rev('a'));
    });
    expect(await b.decisions.openReviewId(c.key)).toBe(c.rev('b'));
  });

  it('two hosts blocking one carrier at once, by DOT and by MC: one active block, the other a conflict', async () => {
    const { dot, u } = ids();
    const mc = `MC${u}`;
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let first!: () => void;
    const added = new Promise<void>((r) => (first = r));
    // Host A: the block by DOT (which knows the MC), in a unit of work not yet committed.
    const a = b.tx(async (r) => {
      const blk = await r.blocks.addBlock({ carrierKey: `dot:${dot}`, dot_number: dot, mc_number: mc, reason: 'a', by: 'A', at: t(1) });
      first();
      await paused;
      return blk;
    });
    await added;
    // Host B: by MC, another carrier_key, so local_blocks_one_active alone would let it in.
    // Settled at once (its refusal is the expected answer, not an unhandled one while `a` commits).
    const second = Promise.allSettled([
      b.blocks.addBlock({ carrierKey: `mc:${mc}`, dot_number: null, mc_number: mc, reason: 'b', by: 'B', at: t(1) }),
    ]);
    await someoneWaits().finally(release);
    const kept = await a;
    const [lost] = await second;
    expect(lost).toMatchObject({ status: 'rejected', reason: { constructor: WatchConflictError, resourceId: kept.id } });
    const { rows } = await b.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM local_blocks WHERE lifted_at IS NULL AND mc_number = $1',
      [mc],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('many hosts blocking one carrier at once, no order imposed: one block', async () => {
    const { dot } = ids();
    const results = await Promise.allSettled(
      [0, 1, 2, 3].map((i) =>
        b.blocks.addBlock({
          carrierKey: `dot:${dot}`,
          dot_number: dot,
          mc_number: i % 2 ? `MCX${dot}` : null,
          reason: `r${i}`,
          by: 'D',
          at: t(1),
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WatchConflictError);
  });

  it('two lifts at once: lifted once, the other a conflict', async () => {
    const { dot } = ids();
    const blk = await b.blocks.addBlock({ carrierKey: `dot:${dot}`, dot_number: dot, mc_number: null, reason: 'r', by: 'D', at: t(1) });
    const results = await Promise.allSettled([b.blocks.liftBlock(blk.id, 'A', t(2)), b.blocks.liftBlock(blk.id, 'B', t(2))]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(WatchConflictError);
  });

  it('a carrier looked up under its DOT and its MC key in opposite orders: PostgreSQL ends one (40P01, to retry), the other commits', async () => {
    // Each openReviewId locks the key it looks under: a unit that looks under mc: then dot: and one
    // that looks under dot: then mc:, with no lock taken first. Why every unit of work takes its
    // carrier locks up front (lockCarriers; test/integration/pg-carrier-locks.test.ts, docs/design/postgres.md 4.1).
    const { dot, u } = ids();
    const [dotKey, mcKey] = [`sandbox:dot:${dot}`, `sandbox:mc:MC${u}`];
    let bothHold!: () => void;
    let held = 0;
    const both = new Promise<void>((r) => (bothHold = r));
    const lookup = (first: string, second: string) =>
      b.tx(async (r) => {
        await r.decisions.openReviewId(first);
        if (++held === 2) bothHold();
        await both;
        return r.decisions.openReviewId(second);
      });
    const results = await Promise.allSettled([lookup(dotKey, mcKey), lookup(mcKey, dotKey)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: '40P01' });
  });
});
