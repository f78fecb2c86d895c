import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { CALLBACKS_QUEUE, jobIdFor, verifyCallback } from '../../worker/callbacks/index.js';
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
let waiters: Array<() => void> = [];
/** Status codes to answer, in order; 204 once the script runs out. */
let script: number[] = [];

function until(pred: () => boolean): Promise<void> {
  return (async () => {
    while (!pred()) await new Promise<void>((r) => waiters.push(r));
  })();
}

beforeAll(async () => {
  stack = await startStack({ callbackBackoffMs: 50 });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const sig = req.headers['x-carrier-screen-signature'];
      const verified = verifyCallback(stack.callbackSecret, typeof sig === 'string' ? sig : undefined, raw).ok;
      received.push({ headers: req.headers, raw, verified });
      res.statusCode = script.shift() ?? 204;
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
    const s = (await post('/screenings?wait=10', { dot_number: '1000003', tender_id: 'T-cb', callback_url: `${receiverUrl}/hook?k=1` })) as Screening;
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
    await until(() => received.some((r) => r.headers['x-carrier-screen-event'] === 'review.resolved' && JSON.parse(r.raw).screening.id === s.id));
    const second = received.find((r) => r.headers['x-carrier-screen-event'] === 'review.resolved' && JSON.parse(r.raw).screening.id === s.id)!;
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
    const queue = new Queue(CALLBACKS_QUEUE, { connection: { url: inject('redisUrl') }, prefix: stack.prefix });
    try {
      expect(await queue.getJob(jobIdFor(`${marker.id}:screening.completed`))).toBeDefined();
      expect(await queue.getJob(jobIdFor(`${s.id}:screening.completed`))).toBeUndefined();
    } finally {
      await queue.close();
    }
    expect(received.filter((r) => JSON.parse(r.raw).screening.id === s.id)).toHaveLength(0);
  });
});
