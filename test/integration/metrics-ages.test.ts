/**
 * The ages behind the alerts, read from SQLite by the real stack: the oldest callback still owed
 * (its TMS refuses the connection), how long the operator's pause has held (a second pause keeps
 * the first one's time), and the oldest screening waiting for a worker. Scraped through the
 * intake's /metrics; the clock of the scrape is moved, never waited for.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsText } from '../../worker/metrics/metrics.js';
import { freePort } from '../helpers/free-port.js';
import { until } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const post = async (path: string, body?: unknown): Promise<any> => {
  const r = await request(stack.intakeUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return r.body.json();
};
const gauge = (text: string, name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

describe('ages for the alerts', () => {
  it('are null with nothing owed, paused or queued', async () => {
    expect(await stack.screener.ages()).toEqual({ oldest_pending_callback_at: null, queue_paused_since: null, oldest_queued_at: null });
  });

  it('a refused callback, a pause and a queued screening each show their start, and end', async () => {
    // Nobody listens on this port: the callback is owed (pending) and retried.
    const refused = `http://127.0.0.1:${await freePort()}/hook`;
    const hit = await post('/screenings?wait=10', { dot_number: '1000005', callback_url: refused });
    expect(hit.status).toBe('done');
    const owed = await until(
      'the callback to be owed',
      10_000,
      async () => (await stack.screener.ages()).oldest_pending_callback_at ?? undefined,
    );
    expect(Date.parse(owed)).toBeLessThanOrEqual(Date.now());

    await post('/queue/pause');
    const since = (await stack.screener.ages()).queue_paused_since;
    expect(since).not.toBeNull();
    await post('/queue/pause'); // a second pause: still paused since the first
    expect((await stack.screener.ages()).queue_paused_since).toBe(since);

    // A miss while paused waits in the queue.
    const queued = await post('/screenings', { dot_number: '1000010' });
    expect(queued.status).toBe('queued');
    expect((await stack.screener.ages()).oldest_queued_at).toBe(queued.created_at);

    // Scraped ten minutes later: each age is at least that.
    const text = await metricsText(() => stack.screener.status(), { now: () => Date.now() + 600_000, ages: () => stack.screener.ages() });
    for (const name of [
      'carrier_screen_callbacks_oldest_pending_seconds',
      'carrier_screen_queue_paused_seconds',
      'carrier_screen_queue_oldest_queued_seconds',
    ])
      expect(gauge(text, name), name).toBeGreaterThanOrEqual(600);
    // The intake's own /metrics carries them too.
    const scraped = await (
      await request(`${stack.intakeUrl}/metrics`, { headers: { authorization: `Bearer ${stack.token}` } })
    ).body.text();
    expect(gauge(scraped, 'carrier_screen_queue_paused_seconds')).toBeGreaterThanOrEqual(0);
    expect(scraped).toMatch(/^carrier_screen_queue_oldest_queued_seconds \d/m);

    // Resumed: no pause, and the queued screening is worked.
    await post('/queue/resume');
    expect((await stack.screener.ages()).queue_paused_since).toBeNull();
    await until('the queued screening to be worked', 20_000, async () => (await stack.screener.ages()).oldest_queued_at === null);
  });
});
