/**
 * The local do-not-use list (worker/blocks/local-blocks.ts) and the watch list
 * (worker/watch/watch-service.ts) over the record, the same cases on both backends (issue 34):
 * SQLite's recordOf(store) and PostgreSQL's store. Every step runs as the product runs it: what a
 * caller's unit asks goes through that unit's handle (it sees the unit's own rows), the intake's
 * reads through the store's repositories (committed rows), its writes in a unit of their own.
 * The repositories' own cases: pg-decisions-contract.test.ts (blocks), pg-watch-store-contract.test.ts.
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { LocalBlocks } from '../../worker/blocks/local-blocks.js';
import { SharedEventFeed } from '../../worker/events/event-feed.js';
import { QuotaGate } from '../../worker/queue/quota-gate.js';
import { NotFoundError, type RecordStore, type ScreeningResult } from '../../worker/store/index.js';
import type { Reader } from '../../worker/store/reader-pool.js';
import { WatchConflictError } from '../../worker/store/store-error.js';
import { changeDeliveryId } from '../../worker/watch/change-callbacks.js';
import { WatchService } from '../../worker/watch/watch-service.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { RECORD_BACKENDS } from '../helpers/record-backends.js';

const DAY = 86_400_000;
const ENV = 'sandbox';
const actor = { by: 'Dana Dispatcher', token_id: null };
const CALLBACK = 'http://127.0.0.1:9/tms';

let unique = 0;
/** A carrier of its own per case. */
function carrier() {
  const u = ++unique;
  return { dot: String(2_000_000 + u * 7919), mc: `MC${700_000 + u * 104_729}` };
}

function score(c: { dot: string; mc: string }, over: Partial<SvcScore> = {}): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: c.dot, mc_number: c.mc, legal_name: 'Test Carrier LLC', dba_name: null, region: 'NE' },
    score: 91,
    grade: 'A',
    decision: 'approved',
    verdict: 'Low risk',
    needs_manual_review: false,
    knockout: { triggered: false, reasons: [] },
    reasons: [],
    checks: { total: 53, triggered: 0, passed: 47, not_checked: 6 },
    flags: [],
    data_confidence: 0.92,
    model_version: 'carrier-risk-3.5-sandbox',
    calculated_at: '2025-03-15T08:00:00Z',
    ...over,
  } as SvcScore;
}

/** The same carrier, now knocked out: a change (action, decision, knockout), with one finding added. */
function revoked(c: { dot: string; mc: string }): SvcScore {
  return score(c, {
    score: 12,
    grade: 'F',
    decision: 'rejected',
    knockout: { triggered: true, reasons: [{ code: 'authority_revoked', message: 'Operating authority revoked' }] },
  } as Partial<SvcScore>);
}

const answered = (s: SvcScore, fetchedAt: number): ScreeningResult => ({
  action: s.decision === 'approved' ? 'tender' : 'block',
  hold_reason: null,
  source: 'service',
  score: s,
  score_fetched_at: new Date(fetchedAt).toISOString(),
  error: null,
});

/** The list pages are not read here: their reader jobs are SQLite's (list-json.test.ts). */
const noReader: Reader = {
  threads: 0,
  read: () => Promise.reject(new Error('no reader in this test')),
  readJson: () => Promise.reject(new Error('no reader in this test')),
  stream: () => {
    throw new Error('no reader in this test');
  },
  close: async () => {},
};

describe.each(RECORD_BACKENDS)('local blocks and the watch list on $name', (backend) => {
  let record: RecordStore;
  let close: () => Promise<void>;
  let redis: Redis;
  let clock = Date.UTC(2026, 2, 2, 9);
  const now = (): Date => new Date(clock);
  let blocks: LocalBlocks;
  let watch: WatchService;
  const queued: string[] = [];

  beforeAll(async () => {
    ({ record, close } = await backend.open());
    redis = new Redis(inject('redisUrl'));
    const prefix = uniquePrefix('watch-record');
    const events = new SharedEventFeed(record, redis, `${prefix}:events`);
    blocks = new LocalBlocks({ store: record, env: ENV, now, events, reader: noReader, onBlock: async () => [] });
    watch = new WatchService({
      env: ENV,
      store: record,
      events,
      gate: new QuotaGate(redis, prefix, { live: false, reserve: { kind: 'count', value: 0 }, now }),
      connection: redis,
      prefix,
      logger: pino({ level: 'silent' }),
      now,
      watchDays: 14,
      reader: noReader,
      ratePerMinute: 60,
      enqueue: async (id) => void queued.push(id),
    });
  });
  afterAll(async () => {
    await watch?.close();
    redis?.disconnect();
    await close?.();
  });

  /** A tender screening answered by /v1, finished as the pipeline finishes one: its row done, then the watch record, in one unit. */
  async function tender(c: { dot: string; mc: string }, s: SvcScore, query: Screening['query'] = { dot_number: c.dot }) {
    clock += 60_000;
    await record.scores.putScore(ENV, s, now());
    return record.unitOfWork(async (tx) => {
      const done = await tx.screenings.insertScreening(
        { query, tender_id: `T-${clock}`, priority: 'tender', refresh: false, callback_url: CALLBACK },
        answered(s, clock),
      );
      return { screening: done, change: await watch.record(tx, done) };
    });
  }

  it("a block added in a unit is seen through that unit's handle; the store sees it once committed; lifted once", async () => {
    const c = carrier();
    const q = { dot_number: c.dot };
    expect(await blocks.findCommitted(q)).toBeUndefined();
    const inUnit = await record.unitOfWork(async (tx) => {
      const { block } = await blocks.addBlock(q, actor, 'double brokering', tx);
      return { block, applied: await blocks.apply(tx, q) };
    });
    expect(inUnit.applied).toMatchObject({ action: 'block', source: 'none', error: { code: 'local_block' } });
    expect(await blocks.findCommitted(q)).toMatchObject({ id: inUnit.block.id, reason: 'double brokering', state: 'active' });
    // The service's answer is kept under the block.
    const r = answered(score(c), clock);
    expect(await blocks.apply(record, q, r)).toMatchObject({ action: 'block', source: 'service', score: r.score });

    expect(await blocks.lift(q, 'Lee Lead', null, 'cleared')).toMatchObject({ id: inUnit.block.id, lifted_by: 'Lee Lead' });
    await expect(blocks.lift(q, 'Lee Lead')).rejects.toSatisfy((e) => e instanceof WatchConflictError && e.code === 'block_conflict');
    await expect(blocks.lift({ dot_number: carrier().dot }, 'Lee Lead')).rejects.toBeInstanceOf(NotFoundError);
    expect(await blocks.apply(record, q)).toBeUndefined();
  });

  it("an MC query finds the DOT's block through the score cache, on the store and in a unit; reject-and-block names both numbers", async () => {
    const c = carrier();
    await record.scores.putScore(ENV, score(c), now());
    await blocks.add({ dot_number: c.dot }, 'Dana Dispatcher', 'fraud');
    expect(await blocks.findCommitted({ mc_number: c.mc })).toMatchObject({ dot_number: c.dot, reason: 'fraud' });
    const s = { query: { mc_number: c.mc }, score: null } as unknown as Screening;
    const { found, named } = await record.unitOfWork(async (tx) => ({
      found: await blocks.find(tx, { mc_number: c.mc }),
      named: await blocks.blockFor(tx, s),
    }));
    expect(found).toMatchObject({ dot_number: c.dot });
    expect(named).toMatchObject({ dot_number: c.dot, mc_number: c.mc });
    expect(named.names.length).toBeGreaterThan(0);
  });

  it('a tender watches its carrier; a changed score is one change with its findings, its event and one callback; acknowledged once', async () => {
    const c = carrier();
    const first = await tender(c, score(c));
    expect(first.change).toBeUndefined();
    expect(await watch.get({ dot_number: c.dot })).toMatchObject({ dot_number: c.dot });
    expect(await watch.get({ mc_number: c.mc })).toMatchObject({ dot_number: c.dot }); // the score cache links them

    const second = await tender(c, revoked(c));
    const change = second.change!;
    expect(change.reasons).toEqual(expect.arrayContaining(['action_changed', 'decision_changed', 'new_knockout']));
    // The findings read the first screening through the unit.
    expect(change.findings).toMatchObject({ added: [{ kind: 'knockout', code: 'authority_revoked' }], removed: [] });
    expect(change.tenders.map((t) => t.screening_id)).toEqual(expect.arrayContaining([first.screening.id]));
    expect(await record.outbox.byDelivery(changeDeliveryId(change.id, CALLBACK))).toMatchObject({ kind: 'carrier.changed', url: CALLBACK });
    const events = await record.events.eventsSince(0, 1000);
    expect(events.filter((e) => e.event === 'carrier.changed' && (e.data as { id?: string }).id === change.id)).toHaveLength(1);
    // Safe to call twice: nothing new.
    expect(await record.unitOfWork((tx) => watch.record(tx, second.screening))).toBeUndefined();

    expect(await watch.getChange(change.id)).toMatchObject({ id: change.id, state: 'new' });
    expect(await watch.acknowledge(change.id, 'Dana Dispatcher', ' checked ')).toMatchObject({
      state: 'acknowledged',
      ack_note: 'checked',
    });
    await expect(watch.acknowledge(change.id, 'Dana Dispatcher')).rejects.toBeInstanceOf(WatchConflictError);
  });

  it('the daily re-screen: a due carrier gets a watch screening, which only opens a review when its action newly became hold', async () => {
    const c = carrier();
    const t = await tender(c, score(c));
    expect(
      await record.unitOfWork(async (tx) => ({
        carrier: await watch.tenderCarrier(tx, t.screening),
        keys: await watch.lockKeys(tx, { query: { mc_number: c.mc }, score: null }),
      })),
    ).toEqual({ carrier: { key: `dot:${c.dot}`, dot_number: c.dot, mc_number: c.mc }, keys: [`dot:${c.dot}`, `mc:${c.mc}`] });
    clock += 2 * DAY;
    const tick = await watch.tick();
    expect(tick.screenings.length).toBeGreaterThan(0);
    expect(queued).toEqual(expect.arrayContaining(tick.screenings));
    const rescreen = (await record.screenings.getScreening(tick.screenings.at(-1)!))!;
    expect(rescreen).toMatchObject({ priority: 'background', refresh: true, status: 'queued' });
    const heldNow = {
      ...answered(score(c, { decision: 'review' }), clock),
      action: 'hold' as const,
      hold_reason: 'manual_review' as const,
    };
    const still = answered(score(c), clock);
    const asked = await record.unitOfWork(async (tx) => ({
      tender: await watch.wantsReview(tx, t.screening, heldNow),
      rescreenHeld: await watch.wantsReview(tx, rescreen, heldNow),
      rescreenNoScore: await watch.wantsReview(tx, rescreen, { ...still, score: null }),
      rescreenTender: await watch.tenderCarrier(tx, { ...rescreen, status: 'done', priority: 'tender' }),
    }));
    // A tender always; the re-screen only for a newly held carrier; a re-screen never tags a tender.
    expect(asked).toEqual({ tender: true, rescreenHeld: true, rescreenNoScore: false, rescreenTender: undefined });
  });

  it('the manual list: added by hand, read back, removed', async () => {
    const c = carrier();
    const added = await watch.add({ dot_number: c.dot }, 'new broker');
    expect(added).toMatchObject({ created: true, entry: { dot_number: c.dot, note: 'new broker' } });
    expect((await watch.add({ dot_number: c.dot }, null)).created).toBe(false);
    expect(await watch.remove({ dot_number: c.dot })).toBe(true);
    expect(await watch.get({ dot_number: c.dot })).toBeUndefined();
    expect(await watch.remove({ dot_number: c.dot })).toBe(false);
  });
});
