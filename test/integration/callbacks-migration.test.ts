import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CallbackSender, DestinationPolicy, writeCallback } from '../../worker/callbacks/index.js';
import { migrate, MIGRATIONS, openStore, recordOf } from '../../worker/store/index.js';
import { tempDbPath } from '../helpers/temp-db.js';

/**
 * Migration 18 on a database written by the version before it: screenings get a version where
 * their history would have brought them, outbox rows their destination, screening and version,
 * and raw network errors become categories. Then the triggers keep the version.
 */

let db: ReturnType<typeof tempDbPath>;
let raw: Database.Database;
beforeEach(() => {
  db = tempDbPath();
  raw = new Database(db.path);
  migrate(
    raw,
    db.path,
    MIGRATIONS.filter((m) => m.version < 18),
  );
});
afterEach(() => {
  raw.close();
  db.cleanup();
});

const T = '2026-05-01T00:00:00.000Z';

function screening(id: string, status: string, action: string | null = null): void {
  raw
    .prepare(
      `INSERT INTO screenings (id, status, query_kind, query_value, priority, created_at, completed_at, action, callback_url)
       VALUES (?, ?, 'dot_number', '1000003', 'tender', ?, ?, ?, 'http://tms.example:8080/hook?k=1')`,
    )
    .run(id, status, T, status === 'done' ? T : null, action);
}

function outbox(
  id: string,
  delivery: string,
  kind: string,
  url: string,
  state: string,
  lastStatus: number | null,
  lastError: string | null,
): void {
  raw
    .prepare(
      `INSERT INTO callback_outbox (id, delivery_id, kind, url, body, state, attempts, next_attempt_at, retry_since, last_status, last_error, created_at, updated_at)
       VALUES (?, ?, ?, ?, '{}', ?, 1, 0, 0, ?, ?, ?, ?)`,
    )
    .run(id, delivery, kind, url, state, lastStatus, lastError, T, T);
}

describe('migration 18', () => {
  it('backfills versions, destinations and failure categories; the triggers then count every change', () => {
    screening('scr_q', 'queued');
    screening('scr_a', 'active');
    screening('scr_d', 'done', 'tender');
    screening('scr_h', 'done', 'tender');
    raw
      .prepare(
        "INSERT INTO reviews (id, screening_id, state, hold_reason, decided_by, decided_at, created_at) VALUES ('rev_h', 'scr_h', 'approved', 'manual_review', 'ann', ?, ?)",
      )
      .run(T, T);
    screening('scr_p', 'done', 'hold');
    raw
      .prepare(
        "INSERT INTO reviews (id, screening_id, state, hold_reason, created_at) VALUES ('rev_p', 'scr_p', 'pending', 'manual_review', ?)",
      )
      .run(T);
    outbox('cb_1', 'scr_h:screening.completed', 'screening.completed', 'http://tms.example:8080/hook?k=1', 'delivered', 204, null);
    outbox(
      'cb_2',
      'scr_h:review.resolved:approved',
      'review.resolved',
      'http://tms.example:8080/hook?k=1',
      'dead',
      null,
      'connect ECONNREFUSED 10.0.0.5:6379',
    );
    outbox('cb_3', 'chg_1:carrier.changed:abcd', 'carrier.changed', 'https://[::1]:9443/x', 'pending', 503, 'receiver answered HTTP 503');
    outbox('cb_4', 'scr_d:screening.completed', 'screening.completed', 'https://tms.example/', 'dead', null, 'Headers Timeout Error');
    outbox(
      'cb_5',
      'scr_q:screening.completed',
      'screening.completed',
      'ftp://tms.example/',
      'dead',
      null,
      'callback_url must be http or https',
    );

    migrate(raw, db.path, MIGRATIONS);

    const versions = Object.fromEntries(
      (raw.prepare('SELECT id, version FROM screenings').all() as Array<{ id: string; version: number }>).map((r) => [r.id, r.version]),
    );
    expect(versions).toEqual({ scr_q: 1, scr_a: 2, scr_d: 3, scr_h: 5, scr_p: 3 });
    expect(raw.prepare('SELECT id, destination, subject, version, last_status, last_error FROM callback_outbox ORDER BY id').all()).toEqual(
      [
        { id: 'cb_1', destination: 'http://tms.example:8080', subject: 'scr_h', version: 3, last_status: 204, last_error: null },
        { id: 'cb_2', destination: 'http://tms.example:8080', subject: 'scr_h', version: 5, last_status: null, last_error: 'unreachable' },
        { id: 'cb_3', destination: 'https://[::1]:9443', subject: null, version: null, last_status: 503, last_error: 'http_status' },
        { id: 'cb_4', destination: 'https://tms.example', subject: 'scr_d', version: 3, last_status: null, last_error: 'timeout' },
        { id: 'cb_5', destination: 'ftp://tms.example', subject: 'scr_q', version: 3, last_status: null, last_error: 'refused_by_policy' },
      ],
    );
    // The outbox takes the new state; the old CHECK would have refused it.
    raw.prepare("UPDATE callback_outbox SET state = 'cancelled' WHERE id = 'cb_3'").run();

    const v = (id: string) => (raw.prepare('SELECT version FROM screenings WHERE id = ?').get(id) as { version: number }).version;
    raw.prepare("UPDATE screenings SET status = 'active' WHERE id = 'scr_q'").run();
    expect(v('scr_q')).toBe(2);
    raw.prepare("UPDATE screenings SET status = 'active' WHERE id = 'scr_q'").run(); // no change: no step
    expect(v('scr_q')).toBe(2);
    raw.prepare("UPDATE screenings SET carrier_key = 'dot:1000003' WHERE id = 'scr_q'").run(); // internal: not shown, no step
    expect(v('scr_q')).toBe(2);
    raw.prepare("UPDATE reviews SET state = 'rejected', decided_by = 'bo', decided_at = ? WHERE id = 'rev_p'").run(T);
    expect(v('scr_p')).toBe(4);
    raw.prepare("UPDATE screenings SET action = 'block', settled_by = 'review' WHERE id = 'scr_p'").run();
    expect(v('scr_p')).toBe(5);
  });
});

describe('migration 19', () => {
  it("rows owed before 18 get the destination the sender keys on, so they share the receiver's queue and breaker with its new rows", async () => {
    // A real receiver that always fails: every attempt counts against its one destination.
    let arrivals = 0;
    const server: Server = createServer((req, res) => {
      arrivals++;
      req.resume();
      req.on('end', () => res.writeHead(503).end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    // The same receiver, written three ways before 18 (as stored then): a query without a path,
    // a hex address, the scheme in capitals; and a delivered row, which is left as it was.
    outbox('cb_q', 'old-q', 'k', `http://127.0.0.1:${port}?via=legacy`, 'pending', null, null);
    outbox('cb_x', 'old-x', 'k', `http://0x7f000001:${port}/hook`, 'pending', null, null);
    outbox('cb_c', 'old-c', 'k', `HTTP://127.0.0.1:${port}/caps`, 'dead', null, 'connect ECONNREFUSED 127.0.0.1:1');
    outbox('cb_d', 'old-d', 'k', `http://0x7f000001:${port}/done`, 'delivered', 204, null);
    outbox('cb_f', 'old-f', 'k', 'ftp://tms.example/', 'dead', null, 'callback_url must be http or https');
    migrate(
      raw,
      db.path,
      MIGRATIONS.filter((m) => m.version <= 18),
    );
    // What 18 made of them by slicing strings: three queues for one receiver.
    const dests = () =>
      Object.fromEntries(
        (raw.prepare('SELECT id, destination FROM callback_outbox').all() as Array<{ id: string; destination: string }>).map((r) => [
          r.id,
          r.destination,
        ]),
      );
    expect(new Set([dests().cb_q, dests().cb_x, dests().cb_c]).size).toBe(3);

    migrate(raw, db.path, MIGRATIONS);
    const origin = `http://127.0.0.1:${port}`;
    expect(dests()).toEqual({ cb_q: origin, cb_x: origin, cb_c: origin, cb_d: `http://0x7f000001:${port}`, cb_f: 'ftp://tms.example' });
    expect(raw.prepare("SELECT id, url FROM callback_outbox WHERE id IN ('cb_q', 'cb_x', 'cb_c') ORDER BY id").all()).toEqual([
      { id: 'cb_c', url: `${origin}/caps` },
      { id: 'cb_q', url: `${origin}/?via=legacy` },
      { id: 'cb_x', url: `${origin}/hook` },
    ]);
    raw.close();

    // On the real sender: one slot for the destination means one attempt at a time to this
    // receiver, legacy rows and a new row together (before 19: one per spelling).
    const store = openStore(db.path);
    const sender = new CallbackSender({
      store: recordOf(store),
      secret: 's',
      logger: pino({ level: 'silent' }),
      policy: new DestinationPolicy({ allow: undefined, intakeHost: '127.0.0.1' }),
      destinations: { perDestination: 1, failuresToOpen: 2, coolDownMs: 3_600_000 },
    });
    try {
      await writeCallback(recordOf(store), { kind: 'k', url: `${origin}/new`, deliveryId: 'new-1', payload: {} });
      expect(await sender.drainOnce()).toBe(1);
      expect(await sender.drainOnce()).toBe(1);
      // Two failures opened the receiver's one breaker: none of its rows goes now, whatever its spelling.
      expect(await sender.drainOnce()).toBe(0);
      expect(arrivals).toBe(2);
    } finally {
      await sender.close(100);
      store.close();
      raw = new Database(db.path); // afterEach closes it
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
