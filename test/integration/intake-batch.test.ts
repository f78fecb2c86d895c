/**
 * POST /screenings/batch (docs/api.md): a load board at once, each item answered on its own
 * (207); a bad row costs only itself; more than 100 items is refused whole, nothing kept.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, json: (await res.body.json()) as any };
}

describe('POST /screenings/batch', () => {
  it('answers each item on its own: accepted ones are screenings, refused ones name their row and field', async () => {
    const r = await call('POST', '/screenings/batch', {
      screenings: [
        { dot_number: '1000001', tender_id: 'BOARD-1' },
        { dot_number: 'abc', tender_id: 'BOARD-2' },
        { mc_number: 'MC1000005', tender_id: 'BOARD-3', callback_url: 'https://user:pw@tms.example/cb' },
        { dot_number: '1000005', tender_id: 'BOARD-4', extra: 1 },
        { mc_number: 'MC1000006', tender_id: 'BOARD-5' },
      ],
    });
    expect(r.status).toBe(207);
    expect(r.json.object).toBe('batch_result');
    const items = r.json.data as Array<{ index: number; status: number; screening?: Screening; error?: { code: string; param?: string } }>;
    expect(items.map((i) => i.index)).toEqual([0, 1, 2, 3, 4]);
    expect([items[0]!.status, items[4]!.status].every((s) => s === 200 || s === 202)).toBe(true);
    expect(items[0]!.screening).toMatchObject({ object: 'screening', tender_id: 'BOARD-1', query: { dot_number: '1000001' } });
    expect(items[4]!.screening).toMatchObject({ tender_id: 'BOARD-5', query: { mc_number: 'MC1000006' } });
    expect(items.slice(1, 4).map((i) => [i.status, i.error?.param])).toEqual([
      [400, 'screenings[1].dot_number'],
      [400, 'screenings[2].callback_url'],
      [400, 'screenings[3].extra'],
    ]);
    // Exactly the accepted ones exist, findable by their loads.
    for (const [tender, n] of [
      ['BOARD-1', 1],
      ['BOARD-2', 0],
      ['BOARD-3', 0],
      ['BOARD-4', 0],
      ['BOARD-5', 1],
    ] as const)
      expect((await call('GET', `/screenings?tender_id=${tender}`)).json.data.length, tender).toBe(n);
    const done = await call('GET', `/screenings/${items[0]!.screening!.id}`);
    expect(done.status).toBe(200);
  });

  it('refuses an empty batch or more than 100 items whole, naming screenings, and keeps nothing', async () => {
    const before = (await call('GET', '/screenings?limit=100')).json.data.length;
    const big = await call('POST', '/screenings/batch', {
      screenings: Array.from({ length: 101 }, (_, i) => ({ dot_number: '1000001', tender_id: `BIG-${i}` })),
    });
    expect([big.status, big.json.error.param]).toEqual([400, 'screenings']);
    const empty = await call('POST', '/screenings/batch', { screenings: [] });
    expect([empty.status, empty.json.error.param]).toEqual([400, 'screenings']);
    expect((await call('GET', '/screenings?limit=100')).json.data.length).toBe(before);
  });
});
