/**
 * What a group commit of cache hits sends PostgreSQL once its carriers' scores are as last time
 * (the read-ahead's guess right, worker/queue/recent-scores.ts): the batch's reads at once, and
 * not one read of a piece's own. Each piece's read is answered by the read-ahead; a read-ahead
 * that stopped answering one (a row put together wrong, a key left out) shows up here as the
 * piece's own statement. Counted at the driver (pg.Client#query) in this process: the stack's
 * record is on a PostgreSQL test database of its own. Real Redis, the emulator, HTTP.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { callApi, startStack, type Stack } from '../helpers/stack.js';
import { onPostgres } from '../helpers/test-db.js';

// The sandbox's carriers (emulator/sandbox-carriers.ts), their cached scores set below.
const HELD = ['1000002', '1000003'];
const TENDERED = ['1000001', '1000004', '1000006'];
/** Reads a piece makes of its own when the read-ahead did not answer it (per hit, one each). */
const PIECE_READS = [
  'score_cache_hit_by_dot',
  'score_cache_hit_by_mc',
  'watch_heads',
  'watch_entry_head',
  'watch_state_head',
  'decisions_standing_and_open_review',
  'decisions_standing',
  'decisions_open_review',
  'decisions_lock_carrier',
  // observe's locked path: a heads row read ahead wrong (a state unseen, an MC-keyed entry waiting) sends it there.
  'watch_lock_carrier',
  'watch_entry_by_key',
];

let stack: Stack;
let clock = Date.now();

/** The statement names (or SQL) this process sends PostgreSQL while `fn` runs. */
async function sentDuring<T>(fn: () => Promise<T>): Promise<{ value: T; sent: string[] }> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = proto.query;
  const sent: string[] = [];
  proto.query = function (this: unknown, ...a: unknown[]) {
    const c = a[0] as string | { name?: string; text?: string };
    sent.push(typeof c === 'string' ? c : (c.name ?? c.text ?? '?'));
    return query.apply(this, a);
  };
  try {
    return { value: await fn(), sent };
  } finally {
    proto.query = query;
  }
}

const screen = async (dot: string, tender: string): Promise<Screening> => {
  const r = await callApi(stack, 'POST', '/screenings?wait=20', { dot_number: dot, tender_id: tender });
  expect(r.status).toBe(200);
  return r.json as Screening;
};
const all = (round: string): Promise<Screening[]> => Promise.all([...HELD, ...TENDERED].map((dot) => screen(dot, `${round}-${dot}`)));

describe.skipIf(!onPostgres)('a batch of cache hits on PostgreSQL (SCREEN_TEST_DB=postgres)', () => {
  beforeAll(async () => {
    stack = await startStack({ now: () => new Date(clock) });
    // Each carrier from /v1 once, then cached as approved or as for review (a hold, a review item).
    await all('B0');
    clock += 1_000;
    for (const dot of [...HELD, ...TENDERED]) {
      const cached = (await stack.screener.store.scores.getScore('sandbox', { dot_number: dot }))!.score;
      const s: SvcScore = structuredClone(cached);
      s.decision = HELD.includes(dot) ? 'review' : 'approved';
      s.needs_manual_review = false;
      await stack.screener.store.scores.putScore('sandbox', s, new Date(clock), { dot_number: dot });
    }
    // A round of hits: the scores the next batches guess from, the held carriers' reviews open.
    await all('B1');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('reads ahead in one statement each and sends no read of a piece of its own', async () => {
    const { value, sent } = await sentDuring(() => all('B2'));
    expect(value.map((s) => [s.source, s.action])).toEqual([
      ...HELD.map(() => ['cache', 'hold']),
      ...TENDERED.map(() => ['cache', 'tender']),
    ]);
    const count = (name: string) => sent.filter((s) => s === name).length;
    // Each batch reads its scores once (the requests may come in more than one batch).
    const batches = count('score_cache_hit_many');
    expect(batches).toBeGreaterThan(0);
    expect(sent.filter((s) => PIECE_READS.includes(s))).toEqual([]);
    // Per batch at most: the watch rows (and again under the locks), the locks, the holds' decisions.
    expect(count('watch_rows_many')).toBeLessThanOrEqual(2 * batches);
    expect(count('carrier_locks_take_named')).toBeLessThanOrEqual(batches);
    expect(count('decisions_standing_and_open_review_many')).toBeLessThanOrEqual(batches);
    expect(count('carrier_locks_take_named')).toBeGreaterThan(0);
    expect(count('COMMIT')).toBe(count('BEGIN'));
  });
});
