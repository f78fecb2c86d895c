import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCarrier } from '../../emulator/index.js';
import type { LocalBlock, Screening } from '../../shared/screening.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The local do-not-use list: a blocked carrier is blocked whatever /v1 says, checked before
 * any /v1 call. Live emulator (every DOT number answers), intake over HTTP.
 */

let stack: Stack;

/** Approved by the service, with an MC number. */
function approvedCarriers(from: number, n: number): Array<{ dot: string; mc: string }> {
  const out: Array<{ dot: string; mc: string }> = [];
  for (let d = from; out.length < n; d++) {
    const c = liveCarrier(String(d));
    if (c && c.decision === 'approved' && !c.needs_manual_review && c.carrier.mc_number)
      out.push({ dot: String(d), mc: c.carrier.mc_number });
  }
  return out;
}
const [A, B, C, D] = approvedCarriers(5_300_000, 4) as [
  { dot: string; mc: string },
  { dot: string; mc: string },
  { dot: string; mc: string },
  { dot: string; mc: string },
];

async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await request(stack.intakeUrl + path, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

async function screen(body: Record<string, unknown>): Promise<Screening> {
  const r = await call('POST', '/screenings?wait=20', { tender_id: 'T-1', ...body });
  expect(r.status).toBe(200);
  return r.json as Screening;
}

beforeAll(async () => {
  stack = await startStack({ mode: 'live', emulator: { datedChanges: [] } });
});
afterAll(async () => {
  await stack?.close();
});

describe('local do-not-use list', () => {
  it('blocks a carrier the service approves, with no /v1 request for it', async () => {
    const b = await call('POST', '/blocks', { dot_number: A.dot, by: 'ops-lead', reason: 'double-brokered load 4411' });
    expect(b.status).toBe(201);
    expect(b.json).toMatchObject({
      object: 'local_block',
      dot_number: A.dot,
      state: 'active',
      blocked_by: 'ops-lead',
      reason: 'double-brokered load 4411',
      lifted_at: null,
    });
    expect(b.json.id).toMatch(/^blk_[a-z2-7]{26}$/);

    const s = await screen({ dot_number: A.dot });
    expect(s).toMatchObject({ status: 'done', action: 'block', hold_reason: null, source: 'none', score: null, review: null });
    expect(s.error?.code).toBe('local_block');
    expect(s.error?.message).toContain('double-brokered load 4411');
    // refresh (a dispatcher's "re-check now") changes nothing: still no /v1 call.
    expect((await screen({ dot_number: A.dot, refresh: true })).action).toBe('block');
    expect(stack.emulator.stats().byDot[A.dot]).toBeUndefined();
    expect(stack.emulator.stats().scoreRequests).toBe(0);
  });

  it('a block by MC number blocks screenings by MC number without /v1', async () => {
    expect((await call('POST', '/blocks', { mc_number: B.mc.toLowerCase(), by: 'ops', reason: 'fraud report' })).status).toBe(201);
    const s = await screen({ mc_number: B.mc });
    expect(s.action).toBe('block');
    expect(s.error?.code).toBe('local_block');
    expect(stack.emulator.stats().scoreRequests).toBe(0);
  });

  it('a block wins over a fresh cached approval', async () => {
    expect((await screen({ dot_number: C.dot })).action).toBe('tender');
    const requests = stack.emulator.stats().scoreRequests;
    expect((await call('POST', '/blocks', { dot_number: C.dot, by: 'ops', reason: 'claims dispute' })).status).toBe(201);
    const s = await screen({ dot_number: C.dot });
    expect(s.action).toBe('block');
    expect(s.error?.message).toContain('claims dispute');
    // Known MC alias (from the cached score): the MC screening is blocked before /v1 too.
    expect((await screen({ mc_number: C.mc })).action).toBe('block');
    expect(stack.emulator.stats().scoreRequests).toBe(requests);
  });

  it('an MC screening of a DOT-blocked carrier the cache does not know is blocked when the score names the DOT', async () => {
    expect((await call('POST', '/blocks', { dot_number: D.dot, by: 'ops', reason: 'unsafe equipment' })).status).toBe(201);
    const s = await screen({ mc_number: D.mc });
    expect(s.action).toBe('block');
    expect(s.hold_reason).toBeNull();
    expect(s.error?.code).toBe('local_block');
    // The service's answer is kept for the record.
    expect(s.source).toBe('service');
    expect(s.score?.decision).toBe('approved');
  });

  it('a second block of a blocked carrier is 409; lifting is recorded, not deleted', async () => {
    const dup = await call('POST', '/blocks', { dot_number: A.dot, by: 'someone', reason: 'again' });
    expect(dup.status).toBe(409);
    expect(dup.json.error.code).toBe('block_conflict');

    const lifted = await call('DELETE', `/blocks/${A.dot}`, { by: 'ops-lead' });
    expect(lifted.status).toBe(200);
    expect(lifted.json).toMatchObject({ dot_number: A.dot, state: 'lifted', lifted_by: 'ops-lead', blocked_by: 'ops-lead' });
    expect(typeof lifted.json.lifted_at).toBe('string');

    const active = (await call('GET', '/blocks')).json.data as LocalBlock[];
    expect(active.map((b) => b.dot_number)).not.toContain(A.dot);
    const history = (await call('GET', '/blocks?state=lifted')).json.data as LocalBlock[];
    expect(history.map((b) => b.id)).toEqual([lifted.json.id]);
    expect(((await call('GET', '/blocks?state=all')).json.data as LocalBlock[]).length).toBe(active.length + 1);

    // Lifting a lifted block is a repeated state change (docs/api.md "One rule"): 409 naming it, as POST …/lift.
    const again = await call('DELETE', `/blocks/${A.dot}`, { by: 'ops-lead' });
    expect([again.status, again.json.error.code, again.json.error.resource_id]).toEqual([409, 'block_conflict', lifted.json.id]);
    const againByPost = await call('POST', `/blocks/${A.dot}/lift`, { by: 'ops-lead' });
    expect([againByPost.status, againByPost.json.error.code, againByPost.json.error.resource_id]).toEqual([
      409,
      'block_conflict',
      lifted.json.id,
    ]);
    // A carrier never blocked has nothing to lift: 404.
    const never = await call('DELETE', '/blocks/7654321', { by: 'ops-lead' });
    expect([never.status, never.json.error.code]).toEqual([404, 'resource_missing']);
    // Lifted: the service decides again.
    expect((await screen({ dot_number: A.dot })).action).toBe('tender');
    // And it can be blocked again.
    expect((await call('POST', '/blocks', { dot_number: A.dot, by: 'ops', reason: 'new incident' })).status).toBe(201);
  });

  it('lifting by MC number finds a block made by DOT number once the MC is known', async () => {
    const r = await call('DELETE', `/blocks/${C.mc}`, { by: 'ops' });
    expect(r.status).toBe(200);
    expect(r.json.dot_number).toBe(C.dot);
  });
});
