/**
 * A group commit's read-ahead guesses from each carrier's last cached score which carriers it
 * will lock and what it will read under the locks (worker/queue/recent-scores.ts; PostgreSQL
 * sends it all beside the score read). A score that changed between two batches makes the guess
 * wrong both ways: held where it guessed tender (a lock taken after the others), tender where it
 * guessed held (a lock taken for nothing). Either way the answers and the record are the rules',
 * on both backends. Real Redis, the record, the emulator, HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review, Screening } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { callApi, startStack, type Stack } from '../helpers/stack.js';

const DOT = '1000003';
let stack: Stack;
let clock = Date.now();

beforeAll(async () => {
  stack = await startStack({ now: () => new Date(clock) });
});
afterAll(async () => {
  await stack?.close();
});

const call = (method: 'GET' | 'POST', path: string, body?: unknown) => callApi(stack, method, path, body);

const screen = async (tender: string): Promise<Screening> => {
  const r = await call('POST', '/screenings?wait=20', { dot_number: DOT, tender_id: tender });
  expect(r.status).toBe(200);
  return r.json as Screening;
};
/** Tenders sent at once: one group commit, as under load (its answers whatever the batching). */
const together = (...tenders: string[]): Promise<Screening[]> => Promise.all(tenders.map(screen));
const pending = async (): Promise<Review[]> => (await call('GET', '/reviews?state=pending')).json.data as Review[];

/** /v1's next answer for the carrier, as another host would have cached it: `decision` changed. */
async function rescored(base: SvcScore, decision: 'approved' | 'review'): Promise<void> {
  clock += 1_000;
  const s = structuredClone(base);
  s.decision = decision;
  s.needs_manual_review = false;
  await stack.screener.store.scores.putScore('sandbox', s, new Date(clock), { dot_number: DOT });
}

describe("a batch's read-ahead guessed from the carrier's last score", () => {
  it('a score that turned held, then tender, between batches: the answers and the one review are as without a guess', async () => {
    // First from /v1 (nothing to guess from), then every screening a cache hit.
    const first = await screen('G-0');
    expect(first.source).toBe('service');
    const base = (await stack.screener.store.scores.getScore('sandbox', { dot_number: DOT }))!.score;
    await rescored(base, 'approved');
    expect((await screen('G-1')).action).toBe('tender');

    // Guessed tender (G-1's score), now held: the carrier's lock and its review's reads come after.
    await rescored(base, 'review');
    const held = await together('G-2', 'G-3', 'G-4');
    expect(held.map((s) => [s.action, s.source])).toEqual([
      ['hold', 'cache'],
      ['hold', 'cache'],
      ['hold', 'cache'],
    ]);
    // Guessed held, and held: joined to the same review.
    const more = await together('G-5', 'G-6');
    expect(more.map((s) => s.action)).toEqual(['hold', 'hold']);
    // One review for the carrier (G-0's, from /v1): every held tender is on it, none twice, in
    // the order the batches came; within a batch, the order its requests arrived in.
    const open = (await pending()).filter((r) => r.screening.tender_id?.startsWith('G-'));
    expect(open).toHaveLength(1);
    const joined = open[0]!.tenders.map((t) => t.tender_id);
    expect(joined).toHaveLength(6);
    expect([joined.slice(0, 1), joined.slice(1, 4).sort(), joined.slice(4).sort()]).toEqual([
      ['G-0'],
      ['G-2', 'G-3', 'G-4'],
      ['G-5', 'G-6'],
    ]);

    // Guessed held, now tender: a lock taken for nothing, the answer the score's.
    await rescored(base, 'approved');
    const after = await together('G-7', 'G-8');
    expect(after.map((s) => [s.action, s.source])).toEqual([
      ['tender', 'cache'],
      ['tender', 'cache'],
    ]);
    for (const s of [...held, ...more, ...after]) expect((await call('GET', `/screenings/${s.id}`)).json).toEqual(s);
  });
});
