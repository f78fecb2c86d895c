/**
 * Fault suite, scenario 2 — Redis restarted without persistence in the middle of a run. While
 * it is down the intake answers 503 `unavailable` where it needs Redis (never hangs, never
 * 500) and keeps serving what SQLite holds; the worker reconnects by itself; the reconciler
 * queues again every screening SQLite accepted (their jobs died with Redis); all end done,
 * and their callbacks arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/processes.js';
import { startRedis, type OwnRedis } from '../helpers/redis-server.js';
import { startCallbackReceiver, type CallbackReceiver } from './support/callback-receiver.js';
import { mapLimit, NoAnswerError, type Answer } from './support/intake-client.js';
import { startRecordingEmulator, type RecordingEmulator } from './support/recording-emulator.js';
import { doneCount, screeningStates, storeFigures } from './support/store-inspect.js';
import { installation, type Installation } from './support/worker-stack.js';

const SCREENINGS = 200;

let redis: OwnRedis;
let emu: RecordingEmulator;
let inst: Installation;
let receiver: CallbackReceiver;
/** Whether the test left Redis down (a failure mid-outage): start() on a running one would orphan it. */
let redisDown = false;

beforeAll(async () => {
  redis = await startRedis();
  emu = await startRecordingEmulator({ mode: 'live', ratePerMinute: 1_000_000, monthlyQuota: 1_000_000, faults: { latencyMs: 200 } });
  inst = await installation({ svcBaseUrl: emu.baseUrl, svcKey: emu.key, redisUrl: redis.url, env: { SCREEN_CONCURRENCY: '4' } });
  receiver = await startCallbackReceiver(inst.callbackSecret);
  await inst.start();
});

afterAll(async () => {
  if (redisDown) await redis.start().catch(() => {});
  await inst?.close();
  await receiver?.close();
  await emu?.close();
  await redis?.stop();
});

describe('Redis restarted without persistence mid-run', () => {
  it('503 unavailable while it is down, a worker that heals by itself, and every accepted screening done', async () => {
    const client = inst.client!;
    const dots = Array.from({ length: SCREENINGS }, (_, i) => String(4_000_000 + i * 37));
    const answers = await mapLimit(dots, 16, (dot, i) =>
      client.screen({ dot_number: dot, tender_id: `R-${i}`, callback_url: receiver.url }),
    );
    expect(answers.filter((a) => a.status !== 202 && a.status !== 200).map((a) => a.status)).toEqual([]);
    const ids = answers.map((a) => a.json.id as string);
    await until('some screenings to finish', 60_000, async () => (await doneCount(inst.reader)) >= 20, 20);
    const statesNow = await screeningStates(inst.reader);
    const someDone = ids.find((id) => statesNow.get(id)?.status === 'done')!;

    // Redis goes away, data and all.
    await redis.kill();
    redisDown = true;
    const beforeOutage = (await storeFigures(inst.reader)).screenings;
    const during: Array<{ route: string; status: number | 'no answer'; code?: string }> = [];
    const probe = async (route: string, f: () => Promise<Answer>): Promise<void> => {
      try {
        const a = await f();
        during.push({ route, status: a.status, code: a.json?.error?.code });
      } catch (e) {
        if (e instanceof NoAnswerError) during.push({ route, status: 'no answer' });
        else throw e;
      }
    };
    const pending = (await client.call('GET', '/reviews?state=pending', { timeoutMs: 10_000 })).json?.data?.[0]?.id as string | undefined;
    for (let round = 0; round < 3; round++) {
      await probe('POST /screenings', () => client.screen({ dot_number: '4999999' }));
      await probe('POST /screenings?wait=5', () => client.screen({ dot_number: '4999998' }, '?wait=5'));
      await probe('GET /healthz', () => client.call('GET', '/healthz', { authorization: null, timeoutMs: 10_000 }));
      await probe('GET /status', () => client.call('GET', '/status', { timeoutMs: 10_000 }));
      await probe('GET /screenings/:id', () => client.call('GET', `/screenings/${someDone}`, { timeoutMs: 10_000 }));
      await probe('GET /reviews', () => client.call('GET', '/reviews', { timeoutMs: 10_000 }));
      await probe('GET /usage/daily', () => client.call('GET', '/usage/daily', { timeoutMs: 10_000 }));
      await probe('POST /queue/pause', () => client.call('POST', '/queue/pause', { timeoutMs: 10_000 }));
      if (pending && round === 0)
        await probe('POST /reviews/:id/approve', () =>
          client.call('POST', `/reviews/${pending}/approve`, { body: { by: 'outage' }, timeoutMs: 10_000 }),
        );
      await new Promise((r) => setTimeout(r, 500));
    }
    const afterOutage = (await storeFigures(inst.reader)).screenings;
    const notDoneAtOutage = SCREENINGS - (await doneCount(inst.reader));

    await redis.start();
    redisDown = false;
    const restartedAt = Date.now();
    await until('every accepted screening to be done', 120_000, async () => (await doneCount(inst.reader)) >= SCREENINGS || undefined, 250);
    const healedMs = Date.now() - restartedAt;
    // New work is accepted and done once Redis is back.
    const fresh = await client.screen({ dot_number: '4999997' }, '?wait=20');
    await until(
      'callbacks for every screening',
      60_000,
      () => ids.every((id) => receiver.counts().has(`${id}:screening.completed`)) || undefined,
      200,
    ).catch(() => undefined);
    const missingCallbacks = ids.filter((id) => !receiver.counts().has(`${id}:screening.completed`));

    const f = await storeFigures(inst.reader);
    const states = await screeningStates(inst.reader);
    const lost = ids.filter((id) => states.get(id)?.status !== 'done');
    const fiveHundreds = during.filter((d) => d.status === 500 || (typeof d.status === 'number' && d.status > 503));
    const hangs = during.filter((d) => d.status === 'no answer');
    // The reconciler says what it queued again (its jobs died with Redis).
    const requeued = [...inst.logs().matchAll(/"requeued":(\d+)[^\n]*reconciler: screenings without a live job/g)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
    console.info(
      `redis-restart: accepted ${ids.length}; while down: ${JSON.stringify(summarize(during))}; ` +
        `not done at the outage ${notDoneAtOutage}, queued again by the reconciler ${requeued}; all done ${Math.round(healedMs / 1000)} s after Redis came back; lost ${lost.length}; actions ${JSON.stringify(f.byAction)}; ` +
        `/v1 lookups ${emu.requests.length} for ${SCREENINGS} carriers; callbacks missing ${missingCallbacks.length}`,
    );

    expect(hangs, 'requests that got no answer while Redis was down').toEqual([]);
    expect(fiveHundreds, 'other 5xx than 503 while Redis was down').toEqual([]);
    for (const d of during.filter((x) => x.route.startsWith('POST /screenings')))
      expect(d).toMatchObject({ status: 503, code: 'unavailable' });
    for (const d of during.filter((x) => x.status === 503 && x.route !== 'GET /healthz')) expect(d.code).toBe('unavailable');
    // What SQLite holds is still served.
    for (const d of during.filter((x) => ['GET /screenings/:id', 'GET /reviews', 'GET /usage/daily'].includes(x.route)))
      expect(d.status).toBe(200);
    expect(during.find((d) => d.route === 'GET /healthz')?.status).toBe(503);
    // Nothing was half-accepted during the outage.
    expect(afterOutage).toBe(beforeOutage);
    expect(lost).toEqual([]);
    expect(requeued).toBeGreaterThan(0);
    expect(f.doneWithoutAction).toBe(0);
    expect(f.duplicateReviews).toBe(0);
    expect(fresh.status).toBe(200);
    expect(fresh.json.status).toBe('done');
    expect(missingCallbacks, 'screenings whose callback was lost with Redis').toEqual([]);
    expect(inst.proc!.alive()).toBe(true);
  });
});

function summarize(during: Array<{ route: string; status: number | 'no answer'; code?: string }>): Record<string, string> {
  const out: Record<string, Set<string>> = {};
  for (const d of during) (out[d.route] ??= new Set()).add(`${d.status}${d.code ? ` ${d.code}` : ''}`);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v].join('|')]));
}
