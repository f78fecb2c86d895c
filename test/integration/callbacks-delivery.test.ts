import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { getCallbackByDelivery, verifyCallback } from '../../worker/callbacks/index.js';
import { until as pollUntil } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';

/** A real receiver on a free port: records every request, answers from a script. */
interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
  verified: boolean;
}

let stack: Stack;
let server: Server;
let receiverUrl: string;
const received: Received[] = [];
const waiters: Array<() => void> = [];
/** Status codes to answer, in order; 204 once the script runs out. */
let script: number[] = [];
/** Paths under /down answer 503 until this is set. */
let downIsUp = false;

function until(pred: () => boolean): Promise<void> {
  return (async () => {
    while (!pred()) await new Promise<void>((r) => waiters.push(r));
  })();
}

beforeAll(async () => {
  stack = await startStack({ callbackBackoffMs: 50, callbackDeadAfterMs: 1_500 });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const sig = req.headers['x-carrier-screen-signature'];
      const verified = verifyCallback(stack.callbackSecret, typeof sig === 'string' ? sig : undefined, raw).ok;
      received.push({ headers: req.headers, raw, verified });
      res.statusCode = req.url?.startsWith('/down') && !downIsUp ? 503 : (script.shift() ?? 204);
      res.end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await stack?.close();
  await new Promise((r) => server?.close(r));
});

async function call(method: 'GET' | 'POST', path: string): Promise<{ status: number; json: any }> {
  const res = await request(stack.intakeUrl + path, { method, headers: { authorization: `Bearer ${stack.token}` } });
  return { status: res.statusCode, json: await res.body.json() };
}

async function post(path: string, body: unknown): Promise<any> {
  const res = await request(stack.intakeUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.body.json();
}

describe('signed callbacks to a real receiver', () => {
  it('sends the finished screening, signed; a review approval sends a second callback with the new action', async () => {
    const s = (await post('/screenings?wait=10', {
      dot_number: '1000003',
      tender_id: 'T-cb',
      callback_url: `${receiverUrl}/hook?k=1`,
    })) as Screening;
    expect(s.action).toBe('hold');
    await until(() => received.some((r) => JSON.parse(r.raw).screening.id === s.id));
    const first = received.find((r) => JSON.parse(r.raw).screening.id === s.id)!;
    expect(first.verified).toBe(true);
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['x-carrier-screen-event']).toBe('screening.completed');
    expect(first.headers['x-carrier-screen-delivery']).toBe(`${s.id}:screening.completed`);
    const body1 = JSON.parse(first.raw);
    expect(body1).toMatchObject({ event: 'screening.completed', delivery_id: `${s.id}:screening.completed` });
    expect(body1.screening).toMatchObject({ id: s.id, action: 'hold', tender_id: 'T-cb', status: 'done' });
    // A wrong secret does not verify the same request.
    expect(verifyCallback('not-the-secret', String(first.headers['x-carrier-screen-signature']), first.raw).ok).toBe(false);

    const review = await post(`/reviews/${s.review!.id}/approve`, { by: 'ann' });
    expect(review.state).toBe('approved');
    await until(() =>
      received.some((r) => r.headers['x-carrier-screen-event'] === 'review.resolved' && JSON.parse(r.raw).screening.id === s.id),
    );
    const second = received.find(
      (r) => r.headers['x-carrier-screen-event'] === 'review.resolved' && JSON.parse(r.raw).screening.id === s.id,
    )!;
    expect(second.verified).toBe(true);
    expect(second.headers['x-carrier-screen-delivery']).toBe(`${s.id}:review.resolved:approved`);
    const body2 = JSON.parse(second.raw);
    expect(body2.screening.action).toBe('tender');
    expect(body2.screening.review).toMatchObject({ state: 'approved', decided_by: 'ann' });
  });

  it('retries a failed delivery until the receiver answers 2xx, with the same delivery id', async () => {
    script = [500, 503];
    const s = (await post('/screenings?wait=10', { dot_number: '1000005', callback_url: `${receiverUrl}/retry` })) as Screening;
    expect(s.action).toBe('block');
    const mine = () => received.filter((r) => JSON.parse(r.raw).screening.id === s.id);
    await until(() => mine().length >= 3);
    const got = mine();
    expect(got.map((r) => r.headers['x-carrier-screen-delivery'])).toEqual(Array(3).fill(`${s.id}:screening.completed`));
    expect(got.every((r) => r.verified)).toBe(true);
    // The body is the same on every attempt (only the signature's t may differ).
    expect(new Set(got.map((r) => r.raw)).size).toBe(1);
  });

  it('a screening without callback_url queues no delivery', async () => {
    const s = (await post('/screenings?wait=10', { dot_number: '1000005', tender_id: 'no-cb' })) as Screening;
    expect(s.status).toBe('done');
    const marker = (await post('/screenings?wait=10', { dot_number: '1000005', callback_url: `${receiverUrl}/marker` })) as Screening;
    await until(() => received.some((r) => JSON.parse(r.raw).screening.id === marker.id));
    // The receiver has it; the row says so once the sender recorded the answer.
    const row = await pollUntil('the marker row delivered', 30_000, async () => {
      const r = await getCallbackByDelivery(stack.screener.store, `${marker.id}:screening.completed`);
      return r?.state === 'delivered' && r;
    });
    expect(row).toMatchObject({ state: 'delivered', attempts: 1, last_status: 204 });
    expect(await getCallbackByDelivery(stack.screener.store, `${s.id}:screening.completed`)).toBeUndefined();
    expect(received.filter((r) => JSON.parse(r.raw).screening.id === s.id)).toHaveLength(0);
  });

  it('a receiver down past the retry window: dead, shown in /status and GET /callbacks; POST /callbacks/:id/retry sends it', async () => {
    const s = (await post('/screenings?wait=10', { dot_number: '1000005', callback_url: `${receiverUrl}/down/hook` })) as Screening;
    const delivery = `${s.id}:screening.completed`;
    const dead = await pollUntil('the callback dead', 60_000, async () => {
      const r = await getCallbackByDelivery(stack.screener.store, delivery);
      return r?.state === 'dead' && r;
    });
    expect(dead.attempts).toBeGreaterThanOrEqual(2);
    expect(dead).toMatchObject({ last_status: 503, last_error: 'http_status', event: 'screening.completed' });
    const status = await call('GET', '/status');
    expect(status.json.callbacks.dead).toBeGreaterThanOrEqual(1);
    const listed = await call('GET', '/callbacks?state=dead');
    expect(listed.json.data.map((c: { id: string }) => c.id)).toContain(dead.id);
    expect((await call('GET', `/callbacks/${dead.id}`)).json).toMatchObject({ id: dead.id, delivery_id: delivery, state: 'dead' });

    downIsUp = true;
    const retried = await call('POST', `/callbacks/${dead.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ id: dead.id, state: 'pending', attempts: 0 });
    await pollUntil(
      'delivered after the retry',
      30_000,
      async () => (await getCallbackByDelivery(stack.screener.store, delivery))?.state === 'delivered',
    );
    const got = received.filter((r) => r.headers['x-carrier-screen-delivery'] === delivery);
    expect(got.at(-1)!.verified).toBe(true);
    // Delivered: a second retry is refused and sends nothing.
    const again = await call('POST', `/callbacks/${dead.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('callback_delivered');
    expect((await call('POST', '/callbacks/cb_aaaaaaaaaaaaaaaaaaaaaaaaaa/retry')).status).toBe(404);
    const bad = await call('POST', '/callbacks/nope/retry');
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBeDefined();
    expect((await call('GET', '/callbacks?state=lost')).status).toBe(400);
  });
});
