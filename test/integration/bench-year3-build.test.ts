import { existsSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { year3Database, year3Paths } from '../../bench/year3/build.js';
import { searchScreenings } from '../../worker/store/screening-search.js';
import { connectionOf, openStore } from '../../worker/store/sqlite-store.js';
import { callbacksPage } from '../../worker/callbacks/outbox.js';
import { watchPage } from '../../worker/watch/watch-reads.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { integrityOf } from '../helpers/integrity.js';

// The year-three generator (bench/year3/build.ts) writes through the store's own functions: what
// it built must read back through the store as the routes read it, and match what it counted.
describe('bench year-three database', () => {
  const tmp = tempDbPath();
  afterAll(() => tmp.cleanup());
  const N = 3_000;
  const logs: string[] = [];
  let first: Awaited<ReturnType<typeof year3Database>>;
  beforeAll(async () => {
    first = await year3Database(tmp.dir, N, (s) => logs.push(s));
  });

  it('is built once, then taken from the data dir by N and schema version', async () => {
    expect(first.built).toBe(true);
    expect(first.path).toBe(year3Paths(tmp.dir, N).db);
    expect(existsSync(`${first.path}.partial`)).toBe(false);
    expect(existsSync(`${first.path}-wal`)).toBe(false);
    const again = await year3Database(tmp.dir, N, (s) => logs.push(s));
    expect(again.built).toBe(false);
    expect(again.meta.counts).toEqual(first.meta.counts);
    expect(again.meta.fileBytes).toBe(statSync(first.path).size);
  });

  it('holds what it counted, spread over three years, readable through the store', async () => {
    const { meta } = first;
    const store = openStore(first.path);
    try {
      const db = connectionOf(store);
      const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;
      expect(count('SELECT COUNT(*) AS n FROM screenings')).toBe(N);
      expect(count('SELECT COUNT(*) AS n FROM score_fetches')).toBe(meta.counts.fetches);
      expect(count('SELECT COUNT(*) AS n FROM reviews')).toBe(meta.counts.reviews);
      expect(count("SELECT COUNT(*) AS n FROM reviews WHERE state = 'pending'")).toBe(meta.counts.pending);
      expect(count('SELECT COUNT(*) AS n FROM carrier_changes')).toBe(meta.counts.changes);
      expect(count('SELECT COUNT(*) AS n FROM events')).toBe(meta.counts.events);
      expect(count("SELECT COUNT(*) AS n FROM screenings WHERE status != 'done' OR action IS NULL")).toBe(0);
      const span = db.prepare('SELECT MIN(created_at) AS a, MAX(created_at) AS b FROM screenings').get() as { a: string; b: string };
      expect(Date.parse(span.b) - Date.parse(span.a)).toBeGreaterThan(3 * 364 * 86_400_000);
      expect(span.b <= meta.to).toBe(true);

      // Reviews of all three kinds, and the routes' reads find them.
      expect(meta.counts.reviews).toBeGreaterThan(0);
      expect(store.listReviews('approved', 10).length).toBeGreaterThan(0);
      const newest = searchScreenings(db, {}, { limit: 5 }).data;
      expect(newest).toHaveLength(5);
      expect(newest[0]!.score).not.toBeNull();

      // The tail carrier is found by DOT and by MC, the never-seen one is not.
      expect(searchScreenings(db, { dot_number: meta.tailDot }, { limit: 10 }).data.length).toBeGreaterThan(0);
      expect(searchScreenings(db, { mc_number: meta.tailMc }, { limit: 10 }).data.length).toBeGreaterThan(0);
      expect(searchScreenings(db, { dot_number: meta.neverDot }, { limit: 10 }).data).toHaveLength(0);

      // Recent callbacks delivered, older ones kept only when dead (as retention leaves them).
      const delivered = (await callbacksPage.run(store, { state: 'delivered', page: { limit: 100 } })).data;
      for (const c of delivered) expect(Date.parse(meta.to) - Date.parse(c.created_at)).toBeLessThanOrEqual(7 * 86_400_000);
      expect((await callbacksPage.run(store, { state: 'pending', page: { limit: 100 } })).data).toHaveLength(0);

      // The watch list reads as the route reads it.
      await expect(watchPage.run(store, { now: meta.to, watchDays: 14, page: { limit: 100 } })).resolves.toBeDefined();
      expect(integrityOf(store)).toBe('ok');
    } finally {
      store.close();
    }
  });
});
