import { LATEST_API_VERSION } from '../../shared/api-versions.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CallbackDeliveredError,
  CallbackNotFoundError,
  CallbackSender,
  DestinationPolicy,
  callbackCounts,
  callbacksPage,
  getCallback,
  retryCallback,
  retryDelayMs,
  verifyCallback,
  writeCallback,
} from '../../worker/callbacks/index.js';
import type { RecordStore, RecordTx } from '../../worker/store/index.js';
import { manualClock } from '../helpers/emulator.js';
import { until } from '../helpers/processes.js';
import { openTestRecord, type OpenedTestRecord } from '../helpers/test-record-sql.js';

/** The outbox on the record of the pass (SCREEN_TEST_DB), delivered over real HTTP to a real receiver. */

const SECRET = 'outbox-test-secret';
const log = pino({ level: 'silent' });
/** The default policy of a loopback intake: the receiver below is on 127.0.0.1. */
const policy = new DestinationPolicy({ allow: undefined, intakeHost: '127.0.0.1' });
let server: Server;
let base: string;
const received: Array<{ headers: IncomingMessage['headers']; raw: string; path: string }> = [];
/** Status codes to answer, in order; 204 once it runs out. */
let script: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      res.statusCode = script.shift() ?? 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
});

let opened: OpenedTestRecord;
let record: RecordStore;
const clock = manualClock('2026-05-01T00:00:00.000Z');
beforeEach(async () => {
  clock.set('2026-05-01T00:00:00.000Z');
  opened = await openTestRecord({ now: clock.now });
  record = opened.record;
  received.length = 0;
  script = [];
});
afterEach(async () => {
  await opened.close();
});

const owe = (id: string, path = '/hook', tx?: RecordTx) =>
  writeCallback(
    record,
    { kind: 'screening.completed', url: `${base}${path}`, deliveryId: id, payload: { screening: { id } }, at: clock.now() },
    tx,
  );

describe('writing to the outbox', () => {
  it('a row stands or falls with the transaction it was written in', async () => {
    await expect(
      record.unitOfWork(async (tx) => {
        await owe('d-rolled-back', '/hook', tx);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await record.unitOfWork((tx) => owe('d-committed', '/hook', tx));
    expect(await callbackCounts(record)).toEqual({ pending: 1, delivered: 0, dead: 0, cancelled: 0 });
    // As GET /callbacks?state=pending reads it (its reader job, here on the record itself).
    expect((await callbacksPage.run(record, { state: 'pending', page: { limit: 50 } })).data.map((c) => c.delivery_id)).toEqual([
      'd-committed',
    ]);
  });

  it('one row per delivery id: owing the same event again is a no-op', async () => {
    const a = await owe('d-same');
    const b = await owe('d-same');
    expect(a.created).toBe(true);
    expect(b).toEqual({ id: a.id, created: false });
    expect((await callbackCounts(record)).pending).toBe(1);
  });

  it('refuses bad input with the parameter named, writing nothing', async () => {
    expect(() => writeCallback(record, { kind: '', url: base, deliveryId: 'x', payload: {} })).toThrow(
      expect.objectContaining({ param: 'kind' }),
    );
    expect(() => writeCallback(record, { kind: 'k', url: base, deliveryId: '', payload: {} })).toThrow(
      expect.objectContaining({ param: 'deliveryId' }),
    );
    expect(await callbackCounts(record)).toEqual({ pending: 0, delivered: 0, dead: 0, cancelled: 0 });
  });
});

describe('the sender', () => {
  const sender = (o: Partial<ConstructorParameters<typeof CallbackSender>[0]> = {}, s: RecordStore = record) =>
    new CallbackSender({ store: s, secret: SECRET, logger: log, policy, now: clock.now, backoffMs: 1_000, ...o });

  it('delivers signed, with the delivery id and event headers, and records it', async () => {
    const { id } = await owe('d-1');
    expect(await sender().drainOnce()).toBe(1);
    expect(received).toHaveLength(1);
    const r = received[0]!;
    expect(r.headers['x-carrier-screen-delivery']).toBe('d-1');
    expect(r.headers['x-carrier-screen-event']).toBe('screening.completed');
    expect(verifyCallback(SECRET, String(r.headers['x-carrier-screen-signature']), r.raw, { now: clock.now }).ok).toBe(true);
    expect(r.headers['carrier-screen-version']).toBe(LATEST_API_VERSION);
    expect(JSON.parse(r.raw)).toEqual({
      event: 'screening.completed',
      delivery_id: 'd-1',
      api_version: LATEST_API_VERSION,
      screening: { id: 'd-1' },
    });
    expect(await getCallback(record, id)).toMatchObject({
      state: 'delivered',
      attempts: 1,
      last_status: 204,
      delivered_at: '2026-05-01T00:00:00.000Z',
    });
    expect(await sender().drainOnce()).toBe(0); // not sent again
  });

  it('backs off after a failure, same body each attempt, then delivers', async () => {
    script = [500, 503];
    const { id } = await owe('d-retry');
    const s = sender();
    expect(await s.drainOnce()).toBe(1);
    expect(await getCallback(record, id)).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_status: 500,
      last_error: 'http_status',
    });
    expect(await s.drainOnce()).toBe(0); // not due yet
    clock.advance(retryDelayMs(1, 1_000));
    expect(await s.drainOnce()).toBe(1);
    clock.advance(retryDelayMs(2, 1_000));
    expect(await s.drainOnce()).toBe(1);
    expect(await getCallback(record, id)).toMatchObject({ state: 'delivered', attempts: 3 });
    expect(new Set(received.map((r) => r.raw)).size).toBe(1);
  });

  it('keeps trying for the retry window (24 h by default), then dead; a retry by hand sends it again', async () => {
    const { id } = await owe('d-dead');
    const s = sender({
      fetch: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    });
    let attempts = 0;
    // Follow the schedule: every attempt when due, until the row leaves pending.
    while ((await getCallback(record, id))!.state === 'pending') {
      expect(await s.drainOnce()).toBe(1);
      attempts++;
      const next = (await getCallback(record, id))!.next_attempt_at;
      if (next) clock.set(next);
    }
    const row = (await getCallback(record, id))!;
    // A category, never the raw error (it would tell callers which ports are open).
    expect(row).toMatchObject({ state: 'dead', last_error: 'unreachable', next_attempt_at: null });
    expect(Date.parse(row.updated_at) - Date.parse('2026-05-01T00:00:00.000Z')).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(attempts).toBeGreaterThan(20); // hourly at the end, not a handful
    expect(await callbackCounts(record)).toEqual({ pending: 0, delivered: 0, dead: 1, cancelled: 0 });

    const again = await retryCallback(record, id, clock.now());
    expect(again).toMatchObject({ state: 'pending', attempts: 0 });
    expect(await sender().drainOnce()).toBe(1);
    expect(await getCallback(record, id)).toMatchObject({ state: 'delivered', attempts: 1 });
    await expect(retryCallback(record, id)).rejects.toThrow(CallbackDeliveredError);
    await expect(retryCallback(record, 'cb_nope')).rejects.toThrow(CallbackNotFoundError);
  });

  it('a URL that can never be sent to is dead at once', async () => {
    const { id } = await writeCallback(record, {
      kind: 'screening.completed',
      url: 'ftp://example.test/x',
      deliveryId: 'd-ftp',
      payload: {},
      at: clock.now(),
    });
    await sender().drainOnce();
    expect(await getCallback(record, id)).toMatchObject({ state: 'dead', last_error: 'refused_by_policy' });
    expect(received).toHaveLength(0);
  });

  it('a claim is a lease: a process that died mid-attempt leaves the row due again after it', async () => {
    const { id } = await owe('d-lease');
    const stuck = sender({ fetch: () => new Promise<number>(() => {}), timeoutMs: 1_000 });
    void stuck.drainOnce(); // claims, then never finishes (as if SIGKILLed)
    await until('claimed', 10_000, async () => (await getCallback(record, id))!.attempts === 1);
    const other = sender();
    expect(await other.drainOnce()).toBe(0);
    clock.advance(31_000 + 1_000);
    expect(await other.drainOnce()).toBe(1);
    expect(await getCallback(record, id)).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  it('two processes on one database: each delivery sent once', async () => {
    const second = await opened.another();
    try {
      for (let i = 0; i < 40; i++) await owe(`d-many-${i}`);
      const a = sender({ concurrency: 4 });
      const b = sender({ concurrency: 4 }, second.record);
      while ((await callbackCounts(record)).pending > 0) await Promise.all([a.drainOnce(), b.drainOnce()]);
      expect(received).toHaveLength(40);
      expect(new Set(received.map((r) => r.headers['x-carrier-screen-delivery'])).size).toBe(40);
    } finally {
      await second.close();
    }
  });

  it('a running sender wakes when a transaction owes a callback (no poll needed)', async () => {
    const s = new CallbackSender({ store: record, secret: SECRET, logger: log, policy, pollMs: 3_600_000 });
    s.start();
    try {
      await new Promise((r) => setTimeout(r, 50)); // its first pass found nothing and sleeps for an hour
      await record.unitOfWork((tx) => owe('d-wake', '/hook', tx));
      await until('delivered', 20_000, () => received.length === 1);
    } finally {
      await s.close();
    }
  });
});

describe('stopping the sender', () => {
  it('does not wait out a receiver that never answers: the attempt stays claimed and is sent again later', async () => {
    const other = await openTestRecord();
    const s2 = other.record;
    try {
      const { id } = await writeCallback(s2, {
        kind: 'screening.completed',
        url: `${base}/hang`,
        deliveryId: 'd-hang',
        payload: {},
      });
      const hanging = new CallbackSender({
        store: s2,
        secret: SECRET,
        logger: log,
        policy,
        fetch: () => new Promise<number>(() => {}),
        timeoutMs: 3_600_000,
      });
      hanging.start();
      await until('claimed', 10_000, async () => (await getCallback(s2, id))!.attempts === 1);
      await hanging.close(200); // resolves (the attempt itself never does)
      expect(await getCallback(s2, id)).toMatchObject({ state: 'pending', attempts: 1 });
    } finally {
      await other.close();
    }
  });
});
