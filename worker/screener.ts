import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { parseCarrierQuery } from '../shared/carrier-id.js';
import type { Config } from '../shared/config.js';
import type { IntakeEvent, LoadDetails, LocalBlock, Screening, ScreeningRequest } from '../shared/screening.js';
import { closedReviewNews } from './decisions/review-news.js';
import type { Actor } from './tokens/intake-tokens.js';
import { keyEnvironment } from '../shared/svc-contract.js';
import { DestinationPolicy } from './callbacks/destination-policy.js';
import { SharedEventFeed } from './events/event-feed.js';
import { LookupCoalescer } from './queue/lookup-coalescer.js';
import { QuotaGate } from './queue/quota-gate.js';
import { RateGate } from './queue/rate-gate.js';
import { Reconciler } from './queue/reconciler.js';
import { CarrierDecisions, type DecisionFilter } from './decisions/carrier-decisions.js';
import { observe } from './metrics/metrics.js';
import { LONGEST_RATE_LIMIT_WAIT_MS, ScreeningPipeline, type LookupOutcome } from './queue/screening-pipeline.js';
import { ScreeningQueue } from './queue/screening-queue.js';
import { closeQueueWorker } from './queue/close-worker.js';
import { createScreeningWorker } from './queue/screening-worker.js';
import { ServiceState } from './queue/service-state.js';
import { SvcScoringProvider } from './queue/svc-scoring-provider.js';
import { UsagePoll } from './queue/usage-poll.js';
import { ScreeningService } from './queue/screening-service.js';
import { ReviewService } from './decisions/review-service.js';
import { OperationsService } from './operations/operations-service.js';
import { redisUpCheck } from './redis-up.js';
import { queuePaused } from './recovery/operator-state.js';
import { OutageRescreen } from './recovery/outage-rescreen.js';
import { RedisRebuild } from './recovery/redis-rebuild.js';
import { Pruner } from './retention/pruner.js';
import { otherInstalls, redisConnection, redisWhere, waitReady } from './redis-connection.js';
import type { Screener } from './screener-types.js';
import { UnavailableError } from './screener-types.js';
import type { RecordStore } from './store/index.js';
import { openRecord, type WorkerRecord } from './open-record.js';
import { DEFAULT_READER_THREADS } from './store/reader-pool.js';
import type { ListPage } from './store/types.js';
import { KeyCheckError, SvcClient, verifyKey } from './svc/index.js';
import { createSandboxHelpers } from './sandbox-helpers.js';
import { LocalBlocks } from './blocks/local-blocks.js';
import { WatchService, type WatchOptions } from './watch/index.js';

export { UnavailableError } from './screener-types.js';
export type { Screener } from './screener-types.js';

/** A 404 is cached briefly: a new registration may appear. */
const NOT_FOUND_TTL_MS = 15 * 60_000;
const USAGE_POLL_MS = 5 * 60_000;
const RECONCILE_MS = 30_000;
/** How often a worker looks for holds of an outage to screen again (worker/recovery/outage-rescreen.ts). */
const RESCREEN_PASS_MS = 30_000;
/** How often a worker checks that Redis still holds our state (one EXISTS). */
const REDIS_STATE_CHECK_MS = 5_000;
/** Retention: old rows pruned this often (and once at start). */
const PRUNE_MS = 60 * 60_000;

export interface ScreenerOptions {
  /** The /v1 service; defaults to config.svcBaseUrl / config.svcApiKey. */
  svc?: { baseUrl: string; apiKey: string };
  /** Run a queue worker in this process (default true). */
  runWorker?: boolean;
  now?: () => Date;
  logger?: Logger;
  /**
   * Builds this process's callback outbox sender once the store exists (worker/callbacks). Any
   * process with a sender delivers whatever callbacks any process owed.
   */
  callbacks?: (deps: { store: RecordStore; logger: Logger; policy: DestinationPolicy }) => { startWorker?(): void; close(): Promise<void> };
  /** Client tuning for tests (e.g. a short time-out against a hanging emulator). */
  svcTimeoutMs?: number;
  /** Override the wait between /v1 retries (tests). */
  svcBackoff?: { baseMs?: number; capMs?: number; jitterMs?: number };
  /** The watch list: its re-screen tick (docs/watchlist.md). */
  watch?: WatchOptions;
}

/** Flat input for producers in the same process: `screen({ dot_number: '1000003' })`. */
export interface ScreeningInput {
  dot_number?: string | number;
  mc_number?: string;
  tender_id?: string | null;
  load?: LoadDetails | null;
  callback_url?: string | null;
  priority?: 'tender' | 'background';
  refresh?: boolean;
}

function toRequest(input: ScreeningInput | ScreeningRequest): ScreeningRequest {
  if ('query' in input) return input;
  const { dot_number, mc_number, ...rest } = input;
  return { ...rest, query: parseCarrierQuery({ dot_number, mc_number }) };
}

/** The start-up key check's answer. */
type KeyCheck = Awaited<ReturnType<typeof verifyKey>>;

/**
 * What a screener runs on, opened before its graph is built: the /v1 client and what the
 * start-up key check learned (the one call needed to know the environment and the rate limit),
 * the record (migrated, where SCREEN_DB says: open-record.ts) with its reader, and the three Redis
 * connections, ready.
 */
export interface ScreenerResources {
  client: SvcClient;
  environment: 'sandbox' | 'live';
  ratePerMinute: number;
  /** The key check's answer, observed by start(); undefined when /v1 was unreachable at start. */
  keyCheck: KeyCheck | undefined;
  /** Where the client waits before each request: the rate gate, once buildScreener has made it. */
  rateGate: { current?: RateGate };
  record: WorkerRecord;
  producer: Redis;
  blocking: Redis;
  subscriber: Redis;
  now: () => Date;
  logger: Logger;
}

/** What createScreener gives: the Screener, its in-process extras, and the start of its work. */
export type BuiltScreener = Screener & {
  screen(input: ScreeningInput | ScreeningRequest, o?: { waitMs?: number }): Promise<Screening>;
  reconcile(): Promise<{ requeued: number; ended: number }>;
  /** One pass of the re-screen after an outage (it also runs every 30 s in a worker). */
  rescreenOutageHolds(): Promise<{ queued: number }>;
  pollUsage(): Promise<void>;
  /** The watch list and changes. */
  watch: WatchService;
  /** The local do-not-use list. */
  blocks: LocalBlocks;
  /**
   * Start the work: the start-up call counted by the rate gate, the event feed listening, the key
   * check's figures observed, and (unless `runWorker: false`) the queue worker, the callback
   * sender, the watch scheduler and the periodic passes. Once; close() stops what it started.
   */
  start(): Promise<void>;
};

/**
 * The screening core, ready: opens what it runs on (the key check, the store, Redis), builds
 * the graph and starts it. The command line, the bench and the tests use it.
 */
export async function createScreener(config: Config, opts: ScreenerOptions = {}): Promise<BuiltScreener> {
  const screener = buildScreener(config, await openScreenerResources(config, opts), opts);
  try {
    await screener.start();
  } catch (e) {
    await screener.close().catch(() => {});
    throw e;
  }
  return screener;
}

/**
 * Check the key against /v1, open the store, and connect to Redis. Refuses to go on (closing
 * what it opened) on a key of the wrong environment or a refused key, or when Redis is not
 * reachable; an unreachable /v1 is started on the key's word and checked again when it answers.
 */
export async function openScreenerResources(config: Config, opts: ScreenerOptions = {}): Promise<ScreenerResources> {
  const now = opts.now ?? (() => new Date());
  const logger = opts.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const svc = opts.svc ?? (config.svcBaseUrl && config.svcApiKey ? { baseUrl: config.svcBaseUrl, apiKey: config.svcApiKey } : undefined);
  if (!svc) throw new KeyCheckError('key_prefix', 'no /v1 service configured: set SVC_API_KEY and SVC_BASE_URL');

  // Set once the graph is built; the one start-up check before that is counted by start().
  const rateGate: { current?: RateGate } = {};
  const client = new SvcClient({
    baseUrl: svc.baseUrl,
    apiKey: svc.apiKey,
    retryRateLimited: false,
    // A Retry-After longer than a screening may wait ends the lookup at once (ScreeningPipeline).
    longestWaitMs: LONGEST_RATE_LIMIT_WAIT_MS,
    beforeAttempt: (signal) => rateGate.current?.acquire(signal) ?? Promise.resolve(),
    onLimits: (l) => rateGate.current?.observe(l),
    onRequest: observe.svcRequest,
    // A paid score with a drifted display field is kept; a header out of range is ignored: both said here.
    onWarning: (message, detail) => logger.warn({ svc_request_id: detail.requestId }, `/v1 answer kept with a warning: ${message}`),
    now,
    ...(opts.svcTimeoutMs ? { timeoutMs: opts.svcTimeoutMs } : {}),
    ...(opts.svcBackoff ? { backoff: opts.svcBackoff } : {}),
  });
  // The key must belong to the base URL's environment; refuse to start otherwise.
  let environment: 'sandbox' | 'live';
  let ratePerMinute: number;
  let keyCheck: KeyCheck | undefined;
  try {
    keyCheck = await verifyKey(client, svc.apiKey);
    environment = keyCheck.environment;
    ratePerMinute = keyCheck.usage.rate_limit_per_minute;
  } catch (e) {
    if (!(e instanceof KeyCheckError) || e.code !== 'service_unreachable') {
      await client.close();
      throw e;
    }
    // Unreachable now: start on the key's word and check again when it answers.
    environment = keyEnvironment(svc.apiKey) ?? 'sandbox';
    ratePerMinute = environment === 'live' ? 60 : 120;
    logger.warn({ err: e.message }, '/v1 unreachable at start: serving the cache, holding misses');
  }

  let record: WorkerRecord;
  try {
    record = await openRecord(config, {
      now,
      backgroundCheckpoints: true,
      log: logger,
      // SQLite's reader threads: one ready from the start, more as reads overlap.
      readers: { size: config.readerThreads ?? DEFAULT_READER_THREADS, warm: 1 },
    });
  } catch (e) {
    await client.close();
    throw e;
  }
  const producer = redisConnection(config, 'failFast');
  const blocking = redisConnection(config, 'blocking');
  const subscriber = redisConnection(config, 'blocking');
  try {
    await waitReady(producer, 5_000);
  } catch {
    producer.disconnect();
    blocking.disconnect();
    subscriber.disconnect();
    await record.close();
    await client.close();
    throw new UnavailableError(`Redis is not reachable at ${redisWhere(config)}`);
  }
  return { client, environment, ratePerMinute, keyCheck, rateGate, record, producer, blocking, subscriber, now, logger };
}

/**
 * The composition root: every part of a screening process wired from its resources. Builds
 * only: no timer set, no job taken, no call to /v1, no Redis command of ours (BullMQ's queue
 * objects, made here on the ready connections, only look at the server); start() starts the
 * work, close() stops it and closes the resources.
 */
export function buildScreener(config: Config, res: ScreenerResources, opts: ScreenerOptions = {}): BuiltScreener {
  const { client, environment, ratePerMinute, producer, blocking, subscriber, now, logger } = res;
  // The record and its reader, on whichever backend SCREEN_DB names: nothing here knows which.
  const { record: store, reader } = res.record;
  const prefix = config.redisPrefix;
  const keyPrefix = `${prefix}:${environment}`;

  // ---- what processes share through Redis: the /v1 rate, the quota, the service's state, the news ----
  const rateGate = new RateGate(blocking, keyPrefix, config.rateWindowMs, ratePerMinute);
  res.rateGate.current = rateGate;
  // One warning per change, from the process whose write made it (the state is shared in Redis).
  const gate = new QuotaGate(blocking, keyPrefix, {
    live: environment === 'live',
    reserve: config.quotaReserve,
    now,
    onClosed: (until) =>
      logger.warn({ until: until.toISOString() }, 'monthly /v1 quota used up: no live lookups until it resets; misses are held'),
  });
  const service = new ServiceState(blocking, keyPrefix, now, (t) => {
    if (t.kind === 'down') logger.warn({ err: t.detail }, '/v1 unreachable: serving the cache, holding misses');
    else if (t.kind === 'up') logger.warn('/v1 reachable again');
    else if (t.kind === 'key_rejected') logger.warn({ err: t.detail }, '/v1 refused the API key: live lookups stopped (check SVC_API_KEY)');
    else logger.warn('/v1 accepts the API key again');
  });
  const events = new SharedEventFeed(store, blocking, `${keyPrefix}:events`);
  const queue = new ScreeningQueue(producer, prefix);
  const usage = new UsagePoll({ env: environment, client, service, gate, store, events, logger });

  // ---- the services: callbacks, decisions, local blocks, the watch list ----
  const callbackPolicy = new DestinationPolicy({ allow: config.callbackAllow, intakeHost: config.intakeHost });
  const callbacks = opts.callbacks?.({ store, logger, policy: callbackPolicy });
  const decisions: CarrierDecisions = new CarrierDecisions({
    store,
    env: environment,
    ttlMs: config.decisionTtlMs,
    now,
    // Read only once the local blocks below exist (a decision comes long after start).
    blockOf: (tx, q, score): Promise<LocalBlock | undefined> => blocks.find(tx, q, score),
  });
  const blocks: LocalBlocks = new LocalBlocks({
    store,
    env: environment,
    now,
    events,
    reader,
    // A carrier put on the do-not-use list: its open review closes in the same commit.
    onBlock: async (block, tx): Promise<IntakeEvent[]> => {
      const closed = await decisions.onLocalBlock(tx, block);
      return closed ? closedReviewNews(tx, store, events, closed, now()) : [];
    },
  });
  const watch: WatchService = new WatchService({
    env: environment,
    store,
    reader,
    events,
    gate,
    connection: blocking,
    prefix,
    logger,
    now,
    watchDays: config.watchDays,
    ratePerMinute,
    cacheTtlMs: config.cacheTtlMs,
    enqueue: (id, priority) => queue.add(id, priority),
    ...opts.watch,
  });

  // ---- the screening pipeline and its scoring provider (/v1) ----
  let lastQuotaEvent = 0;
  const provider = new SvcScoringProvider({
    env: environment,
    client,
    gate,
    service,
    now,
    logger,
    pauseQueue: (ms) => queue.queue.rateLimit(ms),
    paceBelow: config.concurrency,
    ...(opts.svcBackoff ? { backoff: opts.svcBackoff } : {}),
    onQuota: () => {
      // At most one quota.changed a second from this process: the tray needs no more.
      const t = Date.now();
      if (t - lastQuotaEvent < 1_000) return;
      lastQuotaEvent = t;
      void gate
        .status()
        .then((q) => events.publish('quota.changed', q))
        .catch(() => {});
    },
  });
  const pipeline = new ScreeningPipeline({
    env: environment,
    store,
    provider,
    gate,
    coalescer: new LookupCoalescer<LookupOutcome>(blocking, keyPrefix),
    events,
    blocks,
    watch,
    cacheTtlMs: config.cacheTtlMs,
    staleIfErrorMs: config.staleIfErrorMs,
    notFoundTtlMs: NOT_FOUND_TTL_MS,
    now,
    logger,
    decisions,
  });

  // ---- recovery and upkeep: the passes a worker runs ----
  const reconciler = new Reconciler(store, queue, pipeline, logger, 5_000, now);
  const outageRescreen = new OutageRescreen({
    store,
    queue,
    service,
    gate,
    probe: () => client.health(),
    withinMs: config.rescreenWithinMs,
    now,
    logger,
  });
  const pruner = new Pruner({
    store,
    policy: { eventsMs: config.eventsRetentionMs, recordsMs: config.retentionMs, notFoundMs: NOT_FOUND_TTL_MS },
    logger,
    now,
  });
  // After Redis lost its data: the operator's pause, the watch clock, the quota gate, then the
  // screenings, all from the record and /v1 (worker/recovery/redis-rebuild.ts).
  const rebuild = new RedisRebuild(
    producer,
    `${keyPrefix}:redis-state`,
    [
      {
        name: 'queue pause',
        run: async () => {
          const paused = await queuePaused(store);
          if (paused === true) await queue.pause();
          else if (paused === false) await queue.resume();
        },
      },
      { name: 'watch schedule', run: () => watch.ensureSchedule() },
      {
        name: 'quota gate',
        run: async () => {
          if (!(await gate.hasFigures())) await usage.poll();
        },
      },
      { name: 'screenings', run: () => reconciler.run() },
    ],
    logger,
  );

  // ---- start and close ----
  const timers: NodeJS.Timeout[] = [];
  let worker: Worker | undefined;
  let started = false;

  async function start(): Promise<void> {
    if (started) throw new Error('the screener was started already');
    started = true;
    // Which Redis and prefix: `npm start` on a machine with a Redis already at 6379 uses it quietly otherwise.
    const redisAt = redisWhere(config);
    logger.info({ redis: redisAt, prefix }, `Redis at ${redisAt}, key prefix ${prefix}`);
    void otherInstalls(producer, prefix).then(
      (others) => {
        if (others.length > 0)
          logger.warn(
            { redis: redisAt, prefix, others },
            `Redis at ${redisAt} also holds screening queues of another install (prefix ${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''}): ` +
              'if that is not meant, give each install its own REDIS_URL or SCREEN_REDIS_PREFIX',
          );
      },
      () => {},
    );
    if (res.keyCheck) rateGate.observe(res.keyCheck.limits); // the service's window phase, shared before our first lookup
    await rateGate.acquire(); // the start-up GET /v1/usage
    await events.start(subscriber);
    if (res.keyCheck) await usage.observeKeyCheck(res.keyCheck.usage);
    if (opts.runWorker ?? true) await startWork();
  }

  /** The queue worker, the callback sender, the watch scheduler and the periodic passes. */
  async function startWork(): Promise<void> {
    worker = createScreeningWorker({
      connection: blocking,
      prefix,
      pipeline,
      ratePerWindow: ratePerMinute,
      rateWindowMs: config.rateWindowMs,
      concurrency: config.concurrency,
      logger,
      pauseQueue: (ms) => queue.queue.rateLimit(ms),
    });
    callbacks?.startWorker?.();
    await watch.startWorkers();
    // Built above, started here: run() resolves when close() stops it.
    const started = worker;
    void started.run().catch((e: unknown) => logger.error({ err: String(e) }, 'screening worker stopped'));
    const every = (ms: number, f: () => Promise<unknown>): void => {
      const t = setInterval(() => void f().catch((e: unknown) => logger.warn({ err: String(e) }, 'periodic task failed')), ms);
      t.unref();
      timers.push(t);
    };
    every(RECONCILE_MS, () => reconciler.run());
    every(RESCREEN_PASS_MS, () => outageRescreen.run());
    rebuild.start(REDIS_STATE_CHECK_MS);
    every(PRUNE_MS, () => pruner.run());
    void pruner.run().catch((e: unknown) => logger.warn({ err: String(e) }, 'retention pass failed'));
    every(USAGE_POLL_MS, () => usage.poll());
    // Catch up at once on what a previous run left behind.
    void reconciler.run().catch((e: unknown) => logger.warn({ err: String(e) }, 'reconciler failed'));
    // Redis is back (maybe empty, after a restart without persistence): queue again at once what
    // the record accepted, and once more when the screenings accepted just before the outage are
    // past the reconciler's grace period, rather than waiting for the next periodic pass.
    producer.on('ready', () => {
      logger.info('Redis connection is back: reconciling');
      const pass = (): void => void reconciler.run().catch((e: unknown) => logger.warn({ err: String(e) }, 'reconciler failed'));
      pass();
      const t = setTimeout(pass, 6_000);
      t.unref();
      timers.push(t);
    });
  }

  async function close(): Promise<void> {
    for (const t of timers) clearInterval(t);
    rebuild.stop();
    if (worker) await closeQueueWorker(worker);
    await callbacks?.close();
    await watch.close();
    await queue.close().catch(() => {});
    await events.close();
    await client.close();
    producer.disconnect();
    blocking.disconnect();
    subscriber.disconnect(); // the event feed's, when start() did not get that far
    await res.record.close(); // the reader, then the store: after everything that uses them
  }

  return screenerOf(
    {
      environment,
      ratePerMinute,
      now,
      logger,
      client,
      record: res.record,
      producer,
      events,
      queue,
      gate,
      service,
      usage,
      callbackPolicy,
      decisions,
      blocks,
      watch,
      pipeline,
      reconciler,
      outageRescreen,
    },
    { start, close },
  );
}

/** The parts of a built graph that the Screener's methods call. */
interface ScreenerParts {
  environment: 'sandbox' | 'live';
  ratePerMinute: number;
  now: () => Date;
  logger: Logger;
  client: SvcClient;
  record: WorkerRecord;
  producer: Redis;
  events: SharedEventFeed;
  queue: ScreeningQueue;
  gate: QuotaGate;
  service: ServiceState;
  usage: UsagePoll;
  callbackPolicy: DestinationPolicy;
  decisions: CarrierDecisions;
  blocks: LocalBlocks;
  watch: WatchService;
  pipeline: ScreeningPipeline;
  reconciler: Reconciler;
  outageRescreen: OutageRescreen;
}

/**
 * The Screener over a built graph: what the intake and producers in this process call. Each
 * member is one of three services (screenings, reviews and decisions, operations) or a part of
 * the graph; the logic is in the services, not here.
 */
function screenerOf(p: ScreenerParts, life: { start(): Promise<void>; close(): Promise<void> }): BuiltScreener {
  const { environment, ratePerMinute, now, logger, client, record, producer, events, queue, gate, service, usage } = p;
  const { record: store, reader } = record;
  const { callbackPolicy, decisions, blocks, watch, pipeline, reconciler, outageRescreen } = p;
  const redisUp = redisUpCheck(producer);
  const screenings = new ScreeningService({ store, events, queue, pipeline, redisUp });
  const reviews = new ReviewService({ store, events, decisions, blocks, now, redisUp });
  const ops = new OperationsService({
    environment,
    ratePerMinute,
    store,
    writeProbe: () => record.writeProbe(),
    backend: record.backend,
    queue,
    gate,
    service,
    events,
    producer,
    now,
    logger,
  });

  const screener = {
    environment,
    recordBackend: record.backend,
    callbackPolicy,
    store,
    reader,
    dataDir: record.dataDir,
    events,
    watch,
    blocks,

    submit: (request: ScreeningRequest) => screenings.submit(request),
    waitFor: (id: string, ms: number) => screenings.waitFor(id, ms),
    screen: (input: ScreeningInput | ScreeningRequest, o?: { waitMs?: number }) => screenings.screen(toRequest(input), o),
    get: (id: string) => screenings.get(id),

    resolveReview: (
      id: string,
      decision: 'approve' | 'reject',
      actor: Actor,
      note: string | null,
      o?: { block?: boolean; version?: number },
    ) => reviews.resolveReview(id, decision, actor, note, o),
    listDecisions: (f?: DecisionFilter) => reviews.list(f),
    pageDecisions: (f: Omit<DecisionFilter, 'limit'>, page: ListPage) => reviews.page(f, page),
    getDecision: (id: string) => reviews.get(id),
    revokeDecision: (id: string, actor: Actor, note: string | null) => reviews.revoke(id, actor, note),

    status: () => ops.status(),
    ages: () => ops.ages(),
    dailyUsage: () => ops.dailyUsage(),
    pause: () => ops.pause(),
    resume: () => ops.resume(),
    health: () => ops.health(),

    reconcile: () => reconciler.run(),
    rescreenOutageHolds: () => outageRescreen.run(),
    pollUsage: () => usage.poll(),

    start: life.start,
    close: life.close,
  };
  if (environment === 'sandbox') {
    Object.assign(screener, {
      sandbox: createSandboxHelpers({
        svcBaseUrl: client.baseUrl,
        sandboxChange: (dot, change) => client.sandboxChange(dot, change),
        submit: (req) => screenings.submit(req),
        lapse: (id, actor, reason) => reviews.lapse(id, actor, reason),
      }),
    });
  }
  return screener;
}
