/**
 * A fetched score is stored once; screenings refer to it (worker/store/score-refs.ts): a cache
 * hit writes a reference, not the score's JSON again, and reads back the same screening. Fetches
 * nobody refers to any more are pruned; referenced ones are kept as long as their screenings.
 */
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { Pruner } from '../../worker/retention/pruner.js';
import { MIGRATIONS } from '../../worker/store/migrations.js';
import { connectionOf, openStore } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { integrityOf } from '../helpers/integrity.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { itSqlite } from '../helpers/test-db.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function screen(dot: string, tender: string): Promise<Screening> {
  const res = await request(`${stack.intakeUrl}/screenings?wait=10`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ dot_number: dot, tender_id: tender }),
  });
  return (await res.body.json()) as Screening;
}

describe('scores stored once per fetch', () => {
  itSqlite('a lookup and the cache hits after it refer to one stored score, and read back whole', async () => {
    const first = await screen('1000001', 'REF-1');
    const hits = [await screen('1000001', 'REF-2'), await screen('1000001', 'REF-3')];
    expect([first.source, ...hits.map((h) => h.source)]).toEqual(['service', 'cache', 'cache']);
    const db = connectionOf(sqliteStoreOf(stack.screener.store));
    const rows = db
      .prepare('SELECT id, score, score_fetch_id FROM screenings WHERE tender_id LIKE ? ORDER BY rowid')
      .all('REF-%') as Array<{ id: string; score: string | null; score_fetch_id: number | null }>;
    expect(rows.map((r) => r.score)).toEqual([null, null, null]);
    expect(new Set(rows.map((r) => r.score_fetch_id)).size).toBe(1);
    expect(rows[0]!.score_fetch_id).not.toBeNull();
    expect((db.prepare('SELECT COUNT(*) AS n FROM score_fetches WHERE dot_number = ?').get('1000001') as { n: number }).n).toBe(1);
    // Read back, the same score as the lookup answered.
    for (const h of hits) expect(h.score).toEqual(first.score);
    const read = await request(`${stack.intakeUrl}/screenings/${hits[1]!.id}`, { headers: { authorization: `Bearer ${stack.token}` } });
    expect(((await read.body.json()) as Screening).score).toEqual(first.score);
  });

  itSqlite("a cache entry keeps no copy of its fetch's body, and a hit still reads the whole score", async () => {
    const db = connectionOf(sqliteStoreOf(stack.screener.store));
    const entry = db.prepare("SELECT body, fetch_id FROM score_cache WHERE dot_number = '1000001'").get() as {
      body: string;
      fetch_id: number;
    };
    expect(entry.body).toBe('');
    const fetched = db.prepare('SELECT body FROM score_fetches WHERE id = ?').get(entry.fetch_id) as { body: string };
    expect((await stack.screener.store.scores.getScore('sandbox', { dot_number: '1000001' }))!.score).toEqual(JSON.parse(fetched.body));
  });

  itSqlite('prunes a fetch nobody refers to, keeps the ones screenings or the cache refer to', async () => {
    const db = connectionOf(sqliteStoreOf(stack.screener.store));
    const orphan = Number(
      db
        .prepare("INSERT INTO score_fetches (env, dot_number, body, fetched_at) VALUES ('sandbox', '1', '{}', '2020-01-01T00:00:00.000Z')")
        .run().lastInsertRowid,
    );
    const referenced = (db.prepare('SELECT score_fetch_id AS id FROM screenings WHERE tender_id = ?').get('REF-1') as { id: number }).id;
    db.prepare("UPDATE score_fetches SET fetched_at = '2020-01-01T00:00:00.000Z' WHERE id = ?").run(referenced);
    const policy = { eventsMs: 86_400_000, recordsMs: 100 * 365 * 86_400_000, notFoundMs: 86_400_000 };
    const report = await new Pruner({ store: stack.screener.store, policy, logger: pino({ level: 'silent' }) }).run();
    expect(report['unreferenced score fetches']).toBe(1);
    const left = (db.prepare('SELECT id FROM score_fetches WHERE id IN (?, ?)').all(orphan, referenced) as Array<{ id: number }>).map(
      (r) => r.id,
    );
    expect(left).toEqual([referenced]);
  });
});

describe('migration 15 (cache entries without a copy of the body)', () => {
  it('empties the copy of entries that refer to a fetch; an older entry keeps its own body', () => {
    const file = tempDbPath();
    try {
      const raw = new Database(file.path);
      raw.pragma('journal_mode = WAL');
      // The file as version 14 left it.
      for (const m of MIGRATIONS.slice(0, 14)) {
        raw.exec(m.sql);
        raw.pragma(`user_version = ${m.version}`);
      }
      const score = (dot: string, grade: string) =>
        JSON.stringify({ object: 'score', carrier: { dot_number: dot }, grade, model_version: 'm1', extra: { kept: true } });
      const at = '2026-11-20T12:00:00.000Z';
      const fetchId = Number(
        raw
          .prepare("INSERT INTO score_fetches (env, dot_number, body, fetched_at) VALUES ('live', '1000001', ?, ?)")
          .run(score('1000001', 'A'), at).lastInsertRowid,
      );
      const put = raw.prepare(
        "INSERT INTO score_cache (env, dot_number, body, model_version, fetched_at, fetch_id) VALUES ('live', ?, ?, 'm1', ?, ?)",
      );
      put.run('1000001', score('1000001', 'A'), at, fetchId);
      put.run('1000002', score('1000002', 'C'), at, null); // cached before scores were stored per fetch
      raw.close();

      const store = openStore(file.path);
      try {
        const rows = connectionOf(store).prepare('SELECT dot_number, body FROM score_cache ORDER BY dot_number').all();
        expect(rows).toEqual([
          { dot_number: '1000001', body: '' },
          { dot_number: '1000002', body: score('1000002', 'C') },
        ]);
        expect(store.getScore('live', { dot_number: '1000001' })!.score).toEqual(JSON.parse(score('1000001', 'A')));
        expect(store.getScore('live', { dot_number: '1000002' })!.score).toEqual(JSON.parse(score('1000002', 'C')));
        expect(integrityOf(store)).toBe('ok');
      } finally {
        store.close();
      }
    } finally {
      file.cleanup();
    }
  });
});
