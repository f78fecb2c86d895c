/**
 * Fault suite, scenario 1 — the worker is killed (SIGKILL) while 500 screenings are in flight,
 * then started again on the same SQLite file and Redis: every accepted screening ends done
 * with a definite action, none is lost; /v1 saw at most one lookup per distinct carrier plus
 * the lookups in flight at the kill; no screening has two review items; every callback
 * carries a stable delivery id (a real receiver counts deliveries per id).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { until } from '../helpers/processes.js';
import { startCallbackReceiver, type CallbackReceiver } from './support/callback-receiver.js';
import { mapLimit } from './support/intake-client.js';
import { startRecordingEmulator, type RecordingEmulator } from './support/recording-emulator.js';
import { doneCount, screeningStates, storeFigures } from './support/store-inspect.js';
import { installation, type Installation } from './support/worker-stack.js';

const SCREENINGS = 500;
const CARRIERS = 180;
const CONCURRENCY = 8;

let emu: RecordingEmulator;
let inst: Installation;
let receiver: CallbackReceiver;

beforeAll(async () => {
  // Each lookup takes 300 ms, so most of the 500 are still queued or active at the kill.
  emu = await startRecordingEmulator({ mode: 'live', ratePerMinute: 1_000_000, monthlyQuota: 1_000_000, faults: { latencyMs: 300 } });
  inst = await installation({
    svcBaseUrl: emu.baseUrl,
    svcKey: emu.key,
    redisUrl: inject('redisUrl'),
    env: { SCREEN_CONCURRENCY: String(CONCURRENCY) },
  });
  receiver = await startCallbackReceiver(inst.callbackSecret);
  await inst.start();
});

afterAll(async () => {
  await inst?.close();
  await receiver?.close();
  await emu?.close();
});

describe('SIGKILL with 500 screenings in flight, then a restart', () => {
  it('loses nothing, looks up each carrier about once, opens no duplicate review, and keeps delivery ids stable', async () => {
    // 500 screenings over 180 carriers, in an order that repeats carriers at random distances.
    const dots = Array.from({ length: SCREENINGS }, (_, i) => String(3_000_000 + ((i * 7_919) % CARRIERS) * 1_013));
    const answers = await mapLimit(dots, 16, (dot, i) =>
      inst.client!.screen({ dot_number: dot, tender_id: `T-${i}`, callback_url: receiver.url }),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 202)).toEqual([]);
    const ids = answers.map((a) => a.json.id as string);
    expect(new Set(ids).size).toBe(SCREENINGS);

    // Kill while the backlog is being worked: some done, most not.
    await until('the first 40 screenings to finish', 60_000, async () => (await doneCount(inst.reader)) >= 40, 20);
    const exit = await inst.proc!.kill('SIGKILL');
    const atKill = { figures: await storeFigures(inst.reader), lookups: emu.requests.length, inFlight: emu.inFlight() };
    expect(exit.signal).toBe('SIGKILL');
    const notDoneAtKill = SCREENINGS - (atKill.figures.byStatus.done ?? 0);
    expect(notDoneAtKill, 'the kill came too late to prove anything').toBeGreaterThan(SCREENINGS / 4);

    await inst.start();
    // BullMQ hands the killed process's active jobs on once their locks expire (30 s), so this takes a while.
    await until(
      'every accepted screening to be done',
      150_000,
      async () => (await doneCount(inst.reader)) === SCREENINGS || undefined,
      500,
    );

    const states = await screeningStates(inst.reader);
    const lost = ids.filter((id) => states.get(id)?.status !== 'done');
    const f = await storeFigures(inst.reader);
    const distinct = new Set(dots).size;
    const perCarrier = new Map<string, number>();
    for (const r of emu.requests) perCarrier.set(r.carrier, (perCarrier.get(r.carrier) ?? 0) + 1);

    // Callbacks: one delivery id per screening, stable across the kill.
    await until(
      'a callback for every screening',
      60_000,
      () => ids.every((id) => receiver.counts().has(`${id}:screening.completed`)) || undefined,
      200,
    );
    const counts = receiver.counts();
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    const bodiesById = new Map<string, Set<string>>();
    for (const d of receiver.deliveries) {
      const s = bodiesById.get(d.id) ?? new Set<string>();
      s.add(JSON.stringify(JSON.parse(d.body).screening));
      bodiesById.set(d.id, s);
    }

    console.info(
      `worker-kill: accepted ${ids.length}, done at kill ${atKill.figures.byStatus.done ?? 0}, not done at kill ${notDoneAtKill}, ` +
        `/v1 lookups at kill ${atKill.lookups} (in flight ${atKill.inFlight}); after restart: done ${f.byStatus.done}, lost ${lost.length}, ` +
        `actions ${JSON.stringify(f.byAction)}, /v1 lookups ${emu.requests.length} for ${distinct} carriers (bound ${distinct + CONCURRENCY}), ` +
        `reviews ${f.reviews}, duplicate reviews ${f.duplicateReviews}, callbacks ${receiver.deliveries.length} for ${counts.size} ids (${duplicates} delivered twice)`,
    );

    expect(lost).toEqual([]);
    expect(f.doneWithoutAction).toBe(0);
    expect(f.screenings).toBe(SCREENINGS);
    expect(emu.requests.length).toBeLessThanOrEqual(distinct + CONCURRENCY);
    // Only carriers whose lookup the kill interrupted may have been asked twice.
    expect([...perCarrier.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(CONCURRENCY);
    expect(f.duplicateReviews).toBe(0);
    expect(f.holdsWithoutReview).toBe(0);
    expect(f.reviews).toBe(f.byAction.hold ?? 0);
    // Every delivery is for a screening we accepted, signed, and the same id always carries the same screening.
    expect([...counts.keys()].every((id) => ids.includes(id.replace(/:screening\.completed$/, '')))).toBe(true);
    expect(receiver.deliveries.every((d) => d.signatureOk)).toBe(true);
    expect([...bodiesById.values()].filter((s) => s.size > 1)).toEqual([]);
    // At-least-once: a delivery cut off by the kill may come twice, never more than what was in flight.
    expect(duplicates).toBeLessThanOrEqual(CONCURRENCY + 8);
    expect(inst.proc!.alive()).toBe(true);
  });
});
