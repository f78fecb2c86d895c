import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierChange, Decision, Screening } from '../../shared/screening.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { startCallbackListener, type CallbackListener } from '../helpers/callback-listener.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The sandbox test helpers (docs/api.md), over real HTTP against the real stack and the real
 * emulator: a carrier's score changes and the change is detected at once (carrier.changed to the
 * tender's callback URL, its next tender blocked, the score back after reset); a standing decision
 * lapses and the next hold opens a review; only admin tokens, only on a sandbox key, bad input
 * named.
 */

let sandbox: Stack;
let live: Stack;
let listener: CallbackListener;
let desk: string;

beforeAll(async () => {
  [sandbox, live, listener] = await Promise.all([startStack({ mode: 'sandbox' }), startStack({ mode: 'live' }), startCallbackListener()]);
  desk = (await new IntakeTokens(sandbox.screener.store).create('desk', 'Dana Desk')).token;
}, 120_000);

afterAll(async () => {
  await Promise.all([sandbox?.close(), live?.close(), listener?.close()]);
});

async function call<T>(
  stack: Stack,
  method: string,
  path: string,
  body?: unknown,
  token = stack.token,
): Promise<{ status: number; json: T }> {
  const res = await fetch(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function until<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('sandbox test helpers', () => {
  it("a carrier's score change is detected now: carrier.changed to the tender's URL, the next tender blocked, and reset brings the fixture back", async () => {
    const first = await call<Screening>(sandbox, 'POST', '/screenings?wait=10', {
      dot_number: '1000001',
      tender_id: 'SBX-1',
      callback_url: listener.url,
    });
    expect(first.json.action).toBe('tender');

    const changed = await call<{ object: string; change: string; screening: Screening }>(
      sandbox,
      'POST',
      '/sandbox/carriers/1000001/change',
      { change: 'authority_revoked' },
    );
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ object: 'sandbox_change', dot_number: '1000001', change: 'authority_revoked' });
    const rescreen = await until('the re-screen', async () => {
      const s = (await call<Screening>(sandbox, 'GET', `/screenings/${changed.json.screening.id}`)).json;
      return s.status === 'done' ? s : undefined;
    });
    expect(rescreen).toMatchObject({ action: 'block', source: 'service' });
    expect(rescreen.score?.knockout.triggered).toBe(true);

    const change = await until('the carrier change', async () => {
      const list = (await call<{ data: CarrierChange[] }>(sandbox, 'GET', '/changes?dot_number=1000001')).json.data;
      return list[0];
    });
    expect(change.before.action).toBe('tender');
    expect(change.after.action).toBe('block');
    const cb = await until('the carrier.changed callback', async () => listener.received.find((r) => r.event === 'carrier.changed'));
    expect(JSON.stringify(cb)).toContain('SBX-1');

    // The next tender meets the changed score (the re-screen refreshed the cache).
    expect((await call<Screening>(sandbox, 'POST', '/screenings?wait=10', { dot_number: '1000001', tender_id: 'SBX-2' })).json.action).toBe(
      'block',
    );

    // Reset: the fixture again, detected the same way.
    const reset = await call<{ screening: Screening }>(sandbox, 'POST', '/sandbox/carriers/1000001/change', { change: 'reset' });
    const back = await until('the re-screen after reset', async () => {
      const s = (await call<Screening>(sandbox, 'GET', `/screenings/${reset.json.screening.id}`)).json;
      return s.status === 'done' ? s : undefined;
    });
    expect(back.action).toBe('tender');
  });

  it('a standing decision lapses on request, and the next hold opens a review', async () => {
    const held = (await call<Screening>(sandbox, 'POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'SBX-3' })).json;
    expect(held.action).toBe('hold');
    await call(sandbox, 'POST', `/reviews/${held.review!.id}/approve`, { note: 'insurance checked by phone' }, desk);
    const settled = (await call<Screening>(sandbox, 'POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'SBX-4' })).json;
    expect(settled).toMatchObject({ action: 'tender', settled_by: 'standing_decision' });
    const decision = (await call<{ data: Decision[] }>(sandbox, 'GET', '/decisions?dot_number=1000003&state=standing')).json.data[0]!;

    const lapsed = await call<Decision>(sandbox, 'POST', `/sandbox/decisions/${decision.id}/lapse`);
    expect(lapsed.status).toBe(200);
    expect(lapsed.json).toMatchObject({ id: decision.id, state: 'lapsed' });
    expect((await call(sandbox, 'POST', `/sandbox/decisions/${decision.id}/lapse`)).status).toBe(409);

    const again = (await call<Screening>(sandbox, 'POST', '/screenings?wait=10', { dot_number: '1000003', tender_id: 'SBX-5' })).json;
    expect(again.action).toBe('hold');
    expect(again.review?.state).toBe('pending');
  });

  it('answers only admin tokens, only on a sandbox key, and names bad input', async () => {
    const byDesk = await call<{ error: { code: string } }>(sandbox, 'POST', '/sandbox/carriers/1000001/change', { change: 'reset' }, desk);
    expect(byDesk.status).toBe(403);
    const onLive = await call<{ error: { code: string } }>(live, 'POST', '/sandbox/carriers/1000001/change', { change: 'reset' });
    expect(onLive).toMatchObject({ status: 403, json: { error: { code: 'sandbox_only' } } });
    const badChange = await call<{ error: { code: string; param: string } }>(sandbox, 'POST', '/sandbox/carriers/1000001/change', {
      change: 'explode',
    });
    expect(badChange.status).toBe(400);
    expect(badChange.json.error.param).toBe('change');
    const unknown = await call<{ error: { code: string; param: string } }>(sandbox, 'POST', '/sandbox/carriers/4242/change', {
      change: 'reset',
    });
    expect(unknown).toMatchObject({ status: 404, json: { error: { param: 'dot' } } });
    // Nothing was changed by the refused calls: the carrier still tenders.
    expect((await call<Screening>(sandbox, 'POST', '/screenings?wait=10', { dot_number: '1000001', tender_id: 'SBX-6' })).json.action).toBe(
      'tender',
    );
  });
});
