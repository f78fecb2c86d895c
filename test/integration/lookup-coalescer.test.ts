/**
 * The lookup coalescer across processes: each "process" here is a LookupCoalescer on its own
 * Redis connection (nothing shared in memory), against the real Redis of the test run.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LookupCoalescer } from '../../worker/queue/lookup-coalescer.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';

type Outcome = { at: number; value: string };

const connections: Redis[] = [];
let prefix: string;

function aProcess(opts?: { lockTtlMs: number; outcomeTtlMs: number; pollMs: number }): LookupCoalescer<Outcome> {
  const r = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  connections.push(r);
  return new LookupCoalescer<Outcome>(r, prefix, opts);
}

/** How long an outcome may be shared: as long as the coalescer keeps any, or never. */
const always = (): number => Number.POSITIVE_INFINITY;
const never = (): number => 0;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

beforeAll(() => {
  prefix = uniquePrefix('coalesce');
});

afterAll(() => {
  for (const r of connections) r.disconnect();
});

describe('LookupCoalescer across processes', () => {
  it('four processes asking at once for one carrier make one lookup and all get its outcome', async () => {
    const procs = [aProcess(), aProcess(), aProcess(), aProcess()];
    let lookups = 0;
    const lookup = async (): Promise<Outcome> => {
      lookups += 1;
      await sleep(150); // long enough that every process asks while it runs
      return { at: Date.now(), value: 'score-A' };
    };
    const t0 = Date.now();
    const outcomes = await Promise.all(
      procs.flatMap((p) => [p.run('live:dot:1', t0, lookup, always), p.run('live:dot:1', t0, lookup, always)]),
    );
    expect(lookups).toBe(1);
    expect(new Set(outcomes.map((o) => o.value))).toEqual(new Set(['score-A']));
  });

  it('shares an outcome only while it is recent enough for the asker', async () => {
    const [a, b] = [aProcess(), aProcess()];
    let lookups = 0;
    const lookup = async (): Promise<Outcome> => ({ at: Date.now(), value: `v${++lookups}` });
    const first = await a.run('live:dot:2', 0, lookup, always);
    // Another process with the same freshness bound reuses it …
    expect((await b.run('live:dot:2', first.at, lookup, always)).value).toBe('v1');
    // … one that needs an answer newer than it (a refresh) looks up again.
    const again = await b.run('live:dot:2', first.at + 1, lookup, always);
    expect(again.value).toBe('v2');
    expect(lookups).toBe(2);
  });

  it('never shares an outcome that is not an answer (e.g. a rate-limit refusal)', async () => {
    const [a, b] = [aProcess(), aProcess()];
    let lookups = 0;
    const refused = async (): Promise<Outcome> => ({ at: Date.now(), value: `refused${++lookups}` });
    await a.run('live:dot:3', 0, refused, never);
    const second = await b.run('live:dot:3', 0, refused, never);
    expect(second.value).toBe('refused2');
    expect(lookups).toBe(2);
  });

  it('shares a rate-limit refusal only for the time it names: followers wait it out instead of each calling', async () => {
    const [leader, follower, later] = [aProcess(), aProcess(), aProcess()];
    let lookups = 0;
    const refused = async (): Promise<Outcome> => {
      lookups += 1;
      await sleep(150); // the follower asks while the leader's request runs
      return { at: Date.now(), value: `refused${lookups}` };
    };
    const retryAfter = (): number => 400;
    const t0 = Date.now();
    const first = leader.run('live:dot:7', t0, refused, retryAfter);
    await sleep(30);
    const second = follower.run('live:dot:7', t0, refused, retryAfter);
    expect((await Promise.all([first, second])).map((o) => o.value)).toEqual(['refused1', 'refused1']);
    expect(lookups).toBe(1);
    // Once its Retry-After has run, the refusal is gone: the next asker calls.
    await sleep(1_000);
    expect((await later.run('live:dot:7', t0, refused, retryAfter)).value).toBe('refused2');
    expect(lookups).toBe(2);
  });

  it('a follower whose leader died (its lock expired, no outcome) looks up itself', async () => {
    const opts = { lockTtlMs: 300, outcomeTtlMs: 30_000, pollMs: 20 };
    const deadRedis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    const dead = new LookupCoalescer<Outcome>(deadRedis, prefix, opts);
    const follower = aProcess(opts);
    // The leader takes the lock and never finishes, then its process is gone (its connection
    // with it: nothing renews the lock any more).
    void dead.run('live:dot:4', 0, () => new Promise<Outcome>(() => {}), always).catch(() => {});
    await sleep(50);
    deadRedis.disconnect();
    let lookups = 0;
    const o = await follower.run('live:dot:4', 0, async () => ({ at: Date.now(), value: `v${++lookups}` }), always);
    expect(o.value).toBe('v1');
    expect(lookups).toBe(1);
  });

  it('a leader whose lookup outlasts the lock TTL keeps the lead (it renews the lock): still one lookup', async () => {
    // A lock of 600 ms: a loaded CI machine can stall the event loop past a shorter one.
    const opts = { lockTtlMs: 600, outcomeTtlMs: 30_000, pollMs: 20 };
    const [leader, follower] = [aProcess(opts), aProcess(opts)];
    let lookups = 0;
    const slow = async (): Promise<Outcome> => {
      lookups += 1;
      await sleep(3_000); // five lock lifetimes
      return { at: Date.now(), value: 'slow' };
    };
    const t0 = Date.now();
    const first = leader.run('live:dot:6', t0, slow, always);
    await sleep(50);
    const second = follower.run('live:dot:6', t0, slow, always);
    expect((await Promise.all([first, second])).map((o) => o.value)).toEqual(['slow', 'slow']);
    expect(lookups).toBe(1);
  });

  it('a lookup that throws releases the lock at once and shares nothing', async () => {
    const [a, b] = [aProcess(), aProcess()];
    await expect(a.run('live:dot:5', 0, () => Promise.reject(new Error('boom')), always)).rejects.toThrow('boom');
    const o = await b.run('live:dot:5', 0, async () => ({ at: Date.now(), value: 'after' }), always);
    expect(o.value).toBe('after');
  });
});
