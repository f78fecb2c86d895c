/**
 * A standing decision's end and its `decision.<state>` event are one unit of work (issue 33;
 * worker/store/group-commit.ts: "a piece may run twice; it must do nothing but its store
 * writes"). A held cache hit whose carrier's decision has expired ends that decision inside the
 * group commit; when the piece then fails (here the event log refuses its review.created, a real
 * error of the database's, from a trigger), the batch is rolled back and the piece run again in a savepoint,
 * and fails again. Nothing may be left behind: the decision still stands and the event log has
 * no decision.lapsed, not even once another screening finishes. (With the old in-memory buffer,
 * both runs left the decision in it, and the next screening appended two decision.lapsed for a
 * decision that still stood.) Once the log takes writes again, the next hold ends it for real:
 * one decision.lapsed, with the ended decision as GET /decisions/:id gives it.
 * Real Redis, the record of the pass (SQLite or PostgreSQL), emulator and HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decision, IntakeEvent, Review, Screening } from '../../shared/screening.js';
import pg from 'pg';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { sqliteStoreOf } from '../../worker/store/index.js';
import { callApi, startStack, type Stack } from '../helpers/stack.js';
import { onPostgres } from '../helpers/test-db.js';

const HOUR = 3_600_000;
let clock = Date.now();
let stack: Stack;

beforeAll(async () => {
  // A decision stands one hour; a cached score is fresh for four (the default): two hours on,
  // the next tender is a held cache hit, answered in the group commit, past the decision's TTL.
  stack = await startStack({ now: () => new Date(clock), env: { SCREEN_DECISION_TTL: '1h' } });
});
afterAll(async () => {
  await stack?.close();
});

const call = (method: 'GET' | 'POST', path: string, body?: unknown) => callApi(stack, method, path, body);

const screen = (dot: string, tender: string) => call('POST', '/screenings?wait=20', { dot_number: dot, tender_id: tender });
const logged = async (event: string): Promise<IntakeEvent[]> =>
  (await stack.screener.events.since(0, 10_000)).filter((e) => e.event === event);

/**
 * The event log refuses review.created until the returned function is called: a trigger of the
 * record's own, so the refusal is the database's real error (SQLite: a TEMP trigger on the stack's
 * connection; PostgreSQL: a trigger on the test database, made and dropped on a connection of its own).
 */
async function refuseReviewCreated(): Promise<() => Promise<void>> {
  if (!onPostgres) {
    const db = connectionOf(sqliteStoreOf(stack.screener.store));
    db.exec(
      "CREATE TEMP TRIGGER refuse_review_created BEFORE INSERT ON events WHEN NEW.event = 'review.created' BEGIN SELECT RAISE(ABORT, 'the event log refused the write'); END",
    );
    return async () => {
      db.exec('DROP TRIGGER refuse_review_created');
    };
  }
  const sql = async (text: string): Promise<void> => {
    const c = new pg.Client({ connectionString: stack.screenDb });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  await sql(`
    CREATE FUNCTION refuse_review_created() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'the event log refused the write'; END $$;
    CREATE TRIGGER refuse_review_created BEFORE INSERT ON events
      FOR EACH ROW WHEN (NEW.event = 'review.created') EXECUTE FUNCTION refuse_review_created();`);
  return () => sql('DROP TRIGGER refuse_review_created ON events; DROP FUNCTION refuse_review_created()');
}

// The second case goes on from the decision the first lapsed.
describe('a decision ended in a piece that fails leaves no event behind', () => {
  it('rolled back and run again: no phantom or doubled decision.lapsed; the real lapse is told once', async () => {
    // A standing approval of carrier 1000003 (its sandbox score needs a person).
    const first = await screen('1000003', 'T-1');
    expect([first.status, (first.json as Screening).action]).toEqual([200, 'hold']);
    const [review] = (await call('GET', '/reviews?state=pending')).json.data as Review[];
    expect((await call('POST', `/reviews/${review!.id}/approve`, { by: 'Dana Dispatcher' })).status).toBe(200);
    const [standing] = (await call('GET', '/decisions?state=standing')).json.data as Decision[];
    expect(standing).toMatchObject({ state: 'standing', dot_number: '1000003' });

    clock += 2 * HOUR;
    // The event log refuses the review.created the hold writes after ending the decision.
    const allow = await refuseReviewCreated();
    let refused: { status: number; json: any };
    try {
      refused = await screen('1000003', 'T-2');
    } finally {
      await allow();
    }
    expect(refused.status).toBe(500);

    // Rolled back: the decision stands, and nothing says it lapsed.
    expect((await call('GET', `/decisions/${standing!.id}`)).json).toMatchObject({ state: 'standing', ended_at: null });
    expect(await logged('decision.lapsed')).toEqual([]);
    // Another carrier's screening finishes (its own commit, its own events): still nothing.
    const other = await screen('1000001', 'T-3');
    expect([other.status, (other.json as Screening).status]).toEqual([200, 'done']);
    expect(await logged('decision.lapsed')).toEqual([]);
    expect((await call('GET', `/decisions/${standing!.id}`)).json.state).toBe('standing');

    // The log takes writes again: the next hold ends the decision, told once, in its commit.
    const held = await screen('1000003', 'T-4');
    expect([held.status, (held.json as Screening).source, (held.json as Screening).action]).toEqual([200, 'cache', 'hold']);
    const lapsed = (await call('GET', `/decisions/${standing!.id}`)).json as Decision;
    expect(lapsed).toMatchObject({ state: 'lapsed', end_reason: expect.stringMatching(/^expired /) });
    const events = await logged('decision.lapsed');
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toEqual(lapsed);
  });

  it('revoke and the sandbox lapse refuse one way (checked where the decision ends): 409 decision_conflict, 404; no event', async () => {
    const [ended] = (await call('GET', '/decisions?state=lapsed')).json.data as Decision[];
    const before = (await stack.screener.events.since(0, 10_000)).length;
    const revoke = await call('POST', `/decisions/${ended!.id}/revoke`, { by: 'x' });
    const lapse = await call('POST', `/sandbox/decisions/${ended!.id}/lapse`);
    for (const r of [revoke, lapse]) {
      expect([r.status, r.json.error.code, r.json.error.resource_id]).toEqual([409, 'decision_conflict', ended!.id]);
      expect(r.json.error.message).toBe(`decision ${ended!.id} is already lapsed`);
    }
    const missing = 'dec_' + 'a'.repeat(26);
    for (const r of [
      await call('POST', `/decisions/${missing}/revoke`, { by: 'x' }),
      await call('POST', `/sandbox/decisions/${missing}/lapse`),
    ]) {
      expect([r.status, r.json.error.code, r.json.error.message]).toEqual([404, 'resource_missing', `no decision ${missing}`]);
    }
    expect(await stack.screener.events.since(0, 10_000)).toHaveLength(before);
  });
});
