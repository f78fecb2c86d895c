import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { getCallback } from '../../worker/callbacks/index.js';
import { Pruner } from '../../worker/retention/pruner.js';
import { openStore, type Store, recordOf } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { manualClock } from '../helpers/emulator.js';
import { seedRetentionRows } from '../helpers/retention-seed.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { integrityOf } from '../helpers/integrity.js';

/** Retention on a real SQLite file with an injected clock. */

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const policy = { eventsMs: 7 * DAY, recordsMs: 3 * YEAR, notFoundMs: 15 * 60_000 };
const log = pino({ level: 'silent' });

let db: ReturnType<typeof tempDbPath> | undefined;
let store: Store | undefined;
afterEach(() => {
  store?.close();
  db?.cleanup();
});

const count = (s: Store, sql: string, ...args: unknown[]): number =>
  (
    connectionOf(s)
      .prepare(sql)
      .get(...args) as { n: number }
  ).n;

describe('retention', () => {
  it('prunes what is past its period, in small batches, and keeps the record within it', async () => {
    db = tempDbPath();
    const clock = manualClock('2022-01-10T00:00:00.000Z');
    store = openStore(db.path, { now: clock.now });
    const old = await seedRetentionRows(store, 'old', clock.now());
    // A lifted block from then, too (a carrier's tenders are its screenings: they go with them).
    const raw = connectionOf(store);
    raw
      .prepare(
        "INSERT INTO local_blocks (id, carrier_key, dot_number, reason, blocked_by, blocked_at, lifted_by, lifted_at) VALUES ('blk_old', 'dot:1', '1', 'r', 'x', ?1, 'y', ?1)".replaceAll(
          '?1',
          '@t',
        ),
      )
      .run({ t: clock.now().toISOString() });
    raw
      .prepare(
        "INSERT INTO local_blocks (id, carrier_key, dot_number, reason, blocked_by, blocked_at) VALUES ('blk_active', 'dot:2', '2', 'r', 'x', @t)",
      )
      .run({ t: clock.now().toISOString() });
    for (let i = 0; i < 40; i++) store.appendEvent('filler', { i, pad: 'x'.repeat(2_000) });

    // 20 days later: a second set, inside every period but the event log's at the end.
    clock.set('2022-01-30T00:00:00.000Z');
    const mid = await seedRetentionRows(store, 'mid', clock.now());

    // Three years and a week after the first set.
    clock.set('2025-01-16T00:00:00.000Z');
    const recent = store.appendEvent('recent', { ok: true });
    store.putNotFound('sandbox', { dot_number: '7999999' }, { code: 'carrier_not_found', message: 'x', request_id: null });
    const pagesBefore = raw.pragma('page_count', { simple: true }) as number;

    const report = await new Pruner({ store: recordOf(store), policy, logger: log, now: clock.now, batch: 7 }).run();

    // The old set is gone: screenings (reviews with them), callbacks, watch history, lifted block.
    expect(store.getScreening(old.decided)).toBeUndefined();
    expect(store.getReview(old.review)).toBeUndefined();
    expect(await getCallback(recordOf(store), old.delivered)).toBeUndefined();
    expect(await getCallback(recordOf(store), old.dead)).toBeUndefined();
    expect(count(store, "SELECT COUNT(*) AS n FROM local_blocks WHERE id = 'blk_old'")).toBe(0);
    // …but a review still pending keeps its screening, and an active block stays.
    expect(store.getScreening(old.pendingReview)).toBeDefined();
    expect(count(store, "SELECT COUNT(*) AS n FROM local_blocks WHERE id = 'blk_active'")).toBe(1);

    // The record within three years is kept whole: the decided review and who decided.
    expect(store.getScreening(mid.decided)).toMatchObject({ action: 'tender', review: { state: 'approved', decided_by: 'dana' } });
    expect(store.getReview(mid.review)).toMatchObject({ state: 'approved' });
    expect(await getCallback(recordOf(store), mid.dead)).toMatchObject({ state: 'dead' });
    // Delivered callbacks and events go after seven days; the event ids never go backwards.
    expect(await getCallback(recordOf(store), mid.delivered)).toBeUndefined();
    expect(store.eventsSince(0).map((e) => e.id)).toEqual([recent.id]);
    expect(store.lastEventId()).toBe(recent.id);
    // Not-found answers past their cache time go; a fresh one stays.
    expect(store.getNotFound('sandbox', { dot_number: mid.dot })).toBeUndefined();
    expect(store.getNotFound('sandbox', { dot_number: '7999999' })).toBeDefined();

    expect(report).toMatchObject({
      events: 42,
      screenings: 1,
      'delivered callbacks': 2,
      'dead and cancelled callbacks': 1,
      'lifted blocks': 1,
    });
    expect(report['expired not-found answers']).toBe(2);
    // Freed pages went back to the file system (a new file is in incremental auto-vacuum).
    expect(raw.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(raw.pragma('page_count', { simple: true }) as number).toBeLessThan(pagesBefore);
    expect(integrityOf(store)).toBe('ok');
  });

  it('a second pass finds nothing; with nothing old, nothing goes', async () => {
    db = tempDbPath();
    const clock = manualClock('2024-06-01T00:00:00.000Z');
    store = openStore(db.path, { now: clock.now });
    const s = await seedRetentionRows(store, 'now', clock.now());
    const pruner = new Pruner({ store: recordOf(store), policy, logger: log, now: clock.now });
    expect(await pruner.run()).toEqual({});
    expect(store.getScreening(s.decided)).toBeDefined();
    expect(await getCallback(recordOf(store), s.delivered)).toBeDefined();
  });
});
