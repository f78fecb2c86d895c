import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { CallbackSender, DestinationPolicy, getCallback, getCallbackByDelivery, writeCallback } from '../../worker/callbacks/index.js';
import { openStore, recordOf } from '../../worker/store/index.js';
import { manualClock } from '../helpers/emulator.js';
import { until } from '../helpers/processes.js';
import { startRedis, type OwnRedis } from '../helpers/redis-server.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { tempDbPath } from '../helpers/temp-db.js';

/**
 * Callbacks on a broker's network (issue 26), against real listeners on loopback: a callback_url
 * aimed inward reaches nothing, an allowed host still gets its callback, a hung receiver holds
 * only its own slots, deliveries can be cancelled, and a settled screening's callbacks never go
 * back to an older state.
 */

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A TCP listener on every loopback address (127.0.0.1 and ::1) that counts connections. */
async function countingListener(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let n = 0;
  const server: TcpServer = createTcpServer((c) => {
    n++;
    c.destroy();
  });
  await new Promise<void>((r) => server.listen({ port: 0, host: '::', ipv6Only: false }, r));
  return { port: (server.address() as AddressInfo).port, connections: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

interface Arrival {
  path: string;
  body: { event: string; version?: number; screening?: Screening; delivery_id: string };
  status: number;
}

/** A real HTTP receiver: answers with `answer` (default 204), records what it answered. */
async function receiver(
  answer: (a: Omit<Arrival, 'status'>, res: ServerResponse) => Promise<number | 'hold'> | number | 'hold' = () => 204,
): Promise<{ url: string; port: number; arrivals: Arrival[]; held: ServerResponse[]; close(): Promise<void> }> {
  const arrivals: Arrival[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createHttpServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const a = { path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      const status = await answer(a, res);
      if (status === 'hold') {
        held.push(res);
        arrivals.push({ ...a, status: 0 });
        return;
      }
      arrivals.push({ ...a, status });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    arrivals,
    held,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function api(stack: Stack, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

/** Every form of "this host" and the metadata address a caller might try, aimed at `port`. */
function inwardForms(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/hook`,
    `http://0x7f000001:${port}/hook`,
    `http://2130706433:${port}/hook`,
    `http://0177.0.0.1:${port}/hook`,
    `http://127.1:${port}/hook`,
    `http://localhost:${port}/hook`,
    `http://[::1]:${port}/hook`,
    `http://[::ffff:127.0.0.1]:${port}/hook`,
    `http://[::ffff:7f00:1]:${port}/hook`,
    `http://0.0.0.0:${port}/hook`,
    `http://[::]:${port}/hook`,
    'http://169.254.169.254/latest/meta-data/',
    'http://0251.0376.0251.0376/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
  ];
}

describe('a callback_url aimed inward reaches nothing', () => {
  let wide: Stack; // INTAKE_HOST is not loopback, no CALLBACK_ALLOW: callbacks may go nowhere
  let listed: Stack; // CALLBACK_ALLOW lists localhost by name and a 10.20/16 network, not 127.0.0.1
  let target: Awaited<ReturnType<typeof countingListener>>;
  let redis: OwnRedis;
  let redisProbe: Redis;

  beforeAll(async () => {
    [wide, listed, target, redis] = await Promise.all([
      startStack({ env: { INTAKE_HOST: '0.0.0.0' } }),
      startStack({ env: { CALLBACK_ALLOW: 'localhost, 10.20.0.0/16' } }),
      countingListener(),
      startRedis(),
    ]);
    redisProbe = new Redis(redis.url);
  });
  afterAll(async () => {
    redisProbe?.disconnect();
    await Promise.all([wide?.close(), listed?.close(), target?.close(), redis?.stop()]);
  });

  const redisConnections = async () => Number(/total_connections_received:(\d+)/.exec(await redisProbe.info('stats'))![1]);

  it('with a non-loopback intake and no CALLBACK_ALLOW: every form is a 400 naming callback_url, and the target counts 0 connections', async () => {
    const before = await redisConnections();
    const urls = [...inwardForms(target.port), `http://127.0.0.1:${redis.port}/`, `http://localhost:${redis.port}/`];
    for (const url of urls) {
      const r = await api(wide, 'POST', '/screenings', { dot_number: '1000005', callback_url: url });
      expect([url, r.status, r.json.error?.code, r.json.error?.param]).toEqual([url, 400, 'invalid_request', 'callback_url']);
    }
    // Batch items are refused one by one, the same way.
    const batch = await api(wide, 'POST', '/screenings/batch', {
      screenings: [{ dot_number: '1000005', callback_url: `http://0x7f000001:${target.port}/` }],
    });
    expect(batch.json.data[0]).toMatchObject({ status: 400, error: { param: 'screenings[0].callback_url' } });
    expect((await api(wide, 'GET', '/callbacks?state=all')).json.data).toEqual([]);
    expect(target.connections()).toBe(0);
    expect((await redisConnections()) - before).toBe(0);
  });

  it('with a CALLBACK_ALLOW that excludes them: every literal form is refused; the listed name is not', async () => {
    for (const url of inwardForms(target.port).filter((u) => !u.includes('localhost'))) {
      const r = await api(listed, 'POST', '/screenings', { dot_number: '1000005', callback_url: url });
      expect([url, r.status, r.json.error?.param]).toEqual([url, 400, 'callback_url']);
    }
    const redisUrl = await api(listed, 'POST', '/screenings', { dot_number: '1000005', callback_url: `http://127.0.0.1:${redis.port}/` });
    expect(redisUrl.status).toBe(400);
    expect(target.connections()).toBe(0);
  });

  it('a refusal says why in general terms: not the address a name resolved to, not the allow list', async () => {
    // A name resolving to loopback (wide intake, no list) and a literal outside the list.
    const byName = await api(wide, 'POST', '/screenings', { dot_number: '1000005', callback_url: `http://localhost:${target.port}/hook` });
    const literal = await api(listed, 'POST', '/screenings', {
      dot_number: '1000005',
      callback_url: `http://0x7f000001:${target.port}/hook`,
    });
    for (const r of [byName, literal]) {
      expect(r.status).toBe(400);
      expect(Object.keys(r.json.error).sort()).toEqual(['code', 'message', 'param']);
      expect(r.json.error).toMatchObject({
        code: 'invalid_request',
        param: 'callback_url',
        message: expect.stringMatching(/a loopback address/),
      });
      expect(r.json.error.message).not.toMatch(/127\.0\.0\.1|::1|10\.20|localhost,|CALLBACK_ALLOW=|nowhere|loopback only/);
    }
    expect(byName.json.error.message).toMatch(/resolves to a loopback address/);
    expect(target.connections()).toBe(0);
  });

  it('an allowed host still gets its callback', async () => {
    const rx = await receiver();
    try {
      const s = (
        await api(listed, 'POST', '/screenings?wait=10', { dot_number: '1000005', callback_url: `http://localhost:${rx.port}/ok` })
      ).json as Screening;
      expect(s.status).toBe('done');
      await until('the callback at the allowed host', 20_000, () => rx.arrivals.some((a) => a.body.screening?.id === s.id));
    } finally {
      await rx.close();
    }
  });

  it('a name that resolves to a forbidden address is refused when sent (the real lookup path), and the row says so as a category', async () => {
    // Written straight to the outbox, as if the intake had let it through (e.g. DNS answered otherwise then).
    const rows = await Promise.all(
      [
        `http://localhost:${target.port}/rebound`,
        `http://0x7f000001:${target.port}/raw`,
        `http://[::ffff:127.0.0.1]:${target.port}/mapped`,
      ].map(
        async (url, i) =>
          (await writeCallback(wide.screener.store, { kind: 'screening.completed', url, deliveryId: `rebind-${i}`, payload: {} })).id,
      ),
    );
    for (const id of rows) {
      const row = await until(`row ${id} settled`, 20_000, async () => {
        const r = await getCallback(wide.screener.store, id);
        return r?.state !== 'pending' && r;
      });
      expect(row).toMatchObject({ state: 'dead', last_error: 'refused_by_policy', last_status: null, attempts: 1 });
    }
    expect(target.connections()).toBe(0);
  });

  it('failures are shown as categories, never the raw network error', async () => {
    const closed = await countingListener();
    const port = closed.port;
    await closed.close(); // nothing listens there now: ECONNREFUSED
    const { id } = await writeCallback(listed.screener.store, {
      kind: 'screening.completed',
      url: `http://localhost:${port}/`,
      deliveryId: 'refused-port',
      payload: {},
    });
    const row = await until('an attempt made', 20_000, async () => {
      const r = await getCallback(listed.screener.store, id);
      return r && r.attempts >= 1 && r.last_error !== null && r;
    });
    expect(row.last_error).toBe('unreachable');
    const shown = (await api(listed, 'GET', `/callbacks/${id}`)).json;
    expect(JSON.stringify(shown)).not.toMatch(/ECONNREFUSED|connect|socket/i);
    await api(listed, 'POST', `/callbacks/${id}/cancel`);
  });
});

describe('destinations do not wait on each other', () => {
  it('one hung receiver: the healthy receiver gets all its callbacks while the hung one still holds its connections', async () => {
    const hung = await receiver(() => 'hold');
    const healthy = await receiver();
    const db = tempDbPath();
    const store = openStore(db.path);
    const sender = new CallbackSender({
      store: recordOf(store),
      secret: 's',
      logger: log,
      policy: new DestinationPolicy({ allow: undefined, intakeHost: '127.0.0.1' }),
      timeoutMs: 120_000,
      pollMs: 100,
    });
    try {
      // The hung receiver's rows are owed first: a batch of the oldest would be mostly theirs.
      for (let i = 0; i < 6; i++)
        await writeCallback(recordOf(store), {
          kind: 'screening.completed',
          url: `${hung.url}/h${i}`,
          deliveryId: `hung-${i}`,
          payload: { i },
        });
      for (let i = 0; i < 20; i++)
        await writeCallback(recordOf(store), {
          kind: 'screening.completed',
          url: `${healthy.url}/ok${i}`,
          deliveryId: `ok-${i}`,
          payload: { i },
        });
      sender.start();
      await until('every healthy callback', 30_000, () => healthy.arrivals.length >= 20);
      expect(healthy.arrivals).toHaveLength(20);
      // The hung receiver still holds what it got, unanswered: its own two slots, no more.
      expect(hung.held.filter((r) => !r.writableEnded)).toHaveLength(2);
      expect(hung.arrivals).toHaveLength(2);
    } finally {
      await sender.close(100);
      store.close();
      db.cleanup();
      await Promise.all([hung.close(), healthy.close()]);
    }
  });

  it('a destination that keeps failing is backed off on its own (circuit breaker); others still go', async () => {
    const failing = await receiver(() => 500);
    const fine = await receiver();
    const db = tempDbPath();
    const clock = manualClock('2026-05-01T00:00:00.000Z');
    const store = openStore(db.path, { now: clock.now });
    const sender = new CallbackSender({
      store: recordOf(store),
      secret: 's',
      logger: log,
      policy: new DestinationPolicy({ allow: undefined, intakeHost: '127.0.0.1' }),
      now: clock.now,
      backoffMs: 1,
      destinations: { perDestination: 2, failuresToOpen: 4, coolDownMs: 60_000 },
    });
    try {
      for (let i = 0; i < 10; i++)
        await writeCallback(recordOf(store), {
          kind: 'k',
          url: `${failing.url}/${i}`,
          deliveryId: `fail-${i}`,
          payload: {},
          at: clock.now(),
        });
      // Two passes of two attempts: four failures in a row open the breaker.
      expect(await sender.drainOnce()).toBe(2);
      clock.advance(10);
      expect(await sender.drainOnce()).toBe(2);
      clock.advance(10);
      for (let i = 0; i < 3; i++)
        await writeCallback(recordOf(store), { kind: 'k', url: `${fine.url}/${i}`, deliveryId: `fine-${i}`, payload: {}, at: clock.now() });
      // Open: only the other destination's rows go, though the failing one's are due too.
      expect(await sender.drainOnce()).toBe(2);
      expect(await sender.drainOnce()).toBe(1);
      expect(await sender.drainOnce()).toBe(0);
      expect(failing.arrivals).toHaveLength(4);
      expect(fine.arrivals).toHaveLength(3);
      // After the cool-down: one probe (half-open); it fails, so it stays open.
      clock.advance(60_000);
      expect(await sender.drainOnce()).toBe(1);
      expect(await sender.drainOnce()).toBe(0);
      expect(failing.arrivals).toHaveLength(5);
    } finally {
      store.close();
      db.cleanup();
      await Promise.all([failing.close(), fine.close()]);
    }
  });
});

describe('failure categories', () => {
  it('a receiver that never answers is a timeout; one that answers 503 is http_status with the status; nothing else is shown', async () => {
    const hung = await receiver(() => 'hold');
    const busy = await receiver(() => 503);
    const db = tempDbPath();
    const store = openStore(db.path);
    const sender = new CallbackSender({
      store: recordOf(store),
      secret: 's',
      logger: log,
      policy: new DestinationPolicy({ allow: undefined, intakeHost: '127.0.0.1' }),
      timeoutMs: 300,
    });
    try {
      const a = (await writeCallback(recordOf(store), { kind: 'k', url: `${hung.url}/slow`, deliveryId: 'slow', payload: {} })).id;
      const b = (await writeCallback(recordOf(store), { kind: 'k', url: `${busy.url}/busy`, deliveryId: 'busy', payload: {} })).id;
      expect(await sender.drainOnce()).toBe(2);
      expect(await getCallback(recordOf(store), a)).toMatchObject({ state: 'pending', last_error: 'timeout', last_status: null });
      expect(await getCallback(recordOf(store), b)).toMatchObject({ state: 'pending', last_error: 'http_status', last_status: 503 });
    } finally {
      await sender.close(100);
      store.close();
      db.cleanup();
      await Promise.all([hung.close(), busy.close()]);
    }
  });
});

describe('cancelling deliveries', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('POST /callbacks/cancel {url}: every delivery owed to that URL stops, even those on the wire; later ones to the same place still go', async () => {
    let hold = true;
    const rx = await receiver((a) => (hold && a.path === '/dead-end' ? 'hold' : 204));
    try {
      const url = `${rx.url}/dead-end`;
      const ids = await Promise.all(
        Array.from(
          { length: 5 },
          async (_, i) =>
            (
              await writeCallback(stack.screener.store, {
                kind: 'screening.completed',
                url,
                deliveryId: `gone-${i}`,
                payload: {},
              })
            ).id,
        ),
      );
      await until('two on the wire', 20_000, () => rx.held.length === 2);
      const r = await api(stack, 'POST', '/callbacks/cancel', { url });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ object: 'callback_cancellation', url, cancelled: 5 });
      hold = false;
      for (const res of rx.held) res.writeHead(204).end();
      // A marker to the same destination owed after: sent only after the slots free up, so
      // anything still claimable would have gone before it.
      await writeCallback(stack.screener.store, {
        kind: 'screening.completed',
        url: `${rx.url}/marker`,
        deliveryId: 'after-cancel',
        payload: {},
      });
      await until(
        'the marker delivered',
        20_000,
        async () => (await getCallbackByDelivery(stack.screener.store, 'after-cancel'))?.state === 'delivered',
      );
      expect(rx.arrivals.filter((a) => a.path === '/dead-end')).toHaveLength(2);
      for (const id of ids) expect(await getCallback(stack.screener.store, id)).toMatchObject({ state: 'cancelled' });
      const listed = (await api(stack, 'GET', '/callbacks?state=cancelled')).json.data.map((c: { id: string }) => c.id);
      expect(listed).toEqual(expect.arrayContaining(ids));
      expect((await api(stack, 'POST', '/callbacks/cancel', { url: 'not a url' })).json.error).toMatchObject({
        code: 'invalid_request',
        param: 'url',
      });
    } finally {
      await rx.close();
    }
  });

  it('POST /callbacks/:id/cancel: a failing delivery stops; a delivered one is a 409; retry sends a cancelled one after all', async () => {
    let up = false;
    const rx = await receiver(() => (up ? 204 : 503));
    try {
      const { id } = await writeCallback(stack.screener.store, {
        kind: 'screening.completed',
        url: `${rx.url}/one`,
        deliveryId: 'cancel-one',
        payload: {},
      });
      await until('a failed attempt', 20_000, async () => (await getCallback(stack.screener.store, id))!.last_error === 'http_status');
      const c = await api(stack, 'POST', `/callbacks/${id}/cancel`);
      expect(c.status).toBe(200);
      expect(c.json).toMatchObject({ id, state: 'cancelled', last_error: 'http_status', last_status: 503 });
      expect(c.json.cancelled_at).toEqual(expect.any(String));
      expect((await api(stack, 'POST', `/callbacks/${id}/cancel`)).json.state).toBe('cancelled');
      up = true;
      expect((await api(stack, 'POST', `/callbacks/${id}/retry`)).json.state).toBe('pending');
      await until('delivered after the retry', 20_000, async () => (await getCallback(stack.screener.store, id))!.state === 'delivered');
      const again = await api(stack, 'POST', `/callbacks/${id}/cancel`);
      expect([again.status, again.json.error.code]).toEqual([409, 'callback_delivered']);
      expect((await api(stack, 'POST', '/callbacks/cb_aaaaaaaaaaaaaaaaaaaaaaaaaa/cancel')).status).toBe(404);
    } finally {
      await rx.close();
    }
  });
});

describe('ordering the TMS can trust', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("a settled screening's callbacks arrive with increasing version, never an older state after a newer one", async () => {
    // The first attempt of each hold fails, and the dispatcher approves while it is on the wire:
    // the review's callback is owed while the hold's is still to be retried.
    const failedOnce = new Set<string>();
    const rx = await receiver(async (a) => {
      const s = a.body.screening;
      if (a.body.event === 'screening.completed' && s?.action === 'hold' && !failedOnce.has(s.id)) {
        failedOnce.add(s.id);
        await api(stack, 'POST', `/reviews/${s.review!.id}/approve`, { by: 'ann' });
        return 503;
      }
      return 204;
    });
    try {
      const held = (
        await api(stack, 'POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'ORD-1', callback_url: `${rx.url}/tms` })
      ).json as Screening;
      expect(held).toMatchObject({ action: 'hold', version: expect.any(Number) });
      await until('the review callback acknowledged', 30_000, () =>
        rx.arrivals.some((a) => a.status === 204 && a.body.event === 'review.resolved'),
      );
      const mine = rx.arrivals.filter((a) => a.body.screening?.id === held.id);
      const acked = mine.filter((a) => a.status === 204);
      // Accepted in order: the hold (retried), then the approval; never the hold after it.
      expect(acked.map((a) => [a.body.event, a.body.screening!.action])).toEqual([
        ['screening.completed', 'hold'],
        ['review.resolved', 'tender'],
      ]);
      for (const a of mine) expect(a.body.version).toBe(a.body.screening!.version);
      expect(acked[1]!.body.version!).toBeGreaterThan(acked[0]!.body.version!);
      // Nothing sent after the newer state carried an older version.
      let newest = 0;
      for (const a of mine) {
        expect(a.body.version!).toBeGreaterThanOrEqual(newest);
        newest = Math.max(newest, a.body.version!);
      }
      // The screening as read now carries the newest version the TMS was sent.
      const now = (await api(stack, 'GET', `/screenings/${held.id}`)).json as Screening;
      expect(now.version).toBe(acked[1]!.body.version);
      // The rows name the screening and version; the older one cannot be retried after the newer.
      const completed = (await getCallbackByDelivery(stack.screener.store, `${held.id}:screening.completed`))!;
      expect(completed).toMatchObject({ screening_id: held.id, version: acked[0]!.body.version, state: 'delivered' });
    } finally {
      await rx.close();
    }
  });

  it('a newer state waits while an older one of the same screening is owed; an older one is not retried after a newer one (409 callback_superseded)', async () => {
    const failing = await receiver(() => 503);
    const fine = await receiver();
    try {
      const store = stack.screener.store;
      const older = (
        await writeCallback(store, {
          kind: 'screening.completed',
          url: `${failing.url}/a`,
          deliveryId: 'ord-old',
          payload: {},
          order: { subject: 'scr_ord', version: 3 },
        })
      ).id;
      const newer = (
        await writeCallback(store, {
          kind: 'review.resolved',
          url: `${fine.url}/b`,
          deliveryId: 'ord-new',
          payload: {},
          order: { subject: 'scr_ord', version: 5 },
        })
      ).id;
      await until('the older one failed twice', 20_000, async () => (await getCallback(store, older))!.attempts >= 2);
      expect(await getCallback(store, newer)).toMatchObject({ state: 'pending', attempts: 0 });
      expect(fine.arrivals).toHaveLength(0);
      expect((await api(stack, 'POST', `/callbacks/${older}/cancel`)).json.state).toBe('cancelled');
      await until('the newer one delivered', 20_000, async () => (await getCallback(store, newer))!.state === 'delivered');
      const retry = await api(stack, 'POST', `/callbacks/${older}/retry`);
      expect([retry.status, retry.json.error.code, retry.json.error.resource_id]).toEqual([409, 'callback_superseded', newer]);
      expect((await getCallback(store, older))!.state).toBe('cancelled');
    } finally {
      await Promise.all([failing.close(), fine.close()]);
    }
  });
});

describe('the retry window of a callback that waited its turn', () => {
  it('counts from its first attempt, not from when it was owed: a newer state that waited a day behind an older one still gets its retries', async () => {
    let up = false;
    const rx = await receiver(() => (up ? 204 : 503));
    const db = tempDbPath();
    const clock = manualClock('2026-05-01T00:00:00.000Z');
    const store = openStore(db.path, { now: clock.now });
    const day = 24 * 3_600_000;
    const sender = new CallbackSender({
      store: recordOf(store),
      secret: 's',
      logger: log,
      policy: new DestinationPolicy({ allow: undefined, intakeHost: '127.0.0.1' }),
      now: clock.now,
      backoffMs: 1_000,
      maxBackoffMs: 1_000,
      deadAfterMs: day,
    });
    try {
      const older = (
        await writeCallback(recordOf(store), {
          kind: 'screening.completed',
          url: `${rx.url}/tms`,
          deliveryId: 'wait-old',
          payload: {},
          order: { subject: 'scr_wait', version: 1 },
          at: clock.now(),
        })
      ).id;
      const newer = (
        await writeCallback(recordOf(store), {
          kind: 'review.resolved',
          url: `${rx.url}/tms`,
          deliveryId: 'wait-new',
          payload: {},
          order: { subject: 'scr_wait', version: 2 },
          at: clock.now(),
        })
      ).id;
      // The older one fails for a whole day and dies; the newer one waits behind it all along.
      expect(await sender.drainOnce()).toBe(1);
      clock.advance(day);
      expect(await sender.drainOnce()).toBe(1);
      expect(await getCallback(recordOf(store), older)).toMatchObject({ state: 'dead', attempts: 2 });
      expect(await getCallback(recordOf(store), newer)).toMatchObject({ state: 'pending', attempts: 0 });
      // Its turn: the first attempt fails too, and it is retried (not dead after one try).
      expect(await sender.drainOnce()).toBe(1);
      expect(await getCallback(recordOf(store), newer)).toMatchObject({
        state: 'pending',
        attempts: 1,
        last_error: 'http_status',
        last_status: 503,
      });
      up = true;
      clock.advance(1_000);
      expect(await sender.drainOnce()).toBe(1);
      expect(await getCallback(recordOf(store), newer)).toMatchObject({ state: 'delivered', attempts: 2 });
      expect(rx.arrivals.map((a) => [a.body.delivery_id, a.status])).toEqual([
        ['wait-old', 503],
        ['wait-old', 503],
        ['wait-new', 503],
        ['wait-new', 204],
      ]);
      // Its window still ends a day after its first attempt.
      const late = (
        await writeCallback(recordOf(store), { kind: 'k', url: `${rx.url}/late`, deliveryId: 'late', payload: {}, at: clock.now() })
      ).id;
      up = false;
      expect(await sender.drainOnce()).toBe(1);
      clock.advance(day);
      expect(await sender.drainOnce()).toBe(1);
      expect(await getCallback(recordOf(store), late)).toMatchObject({ state: 'dead', attempts: 2 });
    } finally {
      await sender.close(100);
      store.close();
      db.cleanup();
      await rx.close();
    }
  });
});
