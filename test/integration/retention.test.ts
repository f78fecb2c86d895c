import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { getCallback } from '../../worker/callbacks/index.js';
import { Pruner } from '../../worker/retention/pruner.js';
import { openStore, recordOf, type RecordStore, type Store } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { manualClock } from '../helpers/emulator.js';
import { integrityOf } from '../helpers/integrity.js';
import { openTestRecord } from '../helpers/test-record-sql.js';
import { seedRetentionRows } from '../helpers/retention-seed.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { itSqlite } from '../helpers/test-db.js';

/**
 * Retention (worker/retention/pruner.ts) on the record of this pass (SQLite or PostgreSQL) with an
 * injected clock, seeded through the product's own writes; then, on SQLite, the freed pages
 * going back to the file system. Each task's batches on both backends: pg-retention-contract.test.ts.
 */

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const policy = { eventsMs: 7 * DAY, recordsMs: 3 * YEAR, notFoundMs: 15 * 60_000 };
const log = pino({ level: 'silent' });

let opened: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

async function recordAt(now: () => Date): Promise<RecordStore> {
  const o = await openTestRecord({ now });
  opened = o;
  return o.record;
}

const block = (dot: string, at: string) => ({ carrierKey: `dot:${dot}`, dot_number: dot, mc_number: null, reason: 'r', by: 'x', at });

describe('retention', () => {
  it('prunes what is past its period, in small batches, and keeps the record within it', async () => {
    const clock = manualClock('2022-01-10T00:00:00.000Z');
    const record = await recordAt(clock.now);
    const old = await seedRetentionRows(record, 'old', clock.now());
    // A lifted block from then, and an active one (a carrier's tenders are its screenings: they go with them).
    const then = clock.now().toISOString();
    const lifted = await record.blocks.addBlock(block('1', then));
    await record.blocks.liftBlock(lifted.id, 'y', then);
    const active = await record.blocks.addBlock(block('2', then));
    for (let i = 0; i < 40; i++) await record.events.appendEvent('filler', { i, pad: 'x'.repeat(2_000) });

    // 20 days later: a second set, inside every period but the event log's at the end.
    clock.set('2022-01-30T00:00:00.000Z');
    const mid = await seedRetentionRows(record, 'mid', clock.now());

    // Three years and a week after the first set.
    clock.set('2025-01-16T00:00:00.000Z');
    const recent = await record.events.appendEvent('recent', { ok: true });
    await record.scores.putNotFound('sandbox', { dot_number: '7999999' }, { code: 'carrier_not_found', message: 'x', request_id: null });

    const report = await new Pruner({ store: record, policy, logger: log, now: clock.now, batch: 7 }).run();

    // The old set is gone: screenings (reviews with them), callbacks, watch history, lifted block.
    expect(await record.screenings.getScreening(old.decided)).toBeUndefined();
    expect(await record.reviews.getReview(old.review)).toBeUndefined();
    expect(await getCallback(record, old.delivered)).toBeUndefined();
    expect(await getCallback(record, old.dead)).toBeUndefined();
    // …but a review still pending keeps its screening, and an active block stays.
    expect(await record.screenings.getScreening(old.pendingReview)).toBeDefined();
    expect((await record.blocks.pageBlocks(undefined, { limit: 10 })).data.map((b) => b.id)).toEqual([active.id]);

    // The record within three years is kept whole: the decided review and who decided.
    expect(await record.screenings.getScreening(mid.decided)).toMatchObject({
      action: 'tender',
      review: { state: 'approved', decided_by: 'dana' },
    });
    expect(await record.reviews.getReview(mid.review)).toMatchObject({ state: 'approved' });
    expect(await getCallback(record, mid.dead)).toMatchObject({ state: 'dead' });
    // Delivered callbacks and events go after seven days; the event ids never go backwards.
    expect(await getCallback(record, mid.delivered)).toBeUndefined();
    expect((await record.events.eventsSince(0)).map((e) => e.id)).toEqual([recent.id]);
    expect(await record.events.lastEventId()).toBe(recent.id);
    // Not-found answers past their cache time go; a fresh one stays.
    expect(await record.scores.getNotFound('sandbox', { dot_number: mid.dot })).toBeUndefined();
    expect(await record.scores.getNotFound('sandbox', { dot_number: '7999999' })).toBeDefined();

    expect(report).toMatchObject({
      events: 42,
      screenings: 1,
      'delivered callbacks': 2,
      'dead and cancelled callbacks': 1,
      'lifted blocks': 1,
    });
    expect(report['expired not-found answers']).toBe(2);
  });

  it('a second pass finds nothing; with nothing old, nothing goes', async () => {
    const clock = manualClock('2024-06-01T00:00:00.000Z');
    const record = await recordAt(clock.now);
    const s = await seedRetentionRows(record, 'now', clock.now());
    const pruner = new Pruner({ store: record, policy, logger: log, now: clock.now });
    expect(await pruner.run()).toEqual({});
    expect(await record.screenings.getScreening(s.decided)).toBeDefined();
    expect(await getCallback(record, s.delivered)).toBeDefined();
  });

  itSqlite('freed pages go back to the file system (a new file is in incremental auto-vacuum), the file intact', async () => {
    const db = tempDbPath();
    const clock = manualClock('2022-01-10T00:00:00.000Z');
    const store: Store = openStore(db.path, { now: clock.now });
    opened = {
      close: async () => {
        store.close();
        db.cleanup();
      },
    };
    const record = recordOf(store);
    await seedRetentionRows(record, 'old', clock.now());
    for (let i = 0; i < 40; i++) await record.events.appendEvent('filler', { i, pad: 'x'.repeat(2_000) });
    clock.set('2025-01-16T00:00:00.000Z');
    const raw = connectionOf(store);
    const pagesBefore = raw.pragma('page_count', { simple: true }) as number;

    const report = await new Pruner({ store: record, policy, logger: log, now: clock.now, batch: 7 }).run();

    expect(report).toMatchObject({ events: 41, screenings: 1 });
    expect(raw.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(raw.pragma('page_count', { simple: true }) as number).toBeLessThan(pagesBefore);
    expect(integrityOf(store)).toBe('ok');
  });
});
