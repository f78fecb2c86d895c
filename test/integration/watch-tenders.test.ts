import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalMc } from '../../shared/carrier-id.js';
import type { WatchEntry } from '../../shared/screening.js';
import { openStore, sqliteStoreOf } from '../../worker/store/index.js';
import { latestVersion, MIGRATIONS } from '../../worker/store/migrations.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { withScreener } from '../helpers/screener.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { integrityOf } from '../helpers/integrity.js';
import { itSqlite } from '../helpers/test-db.js';

/**
 * A carrier's tenders are its screenings (screenings.carrier_key, migration 13): a tender,
 * cache hits included, is on the watch list in its own commit. Real SQLite, Redis and emulator.
 */

let ctx: Awaited<ReturnType<typeof withScreener>> | undefined;
let db: ReturnType<typeof tempDbPath> | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
  db?.cleanup();
  db = undefined;
});

/** The watch list as GET /watchlist answers it (WatchService.pageJson, read by the reader pool). */
const watched = async (s: { watch: { pageJson(p: { limit: number }): Promise<Buffer> } }): Promise<WatchEntry[]> =>
  (JSON.parse((await s.watch.pageJson({ limit: 100 })).toString('utf8')) as { data: WatchEntry[] }).data;

const tendersOf = (dbPath: string, key: string): string[] => {
  const store = openStore(dbPath);
  try {
    return (
      connectionOf(store).prepare('SELECT id FROM screenings WHERE carrier_key = ? ORDER BY rowid').all(key) as Array<{ id: string }>
    ).map((r) => r.id);
  } finally {
    store.close();
  }
};

describe("a carrier's tenders on the watch list", () => {
  itSqlite('every tender answered from the cache is on the list when its answer is, held carriers too', async () => {
    ctx = await withScreener();
    const { screener } = ctx;
    // 1000001 tenders, 1000003 is held for review (emulator catalogue).
    const firsts = [
      await screener.screen({ dot_number: '1000001', tender_id: 'L-0' }),
      await screener.screen({ dot_number: '1000003', tender_id: 'H-0' }),
    ];
    expect(firsts.map((s) => [s.source, s.action])).toEqual([
      ['service', 'tender'],
      ['service', 'hold'],
    ]);
    const hits = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        screener.submit({
          query: { dot_number: i % 3 === 0 ? '1000003' : '1000001' },
          tender_id: `L-${i + 1}`,
          callback_url: null,
          priority: 'tender',
          refresh: false,
        }),
      ),
    );
    expect(new Set(hits.map((h) => h.source))).toEqual(new Set(['cache']));
    const of = (dot: string) => [firsts, hits].flat().filter((h) => 'dot_number' in h.query && h.query.dot_number === dot);
    for (const dot of ['1000001', '1000003']) {
      const mine = of(dot);
      expect((await screener.watch.get({ dot_number: dot }))!.last_tender_at).toBe(
        mine
          .map((h) => h.created_at)
          .sort()
          .at(-1),
      );
      expect(new Set(tendersOf(sqliteStoreOf(screener.store).path, `dot:${dot}`))).toEqual(new Set(mine.map((h) => h.id)));
    }
    expect(hits.filter((h) => h.action === 'hold')).toHaveLength(20);
    // One entry per carrier, whatever the number of tenders.
    expect((await watched(screener)).filter((e) => e.dot_number === '1000001')).toHaveLength(1);
  });

  itSqlite("a cache hit of a fetch already on record still folds in an entry kept under the carrier's MC", async () => {
    ctx = await withScreener();
    const { screener } = ctx;
    const first = await screener.screen({ dot_number: '1000001', tender_id: 'M-1' });
    const mc = first.score?.carrier.mc_number;
    expect(typeof mc).toBe('string');
    // An entry made while only the MC was known (added by hand before any score named it).
    const conn = connectionOf(sqliteStoreOf(screener.store));
    conn
      .prepare(
        "INSERT INTO watch_entries (carrier_key, mc_number, note, manual, added_at, next_check_at) VALUES (?, ?, 'added by MC', 1, ?, ?)",
      )
      .run(`mc:${canonicalMc(mc as string)}`, canonicalMc(mc as string), first.created_at, first.created_at);
    const hit = await screener.screen({ dot_number: '1000001', tender_id: 'M-2' });
    expect(hit.source).toBe('cache');
    const keys = (
      conn.prepare('SELECT carrier_key, manual, note FROM watch_entries ORDER BY carrier_key').all() as Array<{ carrier_key: string }>
    ).filter((e) => e.carrier_key.endsWith('1000001'));
    expect(keys).toEqual([{ carrier_key: 'dot:1000001', manual: 1, note: 'added by MC' }]);
  });

  it('taking a carrier off the list takes its window: added back by hand, it shows no tender; a new tender shows only itself', async () => {
    ctx = await withScreener();
    const { screener } = ctx;
    const first = await screener.screen({ dot_number: '1000001', tender_id: 'R-1' });
    expect((await screener.watch.get({ dot_number: '1000001' }))!.last_tender_at).toBe(first.created_at);
    expect(await screener.watch.remove({ dot_number: '1000001' })).toBe(true);
    expect(await screener.watch.get({ dot_number: '1000001' })).toBeUndefined();
    const { entry } = await screener.watch.add({ dot_number: '1000001' }, 'by hand');
    expect([entry.manual, entry.last_tender_at, entry.watch_until]).toEqual([true, null, null]);
    expect(await screener.watch.remove({ dot_number: '1000001' })).toBe(true);
    const again = await screener.submit({
      query: { dot_number: '1000001' },
      tender_id: 'R-2',
      callback_url: null,
      priority: 'tender',
      refresh: false,
    });
    expect(again.source).toBe('cache');
    expect(await screener.watch.get({ dot_number: '1000001' })).toMatchObject({
      manual: false,
      added_at: again.created_at,
      last_tender_at: again.created_at,
    });
  });

  it('SCREEN_WATCH_DAYS=0: tenders put nobody on the list, a carrier added by hand is on it', async () => {
    ctx = await withScreener({ env: { SCREEN_WATCH_DAYS: '0' } });
    const { screener } = ctx;
    expect((await screener.screen({ dot_number: '1000001', tender_id: 'Z-1' })).action).toBe('tender');
    expect(await screener.watch.get({ dot_number: '1000001' })).toBeUndefined();
    expect((await screener.watch.add({ dot_number: '1000004' }, null)).entry.manual).toBe(true);
    expect((await watched(screener)).map((e) => e.dot_number)).toEqual(['1000004']);
  });

  itSqlite('a background screening or a not-found carrier puts nobody on the list', async () => {
    ctx = await withScreener();
    const { screener } = ctx;
    const bg = await screener.screen({
      query: { dot_number: '1000004' },
      tender_id: null,
      callback_url: null,
      priority: 'background',
      refresh: false,
    });
    expect(bg.status).toBe('done');
    expect(tendersOf(sqliteStoreOf(screener.store).path, 'dot:1000004')).toEqual([]);
    expect(await screener.watch.get({ dot_number: '1000004' })).toBeUndefined();
  });
});

describe('migration 13 (tenders read from screenings)', () => {
  it('carries the recorded tenders over, and records the cache hits a stopped process left in the backlog', () => {
    db = tempDbPath();
    const raw = new Database(db.path);
    raw.pragma('journal_mode = WAL');
    const at = (m: number) => new Date(Date.UTC(2026, 10, 20, 12, m)).toISOString();
    // The file as version 12 left it.
    for (const m of MIGRATIONS.slice(0, 12)) {
      raw.exec(m.sql);
      raw.pragma(`user_version = ${m.version}`);
    }
    const fetch = Number(
      raw.prepare("INSERT INTO score_fetches (env, dot_number, body, fetched_at) VALUES ('sandbox', '1000004', '{}', ?)").run(at(0))
        .lastInsertRowid,
    );
    const insert = raw.prepare(`
      INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, action, source, score_fetch_id, created_at, completed_at)
      VALUES (@id, @tender, 'done', 'dot_number', @dot, 'tender', 'tender', @source, @fetch, @at, @at)`);
    // Recorded before the stop: its tender row and entry exist, the backlog cursor is past it.
    const recorded = insert.run({
      id: 'scr_recorded',
      tender: 'T-1',
      dot: '1000001',
      source: 'service',
      fetch: null,
      at: at(1),
    }).lastInsertRowid;
    raw
      .prepare(
        "INSERT INTO watch_tenders (screening_id, carrier_key, tender_id, callback_url, created_at) VALUES ('scr_recorded', 'dot:1000001', 'T-1', NULL, ?)",
      )
      .run(at(1));
    raw
      .prepare(
        `INSERT INTO watch_entries (carrier_key, dot_number, manual, added_at, last_tender_at, watch_until, next_check_at)
      VALUES ('dot:1000001', '1000001', 0, ?1, ?1, ?2, ?2)`
          .replaceAll('?1', '@a')
          .replaceAll('?2', '@b'),
      )
      .run({ a: at(1), b: at(59) });
    raw.prepare('UPDATE watch_backlog SET after_rowid = ? WHERE id = 1').run(recorded);
    // Recorded after it (a lookup, not a cache hit), then taken off the list: its entry is gone.
    insert.run({ id: 'scr_removed', tender: 'T-9', dot: '1000005', source: 'service', fetch: null, at: at(1) });
    raw
      .prepare(
        "INSERT INTO watch_tenders (screening_id, carrier_key, tender_id, callback_url, created_at) VALUES ('scr_removed', 'dot:1000005', 'T-9', NULL, ?)",
      )
      .run(at(1));
    // Two cache hits committed after it and never recorded (the process was killed).
    insert.run({ id: 'scr_hit_1', tender: 'T-2', dot: '1000004', source: 'cache', fetch, at: at(2) });
    insert.run({ id: 'scr_hit_2', tender: 'T-3', dot: '0001000004', source: 'cache', fetch, at: at(3) });
    raw.close();

    const store = openStore(db.path);
    try {
      const conn = connectionOf(store);
      expect(conn.pragma('user_version', { simple: true })).toBe(latestVersion());
      const keys = conn.prepare('SELECT id, carrier_key FROM screenings ORDER BY rowid').all();
      expect(keys).toEqual([
        { id: 'scr_recorded', carrier_key: 'dot:1000001' },
        { id: 'scr_removed', carrier_key: 'dot:1000005' },
        { id: 'scr_hit_1', carrier_key: 'dot:1000004' },
        { id: 'scr_hit_2', carrier_key: 'dot:1000004' },
      ]);
      const entries = conn.prepare('SELECT carrier_key, dot_number, manual, last_tender_at FROM watch_entries ORDER BY carrier_key').all();
      expect(entries).toEqual([
        { carrier_key: 'dot:1000001', dot_number: '1000001', manual: 0, last_tender_at: at(1) },
        { carrier_key: 'dot:1000004', dot_number: '1000004', manual: 0, last_tender_at: at(3) },
      ]);
      const tables = (conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
        (t) => t.name,
      );
      expect(tables).not.toContain('watch_tenders');
      expect(tables).not.toContain('watch_backlog');
      expect(integrityOf(store)).toBe('ok');
    } finally {
      store.close();
    }
  });
});
