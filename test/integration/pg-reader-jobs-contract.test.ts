/**
 * Every reader job (the heavy reads: worker/store/read-jobs.ts) is one definition over the record,
 * so it answers the same bytes on either backend. The same rows are written through the record
 * (record.ts) with one clock into a SQLite file and a PostgreSQL database, then each job is run
 * through `inProcessReader` (worker/store/record-reader.ts) over PostgreSQL's record and over
 * SQLite's `recordOf(store)`, and through SQLite's reader pool (its threads, on read-only
 * connections): a list page's JSON (`readJson`) and the audit CSV's chunks (`stream`) must be
 * the same bytes from all three.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierSnapshot, ChangeFindings, ChangeReason } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { blocksPage } from '../../worker/blocks/block-reads.js';
import { callbacksPage } from '../../worker/callbacks/outbox.js';
import { auditCsvChunks } from '../../worker/decisions/audit-export.js';
import { decisionsPage } from '../../worker/decisions/carrier-decisions.js';
import { eventLogJob } from '../../worker/events/event-log-page.js';
import { openStore, recordOf, type RecordStore, type ScreeningResult, type Store } from '../../worker/store/index.js';
import { reviewsPage, screeningsPage } from '../../worker/store/list-reads.js';
import { executorOf } from '../../worker/store/pg/pg-store.js';
import { statement } from '../../worker/store/pg/sql.js';
import type { ReadJob, Reader, StreamJob } from '../../worker/store/read-jobs.js';
import { openReaderPool } from '../../worker/store/reader-pool.js';
import { inProcessReader } from '../../worker/store/record-reader.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { changesPage, watchPage } from '../../worker/watch/watch-reads.js';
import { pgTestStore } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

const ENV = 'sandbox';
const MIN = 60_000;
const DAY = 86_400_000;
const WATCH_DAYS = 14;
const T0 = Date.UTC(2026, 10, 2, 8);
const at = (m: number): Date => new Date(T0 + m * MIN);
const iso = (m: number): string => at(m).toISOString();

let clock = at(0);
const now = (): Date => clock;

type Row = Record<string, unknown>;

interface Side {
  name: string;
  record: RecordStore;
  /** A fixture statement, the same text on both backends (`@name` parameters). */
  sql(text: string, params: Row): Promise<void>;
}

// ---- the rows ----

function score(dot: string, mc: string, over: Partial<Record<string, unknown>> = {}): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: dot, mc_number: mc, legal_name: `=Carrier ${dot}, "LLC"`, dba_name: null },
    score: 88,
    grade: 'B',
    decision: 'approved',
    verdict: 'Low risk',
    needs_manual_review: false,
    knockout: { triggered: false, reasons: [] },
    reasons: [{ check: 'vehicle_oos_rate', area: 'Safety & Roadside', severity: 'medium', detail: 'ü ✓ 漢', facts: [] }],
    checks: { total: 53, triggered: 1, passed: 46, not_checked: 6 },
    flags: [],
    data_confidence: 0.92,
    model_version: 'carrier-risk-3.5-sandbox',
    calculated_at: '2026-11-01T08:00:00Z',
    future_field: { nested: [1, 'two', null, 1.5] },
    ...over,
  } as unknown as SvcScore;
}

const held = (dot: string, mc: string) =>
  score(dot, mc, { score: 55, grade: 'D', decision: 'review', verdict: 'Review', needs_manual_review: true });

function answered(action: 'tender' | 'hold' | 'block', s: SvcScore | null, m: number, fetchId: number | null): ScreeningResult {
  return {
    action,
    hold_reason: action === 'hold' ? 'manual_review' : null,
    source: s ? 'service' : 'cache',
    score: s,
    score_fetched_at: s ? iso(m) : null,
    error: null,
    score_fetch_id: fetchId,
  };
}

const snapshot = (screeningId: string, m: number, action: 'tender' | 'block'): CarrierSnapshot => ({
  action,
  hold_reason: null,
  decision: action === 'tender' ? 'approved' : 'rejected',
  score: action === 'tender' ? 88 : 12,
  grade: action === 'tender' ? 'B' : 'F',
  knockout_codes: action === 'block' ? ['authority_revoked'] : [],
  model_version: 'carrier-risk-3.5-sandbox',
  screening_id: screeningId,
  fetched_at: iso(m),
});

const detect = (a: CarrierSnapshot, b: CarrierSnapshot): ChangeReason[] => (a.action === b.action ? [] : ['action_changed']);

/** The same writes on each backend, through the record, the clock set before each. */
async function seed(side: Side): Promise<void> {
  const { record } = side;
  const set = (m: number) => void (clock = at(m));
  const carriers = [
    { dot: '1000001', mc: 'MC100001' },
    { dot: '1000002', mc: 'MC100002' },
    { dot: '1000003', mc: 'MC100003' },
    { dot: '1000004', mc: 'MC100004' },
  ];

  // Screenings: answered (tender, hold, block), one queued and one completed later; loads, tenders, a callback url.
  for (let i = 0; i < 12; i++) {
    const c = carriers[i % carriers.length]!;
    const m = i * 10;
    set(m);
    // Holds on three carriers (one open review each), blocks on the fourth.
    const kind = [1, 6, 8].includes(i) ? 'hold' : [3, 7].includes(i) ? 'block' : 'tender';
    const s =
      kind === 'hold'
        ? held(c.dot, c.mc)
        : kind === 'block'
          ? score(c.dot, c.mc, { score: 10, grade: 'F', decision: 'rejected' })
          : score(c.dot, c.mc);
    const fetchId = await record.scores.putScore(ENV, s, at(m), { dot_number: c.dot });
    const id = `scr_${String(i).padStart(4, '0')}`;
    const asked = {
      id,
      query: i % 3 === 2 ? { mc_number: c.mc } : { dot_number: c.dot },
      tender_id: i % 2 === 0 ? `T-${i}` : null,
      load:
        i % 2 === 0 ? { customer_ref: `=SUM(A${i})`, pickup_at: iso(m + DAY / MIN), origin: 'Reno, NV', destination: 'Boise, ID' } : null,
      priority: 'tender' as const,
      refresh: false,
      callback_url: i % 5 === 0 ? 'http://127.0.0.1:9/tms' : null,
      carrier_key: `dot:${c.dot}`,
    };
    if (i === 10) {
      await record.screenings.insertScreening(asked);
      set(m + 3);
      await record.screenings.completeScreening(id, answered('tender', s, m + 3, fetchId));
    } else if (i === 11) await record.screenings.insertScreening(asked);
    else await record.screenings.insertScreening(asked, answered(kind, s, m, fetchId));

    // A hold opens its carrier's review.
    if (kind === 'hold')
      await record.unitOfWork((tx) =>
        tx.decisions.insertReview({
          id: `rev_${id}`,
          screening_id: id,
          hold_reason: 'manual_review',
          created_at: iso(m),
          carrier_key: `${ENV}:dot:${c.dot}`,
          parent_id: null,
          previous_decision: null,
        }),
      );
  }

  // One review approved (a standing decision, settling its screening), one rejected; the third stays pending.
  set(200);
  await record.reviews.resolveReview('rev_scr_0001', 'approved', 'Dana Dispatcher', 'checked the "insurance", ok');
  await record.unitOfWork(async (tx) => {
    await tx.decisions.insert({
      id: 'dec_0001',
      carrier_key: `${ENV}:dot:1000002`,
      dot_number: '1000002',
      mc_number: 'MC100002',
      legal_name: 'Carrier 1000002',
      review_id: 'rev_scr_0001',
      decision: 'approved',
      basis: JSON.stringify({ score: 55, grade: 'D' }),
      model_version: 'carrier-risk-3.5-sandbox',
      decided_by: 'Dana Dispatcher',
      decided_at: iso(200),
      expires_at: iso(200 + 30 * (DAY / MIN)),
      token_id: null,
    });
    await tx.decisions.settle('scr_0001', 'tender', 'review', null);
    // A later tender of the carrier, settled by the standing decision (as carrier-decisions.ts writes it).
    await tx.decisions.settle(
      'scr_0009',
      'tender',
      'standing_decision',
      JSON.stringify({
        id: 'dec_0001',
        review_id: 'rev_scr_0001',
        decision: 'approved',
        decided_by: 'Dana Dispatcher',
        token_id: null,
        decided_at: iso(200),
        expires_at: iso(200 + 30 * (DAY / MIN)),
      }),
    );
  });
  set(210);
  await record.reviews.resolveReview('rev_scr_0006', 'rejected', 'Sam', null);
  await record.unitOfWork(async (tx) => {
    await tx.decisions.insert({
      id: 'dec_0002',
      carrier_key: `${ENV}:dot:1000006`,
      dot_number: '1000006',
      mc_number: null,
      legal_name: null,
      review_id: 'rev_scr_0006',
      decision: 'rejected',
      basis: '{}',
      model_version: null,
      decided_by: 'Sam',
      decided_at: iso(210),
      expires_at: iso(210 + DAY / MIN),
      token_id: null,
    });
  });
  set(220);
  await record.unitOfWork(async (tx) => {
    await tx.decisions.end('dec_0002', { state: 'revoked', at: iso(220), by: 'Dana Dispatcher', token_id: null, reason: 'a mistake' });
  });

  // Local blocks: two active, one lifted.
  for (const [i, c] of carriers.slice(0, 3).entries()) {
    set(300 + i);
    await record.blocks.addBlock({
      carrierKey: `dot:${c.dot}`,
      dot_number: c.dot,
      mc_number: i === 1 ? null : c.mc,
      reason: `reason ${i} ✓`,
      by: 'Dana',
      at: iso(300 + i),
    });
  }
  // Block ids are random: the same on both, in the order they were added (nothing refers to them).
  const blockIds = ['blk_b0', 'blk_b1', 'blk_b2'];
  for (const [i, c] of carriers.slice(0, 3).entries())
    await side.sql('UPDATE local_blocks SET id = @id WHERE carrier_key = @key', { id: blockIds[i], key: `dot:${c.dot}` });
  set(310);
  await record.blocks.liftBlock('blk_b1', 'Sam', iso(310), null, 'cleared');

  // The watch list: a manual entry, the carriers tendered, and two changes (one acknowledged).
  const w = record.watch(WATCH_DAYS);
  set(400);
  await w.addManual({
    carrierKey: 'dot:1000009',
    dot_number: '1000009',
    mc_number: null,
    note: 'by hand, "quoted"',
    at: iso(400),
    nextCheckAt: iso(460),
  });
  for (let i = 0; i < 8; i++) {
    const c = carriers[i % carriers.length]!;
    await w.recordTender({
      carrierKey: `dot:${c.dot}`,
      dot_number: c.dot,
      mc_number: c.mc,
      screeningId: `scr_${String(i).padStart(4, '0')}`,
      tagged: true,
      at: iso(i * 10),
      nextCheckAt: () => iso(500 + i),
    });
  }
  for (const [i, c] of carriers.slice(0, 2).entries()) {
    const observation = (snap: CarrierSnapshot, m: number) => ({
      keys: [`dot:${c.dot}`, `mc:${c.mc}`],
      dot_number: c.dot,
      mc_number: c.mc,
      legal_name: `Carrier ${c.dot}`,
      snapshot: snap,
      at: iso(m),
      tendersSince: new Date(at(m).getTime() - WATCH_DAYS * DAY).toISOString(),
      detect,
      findings: (): ChangeFindings => ({
        added: [{ kind: 'knockout', code: 'authority_revoked', severity: 'critical', area: null, detail: 'Operating authority revoked ✓' }],
        removed: [],
      }),
    });
    set(600 + i);
    await w.observe(observation(snapshot(`scr_000${i}`, i * 10, 'tender'), 600 + i));
    set(700 + i);
    await w.observe(observation(snapshot(`scr_000${i + 8}`, 700 + i, 'block'), 700 + i));
    await side.sql('UPDATE carrier_changes SET id = @id WHERE carrier_key = @key', { id: `chg_c${i}`, key: `dot:${c.dot}` });
  }
  set(710);
  await w.acknowledgeChange('chg_c0', 'Dana', iso(710), 'seen');

  // Callbacks: pending, delivered, cancelled.
  for (let i = 0; i < 4; i++) {
    set(800 + i);
    await record.outbox.insert({
      id: `cb_${i}`,
      delivery_id: `dlv_${i}`,
      kind: i % 2 ? 'review.resolved' : 'screening.completed',
      url: 'http://127.0.0.1:9/tms',
      destination: 'http://127.0.0.1:9',
      subject: `scr_000${i}`,
      version: i,
      body: JSON.stringify({ event: 'screening.completed', delivery_id: `dlv_${i}`, n: i, text: 'ü "q"' }),
      atMs: at(800 + i).getTime(),
      at: iso(800 + i),
    });
  }
  set(810);
  const claimed = await record.callbackSends.claim('cb_1', at(810).getTime(), iso(810), 30_000);
  expect(claimed?.id).toBe('cb_1');
  await record.callbackSends.delivered('cb_1', 204, iso(810));
  await record.outbox.cancel('cb_2', iso(811));

  // Events: by reference (a screening, a review), and plain.
  set(900);
  await record.events.appendEvent('screening.completed', { screening_ref: 'scr_0000' });
  await record.events.appendEvent('review.updated', { review_ref: 'rev_scr_0001' });
  await record.events.appendEvent('review.created', { review: { id: 'rev_scr_0009' }, screening_ref: 'scr_0009' });
  await record.events.appendEvent('queue.changed', { queued: 3, text: 'ü ✓' });
  await record.events.appendEvent('screening.completed', { screening_ref: 'scr_gone' });
}

// ---- the backends ----

let sqlite: { store: Store; cleanup(): void } | undefined;
let pg: Awaited<ReturnType<typeof pgTestStore>> | undefined;
const readers: Array<{ name: string; reader: Reader }> = [];

beforeAll(async () => {
  const file = tempDbPath();
  const store = openStore(file.path, { now });
  sqlite = {
    store,
    cleanup: () => {
      store.close();
      file.cleanup();
    },
  };
  pg = await pgTestStore({ now });
  const db = connectionOf(store);
  const x = executorOf(pg.store);
  const statements = new Map<string, ReturnType<typeof statement<Row>>>();
  const sides: Side[] = [
    { name: 'sqlite', record: recordOf(store), sql: async (text, params) => void db.prepare(text).run(params) },
    {
      name: 'postgres',
      record: pg.store,
      sql: async (text, params) => {
        let s = statements.get(text);
        if (!s) statements.set(text, (s = statement<Row>(`test_reader_jobs_${statements.size}`, text)));
        await s.run(x, params);
      },
    },
  ];
  for (const side of sides) await seed(side);
  clock = at(1000);
  readers.push(
    { name: 'PostgreSQL, in process', reader: inProcessReader(pg.store) },
    { name: 'SQLite, in process', reader: inProcessReader(recordOf(store)) },
    { name: 'SQLite, reader threads', reader: openReaderPool(store, { size: 1 }) },
  );
});

afterAll(async () => {
  for (const r of readers.splice(0)) await r.reader.close();
  sqlite?.cleanup();
  await pg?.close();
});

/** The job's JSON from every reader: the same bytes. Parsed. */
async function sameJson<A>(job: ReadJob<A, unknown>, args: A): Promise<{ data: unknown[]; has_more: boolean }> {
  const bodies = await Promise.all(
    readers.map(async (r) => ({ name: r.name, text: (await r.reader.readJson(job, args)).toString('utf8') })),
  );
  const [first, ...rest] = bodies;
  for (const b of rest) expect(b.text, `${job.name} ${JSON.stringify(args)}: ${b.name} against ${first!.name}`).toBe(first!.text);
  return JSON.parse(first!.text) as { data: unknown[]; has_more: boolean };
}

async function sameStream<A>(job: StreamJob<A>, args: A): Promise<string> {
  const texts = await Promise.all(
    readers.map(async (r) => {
      const chunks: Buffer[] = [];
      for await (const c of r.reader.stream(job, args)) chunks.push(c);
      return { name: r.name, text: Buffer.concat(chunks).toString('utf8') };
    }),
  );
  const [first, ...rest] = texts;
  for (const t of rest) expect(t.text, `${job.name}: ${t.name} against ${first!.name}`).toBe(first!.text);
  return first!.text;
}

describe('every reader job answers the same bytes on PostgreSQL and on SQLite', () => {
  it('GET /screenings: the list, its filters and its pages (screeningsPage)', async () => {
    expect((await sameJson(screeningsPage, { filter: {}, page: { limit: 50 } })).data).toHaveLength(12);
    const first = await sameJson(screeningsPage, { filter: {}, page: { limit: 5 } });
    expect(first.has_more).toBe(true);
    const last = (first.data.at(-1) as { id: string }).id;
    await sameJson(screeningsPage, { filter: {}, page: { limit: 5, starting_after: last } });
    await sameJson(screeningsPage, { filter: {}, page: { limit: 5, ending_before: last } });
    expect((await sameJson(screeningsPage, { filter: { dot_number: '1000002' }, page: { limit: 50 } })).data.length).toBeGreaterThan(0);
    expect((await sameJson(screeningsPage, { filter: { mc_number: 'MC100003' }, page: { limit: 50 } })).data.length).toBeGreaterThan(0);
    expect((await sameJson(screeningsPage, { filter: { action: 'hold' }, page: { limit: 50 } })).data.length).toBeGreaterThan(0);
    await sameJson(screeningsPage, { filter: { status: 'queued' }, page: { limit: 50 } });
    await sameJson(screeningsPage, { filter: { tender_id: 'T-4' }, page: { limit: 50 } });
    expect((await sameJson(screeningsPage, { filter: { updated_since: iso(95) }, page: { limit: 50 } })).data.length).toBeGreaterThan(0);
  });

  it('GET /reviews (reviewsPage)', async () => {
    expect((await sameJson(reviewsPage, { state: undefined, page: { limit: 50 } })).data).toHaveLength(3);
    for (const state of ['pending', 'approved', 'rejected', 'decided'] as const)
      expect((await sameJson(reviewsPage, { state, page: { limit: 50 } })).data.length, state).toBeGreaterThan(0);
    await sameJson(reviewsPage, { state: undefined, page: { limit: 1, starting_after: 'rev_scr_0006' } });
  });

  it('GET /watchlist and GET /changes (watchPage, changesPage)', async () => {
    expect((await sameJson(watchPage, { now: iso(1000), watchDays: WATCH_DAYS, page: { limit: 50 } })).data.length).toBe(5);
    await sameJson(watchPage, { now: iso(1000), watchDays: WATCH_DAYS, page: { limit: 2 } });
    expect((await sameJson(changesPage, { state: undefined, page: { limit: 50 }, filter: {}, watchDays: WATCH_DAYS })).data).toHaveLength(
      2,
    );
    for (const state of ['new', 'acknowledged'] as const)
      expect((await sameJson(changesPage, { state, page: { limit: 50 }, watchDays: WATCH_DAYS })).data, state).toHaveLength(1);
    await sameJson(changesPage, {
      state: undefined,
      page: { limit: 50 },
      filter: { dot: '1000002', since: iso(0) },
      watchDays: WATCH_DAYS,
    });
  });

  it('GET /event-log, each event expanded (eventLogJob)', async () => {
    const log = (await sameJson(eventLogJob, { filter: {}, page: { limit: 50 } })).data as Array<{
      event: string;
      data: Record<string, unknown>;
    }>;
    expect(log).toHaveLength(5);
    // Read back whole: the screening and the review as they are now; a screening no longer kept says so.
    const expanded = log.map((e) => [e.event, e.data.object ?? Object.keys(e.data).sort().join(',')]);
    expect(expanded).toContainEqual(['review.updated', 'review']);
    expect(log.filter((e) => e.event === 'screening.completed').map((e) => [e.data.id, e.data.pruned ?? false])).toEqual(
      expect.arrayContaining([
        ['scr_0000', false],
        ['scr_gone', true],
      ]),
    );
    expect(log.find((e) => e.event === 'review.created')!.data.screening).toMatchObject({ object: 'screening', id: 'scr_0009' });
    await sameJson(eventLogJob, { filter: { types: ['review.updated'] }, page: { limit: 50 } });
    await sameJson(eventLogJob, { filter: {}, page: { limit: 2 } });
  });

  it('GET /callbacks (callbacksPage)', async () => {
    expect((await sameJson(callbacksPage, { state: 'all', page: { limit: 50 } })).data).toHaveLength(4);
    for (const state of ['pending', 'delivered', 'cancelled'] as const)
      expect((await sameJson(callbacksPage, { state, page: { limit: 50 } })).data.length, state).toBeGreaterThan(0);
  });

  it('GET /blocks (blocksPage)', async () => {
    expect((await sameJson(blocksPage, { state: undefined, page: { limit: 50 } })).data).toHaveLength(3);
    expect((await sameJson(blocksPage, { state: 'active', page: { limit: 50 } })).data).toHaveLength(2);
    expect((await sameJson(blocksPage, { state: 'lifted', page: { limit: 50 } })).data).toHaveLength(1);
    expect((await sameJson(blocksPage, { state: undefined, page: { limit: 50 }, dot: '1000002' })).data).toHaveLength(1);
  });

  it('GET /decisions (decisionsPage)', async () => {
    expect((await sameJson(decisionsPage, { filter: {}, page: { limit: 50 } })).data).toHaveLength(2);
    expect((await sameJson(decisionsPage, { filter: { state: 'ended' }, page: { limit: 50 } })).data).toHaveLength(1);
    expect((await sameJson(decisionsPage, { filter: { dot_number: '1000002' }, page: { limit: 50 } })).data).toHaveLength(1);
    expect((await sameJson(decisionsPage, { filter: {}, page: { limit: 1 } })).has_more).toBe(true);
  });

  it('GET /audit.csv (auditCsvChunks)', async () => {
    const csv = await sameStream(auditCsvChunks, { from: iso(-1), to: iso(1000) });
    // The header and one line per screening (a quoted cell may hold no newline here).
    expect(csv.trimEnd().split('\n')).toHaveLength(13);
    expect(csv).toContain('dec_0001');
  });
});

describe('inProcessReader', () => {
  it('has no threads, and once closed refuses reads (the record stays open)', async () => {
    const reader = inProcessReader(pg!.store);
    expect(reader.threads).toBe(0);
    expect((await reader.read(blocksPage, { state: 'active', page: { limit: 1 } })).data).toHaveLength(1);
    await reader.close();
    await expect(reader.readJson(blocksPage, { state: 'active', page: { limit: 1 } })).rejects.toMatchObject({ code: 'store_closed' });
    await expect(pg!.store.blocks.pageBlocks('active', { limit: 1 })).resolves.toMatchObject({ has_more: true });
  });
});
