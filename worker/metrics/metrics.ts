import { statfsSync } from 'node:fs';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Screening, StatusReport } from '../../shared/screening.js';
import { onWriteRefused } from '../store/write-failures.js';
import { BUILD_INFO } from '../build-info.js';

/**
 * Prometheus metrics (`GET /metrics`, docs/operations.md), one registry per process.
 *
 * Two kinds, kept apart on purpose:
 * - **per process** (counters and histograms of what this process did): screenings finished,
 *   /v1 requests, callback attempts. Sum them across processes in PromQL.
 * - **shared state** (gauges read from Redis/SQLite at scrape time through /status): queue,
 *   quota, rate limit, reviews, callbacks by state, hold-off. Every process reports the same
 *   values; take max() or any one of them.
 */

export const registry = new Registry();
// prom-client's process and Node.js metrics, under their usual names (process_*, nodejs_*) so
// stock dashboards work. Three of them are gauges named *_total, which promtool flags as wrong:
// they are left out (the per-type nodejs_active_handles / _requests / _resources gauges stay).
collectDefaultMetrics({ register: registry });
for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
  registry.removeSingleMetric(name);

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

// ---- per process ----
const screenings = new Counter({
  name: 'carrier_screen_screenings_total',
  help: 'Screenings this process finished, by action and source (per process)',
  labelNames: ['action', 'source'] as const,
  registers: [registry],
});
const screeningDuration = new Histogram({
  name: 'carrier_screen_screening_duration_seconds',
  help: 'Accepted to done, for screenings this process finished (per process)',
  labelNames: ['priority'] as const,
  buckets: SECONDS,
  registers: [registry],
});
const svcRequests = new Counter({
  name: 'carrier_screen_svc_requests_total',
  help: 'Requests to /v1 by this process, by HTTP status or error code (network, timeout) (per process)',
  labelNames: ['code'] as const,
  registers: [registry],
});
const svcDuration = new Histogram({
  name: 'carrier_screen_svc_request_duration_seconds',
  help: 'Duration of each /v1 request by this process (per process)',
  buckets: SECONDS,
  registers: [registry],
});
// Not carrier_screen_callbacks_total: that counter's family would be carrier_screen_callbacks,
// the outbox gauge's name, and Prometheus/OpenMetrics parsers refuse two families of one name.
const callbacks = new Counter({
  name: 'carrier_screen_callback_attempts_total',
  help: 'Callback delivery attempts by this process, by outcome: delivered, retry, dead (per process)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const writesRefused = new Counter({
  name: 'carrier_screen_store_writes_refused_total',
  help: "Record writes refused in this process, by code: sqlite_full, sqlite_ioerr, sqlite_readonly (the SQLite file's disk); db_full, db_readonly, db_ioerr (the PostgreSQL server) (per process)",
  labelNames: ['code'] as const,
  registers: [registry],
});
onWriteRefused((code) => writesRefused.inc({ code }));

new Gauge({
  name: 'carrier_screen_build_info',
  help: 'Always 1; the labels say what runs: version (package.json) and node (per process)',
  labelNames: ['version', 'node'] as const,
  registers: [registry],
}).set({ version: BUILD_INFO.version, node: BUILD_INFO.node }, 1);

// ---- shared state, set from /status at scrape time ----
const gauge = (name: string, help: string, labelNames: string[] = []): Gauge<string> =>
  new Gauge({ name, help: `${help} (shared state)`, labelNames, registers: [registry] });
const queueJobs = gauge('carrier_screen_queue_jobs', 'Screening jobs in the queue, by state', ['state']);
const queuePaused = gauge('carrier_screen_queue_paused', '1 while an operator has paused the queue');
const quotaRemaining = gauge('carrier_screen_quota_remaining', 'Live lookups left this month (NaN when not known yet)');
const quotaLimit = gauge('carrier_screen_quota_limit', 'Live lookups allowed this month (NaN when not known yet)');
const quotaReserve = gauge('carrier_screen_quota_reserve', 'Lookups kept for tender-time requests (SCREEN_QUOTA_RESERVE)');
const quotaGate = gauge('carrier_screen_quota_gate', '1 for the quota gate state now: open, reserve (background refused) or closed', [
  'state',
]);
const rateRemaining = gauge('carrier_screen_rate_limit_remaining', 'Requests left in the current /v1 rate window (NaN when not known)');
const reviewsPending = gauge('carrier_screen_reviews_pending', 'Carriers waiting for a dispatcher');
const oldestReview = gauge('carrier_screen_reviews_oldest_pending_seconds', 'Age of the oldest pending review (0 when none)');
const callbackRows = gauge(
  'carrier_screen_callbacks',
  'Callbacks in the outbox by state: pending, delivered (kept 7 days), dead, cancelled',
  ['state'],
);
// Ages, read from SQLite (the record) at each scrape even when Redis is down; 0 when none.
const oldestCallback = gauge(
  'carrier_screen_callbacks_oldest_pending_seconds',
  'Age of the oldest callback still owed (pending), 0 when none',
);
const pausedFor = gauge('carrier_screen_queue_paused_seconds', 'How long the operator has paused the queue, 0 while it runs');
const oldestQueued = gauge(
  'carrier_screen_queue_oldest_queued_seconds',
  'Age of the oldest screening waiting for a worker (queued), 0 when none',
);
const svcReachable = gauge('carrier_screen_svc_reachable', '1 when /v1 answered the last call');
const svcKeyRejected = gauge('carrier_screen_svc_key_rejected', '1 when /v1 rejected the API key');
const holdOff = gauge('carrier_screen_svc_hold_off', '1 while /v1 asked (Retry-After) for no calls');
const holdOffSeconds = gauge('carrier_screen_svc_hold_off_remaining_seconds', 'Seconds left of the hold-off (0 when none)');

const num = (v: number | null | undefined): number => (v === null || v === undefined ? Number.NaN : v);

/** Hooks the worker calls where things happen (cheap: a counter increment). */
export const observe = {
  screeningDone(s: Screening): void {
    screenings.inc({ action: s.action ?? 'none', source: s.source ?? 'none' });
    if (s.completed_at)
      screeningDuration.observe({ priority: s.priority }, Math.max(0, (Date.parse(s.completed_at) - Date.parse(s.created_at)) / 1000));
  },
  svcRequest(code: string, seconds: number): void {
    svcRequests.inc({ code });
    svcDuration.observe(seconds);
  },
  callback(outcome: 'delivered' | 'retry' | 'dead'): void {
    callbacks.inc({ outcome });
  },
};

const sharedUp = new Gauge({
  name: 'carrier_screen_shared_state_up',
  help: '1 when the shared state (Redis, the record) could be read for this scrape; 0 leaves the shared gauges at their last values',
  registers: [registry],
});

/**
 * The text for one scrape: the shared gauges from `status()` (Redis/SQLite now), then
 * everything. When the shared state cannot be read (Redis down) the scrape still succeeds —
 * the process is up — and says so in carrier_screen_shared_state_up.
 */
export async function metricsText(
  status: () => Promise<StatusReport>,
  o: { dataDir?: string; now?: () => number; ages?: () => Promise<Ages> } = {},
): Promise<string> {
  const now = o.now ?? (() => Date.now());
  if (o.dataDir !== undefined) setFreeBytes(o.dataDir);
  if (o.ages) await setAges(o.ages, now());
  try {
    setShared(await status(), now());
    sharedUp.set(1);
  } catch {
    sharedUp.set(0);
  }
  return registry.metrics();
}

function setShared(status: StatusReport, now: number): void {
  const q = status.queue;
  for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed'] as const) queueJobs.set({ state }, q[state]);
  queuePaused.set(q.paused ? 1 : 0);
  quotaRemaining.set(num(status.quota.remaining));
  quotaLimit.set(num(status.quota.monthly_quota));
  quotaReserve.set(num(status.quota.reserve));
  for (const state of ['open', 'reserve', 'closed']) quotaGate.set({ state }, status.quota.gate === state ? 1 : 0);
  rateRemaining.set(num(status.rate_limit.remaining));
  reviewsPending.set(status.reviews.pending);
  const oldest = status.reviews.oldest_pending_at;
  oldestReview.set(oldest ? Math.max(0, (now - Date.parse(oldest)) / 1000) : 0);
  const cb = (status as { callbacks?: Record<string, number> }).callbacks ?? {};
  for (const state of ['pending', 'delivered', 'dead', 'cancelled']) callbackRows.set({ state }, cb[state] ?? 0);
  svcReachable.set(status.service.reachable ? 1 : 0);
  svcKeyRejected.set(status.service.key_rejected ? 1 : 0);
  const until = status.service.hold_off_until ? Date.parse(status.service.hold_off_until) : 0;
  holdOff.set(until > now ? 1 : 0);
  holdOffSeconds.set(until > now ? (until - now) / 1000 : 0);
}

/** When the oldest of each thing began (ISO), or null when there is none: from SQLite. */
export interface Ages {
  oldest_pending_callback_at: string | null;
  queue_paused_since: string | null;
  oldest_queued_at: string | null;
}

async function setAges(read: () => Promise<Ages>, now: number): Promise<void> {
  const age = (at: string | null): number => (at ? Math.max(0, (now - Date.parse(at)) / 1000) : 0);
  try {
    const a = await read();
    oldestCallback.set(age(a.oldest_pending_callback_at));
    pausedFor.set(age(a.queue_paused_since));
    oldestQueued.set(age(a.oldest_queued_at));
  } catch {
    // SQLite unreadable: NaN rather than a reassuring 0 (carrier_screen_shared_state_up says why).
    for (const g of [oldestCallback, pausedFor, oldestQueued]) g.set(Number.NaN);
  }
}

const dataDirFree = new Gauge({
  name: 'carrier_screen_data_dir_free_bytes',
  help: 'Bytes free for this process on the file system of the data directory, SCREEN_DATA_DIR (NaN when it cannot be read)',
  registers: [registry],
});

function setFreeBytes(dir: string): void {
  try {
    const fs = statfsSync(dir);
    dataDirFree.set(fs.bavail * fs.bsize); // what an unprivileged writer may still use
  } catch {
    dataDirFree.set(Number.NaN);
  }
}

export const METRICS_CONTENT_TYPE = registry.contentType;
