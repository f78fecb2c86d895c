/**
 * The stale fallback (docs/decisions.md, "When /v1 is down"): with /v1 down, a score past
 * SCREEN_CACHE_TTL (4h) but within SCREEN_STALE_IF_ERROR (default 6h) may hold or block but never
 * tenders by itself, and the screening and its callback say how old it was; past 6h it is not
 * used at all. Real emulator (closed for the outage), Redis, SQLite, HTTP and a real listener.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { startCallbackListener, type CallbackListener } from '../helpers/callback-listener.js';
import { until } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';

const HOUR = 3_600_000;
let clock = Date.now();
let stack: Stack;
let tms: CallbackListener;

beforeAll(async () => {
  stack = await startStack({ now: () => new Date(clock), callbackBackoffMs: 50 });
  tms = await startCallbackListener();
});
afterAll(async () => {
  await stack?.close().catch(() => {});
  await tms?.close();
});

async function screen(body: Record<string, unknown>): Promise<Screening> {
  const res = await request(`${stack.intakeUrl}/screenings?wait=20`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.statusCode).toBe(200);
  return (await res.body.json()) as Screening;
}

describe('the stale fallback under an outage, with the defaults', () => {
  it('an approved score 5 h old is held (not tendered), saying how old it was; at 7 h it is not used at all', async () => {
    const fresh = await screen({ dot_number: '1000001', refresh: true });
    expect([fresh.action, fresh.source, fresh.score_age_seconds]).toEqual(['tender', 'service', 0]);

    await stack.emulator.close(); // /v1 is down from here on

    clock += 5 * HOUR;
    const inside = await screen({ dot_number: '1000001', tender_id: 'STALE-5H', callback_url: tms.url });
    expect([inside.action, inside.hold_reason, inside.source]).toEqual(['hold', 'scoring_unavailable', 'stale_cache']);
    expect(inside.score?.decision).toBe('approved');
    expect(inside.score_age_seconds).toBe(5 * 3600);
    await until("the stale screening's callback", 15_000, () => tms.received.some((b) => b.screening.tender_id === 'STALE-5H'));
    const cb = tms.received.find((b) => b.screening.tender_id === 'STALE-5H')!;
    expect([cb.event, cb.screening.action, cb.screening.source, cb.screening.score_age_seconds]).toEqual([
      'screening.completed',
      'hold',
      'stale_cache',
      5 * 3600,
    ]);

    clock += 2 * HOUR;
    const past = await screen({ dot_number: '1000001', tender_id: 'STALE-7H' });
    expect([past.action, past.hold_reason, past.source, past.score, past.score_age_seconds]).toEqual([
      'hold',
      'scoring_unavailable',
      'none',
      null,
      null,
    ]);
  });
});

describe('a stale score only keeps a standing decision', () => {
  it('a carrier a dispatcher approved is tendered on its stale score of the same basis, settled by that decision', async () => {
    // The outage above is still on: a new stack for a carrier that needs a person.
    const other = await startStack({ now: () => new Date(clock), callbackBackoffMs: 50 });
    try {
      const post = async (body: Record<string, unknown>): Promise<Screening> => {
        const res = await request(`${other.intakeUrl}/screenings?wait=20`, {
          method: 'POST',
          headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return (await res.body.json()) as Screening;
      };
      const held = await post({ dot_number: '1000003', tender_id: 'SD-1' });
      expect(held.action).toBe('hold');
      const res = await request(`${other.intakeUrl}/reviews/${held.review!.id}/approve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ by: 'Dana Dispatcher' }),
      });
      expect(res.statusCode).toBe(200);
      await other.emulator.close();
      clock += 5 * HOUR;
      const stale = await post({ dot_number: '1000003', tender_id: 'SD-2' });
      expect([stale.action, stale.settled_by, stale.source, stale.score_age_seconds]).toEqual([
        'tender',
        'standing_decision',
        'stale_cache',
        5 * 3600,
      ]);
    } finally {
      await other.close().catch(() => {});
    }
  });
});
