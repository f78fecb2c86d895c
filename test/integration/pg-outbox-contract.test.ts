/**
 * The callback outbox's repositories on both backends: the same cases through the interfaces
 * (the record's `outbox`/`callbackSends` on SQLite, `pgOutboxOf`/`pgCallbackSendsOf` on PostgreSQL), then
 * what only several hosts on one PostgreSQL ask of the claims: a row claimed once, none skipped,
 * a screening's states in order, a host never waiting on another's claim.
 */
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore, recordOf, type Store } from '../../worker/store/index.js';
import { type CallbackRow, type CallbackSendsRepo, type NewCallbackRow, type OutboxRepo } from '../../worker/store/outbox-repo.js';
import type { AsyncRepo } from '../../worker/store/async-repo.js';
import { poolExecutor, type PgExecutor } from '../../worker/store/pg/executor.js';
import { pgCallbackSendsOf, pgOutboxOf, type PgCallbackSendsRepo } from '../../worker/store/pg/outbox-repo.js';
import { openPgPool } from '../../worker/store/pg/pg-pool.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { StoreArgumentError } from '../../worker/store/store-error.js';
import { migratedPgDatabase } from '../helpers/pg-db.js';
import { tempDbPath } from '../helpers/temp-db.js';

interface Backend {
  outbox: AsyncRepo<OutboxRepo>;
  sends: AsyncRepo<CallbackSendsRepo>;
  /** The batch claim: PostgreSQL's one statement; on SQLite what the sender does (due, then claim each). */
  claimDue(...a: Parameters<PgCallbackSendsRepo['claimDue']>): Promise<CallbackRow[]>;
  /** An empty outbox (a delete: the counts' triggers see it). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

async function sqliteBackend(): Promise<Backend> {
  const file = tempDbPath();
  const store: Store = openStore(file.path);
  // The record's repositories: the product's own async face of SQLite, claimDue included.
  const record = recordOf(store);
  return {
    outbox: record.outbox,
    sends: record.callbackSends,
    claimDue: (...a) => record.callbackSends.claimDue(...a),
    reset: async () => void connectionOf(store).exec('DELETE FROM callback_outbox'),
    close: async () => {
      store.close();
      file.cleanup();
    },
  };
}

// One database for the file (its cases empty the outbox first): CREATE DATABASE is the slow part.
let pgDb: ReturnType<typeof migratedPgDatabase> | undefined;
const sharedPg = () => (pgDb ??= migratedPgDatabase());
afterAll(async () => {
  await (await pgDb)?.close();
});

async function pgBackend(): Promise<Backend> {
  const { pool } = await sharedPg();
  const x = poolExecutor(pool);
  const sends = pgCallbackSendsOf(x);
  return {
    outbox: pgOutboxOf(x),
    sends,
    claimDue: (...a) => sends.claimDue(...a),
    reset: async () => void (await pool.query('DELETE FROM callback_outbox')),
    close: async () => {}, // the file's database, dropped after the last case
  };
}

const T0 = Date.parse('2026-05-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const A = 'http://127.0.0.1:9001';
const B = 'http://127.0.0.1:9002';

interface Owe {
  at?: number;
  dest?: string;
  path?: string;
  subject?: string | null;
  version?: number | null;
}
function newRow(id: string, o: Owe = {}): NewCallbackRow {
  const at = o.at ?? T0;
  const dest = o.dest ?? A;
  return {
    id,
    delivery_id: `dlv_${id}`,
    kind: 'screening.completed',
    url: `${dest}${o.path ?? '/hook'}`,
    destination: dest,
    subject: o.subject ?? null,
    version: o.version ?? null,
    body: `{"event":"screening.completed","delivery_id":"dlv_${id}"}`,
    atMs: at,
    at: iso(at),
  };
}

describe.each([
  ['sqlite', sqliteBackend],
  ['postgres', pgBackend],
] as const)('the outbox on %s', (_name, make) => {
  let b: Backend;
  beforeAll(async () => {
    b = await make();
  });
  afterAll(async () => {
    await b?.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const owe = (id: string, o: Owe = {}) => b.outbox.insert(newRow(id, o));
  const states = async () => Object.fromEntries((await b.outbox.counts()).map((c) => [c.state, c.n]));
  /** Claim at `now` with a lease of 30 s. */
  const claim = (id: string, now = T0) => b.sends.claim(id, now, iso(now), now + 30_000);
  const dueIds = async (now = T0, skip: string[] = [], limit = 100) => (await b.sends.due(now, skip, limit)).map((r) => r.id);

  describe('outboxOf', () => {
    it('owes a row once per delivery id, stored as written', async () => {
      expect(await owe('cb_1', { subject: 'scr_1', version: 3, at: T0 + 5 })).toBe(true);
      expect(await b.outbox.insert({ ...newRow('cb_other', { at: T0 + 9 }), delivery_id: 'dlv_cb_1' })).toBe(false);
      const row: CallbackRow = {
        id: 'cb_1',
        delivery_id: 'dlv_cb_1',
        kind: 'screening.completed',
        url: `${A}/hook`,
        destination: A,
        subject: 'scr_1',
        version: 3,
        body: '{"event":"screening.completed","delivery_id":"dlv_cb_1"}',
        state: 'pending',
        attempts: 0,
        next_attempt_at: T0 + 5,
        retry_since: T0 + 5,
        last_status: null,
        last_error: null,
        created_at: iso(T0 + 5),
        updated_at: iso(T0 + 5),
        delivered_at: null,
        cancelled_at: null,
      };
      expect(await b.outbox.byId('cb_1')).toEqual(row);
      expect(await b.outbox.byDelivery('dlv_cb_1')).toEqual(row);
      expect(await b.outbox.byId('cb_other')).toBeUndefined();
      expect(await b.outbox.byDelivery('dlv_nope')).toBeUndefined();
      expect(await states()).toEqual({ pending: 1, delivered: 0, dead: 0, cancelled: 0 });
    });

    it('counts rows per state, in the order of the states, through every change of state', async () => {
      expect(await b.outbox.counts()).toEqual([
        { state: 'cancelled', n: 0 },
        { state: 'dead', n: 0 },
        { state: 'delivered', n: 0 },
        { state: 'pending', n: 0 },
      ]);
      for (let i = 1; i <= 6; i++) await owe(`cb_${i}`);
      await claim('cb_1');
      await b.sends.delivered('cb_1', 204, iso(T0));
      await claim('cb_2');
      await b.sends.dead('cb_2', 500, 'http_status', iso(T0));
      await b.outbox.cancel('cb_3', iso(T0));
      await b.outbox.cancel('cb_1', iso(T0)); // delivered: stays so
      expect(await b.outbox.counts()).toEqual([
        { state: 'cancelled', n: 1 },
        { state: 'dead', n: 1 },
        { state: 'delivered', n: 1 },
        { state: 'pending', n: 3 },
      ]);
      await b.outbox.retry('cb_2', T0 + 1, iso(T0 + 1));
      await b.outbox.retry('cb_3', T0 + 1, iso(T0 + 1));
      await b.outbox.retry('cb_1', T0 + 1, iso(T0 + 1)); // delivered: not sent again
      expect(await states()).toEqual({ pending: 5, delivered: 1, dead: 0, cancelled: 0 });
      await b.reset();
      expect(await states()).toEqual({ pending: 0, delivered: 0, dead: 0, cancelled: 0 });
    });

    it('tells when the oldest pending row was owed', async () => {
      expect(await b.outbox.oldestPendingAt()).toBeNull();
      await owe('cb_late', { at: T0 + 2_000 });
      await owe('cb_early', { at: T0 + 1_000 });
      await owe('cb_done', { at: T0 });
      await claim('cb_done');
      await b.sends.delivered('cb_done', 200, iso(T0));
      expect(await b.outbox.oldestPendingAt()).toBe(iso(T0 + 1_000));
      await b.outbox.cancel('cb_early', iso(T0 + 3_000));
      expect(await b.outbox.oldestPendingAt()).toBe(iso(T0 + 2_000));
    });

    it('pages by keyset, most recently changed first, ties newest row first; by state or all', async () => {
      // updated_at: cb_1 < cb_2 = cb_3 < cb_4 < … ; cb_5 cancelled last.
      await owe('cb_1', { at: T0 + 1 });
      await owe('cb_2', { at: T0 + 2 });
      await owe('cb_3', { at: T0 + 2 });
      for (let i = 4; i <= 7; i++) await owe(`cb_${i}`, { at: T0 + i });
      await b.outbox.cancel('cb_5', iso(T0 + 100));
      const ids = (r: { rows: CallbackRow[] }) => r.rows.map((x) => x.id);

      const first = await b.outbox.page(undefined, { limit: 3 });
      expect([ids(first), first.has_more]).toEqual([['cb_5', 'cb_7', 'cb_6'], true]);
      expect(first.rows[0]).toEqual(await b.outbox.byId('cb_5'));
      const second = await b.outbox.page(undefined, { limit: 3, starting_after: 'cb_6' });
      expect([ids(second), second.has_more]).toEqual([['cb_4', 'cb_3', 'cb_2'], true]);
      const last = await b.outbox.page(undefined, { limit: 3, starting_after: 'cb_2' });
      expect([ids(last), last.has_more]).toEqual([['cb_1'], false]);
      const back = await b.outbox.page(undefined, { limit: 2, ending_before: 'cb_2' });
      expect([ids(back), back.has_more]).toEqual([['cb_4', 'cb_3'], true]);

      const pending = await b.outbox.page('pending', { limit: 10 });
      expect([ids(pending), pending.has_more]).toEqual([['cb_7', 'cb_6', 'cb_4', 'cb_3', 'cb_2', 'cb_1'], false]);
      const cancelled = await b.outbox.page('cancelled', { limit: 10 });
      expect(ids(cancelled)).toEqual(['cb_5']);
      expect((await b.outbox.page('dead', { limit: 10 })).rows).toEqual([]);

      await expect(b.outbox.page('pending', { limit: 2, starting_after: 'cb_5' })).rejects.toThrow(
        expect.objectContaining({ name: 'StoreArgumentError', param: 'starting_after' }),
      );
      await expect(b.outbox.page(undefined, { limit: 2, starting_after: 'cb_1', ending_before: 'cb_2' })).rejects.toBeInstanceOf(
        StoreArgumentError,
      );
      await expect(b.outbox.page(undefined, { limit: 0 })).rejects.toThrow(expect.objectContaining({ param: 'limit' }));
    });

    it('finds a newer state of the same screening delivered or owed, the nearest first', async () => {
      await owe('cb_v1', { subject: 'scr_1', version: 1 });
      await owe('cb_v2', { subject: 'scr_1', version: 2 });
      await owe('cb_v3', { subject: 'scr_1', version: 3 });
      await owe('cb_other', { subject: 'scr_2', version: 9 });
      await owe('cb_plain');
      expect(await b.outbox.newerOwed('cb_v1')).toBe('cb_v2');
      expect(await b.outbox.newerOwed('cb_v3')).toBeUndefined();
      expect(await b.outbox.newerOwed('cb_plain')).toBeUndefined();
      expect(await b.outbox.newerOwed('cb_nope')).toBeUndefined();
      await b.outbox.cancel('cb_v2', iso(T0));
      expect(await b.outbox.newerOwed('cb_v1')).toBe('cb_v3');
      await claim('cb_v3', T0);
      await b.sends.dead('cb_v3', null, 'unreachable', iso(T0));
      expect(await b.outbox.newerOwed('cb_v1')).toBeUndefined();
      await b.outbox.retry('cb_v3', T0, iso(T0));
      await claim('cb_v1');
      await b.sends.delivered('cb_v1', 204, iso(T0));
      await claim('cb_v3');
      await b.sends.delivered('cb_v3', 204, iso(T0));
      expect(await b.outbox.newerOwed('cb_v2')).toBe('cb_v3'); // delivered counts too
    });

    it('retries any row but a delivered one: pending, no attempts, due now, a fresh window', async () => {
      await owe('cb_1');
      await claim('cb_1');
      await b.sends.dead('cb_1', 503, 'http_status', iso(T0 + 10));
      await b.outbox.retry('cb_1', T0 + 50, iso(T0 + 50));
      expect(await b.outbox.byId('cb_1')).toMatchObject({
        state: 'pending',
        attempts: 0,
        next_attempt_at: T0 + 50,
        retry_since: T0 + 50,
        updated_at: iso(T0 + 50),
        last_status: 503,
        last_error: 'http_status',
      });
      await b.outbox.cancel('cb_1', iso(T0 + 60));
      expect(await b.outbox.byId('cb_1')).toMatchObject({ state: 'cancelled', cancelled_at: iso(T0 + 60), updated_at: iso(T0 + 60) });
      await b.outbox.retry('cb_1', T0 + 70, iso(T0 + 70));
      expect(await b.outbox.byId('cb_1')).toMatchObject({ state: 'pending', cancelled_at: null, next_attempt_at: T0 + 70 });
      await claim('cb_1', T0 + 70);
      await b.sends.delivered('cb_1', 204, iso(T0 + 80));
      const delivered = await b.outbox.byId('cb_1');
      await b.outbox.retry('cb_1', T0 + 90, iso(T0 + 90));
      expect(await b.outbox.byId('cb_1')).toEqual(delivered);
    });

    it('cancels a pending or dead row, and every one owed to exactly a URL', async () => {
      await owe('cb_1', { path: '/x' });
      await owe('cb_2', { path: '/x' });
      await owe('cb_3', { path: '/x' });
      await owe('cb_4', { path: '/x/' });
      await owe('cb_5', { dest: B, path: '/x' });
      await claim('cb_2');
      await b.sends.dead('cb_2', null, 'timeout', iso(T0));
      await claim('cb_3');
      await b.sends.delivered('cb_3', 204, iso(T0));
      expect(await b.outbox.cancelTo(`${A}/x`, iso(T0 + 5))).toBe(2);
      expect((await b.outbox.byId('cb_1'))?.state).toBe('cancelled');
      expect(await b.outbox.byId('cb_2')).toMatchObject({ state: 'cancelled', cancelled_at: iso(T0 + 5), last_error: 'timeout' });
      expect((await b.outbox.byId('cb_3'))?.state).toBe('delivered');
      expect((await b.outbox.byId('cb_4'))?.state).toBe('pending');
      expect((await b.outbox.byId('cb_5'))?.state).toBe('pending');
      expect(await b.outbox.cancelTo(`${A}/x`, iso(T0 + 6))).toBe(0);
      await b.outbox.cancel('cb_4', iso(T0 + 7));
      await b.outbox.cancel('cb_3', iso(T0 + 7));
      await b.outbox.cancel('cb_nope', iso(T0 + 7));
      expect(await states()).toEqual({ pending: 1, delivered: 1, dead: 0, cancelled: 3 });
    });
  });

  describe('callbackSendsOf', () => {
    it('is open', async () => {
      expect(await b.sends.isOpen()).toBe(true);
    });

    it('lists due rows earliest first (ties in the order owed), at most `limit`, leaving out skipped destinations', async () => {
      await owe('cb_3', { at: T0 + 3 });
      await owe('cb_1', { at: T0 + 1 });
      await owe('cb_2a', { at: T0 + 2, dest: B });
      await owe('cb_2b', { at: T0 + 2 });
      await owe('cb_later', { at: T0 + 1_000 });
      expect(await b.sends.due(T0 + 10, [], 10)).toEqual([
        { id: 'cb_1', destination: A },
        { id: 'cb_2a', destination: B },
        { id: 'cb_2b', destination: A },
        { id: 'cb_3', destination: A },
      ]);
      expect(await dueIds(T0 + 10, [], 2)).toEqual(['cb_1', 'cb_2a']);
      expect(await dueIds(T0 + 10, [A])).toEqual(['cb_2a']);
      expect(await dueIds(T0 + 10, [A, B])).toEqual([]);
      expect(await dueIds(T0 + 1_000, ['http://elsewhere'])).toEqual(['cb_1', 'cb_2a', 'cb_2b', 'cb_3', 'cb_later']);
      expect(await dueIds(T0)).toEqual([]);
    });

    it("keeps a screening's newer state behind any older one still pending, however that one stands", async () => {
      // scr_a: v1 due later; v2 due now: held back.
      await owe('a1', { subject: 'scr_a', version: 1, at: T0 + 500 });
      await owe('a2', { subject: 'scr_a', version: 2, at: T0 });
      // scr_b: v1 to a skipped destination still holds v2 back.
      await owe('b1', { subject: 'scr_b', version: 1, dest: B });
      await owe('b2', { subject: 'scr_b', version: 2 });
      // scr_c: v1 dead, v2 cancelled: v3 goes.
      await owe('c1', { subject: 'scr_c', version: 1 });
      await owe('c2', { subject: 'scr_c', version: 2 });
      await owe('c3', { subject: 'scr_c', version: 3 });
      // no screening: never held back; another screening's older state does not hold back.
      await owe('plain');
      await owe('d5', { subject: 'scr_d', version: 5 });
      await claim('c1');
      await b.sends.dead('c1', null, 'unreachable', iso(T0));
      await b.outbox.cancel('c2', iso(T0));
      expect(await dueIds(T0, [B])).toEqual(['c3', 'plain', 'd5']);
      expect(await claim('a2')).toBeUndefined();
      expect(await claim('b2')).toBeUndefined();
      // v1 leased to an attempt on the wire still holds v2 back; delivered, it lets it go.
      expect((await claim('b1'))?.id).toBe('b1');
      expect(await dueIds(T0)).not.toContain('b2');
      expect(await claim('b2')).toBeUndefined();
      await b.sends.delivered('b1', 204, iso(T0));
      expect(await dueIds(T0)).toContain('b2');
      // a failing v1 (backing off) holds it back as well.
      expect((await claim('a1', T0 + 500))?.id).toBe('a1');
      await b.sends.failed('a1', 503, 'http_status', T0 + 5_000, iso(T0 + 500));
      expect(await dueIds(T0 + 1_000)).not.toContain('a2');
      await b.sends.dead('a1', 503, 'http_status', iso(T0 + 1_000));
      expect(await dueIds(T0 + 1_000)).toContain('a2');
    });

    it('a claim: one more attempt, leased, the window from the first attempt; then refused until the lease ends', async () => {
      await owe('cb_1', { at: T0 });
      expect(await b.sends.claim('cb_1', T0 - 1, iso(T0 - 1), T0 + 30_000)).toBeUndefined(); // not due yet
      const first = await b.sends.claim('cb_1', T0 + 100, iso(T0 + 100), T0 + 30_100);
      expect(first).toEqual({
        ...(await b.outbox.byId('cb_1')),
        attempts: 1,
        next_attempt_at: T0 + 30_100,
        retry_since: T0 + 100,
        updated_at: iso(T0 + 100),
      });
      // Leased: another claim (another process) gets nothing until the lease ends.
      expect(await b.sends.claim('cb_1', T0 + 200, iso(T0 + 200), T0 + 30_200)).toBeUndefined();
      expect(await dueIds(T0 + 30_099)).toEqual([]);
      // The attempt's process died: due again at the lease's end, the window kept.
      expect(await dueIds(T0 + 30_100)).toEqual(['cb_1']);
      const second = await b.sends.claim('cb_1', T0 + 40_000, iso(T0 + 40_000), T0 + 70_000);
      expect(second).toMatchObject({ attempts: 2, next_attempt_at: T0 + 70_000, retry_since: T0 + 100 });
      // A failed attempt: due again at its backoff.
      await b.sends.failed('cb_1', null, 'timeout', T0 + 50_000, iso(T0 + 41_000));
      expect(await b.outbox.byId('cb_1')).toMatchObject({
        state: 'pending',
        attempts: 2,
        next_attempt_at: T0 + 50_000,
        last_status: null,
        last_error: 'timeout',
        updated_at: iso(T0 + 41_000),
      });
      expect(await claim('cb_1', T0 + 49_999)).toBeUndefined();
      expect(await claim('cb_1', T0 + 50_000)).toMatchObject({ attempts: 3, retry_since: T0 + 100 });
      expect(await claim('cb_nope')).toBeUndefined();
    });

    it('records the outcome only on a pending row', async () => {
      await owe('cb_1');
      await owe('cb_2');
      await claim('cb_1');
      await claim('cb_2');
      await b.sends.delivered('cb_1', 202, iso(T0 + 5));
      expect(await b.outbox.byId('cb_1')).toMatchObject({
        state: 'delivered',
        last_status: 202,
        last_error: null,
        delivered_at: iso(T0 + 5),
        updated_at: iso(T0 + 5),
      });
      await b.sends.dead('cb_1', 500, 'http_status', iso(T0 + 6));
      await b.sends.failed('cb_1', 500, 'http_status', T0 + 9_000, iso(T0 + 6));
      expect((await b.outbox.byId('cb_1'))?.state).toBe('delivered');
      expect((await b.outbox.byId('cb_1'))?.updated_at).toBe(iso(T0 + 5));
      await b.sends.dead('cb_2', null, 'refused_by_policy', iso(T0 + 7));
      expect(await b.outbox.byId('cb_2')).toMatchObject({ state: 'dead', last_status: null, last_error: 'refused_by_policy' });
      await b.sends.delivered('cb_2', 204, iso(T0 + 8));
      expect((await b.outbox.byId('cb_2'))?.state).toBe('dead');
      expect(await states()).toEqual({ pending: 0, delivered: 1, dead: 1, cancelled: 0 });
    });

    it('claims a batch as `due` lists it: earliest first, at most `limit`, skipping destinations, in version order', async () => {
      await owe('v1', { subject: 'scr_1', version: 1, at: T0 + 3 });
      await owe('v2', { subject: 'scr_1', version: 2, at: T0 + 1 });
      await owe('p1', { at: T0 + 2 });
      await owe('p2', { at: T0 + 4, dest: B });
      await owe('p3', { at: T0 + 5 });
      await owe('later', { at: T0 + 60_000 });
      const batch = await b.claimDue(T0 + 10, iso(T0 + 10), T0 + 30_010, [B], 2);
      expect(batch.map((r) => r.id)).toEqual(['p1', 'v1']);
      expect(batch[0]).toEqual(await b.outbox.byId('p1'));
      expect(batch[0]).toMatchObject({ attempts: 1, next_attempt_at: T0 + 30_010, retry_since: T0 + 10 });
      // v2 waits for v1; B was left out; the rest.
      expect((await b.claimDue(T0 + 10, iso(T0 + 10), T0 + 30_010, [], 10)).map((r) => r.id)).toEqual(['p2', 'p3']);
      expect(await b.claimDue(T0 + 10, iso(T0 + 10), T0 + 30_010, [], 10)).toEqual([]);
      await b.sends.delivered('v1', 204, iso(T0 + 20));
      expect((await b.claimDue(T0 + 20, iso(T0 + 20), T0 + 30_020, [], 10)).map((r) => r.id)).toEqual(['v2']);
      // The leases end: each row that was not delivered is claimable again.
      expect((await b.claimDue(T0 + 30_020, iso(T0 + 30_020), T0 + 60_020, [], 10)).map((r) => [r.id, r.attempts])).toEqual([
        ['p1', 2],
        ['p2', 2],
        ['p3', 2],
        ['v2', 2],
      ]);
    });

    it("with room per destination: each destination's first rows up to its room, the rest left due", async () => {
      const C = 'http://127.0.0.1:9003';
      for (let i = 1; i <= 4; i++) await owe(`a${i}`, { at: T0 + i });
      for (let i = 5; i <= 7; i++) await owe(`b${i}`, { at: T0 + i, dest: B });
      await owe('c8', { at: T0 + 8, dest: C });
      const now = T0 + 10;
      const ids = async (limit: number, room: { of: Record<string, number>; others: number }) =>
        (await b.claimDue(now, iso(now), now + 30_000, [], limit, room)).map((r) => r.id);
      expect(await ids(10, { of: { [A]: 1 }, others: 2 })).toEqual(['a1', 'b5', 'b6', 'c8']);
      // The batch's first 3 are all A's: one of them claimed, the other two left due for a later round.
      expect(await ids(3, { of: {}, others: 1 })).toEqual(['a2']);
      expect(await dueIds(now)).toEqual(['a3', 'a4', 'b7']);
      expect(await ids(10, { of: { [A]: 0 }, others: 5 })).toEqual(['b7']);
    });
  });
});

describe('the outbox on PostgreSQL, several hosts at once', () => {
  let db: Awaited<ReturnType<typeof migratedPgDatabase>>;
  const pools: pg.Pool[] = [];
  /** A host: its own pool on the same database. */
  const host = () => {
    const p = openPgPool(db.db.url, { max: 2, applicationName: 'carrier-screen-test' });
    pools.push(p);
    return p;
  };
  let x: PgExecutor;
  beforeAll(async () => {
    db = await sharedPg();
    x = poolExecutor(db.pool);
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });
  beforeEach(async () => {
    await db.pool.query('DELETE FROM callback_outbox');
  });
  const owe = (id: string, o: Owe = {}) => pgOutboxOf(x).insert(newRow(id, o));
  const lease = T0 + 3_600_000;

  /** Transactions held open by a case: rolled back after it, whatever it asserted. */
  const held: Array<{ release(commit: boolean): void; finished: Promise<void> }> = [];
  afterEach(async () => {
    for (const h of held.splice(0)) {
      h.release(false);
      await h.finished;
    }
  });

  /** Runs `fn` in a transaction on a client of its own, held open until `release` (commit or not). */
  function heldTransaction<T>(fn: (tx: PgExecutor) => Promise<T>) {
    let release!: (commit: boolean) => void;
    const done = new Promise<boolean>((r) => (release = r));
    let got!: (v: T) => void;
    let failed!: (e: unknown) => void;
    const value = new Promise<T>((res, rej) => ((got = res), (failed = rej)));
    const finished = x
      .transaction(async (tx) => {
        got(await fn(tx));
        if (!(await done)) throw new Error('rolled back');
      })
      .catch((e: Error) => {
        failed(e);
        if (e.message !== 'rolled back') throw e;
      });
    held.push({ release, finished });
    return { value, release, finished };
  }

  it('a row another host is claiming is skipped at once, never waited on, and never claimed twice', async () => {
    await owe('cb_1', { at: T0 });
    await owe('cb_2', { at: T0 + 1 });
    const a = heldTransaction((tx) => pgCallbackSendsOf(tx).claimDue(T0 + 5, iso(T0 + 5), lease, [], 1));
    expect((await a.value).map((r) => r.id)).toEqual(['cb_1']);
    const other = pgCallbackSendsOf(poolExecutor(host()));
    const started = Date.now();
    expect(await other.claim('cb_1', T0 + 5, iso(T0 + 5), lease)).toBeUndefined();
    expect((await other.claimDue(T0 + 5, iso(T0 + 5), lease, [], 10)).map((r) => r.id)).toEqual(['cb_2']);
    expect(Date.now() - started).toBeLessThan(2_000);
    a.release(true);
    await a.finished;
    // Committed: leased, so nobody else takes it.
    expect(await other.claimDue(T0 + 5, iso(T0 + 5), lease, [], 10)).toEqual([]);
    expect(await pgOutboxOf(x).byId('cb_1')).toMatchObject({ attempts: 1, next_attempt_at: lease });
    // Their hosts died mid-attempt: at the leases' end another host takes them (at least once).
    expect((await other.claimDue(lease, iso(lease), lease + 30_000, [], 10)).map((r) => [r.id, r.attempts])).toEqual([
      ['cb_1', 2],
      ['cb_2', 2],
    ]);
  });

  it('a row owed in a unit of work stands or falls with it, and so does its count', async () => {
    await expect(
      x.transaction(async (tx) => {
        await pgOutboxOf(tx).insert(newRow('cb_gone'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await x.transaction(async (tx) => {
      await x.transaction(async (inner) => void (await pgOutboxOf(inner).insert(newRow('cb_kept'))));
      expect(await pgOutboxOf(tx).insert(newRow('cb_also'))).toBe(true);
    });
    expect(await pgOutboxOf(x).byId('cb_gone')).toBeUndefined();
    expect((await pgOutboxOf(x).page(undefined, { limit: 10 })).rows.map((r) => r.id).sort()).toEqual(['cb_also', 'cb_kept']);
    expect((await pgOutboxOf(x).counts()).find((c) => c.state === 'pending')?.n).toBe(2);
  });

  it('a claim rolled back leaves the row to the next host', async () => {
    await owe('cb_1');
    const a = heldTransaction((tx) => pgCallbackSendsOf(tx).claim('cb_1', T0, iso(T0), lease));
    expect((await a.value)?.attempts).toBe(1);
    a.release(false);
    await a.finished;
    const other = pgCallbackSendsOf(poolExecutor(host()));
    expect((await other.claimDue(T0, iso(T0), lease, [], 10)).map((r) => [r.id, r.attempts])).toEqual([['cb_1', 1]]);
  });

  it('a newer state is not claimed while another host holds the older one, even in a claim not yet committed', async () => {
    await owe('v1', { subject: 'scr_1', version: 1 });
    await owe('v2', { subject: 'scr_1', version: 2 });
    const a = heldTransaction(async (tx) => {
      const sends = pgCallbackSendsOf(tx);
      const got = await sends.claimDue(T0, iso(T0), lease, [], 10);
      await sends.delivered('v1', 204, iso(T0)); // delivered, not yet committed
      return got;
    });
    expect((await a.value).map((r) => r.id)).toEqual(['v1']);
    const other = pgCallbackSendsOf(poolExecutor(host()));
    expect(await other.claimDue(T0, iso(T0), lease, [], 10)).toEqual([]);
    expect(await other.claim('v2', T0, iso(T0), lease)).toBeUndefined();
    a.release(true);
    await a.finished;
    expect((await other.claimDue(T0, iso(T0), lease, [], 10)).map((r) => r.id)).toEqual(['v2']);
  });

  it('claims no more than its limit whatever plan PostgreSQL picks (a nested loop scans the chosen rows again)', async () => {
    for (let i = 0; i < 6; i++) await owe(`cb_${i}`, { at: T0 + i });
    const got = await x.transaction(async (tx) => {
      await tx.query({ text: 'SET LOCAL enable_hashjoin = off' });
      await tx.query({ text: 'SET LOCAL enable_mergejoin = off' });
      return pgCallbackSendsOf(tx).claimDue(T0 + 10, iso(T0 + 10), lease, [], 2);
    });
    expect(got.map((r) => r.id)).toEqual(['cb_0', 'cb_1']);
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*) AS n FROM callback_outbox WHERE attempts > 0');
    expect(rows[0]!.n).toBe(2);
  });

  // claimDue: the batch in one statement; `due + claim`: what the sender does today, row by row.
  it.each(['claimDue', 'due + claim'] as const)(
    'three hosts draining 200 rows (%s): each claimed exactly once, none left, every screening in version order',
    async (how) => {
      // 40 screenings of 3 states each, owed in a shuffled order of due times, and 80 rows of none.
      const subjects = 40;
      for (let s = 0; s < subjects; s++)
        for (let v = 1; v <= 3; v++)
          await owe(`s${s}v${v}`, { subject: `scr_${s}`, version: v * 10, at: T0 + ((s * 7 + v * 13) % 50), dest: s % 2 ? A : B });
      for (let i = 0; i < 80; i++) await owe(`plain${i}`, { at: T0 + (i % 50), dest: i % 3 ? A : B });
      expect((await pgOutboxOf(x).counts()).find((c) => c.state === 'pending')?.n).toBe(200);

      let tick = 0;
      const claimedAt = new Map<string, number>();
      const deliveringAt = new Map<string, number>();
      const claims: Array<{ id: string; by: number }> = [];
      const drain = async (by: number) => {
        const sends = pgCallbackSendsOf(poolExecutor(host()));
        const outbox = pgOutboxOf(poolExecutor(pools.at(-1)!));
        for (;;) {
          const now = T0 + 100;
          const got =
            how === 'claimDue'
              ? await sends.claimDue(now, iso(now), lease, [], 7)
              : (await Promise.all((await sends.due(now, [], 7)).map((r) => sends.claim(r.id, now, iso(now), lease)))).filter(
                  (r): r is CallbackRow => r !== undefined,
                );
          for (const r of got) {
            claims.push({ id: r.id, by });
            claimedAt.set(r.id, ++tick);
          }
          for (const r of got) {
            deliveringAt.set(r.id, ++tick);
            await sends.delivered(r.id, 204, iso(now));
          }
          if (got.length === 0) {
            // Nothing claimable now: done once nothing is pending (another host may hold an older state).
            const pending = (await outbox.counts()).find((c) => c.state === 'pending')!.n;
            if (pending === 0) return;
            await new Promise((r) => setTimeout(r, 2));
          }
        }
      };
      await Promise.all([0, 1, 2].map(drain));

      expect(claims).toHaveLength(200);
      expect(new Set(claims.map((c) => c.id)).size).toBe(200);
      expect(new Set(claims.map((c) => c.by)).size).toBeGreaterThan(1);
      const counts = Object.fromEntries((await pgOutboxOf(x).counts()).map((c) => [c.state, c.n]));
      expect(counts).toEqual({ pending: 0, delivered: 200, dead: 0, cancelled: 0 });
      const { rows } = await db.pool.query<{ attempts: number; n: number }>(
        'SELECT attempts, count(*) AS n FROM callback_outbox GROUP BY attempts',
      );
      expect(rows).toEqual([{ attempts: 1, n: 200 }]);
      // A newer state was claimed only after the older one's outcome was being written.
      for (let s = 0; s < subjects; s++)
        for (let v = 2; v <= 3; v++) expect(claimedAt.get(`s${s}v${v}`)!).toBeGreaterThan(deliveringAt.get(`s${s}v${v - 1}`)!);
    },
  );

  it("the counts stay exact through a seeded walk of the outbox's changes by three hosts at once", async () => {
    // callback-counts.test.ts's walk, through the repositories, on three hosts (a shard each, or shared).
    const rows = 60;
    for (let i = 0; i < rows; i++) await owe(`cb_${i}`);
    const walk = async (p: pg.Pool, seed: number) => {
      const outbox = pgOutboxOf(poolExecutor(p));
      const sends = pgCallbackSendsOf(poolExecutor(p));
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
      for (let step = 0; step < 120; step++) {
        const id = `cb_${rnd(rows)}`;
        const now = T0 + step;
        switch (rnd(7)) {
          case 0:
            await sends.claim(id, now + 60_000, iso(now), now + 61_000);
            break;
          case 1:
            await sends.delivered(id, 204, iso(now));
            break;
          case 2:
            await sends.dead(id, 500, 'http_status', iso(now));
            break;
          case 3:
            await outbox.cancel(id, iso(now));
            break;
          case 4:
            await outbox.retry(id, now, iso(now));
            break;
          case 5:
            await outbox.cancelTo(`${A}/hook`, iso(now));
            break;
          default:
            await outbox.insert(newRow(`new_${seed}`, { at: now }));
        }
      }
    };
    await Promise.all([host(), host(), host()].map((p, h) => walk(p, 7 + h)));
    const { rows: counted } = await db.pool.query<{ state: string; n: number }>(
      'SELECT state, count(*) AS n FROM callback_outbox GROUP BY state',
    );
    const expected: Record<string, number> = { pending: 0, delivered: 0, dead: 0, cancelled: 0 };
    for (const r of counted) expected[r.state] = r.n;
    expect(Object.fromEntries((await pgOutboxOf(x).counts()).map((c) => [c.state, c.n]))).toEqual(expected);
    expect(Object.values(expected).reduce((a, n) => a + n, 0)).toBeGreaterThan(rows);
  });
});
