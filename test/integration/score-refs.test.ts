/**
 * A fetched score is stored once; screenings refer to it (worker/store/score-refs.ts): a cache
 * hit writes a reference, not the score's JSON again, and reads back the same screening. Fetches
 * nobody refers to any more are pruned; referenced ones are kept as long as their screenings.
 */
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { Pruner } from '../../worker/retention/pruner.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { startStack, type Stack } from '../helpers/stack.js';

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
  it('a lookup and the cache hits after it refer to one stored score, and read back whole', async () => {
    const first = await screen('1000001', 'REF-1');
    const hits = [await screen('1000001', 'REF-2'), await screen('1000001', 'REF-3')];
    expect([first.source, ...hits.map((h) => h.source)]).toEqual(['service', 'cache', 'cache']);
    const db = connectionOf(stack.screener.store);
    const rows = db.prepare('SELECT id, score, score_fetch_id FROM screenings WHERE tender_id LIKE ? ORDER BY rowid').all('REF-%') as Array<{ id: string; score: string | null; score_fetch_id: number | null }>;
    expect(rows.map((r) => r.score)).toEqual([null, null, null]);
    expect(new Set(rows.map((r) => r.score_fetch_id)).size).toBe(1);
    expect(rows[0]!.score_fetch_id).not.toBeNull();
    expect((db.prepare('SELECT COUNT(*) AS n FROM score_fetches WHERE dot_number = ?').get('1000001') as { n: number }).n).toBe(1);
    // Read back, the same score as the lookup answered.
    for (const h of hits) expect(h.score).toEqual(first.score);
    const read = await request(`${stack.intakeUrl}/screenings/${hits[1]!.id}`, { headers: { authorization: `Bearer ${stack.token}` } });
    expect(((await read.body.json()) as Screening).score).toEqual(first.score);
  });

  it('prunes a fetch nobody refers to, keeps the ones screenings or the cache refer to', async () => {
    const db = connectionOf(stack.screener.store);
    const orphan = Number(db.prepare("INSERT INTO score_fetches (env, dot_number, body, fetched_at) VALUES ('sandbox', '1', '{}', '2020-01-01T00:00:00.000Z')").run().lastInsertRowid);
    const referenced = (db.prepare('SELECT score_fetch_id AS id FROM screenings WHERE tender_id = ?').get('REF-1') as { id: number }).id;
    db.prepare("UPDATE score_fetches SET fetched_at = '2020-01-01T00:00:00.000Z' WHERE id = ?").run(referenced);
    const policy = { eventsMs: 86_400_000, recordsMs: 100 * 365 * 86_400_000, notFoundMs: 86_400_000 };
    const report = await new Pruner({ store: stack.screener.store, policy, logger: pino({ level: 'silent' }) }).run();
    expect(report['unreferenced score fetches']).toBe(1);
    const left = (db.prepare('SELECT id FROM score_fetches WHERE id IN (?, ?)').all(orphan, referenced) as Array<{ id: number }>).map((r) => r.id);
    expect(left).toEqual([referenced]);
  });
});
