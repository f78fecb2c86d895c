import { recordOf } from '../../worker/store/index.js';
/**
 * The screening pipeline (worker/queue/screening-pipeline.ts), every branch, in milliseconds:
 * a real SQLite store (in memory, every migration), real standing decisions and local blocks,
 * and in-memory stand-ins for what sits behind the pipeline's small interfaces: the scoring
 * provider (queue/scoring-provider.ts), the quota gate, the coalescer, the watch list. No
 * Redis, no emulator, no HTTP. What /v1's own errors become is the adapter's
 * (svc-scoring-provider.ts), met over real HTTP in test/integration/screener-*.test.ts.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { CarrierQuery } from '../../shared/carrier-id.js';
import type { Priority, Screening } from '../../shared/screening.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { callbacksPage } from '../../worker/callbacks/outbox.js';
import { CarrierDecisions } from '../../worker/decisions/carrier-decisions.js';
import { SharedEventFeed } from '../../worker/events/event-feed.js';
import type { Admission } from '../../worker/queue/quota-gate.js';
import type { LookupSharing, ProviderAnswer, ProviderStop, ScoringProvider } from '../../worker/queue/scoring-provider.js';
import { ScreeningPipeline, type LookupOutcome, type TenderCarrier, type PipelineWatch } from '../../worker/queue/screening-pipeline.js';
import { openStore, type Env, type RecordTx, type Store, type Tx } from '../../worker/store/index.js';
import { openReaderPool } from '../../worker/store/reader-pool.js';
import type { StoredChange } from '../../worker/store/watch-store.js';
import { LocalBlocks } from '../../worker/blocks/local-blocks.js';

const T0 = Date.parse('2026-11-20T12:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const CACHE_TTL = HOUR;
const STALE_IF_ERROR = 24 * HOUR;

function score(
  dot: string,
  over: Partial<Pick<SvcScore, 'decision' | 'needs_manual_review' | 'data_confidence'>> & { knockout?: string[] } = {},
): SvcScore {
  return {
    object: 'svc_score',
    livemode: false,
    carrier: { dot_number: dot, mc_number: `MC${dot}`, legal_name: `Carrier ${dot}`, dba_name: null },
    score: 70,
    grade: 'C',
    decision: over.decision ?? 'approved',
    verdict: null,
    needs_manual_review: over.needs_manual_review ?? false,
    knockout: { triggered: false, reasons: (over.knockout ?? []).map((code) => ({ code, message: code })) },
    reasons: [{ check: 'vehicle_oos_rate', area: 'Safety & Roadside', severity: 'medium', detail: 'd', facts: [] }],
    flags: [],
    data_confidence: over.data_confidence ?? 0.9,
    model_version: 'm-3.5',
    calculated_at: '2026-11-20T00:00:00Z',
  } as unknown as SvcScore;
}

/** The pending callbacks, as GET /callbacks?state=pending reads them (its reader job, on the store's own connection). */
const pendingCallbacks = async (store: Store) => (await callbacksPage.run(store, { state: 'pending', page: { limit: 50 } })).data;

const err = (code: string) => ({ code, message: `${code} from the fake`, request_id: `req_${code}` });
type Answer = ProviderAnswer & { attempts: number };

/** An in-memory scoring provider: scripted answers per DOT, a settable stop and hold-off. */
class FakeProvider implements ScoringProvider {
  readonly calls: Array<{ query: CarrierQuery; maxAttempts: number }> = [];
  readonly waits: Array<[number, number]> = [];
  readonly scripts = new Map<string, Array<Answer | Error>>();
  stopped: ProviderStop | null = null;
  holdOff: ProviderStop | null = null;
  /** Pushed into the caller's bookkeeping with a score answer. */
  bookkeeping: Promise<unknown> | undefined;

  answer(dot: string, ...answers: Array<Answer | Error>): void {
    this.scripts.set(dot, answers);
  }

  async blocked(): Promise<{ stopped: ProviderStop | null; holdOff: ProviderStop | null }> {
    return { stopped: this.stopped, holdOff: this.holdOff };
  }

  async lookup(query: CarrierQuery, o: { maxAttempts: number; bookkeeping: Array<Promise<unknown>> }): Promise<Answer> {
    this.calls.push({ query, maxAttempts: o.maxAttempts });
    const dot = 'dot_number' in query ? query.dot_number : query.mc_number.replace(/^MC/, '');
    const next = this.scripts.get(dot)?.shift();
    if (!next) throw new Error(`no scripted answer for ${dot}`);
    if (next instanceof Error) throw next;
    if (next.kind === 'score' && this.bookkeeping) o.bookkeeping.push(this.bookkeeping);
    return next;
  }

  retryWait(retry: number, retryAfterMs: number): number {
    this.waits.push([retry, retryAfterMs]);
    return retryAfterMs + retry;
  }
}

/** The gate: admits unless told otherwise; remembers who asked. */
class FakeGate {
  readonly asked: Priority[] = [];
  refuse: Partial<Record<Priority, Admission>> = {};
  async admit(priority: Priority): Promise<Admission> {
    this.asked.push(priority);
    return this.refuse[priority] ?? { ok: true };
  }
}

/** The coalescer, in one process: runs the lookup, or hands out outcomes another caller "shared". */
class FakeCoalescer implements LookupSharing<LookupOutcome> {
  readonly keys: string[] = [];
  readonly shared: number[] = [];
  readonly notBefore: number[] = [];
  readonly others: LookupOutcome[] = [];
  async run(
    key: string,
    notBefore: number,
    lookup: () => Promise<LookupOutcome>,
    shareForMs: (t: LookupOutcome) => number,
  ): Promise<LookupOutcome> {
    this.keys.push(key);
    this.notBefore.push(notBefore);
    const other = this.others.shift();
    if (other) return other;
    const o = await lookup();
    this.shared.push(shareForMs(o));
    return o;
  }
}

/** The watch list: what the pipeline asks of it recorded, and set to misbehave on demand. */
class FakeWatch implements PipelineWatch {
  readonly recorded: string[] = [];
  readonly announced: string[] = [];
  readonly noReview = new Set<string>();
  readonly failRecord = new Set<string>();
  readonly changes = new Map<string, StoredChange>();
  async tenderCarrier(_tx: RecordTx, s: Parameters<PipelineWatch['tenderCarrier']>[1]): Promise<TenderCarrier | undefined> {
    if (s.status !== 'done' || s.priority !== 'tender') return undefined;
    const dot = s.score?.carrier.dot_number ?? ('dot_number' in s.query ? s.query.dot_number : null);
    return dot ? { key: `dot:${dot}`, dot_number: dot, mc_number: null } : undefined;
  }
  async readAhead(): Promise<void> {}
  async lockKeys(): Promise<string[]> {
    return [];
  }
  async wantsReview(_tx: RecordTx, s: Screening): Promise<boolean> {
    return !this.noReview.has(s.id);
  }
  async record(_tx: Tx, s: Screening): Promise<StoredChange | undefined> {
    if (this.failRecord.has(s.id)) throw new Error('watch store is broken');
    this.recorded.push(s.id);
    return this.changes.get(s.id);
  }
  async announceChange(c: StoredChange): Promise<void> {
    this.announced.push(c.id);
  }
}

interface Harness {
  env: Env;
  store: Store;
  provider: FakeProvider;
  gate: FakeGate;
  coalescer: FakeCoalescer;
  watch: FakeWatch;
  blocks: LocalBlocks;
  decisions: CarrierDecisions;
  pipeline: ScreeningPipeline;
  announced: string[];
  logs: Array<{ level: number; msg: string }>;
  clock: { t: number };
  /** A queued screening, as the intake writes it. */
  queued(dot: string, o?: { priority?: Priority; tender?: string | null; refresh?: boolean; mc?: boolean }): string;
  /** Events committed since the harness began, by name. */
  events(): string[];
  reviews(): ReturnType<Store['listReviews']>;
}

const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

function harness(env: Env = 'sandbox'): Harness {
  const clock = { t: T0 };
  const now = (): Date => new Date(clock.t);
  const store = openStore(':memory:', { now });
  open.push(store);
  const feed = new SharedEventFeed(recordOf(store), { publish: async () => 0 } as never, 'test');
  const announced: string[] = [];
  const events = {
    append: feed.append.bind(feed),
    announce: async (a: Array<{ event: string }> = []): Promise<void> => void announced.push(...a.map((e) => e.event)),
  };
  const blocks = new LocalBlocks({
    store: recordOf(store),
    env,
    now,
    events,
    reader: openReaderPool(store, { size: 0 }),
    onBlock: async () => [],
  });
  const watch = new FakeWatch();
  const decisions = new CarrierDecisions({
    store: recordOf(store),
    env,
    ttlMs: 30 * 24 * HOUR,
    now,
    blockOf: (tx, q, s) => blocks.find(tx, q, s),
  });
  const logs: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as { level: number; msg: string }) });
  const provider = new FakeProvider();
  const gate = new FakeGate();
  const coalescer = new FakeCoalescer();
  const pipeline = new ScreeningPipeline({
    env,
    store: recordOf(store),
    provider,
    gate,
    coalescer,
    events,
    blocks,
    watch,
    cacheTtlMs: CACHE_TTL,
    staleIfErrorMs: STALE_IF_ERROR,
    notFoundTtlMs: 24 * HOUR,
    now,
    logger,
    decisions,
  });
  let n = 0;
  const firstEvent = store.lastEventId();
  return {
    env,
    store,
    provider,
    gate,
    coalescer,
    watch,
    blocks,
    decisions,
    pipeline,
    announced,
    logs,
    clock,
    queued(dot, o = {}) {
      const tender = o.tender === undefined ? `T-${++n}` : o.tender;
      return store.insertScreening({
        query: o.mc ? { mc_number: `MC${dot}` } : { dot_number: dot },
        tender_id: tender,
        priority: o.priority ?? 'tender',
        refresh: o.refresh ?? false,
        callback_url: tender === null ? null : 'https://tms.example/callbacks',
      }).id;
    },
    events: () => store.eventsSince(firstEvent).map((e) => e.event),
    reviews: () => store.listReviews(),
  };
}

const scoreAnswer = (s: SvcScore, attempts = 1): Answer => ({ kind: 'score', score: s, attempts });
const done = async (h: Harness, id: string, attemptsUsed = 0): Promise<Screening> => {
  const r = await h.pipeline.process(id, { attemptsUsed });
  if (!('done' in r)) throw new Error(`expected a finished screening, got ${JSON.stringify(r)}`);
  return r.done;
};
const actor = { by: 'desk@example', token_id: null };

describe('score → action (shared/tender-rules.ts), from a fresh lookup', () => {
  type Over = Parameters<typeof score>[1];
  it.each<[string, Over, string, string | null]>([
    ['approved', {}, 'tender', null],
    ['approved but needs a person', { needs_manual_review: true }, 'hold', 'manual_review'],
    ['review', { decision: 'review' }, 'hold', 'manual_review'],
    ['rejected', { decision: 'rejected' }, 'block', null],
    ['high_risk', { decision: 'high_risk' }, 'block', null],
    ['a decision nobody knows', { decision: 'conditional' as never }, 'hold', 'unknown_decision'],
    ['a knockout, whatever the decision', { knockout: ['NO_BIPD'] }, 'block', null],
  ])('%s → %s', async (_name, over, action, reason) => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001', over), 2));
    const id = h.queued('1000001');
    const r = await h.pipeline.process(id, { attemptsUsed: 0 });
    expect(r).toMatchObject({ attempts: 2, done: { action, hold_reason: reason, source: 'service', status: 'done' } });
    expect(h.provider.calls).toEqual([{ query: { dot_number: '1000001' }, maxAttempts: 5 }]);
    // The score is cached for the next screening; the TMS is owed its callback in the same commit.
    expect(h.store.getScore(h.env, { dot_number: '1000001' })?.score.decision).toBe(over?.decision ?? 'approved');
    expect((await pendingCallbacks(h.store)).map((c) => [c.event, c.screening_id])).toEqual([['screening.completed', id]]);
    expect(h.announced.at(-1)).toBe('screening.completed');
    expect(h.reviews().length).toBe(action === 'hold' ? 1 : 0);
    expect(h.watch.recorded).toEqual([id]);
  });

  it('a live lookup is counted for the quota chart; a sandbox one is not', async () => {
    for (const env of ['live', 'sandbox'] as const) {
      const h = harness(env);
      h.provider.answer('1000001', scoreAnswer(score('1000001')));
      await done(h, h.queued('1000001'));
      const days = h.store.dailyLookups(env, '2026-11');
      expect(days.reduce((n, d) => n + d.lookups, 0)).toBe(env === 'live' ? 1 : 0);
    }
  });

  it("an MC query whose carrier the cache links to a DOT number shares that DOT number's lookup key", async () => {
    const h = harness();
    h.store.putScore(h.env, score('1000001'), new Date(T0 - 2 * CACHE_TTL), { dot_number: '1000001' });
    h.provider.answer('1000001', scoreAnswer(score('1000001')));
    await done(h, h.queued('1000001', { mc: true }));
    h.provider.answer('1000002', scoreAnswer(score('1000002')));
    await done(h, h.queued('1000002', { mc: true }));
    expect(h.coalescer.keys).toEqual(['sandbox:dot:1000001', 'sandbox:mc:MC1000002']);
    // A score is shared for as long as the coalescer keeps outcomes; notBefore is the cache's age limit.
    expect(h.coalescer.shared).toEqual([Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]);
    expect(h.coalescer.notBefore[0]).toBe(T0 - CACHE_TTL);
  });
});

describe('answered before any lookup', () => {
  it('a locally blocked carrier is blocked, and the provider is not asked', async () => {
    const h = harness();
    await h.blocks.add({ dot_number: '1000001' }, 'desk@example', 'double brokering');
    const s = await done(h, h.queued('1000001'));
    expect(s).toMatchObject({ action: 'block', source: 'none', error: { code: 'local_block' } });
    expect(h.provider.calls).toEqual([]);
    expect(h.gate.asked).toEqual([]);
  });

  it('a fresh cached score answers; a refresh asks again all the same', async () => {
    const h = harness();
    h.store.putScore(h.env, score('1000001'), new Date(T0 - CACHE_TTL + MIN), { dot_number: '1000001' });
    const r = await h.pipeline.process(h.queued('1000001'), { attemptsUsed: 0 });
    expect(r).toMatchObject({ attempts: 0, done: { action: 'tender', source: 'cache' } });
    expect(h.provider.calls).toEqual([]);
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'rejected' })));
    const refreshed = await done(h, h.queued('1000001', { refresh: true }));
    expect(refreshed).toMatchObject({ action: 'block', source: 'service' });
    expect(h.provider.calls.length).toBe(1);
    // A refresh wants a score from after it was asked for.
    expect(h.coalescer.notBefore).toEqual([Date.parse(h.store.getScreening(refreshed.id)!.created_at)]);
  });

  it('a cached "not found" blocks from the cache until it expires', async () => {
    const h = harness();
    h.provider.answer('1000009', { kind: 'not_found', error: err('carrier_not_found'), attempts: 1 });
    expect(await done(h, h.queued('1000009'))).toMatchObject({ action: 'block', source: 'service', error: { code: 'carrier_not_found' } });
    expect(await done(h, h.queued('1000009'))).toMatchObject({ action: 'block', source: 'cache', error: { code: 'carrier_not_found' } });
    expect(h.provider.calls.length).toBe(1);
    h.clock.t += 24 * HOUR + 1;
    expect(await h.pipeline.cachedResult({ dot_number: '1000009' })).toBeUndefined();
  });

  it('a screening already done (a re-run after a crash) is only shown to the watch list', async () => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001')));
    const id = h.queued('1000001');
    const first = await done(h, id);
    h.watch.changes.set(id, { id: 'chg_1' } as StoredChange);
    const again = await h.pipeline.process(id, { attemptsUsed: 0 });
    expect(again).toEqual({ done: first, attempts: 0 });
    expect(h.watch.recorded).toEqual([id, id]);
    expect(h.watch.announced).toEqual(['chg_1']);
    expect(h.provider.calls.length).toBe(1);
  });

  it('an id the store does not know fails the job', async () => {
    const h = harness();
    await expect(h.pipeline.process('scr_missing', { attemptsUsed: 0 })).rejects.toThrow(/not in the store/);
  });
});

describe('the provider says no lookups now', () => {
  const stop = (code: string, cause: ProviderStop['cause'], rescreenWaits = true): ProviderStop => ({
    cause,
    error: err(code),
    rescreenWaits,
  });

  it('stopped (wrong environment, refused key): hold for a person, never a stale score', async () => {
    const h = harness();
    h.store.putScore(h.env, score('1000001', { decision: 'rejected' }), new Date(T0 - 2 * CACHE_TTL), { dot_number: '1000001' });
    h.provider.stopped = stop('key_rejected', 'service_error', false);
    const s = await done(h, h.queued('1000001'));
    expect(s).toMatchObject({ action: 'hold', hold_reason: 'service_error', source: 'none', error: { code: 'key_rejected' } });
    expect(h.provider.calls).toEqual([]);
    expect(h.reviews().length).toBe(1);
  });

  it('held off (a long Retry-After): the fallback, a stale score when there is one', async () => {
    const h = harness();
    h.provider.holdOff = stop('rate_limit_exceeded', 'scoring_unavailable');
    expect(await done(h, h.queued('1000001'))).toMatchObject({ action: 'hold', hold_reason: 'scoring_unavailable', source: 'none' });
    h.store.putScore(h.env, score('1000002', { decision: 'rejected' }), new Date(T0 - 2 * CACHE_TTL), { dot_number: '1000002' });
    expect(await done(h, h.queued('1000002'))).toMatchObject({
      action: 'block',
      source: 'stale_cache',
      error: { code: 'rate_limit_exceeded' },
    });
    expect(h.provider.calls).toEqual([]);
  });

  it('five requests already made for this screening: no more, it ends on its fallback', async () => {
    const h = harness();
    const r = await h.pipeline.process(h.queued('1000001'), { attemptsUsed: 5 });
    expect(r).toMatchObject({
      attempts: 0,
      done: { action: 'hold', hold_reason: 'scoring_unavailable', error: { code: 'attempts_exhausted' } },
    });
    expect(h.provider.calls).toEqual([]);
    // What is left of the five is the lookup's own limit.
    h.provider.answer('1000002', scoreAnswer(score('1000002')));
    await done(h, h.queued('1000002'), 3);
    expect(h.provider.calls).toEqual([{ query: { dot_number: '1000002' }, maxAttempts: 2 }]);
  });
});

describe('the quota gate', () => {
  it('refused: hold for the quota, the refusal never shared, no lookup', async () => {
    const h = harness();
    h.gate.refuse.tender = { ok: false, reason: 'quota_exhausted' };
    const s = await done(h, h.queued('1000001'));
    expect(s).toMatchObject({ action: 'hold', hold_reason: 'quota_exhausted', error: { code: 'quota_exhausted' } });
    expect(h.coalescer.shared).toEqual([0]);
    expect(h.provider.calls).toEqual([]);
  });

  it('a background screening below the reserve: held without a review (no load waits on it)', async () => {
    const h = harness();
    h.gate.refuse.background = { ok: false, reason: 'quota_reserved' };
    const s = await done(h, h.queued('1000001', { priority: 'background', tender: null }));
    expect(s).toMatchObject({ action: 'hold', hold_reason: 'quota_reserved', review: null });
    expect(h.reviews()).toEqual([]);
  });

  it('a tender that joined a background lookup the reserve refused asks again as itself (three tries at most)', async () => {
    const refused: LookupOutcome = { kind: 'quota_refused', at: T0, reason: 'quota_reserved', error: err('quota_reserved') };
    const h = harness();
    h.coalescer.others.push(refused, refused);
    h.provider.answer('1000001', scoreAnswer(score('1000001')));
    expect(await done(h, h.queued('1000001'))).toMatchObject({ action: 'tender', source: 'service' });
    expect(h.coalescer.keys.length).toBe(3);
    h.coalescer.others.push(refused, refused, refused);
    expect(await done(h, h.queued('1000002'))).toMatchObject({ action: 'hold', hold_reason: 'quota_reserved' });
    expect(h.coalescer.keys.length).toBe(6);
  });
});

describe('the provider has no score', () => {
  const stale = (h: Harness, dot: string, decision: SvcScore['decision'], age: number): void =>
    void h.store.putScore(h.env, score(dot, { decision }), new Date(T0 - age), { dot_number: dot });

  it.each([
    ['scoring_unavailable', 'service_unavailable'],
    ['quota_exhausted', 'monthly_quota_exceeded'],
  ] as const)('%s: hold; a stale score may block or hold, never tender; too old, none', async (cause, code) => {
    const h = harness();
    const failed = (): Answer => ({ kind: 'failed', cause, error: err(code), attempts: 1 });
    stale(h, '1000001', 'approved', 2 * CACHE_TTL);
    stale(h, '1000002', 'rejected', 2 * CACHE_TTL);
    stale(h, '1000003', 'rejected', STALE_IF_ERROR + MIN);
    for (const dot of ['1000001', '1000002', '1000003', '1000004']) h.provider.answer(dot, failed());
    const out = [];
    for (const dot of ['1000001', '1000002', '1000003', '1000004']) out.push(await done(h, h.queued(dot)));
    expect(out.map((s) => [s.action, s.hold_reason, s.source, s.error?.code])).toEqual([
      ['hold', cause, 'stale_cache', code],
      ['block', null, 'stale_cache', code],
      ['hold', cause, 'none', code],
      ['hold', cause, 'none', code],
    ]);
    // A failure is shared with the screenings of the carrier waiting on the same lookup.
    expect(h.coalescer.shared).toEqual([Infinity, Infinity, Infinity, Infinity]);
  });

  it('service_error (a refused request, a wrong environment): hold for a person, a stale score ignored', async () => {
    const h = harness();
    stale(h, '1000001', 'rejected', 2 * CACHE_TTL);
    h.provider.answer('1000001', { kind: 'failed', cause: 'service_error', error: err('invalid_request'), attempts: 1 });
    expect(await done(h, h.queued('1000001'))).toMatchObject({
      action: 'hold',
      hold_reason: 'service_error',
      source: 'none',
      error: { code: 'invalid_request' },
    });
  });

  it("rate limited with requests left: the job waits (the provider's schedule) and asks again", async () => {
    const h = harness();
    h.provider.answer('1000001', { kind: 'rate_limited', retryAfterMs: 2_000, error: err('rate_limit_exceeded'), attempts: 1 });
    const id = h.queued('1000001');
    expect(await h.pipeline.process(id, { attemptsUsed: 1 })).toEqual({ rateLimited: 2_002, attempts: 1 });
    // Retry number: what the screening has spent of its five (two here).
    expect(h.provider.waits).toEqual([[2, 2_000]]);
    expect(h.store.getScreening(id)?.status).not.toBe('done');
    // The refusal is shared while its Retry-After runs.
    expect(h.coalescer.shared).toEqual([2_000]);
    h.provider.answer('1000001', scoreAnswer(score('1000001')));
    expect(await h.pipeline.process(id, { attemptsUsed: 2 })).toMatchObject({ attempts: 1, done: { action: 'tender' } });
  });

  it("a refusal shared by another screening's lookup (none spent here) waits at least the first retry's wait", async () => {
    const h = harness();
    h.coalescer.others.push({ kind: 'rate_limited', at: T0, retryAfterMs: 3_000, error: err('rate_limit_exceeded') });
    expect(await h.pipeline.process(h.queued('1000001'), { attemptsUsed: 0 })).toEqual({ rateLimited: 3_001, attempts: 0 });
    expect(h.provider.waits).toEqual([[1, 3_000]]);
    expect(h.provider.calls).toEqual([]);
  });

  it('rate limited with no request left, or asked to wait past a minute: ends on its fallback', async () => {
    const h = harness();
    h.provider.answer('1000001', { kind: 'rate_limited', retryAfterMs: 2_000, error: err('rate_limit_exceeded'), attempts: 2 });
    expect(await h.pipeline.process(h.queued('1000001'), { attemptsUsed: 3 })).toMatchObject({
      attempts: 2,
      done: { action: 'hold', hold_reason: 'scoring_unavailable' },
    });
    h.provider.answer('1000002', { kind: 'rate_limited', retryAfterMs: 60_000, error: err('rate_limit_exceeded'), attempts: 1 });
    expect(await h.pipeline.process(h.queued('1000002'), { attemptsUsed: 0 })).toMatchObject({
      attempts: 1,
      done: { action: 'hold', hold_reason: 'scoring_unavailable', error: { code: 'rate_limit_exceeded' } },
    });
    // No request left: no wait asked for; four left: the first retry's wait, too long to take.
    expect(h.provider.waits).toEqual([[1, 60_000]]);
  });

  it("a failure that is not the provider's fails the job and leaves the screening to run again", async () => {
    const h = harness();
    h.provider.answer('1000001', new Error('bug in the adapter'));
    const id = h.queued('1000001');
    await expect(h.pipeline.process(id, { attemptsUsed: 0 })).rejects.toThrow('bug in the adapter');
    expect(h.store.getScreening(id)?.status).not.toBe('done');
    // Failed for good: it ends on what there is.
    expect(await h.pipeline.giveUp(id, 'processing failed: bug')).toMatchObject({
      action: 'hold',
      hold_reason: 'scoring_unavailable',
      error: { code: 'processing_failed' },
    });
    expect((await h.pipeline.giveUp(id, 'again'))?.error?.code).toBe('processing_failed');
  });

  it("the answer's bookkeeping failing fails the job after the screening is finished", async () => {
    const h = harness();
    h.provider.bookkeeping = Promise.reject(new Error('Redis went away'));
    h.provider.bookkeeping.catch(() => {});
    h.provider.answer('1000001', scoreAnswer(score('1000001')));
    const id = h.queued('1000001');
    await expect(h.pipeline.process(id, { attemptsUsed: 0 })).rejects.toThrow('Redis went away');
    expect(h.store.getScreening(id)).toMatchObject({ status: 'done', action: 'tender' });
  });
});

describe('reviews and standing decisions (worker/decisions/)', () => {
  it("the first hold opens the carrier's review; the next joins it", async () => {
    const h = harness();
    h.provider.answer(
      '1000001',
      scoreAnswer(score('1000001', { decision: 'review' })),
      scoreAnswer(score('1000001', { decision: 'review' })),
    );
    const a = await done(h, h.queued('1000001', { refresh: true }));
    const b = await done(h, h.queued('1000001', { refresh: true }));
    expect(a.review?.state).toBe('pending');
    expect(h.events()).toEqual(['review.created', 'screening.completed', 'review.updated', 'screening.completed']);
    const open = h.reviews().filter((r) => r.waits_on === null);
    expect(open.map((r) => r.tenders.map((t) => t.screening_id))).toEqual([[a.id, b.id]]);
  });

  it('a resolved review stands: the next hold on the same basis is settled by it, no new review', async () => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'review' })));
    const a = await done(h, h.queued('1000001'));
    await recordOf(h.store).unitOfWork((tx) => h.decisions.resolve(tx, a.review!.id, 'approved', actor, null));
    h.store.putScore(h.env, score('1000001', { decision: 'review' }), new Date(T0), { dot_number: '1000001' });
    const b = await done(h, h.queued('1000001'));
    expect(b).toMatchObject({ action: 'tender', settled_by: 'standing_decision', source: 'cache' });
    expect(h.reviews().length).toBe(1);
  });

  it('a fresh score on another basis ends the decision (decision.lapsed) and opens a review again', async () => {
    const h = harness();
    h.provider.answer(
      '1000001',
      scoreAnswer(score('1000001', { decision: 'review' })),
      scoreAnswer(score('1000001', { decision: 'review', data_confidence: 0.5 })),
    );
    const a = await done(h, h.queued('1000001'));
    await recordOf(h.store).unitOfWork((tx) => h.decisions.resolve(tx, a.review!.id, 'approved', actor, null));
    const b = await done(h, h.queued('1000001', { refresh: true }));
    expect(b).toMatchObject({ action: 'hold', hold_reason: 'manual_review', settled_by: null });
    expect(h.events()).toContain('decision.lapsed');
    expect(h.reviews().find((r) => r.screening_id === b.id)?.previous_decision?.state).toBe('lapsed');
  });

  it("a blocking score closes the carrier's open review and blocks the tenders waiting on it", async () => {
    const h = harness();
    h.provider.answer(
      '1000001',
      scoreAnswer(score('1000001', { decision: 'review' })),
      scoreAnswer(score('1000001', { decision: 'rejected' })),
    );
    const a = await done(h, h.queued('1000001'));
    h.clock.t += MIN;
    const b = await done(h, h.queued('1000001', { refresh: true }));
    expect(b.action).toBe('block');
    expect(h.store.getScreening(a.id)).toMatchObject({ action: 'block', settled_by: 'review' });
    expect(h.events()).toEqual(['review.created', 'screening.completed', 'review.resolved', 'screening.completed']);
    expect((await pendingCallbacks(h.store)).map((c) => c.event).sort()).toEqual([
      'review.resolved',
      'screening.completed',
      'screening.completed',
    ]);
  });

  it('a newer score that still needs a person shows on the open review (review.updated)', async () => {
    const h = harness();
    const answers = [
      score('1000001', { decision: 'review' }),
      score('1000001', { decision: 'approved' }),
      score('1000001', { decision: 'approved' }),
    ];
    h.provider.answer('1000001', ...answers.map((x) => scoreAnswer(x)));
    const a = await done(h, h.queued('1000001'));
    // Fetched in the same instant as the review's facts: nothing newer to show.
    await done(h, h.queued('1000001', { refresh: true }));
    expect(h.events().slice(2)).toEqual(['screening.completed']);
    h.clock.t += MIN;
    const b = await done(h, h.queued('1000001', { refresh: true }));
    expect(b.action).toBe('tender');
    expect(h.events().slice(3)).toEqual(['review.updated', 'screening.completed']);
    expect(h.store.getReview(a.review!.id)?.latest.screening_id).toBe(b.id);
  });
});

describe('the watch list (hooks)', () => {
  it('a hold the watch list does not want reviewed opens none', async () => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'review' })));
    const id = h.queued('1000001', { priority: 'background', tender: null });
    h.watch.noReview.add(id);
    expect(await done(h, id)).toMatchObject({ action: 'hold', review: null });
    expect(h.reviews()).toEqual([]);
  });

  it('a change found is announced after the commit; a failing watch list never undoes the screening', async () => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001')), scoreAnswer(score('1000001')));
    const a = h.queued('1000001', { refresh: true });
    h.watch.changes.set(a, { id: 'chg_a' } as StoredChange);
    await done(h, a);
    expect(h.watch.announced).toEqual(['chg_a']);
    const b = h.queued('1000001', { refresh: true });
    h.watch.failRecord.add(b);
    expect(await done(h, b)).toMatchObject({ status: 'done', action: 'tender' });
    expect(h.logs.some((l) => l.msg === 'watch list update failed')).toBe(true);
  });

  it('a block added after the answer still wins when the screening is recorded (an MC query naming a blocked DOT)', async () => {
    const h = harness();
    await h.blocks.add({ dot_number: '1000001' }, 'desk@example', 'fraud');
    h.provider.answer('1000001', scoreAnswer(score('1000001')));
    // The query names only the MC number, and nothing links it yet: the lookup runs, then the score's DOT is blocked.
    const s = await done(h, h.queued('1000001', { mc: true }));
    expect(s).toMatchObject({ action: 'block', source: 'service', error: { code: 'local_block' } });
    expect(h.provider.calls.length).toBe(1);
  });
});

describe("accept: the intake's fast path", () => {
  const req = (dot: string, o: { refresh?: boolean } = {}) => ({
    query: { dot_number: dot },
    tender_id: 'T-acc',
    priority: 'tender' as const,
    refresh: o.refresh ?? false,
    callback_url: 'https://tms.example/cb',
  });

  it('a cache hit is answered at once; a miss is written queued; a refresh is always queued', async () => {
    const h = harness();
    h.store.putScore(h.env, score('1000001'), new Date(T0), { dot_number: '1000001' });
    expect(await h.pipeline.accept(req('1000001'))).toMatchObject({ done: true, screening: { action: 'tender', source: 'cache' } });
    expect(await h.pipeline.accept(req('1000002'))).toMatchObject({ done: false, screening: { status: 'queued' } });
    expect(await h.pipeline.accept(req('1000001', { refresh: true }))).toMatchObject({ done: false });
    expect(h.provider.calls).toEqual([]);
  });

  it('a locally blocked carrier is answered at once, with no cached score needed', async () => {
    const h = harness();
    await h.blocks.add({ dot_number: '1000003' }, 'desk@example', 'fraud');
    expect(await h.pipeline.accept(req('1000003'))).toMatchObject({
      done: true,
      screening: { action: 'block', error: { code: 'local_block' } },
    });
  });

  it("a local block answered at once closes the carrier's open review and blocks its tenders", async () => {
    const h = harness();
    h.store.putScore(h.env, score('1000004', { decision: 'review' }), new Date(T0), { dot_number: '1000004' });
    const held = await h.pipeline.accept(req('1000004'));
    await h.blocks.add({ dot_number: '1000004' }, 'desk@example', 'fraud');
    expect(await h.pipeline.accept(req('1000004'))).toMatchObject({ done: true, screening: { action: 'block' } });
    expect(h.store.getScreening(held.screening.id)).toMatchObject({ action: 'block' });
    expect(h.store.getReview(held.screening.review!.id)?.state).toBe('closed');
    expect(h.events().slice(2)).toEqual(['review.resolved', 'screening.completed']);
  });

  it('a cached hold opens (or joins) the review; a standing decision settles it', async () => {
    const h = harness();
    h.store.putScore(h.env, score('1000001', { decision: 'review' }), new Date(T0), { dot_number: '1000001' });
    const a = await h.pipeline.accept(req('1000001'));
    expect(a).toMatchObject({ done: true, screening: { action: 'hold', review: { state: 'pending' } } });
    expect(await h.pipeline.accept(req('1000001'))).toMatchObject({ done: true, screening: { action: 'hold' } });
    expect(h.events()).toEqual(['review.created', 'screening.completed', 'review.updated', 'screening.completed']);
    await recordOf(h.store).unitOfWork((tx) => h.decisions.resolve(tx, a.screening.review!.id, 'rejected', actor, null));
    const c = await h.pipeline.accept(req('1000001'));
    expect(c).toMatchObject({ done: true, screening: { action: 'block', settled_by: 'standing_decision' } });
  });
});

describe('finish: once', () => {
  it('a late result for a screening already done still tells the standing decision its fresh score ended, in that commit', async () => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'review' })));
    const a = await done(h, h.queued('1000001'));
    await recordOf(h.store).unitOfWork((tx) => h.decisions.resolve(tx, a.review!.id, 'approved', actor, null));
    const late = score('1000001', { decision: 'review', data_confidence: 0.5 });
    const again = await h.pipeline.finish(a.id, {
      action: 'hold',
      hold_reason: 'manual_review',
      source: 'service',
      score: late,
      score_fetched_at: new Date(h.clock.t).toISOString(),
      error: null,
    });
    expect(again.version).toBe(h.store.getScreening(a.id)!.version);
    // The screening is not finished again, but the decision ended: its event commits with it.
    expect(await h.decisions.list({ state: 'lapsed' })).toHaveLength(1);
    expect(h.events().filter((e) => e.startsWith('decision.'))).toEqual(['decision.lapsed']);
    expect(h.announced.filter((e) => e.startsWith('decision.'))).toEqual(['decision.lapsed']);
  });

  it('a screening finished twice is recorded once: no second event, callback or announcement', async () => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001')));
    const s = await done(h, h.queued('1000001'));
    const again = await h.pipeline.finish(s.id, {
      action: 'block',
      hold_reason: null,
      source: 'none',
      score: null,
      score_fetched_at: null,
      error: err('late'),
    });
    expect(again).toMatchObject({ action: 'tender', version: s.version });
    expect(h.events()).toEqual(['screening.completed']);
    expect(h.announced).toEqual(['screening.completed']);
    expect((await pendingCallbacks(h.store)).length).toBe(1);
    expect(h.logs.filter((l) => l.msg === 'screening done').length).toBe(1);
  });

  it('a hold finished twice keeps its one review item, as it was opened: no second review, event or callback', async () => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'review' })));
    const s = await done(h, h.queued('1000001'));
    const again = await h.pipeline.finish(s.id, {
      action: 'hold',
      hold_reason: 'unknown_decision',
      source: 'service',
      score: score('1000001', { decision: 'conditional' as never }),
      score_fetched_at: new Date(h.clock.t).toISOString(),
      error: null,
    });
    expect(again).toMatchObject({ action: 'hold', hold_reason: 'manual_review', version: s.version, review: s.review });
    const reviews = h.reviews();
    expect(reviews.map((r) => [r.id, r.hold_reason, r.state, r.tenders.map((t) => t.screening_id)])).toEqual([
      [s.review!.id, 'manual_review', 'pending', [s.id]],
    ]);
    expect(h.store.countPendingReviews()).toBe(1);
    expect(h.events()).toEqual(['review.created', 'screening.completed']);
    expect((await pendingCallbacks(h.store)).length).toBe(1);
  });
});

describe('rescreen: a hold for want of a score, screened again after an outage', () => {
  async function heldForOutage(h: Harness, dot: string): Promise<Screening> {
    h.provider.answer(dot, { kind: 'failed', cause: 'scoring_unavailable', error: err('service_unavailable'), attempts: 1 });
    return done(h, h.queued(dot));
  }

  it('skips what is not such a hold', async () => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'review' })));
    const manual = await done(h, h.queued('1000001'));
    expect(await h.pipeline.rescreen(manual.id, T0)).toBe('skipped');
    expect(await h.pipeline.rescreen('scr_missing', T0)).toBe('skipped');
  });

  it('a score fetched since settles it (tender): review superseded, review.resolved owed to the TMS', async () => {
    const h = harness();
    const s = await heldForOutage(h, '1000001');
    h.provider.answer('1000001', scoreAnswer(score('1000001')));
    expect(await h.pipeline.rescreen(s.id, T0)).toBe('settled');
    expect(h.store.getScreening(s.id)).toMatchObject({ action: 'tender', settled_by: 'rescreen' });
    expect(h.store.getReview(s.review!.id)?.state).toBe('superseded');
    expect((await pendingCallbacks(h.store)).map((c) => c.event)).toContain('review.resolved');
    // Two requests at most per re-screen; a fresh score is shared for good.
    expect(h.provider.calls.at(-1)?.maxAttempts).toBe(2);
    expect(h.coalescer.shared.at(-1)).toBe(Number.POSITIVE_INFINITY);
    // A score fetched since the outage began, in the cache, answers the next re-screen of the carrier.
    h.clock.t += 2 * CACHE_TTL;
    const t = await heldForOutage(h, '1000001');
    expect(t).toMatchObject({ action: 'hold', source: 'stale_cache' });
    expect(await h.pipeline.rescreen(t.id, T0)).toBe('settled');
    expect(h.provider.calls.length).toBe(3);
  });

  it('a blocking score closes the review and blocks its tenders', async () => {
    const h = harness();
    const s = await heldForOutage(h, '1000001');
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'rejected' })));
    expect(await h.pipeline.rescreen(s.id, T0)).toBe('settled');
    expect(h.store.getScreening(s.id)?.action).toBe('block');
    expect(h.events().slice(-1)).toEqual(['review.resolved']);
  });

  it('a local block settles it without a lookup', async () => {
    const h = harness();
    const s = await heldForOutage(h, '1000001');
    await h.blocks.add({ dot_number: '1000001' }, 'desk@example', 'fraud');
    expect(await h.pipeline.rescreen(s.id, T0)).toBe('settled');
    expect(h.store.getScreening(s.id)?.action).toBe('block');
    expect(h.provider.calls.length).toBe(1);
  });

  it('a score that needs a person keeps the card, now with the score on it', async () => {
    const h = harness();
    const s = await heldForOutage(h, '1000001');
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'review' })));
    expect(await h.pipeline.rescreen(s.id, T0)).toBe('held');
    expect(h.store.getScreening(s.id)).toMatchObject({ action: 'hold', hold_reason: 'manual_review' });
    expect(h.events().at(-1)).toBe('review.updated');
  });

  it('still no answer, a hold-off or a wrong environment: left held, for the next pass; a refused key still asks', async () => {
    const h = harness();
    const s = await heldForOutage(h, '1000001');
    h.provider.answer('1000001', { kind: 'failed', cause: 'scoring_unavailable', error: err('service_unavailable'), attempts: 2 });
    expect(await h.pipeline.rescreen(s.id, T0)).toBe('held');
    expect(h.coalescer.shared.at(-1)).toBe(0);
    h.provider.holdOff = { cause: 'scoring_unavailable', error: err('rate_limit_exceeded'), rescreenWaits: true };
    expect(await h.pipeline.rescreen(s.id, T0)).toBe('held');
    h.provider.holdOff = null;
    h.provider.stopped = { cause: 'service_error', error: err('environment_mismatch'), rescreenWaits: true };
    expect(await h.pipeline.rescreen(s.id, T0)).toBe('held');
    expect(h.provider.calls.length).toBe(2);
    h.provider.stopped = { cause: 'service_error', error: err('key_rejected'), rescreenWaits: false };
    h.provider.answer('1000001', scoreAnswer(score('1000001')));
    expect(await h.pipeline.rescreen(s.id, T0)).toBe('settled');
    expect(h.provider.calls.length).toBe(3);
  });

  it('a standing decision on the same basis settles a re-screened hold', async () => {
    const h = harness();
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'review' })));
    const first = await done(h, h.queued('1000001'));
    await recordOf(h.store).unitOfWork((tx) => h.decisions.resolve(tx, first.review!.id, 'approved', actor, null));
    h.clock.t += STALE_IF_ERROR + MIN;
    const s = await heldForOutage(h, '1000001');
    expect(s).toMatchObject({ action: 'hold', hold_reason: 'scoring_unavailable', source: 'none' });
    h.provider.answer('1000001', scoreAnswer(score('1000001', { decision: 'review' })));
    expect(await h.pipeline.rescreen(s.id, h.clock.t)).toBe('settled');
    expect(h.store.getScreening(s.id)).toMatchObject({ action: 'tender', settled_by: 'rescreen' });
    expect(h.provider.calls.length).toBe(3);
  });
});
