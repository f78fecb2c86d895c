/**
 * The reference /v1 server: one Fastify instance is one environment (sandbox or live).
 * Order of a score lookup: auth → rate limit → parameters → injected faults → quota →
 * carrier lookup → 200 (counted against a live quota).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { SvcErrorBody, SvcUsage } from '../shared/svc-contract.js';
import { AccountRegistry, type AuthFailure } from './accounts.js';
import { FaultInjector } from './fault-injector.js';
import { canonicalDot, liveCarrier, liveCarrierByMc } from './live-carriers.js';
import { DatedChanges } from './dated-changes.js';
import { MonthlyQuotaLedger } from './quota-ledger.js';
import { FixedWindowRateLimiter, type RateDecision } from './rate-limiter.js';
import { SANDBOX_OUTAGE_DOT, sandboxByDot, sandboxByMc } from './sandbox-carriers.js';
import { SANDBOX_CHANGES, SandboxChanges, isSandboxChange } from './sandbox-changes.js';
import { scoreBody, type CarrierProfile } from './score-object.js';
import { parseScoreQuery, QueryError, type ScoreQuery } from './score-query.js';
import type { EmulatorAccount, EmulatorMode, EmulatorOptions, EmulatorStats } from './types.js';
import { addUnknownFields, driftDisplayFields } from './unknown-fields.js';

/** The API release named in `SVC-Api-Version`. */
export const SVC_API_VERSION = '2025-06-01';
export const DEFAULT_RATE_PER_MINUTE: Record<EmulatorMode, number> = { sandbox: 120, live: 60 };
export const DEFAULT_MONTHLY_QUOTA = 1000;
export const DEFAULT_RATE_WINDOW_MS = 60_000;

export type EmulatorApp = FastifyInstance & { emulatorStats(): EmulatorStats; resetEmulatorStats(): void };

/** Error types: the spec names only rate_limit_error; the others are ours. */
type ErrorType = 'authentication_error' | 'invalid_request_error' | 'rate_limit_error' | 'api_error';

interface RequestContext {
  account?: EmulatorAccount;
  failure?: AuthFailure;
}

function positiveInt(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) throw new Error(`${name} must be a positive whole number`);
}

function nonNegativeInt(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 0)) throw new Error(`${name} must be a whole number ≥ 0`);
}

function emptyStats(): EmulatorStats {
  return { scoreRequests: 0, scoreLookups: 0, byDot: {}, rateLimited: 0, quotaRejected: 0, errors: 0 };
}

/** Pending fault delays, ended early when the server closes so close() does not wait. */
class Sleeps {
  private readonly pending = new Set<() => void>();
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.pending.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.pending.add(done);
    });
  }
  endAll(): void {
    for (const done of [...this.pending]) done();
  }
}

export function buildEmulator(opts: EmulatorOptions = {}): EmulatorApp {
  const mode: EmulatorMode = opts.mode ?? 'sandbox';
  if (mode !== 'sandbox' && mode !== 'live') throw new Error(`mode must be "sandbox" or "live", got ${JSON.stringify(mode)}`);
  positiveInt(opts.ratePerMinute, 'ratePerMinute');
  positiveInt(opts.rateWindowMs, 'rateWindowMs');
  nonNegativeInt(opts.monthlyQuota, 'monthlyQuota');
  for (const a of opts.accounts ?? []) {
    positiveInt(a.ratePerMinute, `accounts[${a.id}].ratePerMinute`);
    nonNegativeInt(a.monthlyQuota, `accounts[${a.id}].monthlyQuota`);
  }

  const now = opts.now ?? (() => new Date());
  const registry = new AccountRegistry(opts.accounts);
  const limiter = new FixedWindowRateLimiter(opts.rateWindowMs ?? DEFAULT_RATE_WINDOW_MS, now, opts.rateWindowOffsetMs ?? 0);
  const ledger = new MonthlyQuotaLedger(now);
  const faults = new FaultInjector(opts.faults);
  // Live records that get worse from a date on (relative to this start for the default set).
  const dated = new DatedChanges(opts.datedChanges, now());
  const live = (p: CarrierProfile | undefined): CarrierProfile | undefined => (p ? dated.apply(p, now()) : undefined);
  const sandboxChanges = new SandboxChanges();
  const sandbox = (p: CarrierProfile | undefined): CarrierProfile | undefined => (p ? sandboxChanges.apply(p) : undefined);
  const sleeps = new Sleeps();
  const defaultRate = opts.ratePerMinute ?? DEFAULT_RATE_PER_MINUTE[mode];
  const defaultQuota = opts.monthlyQuota ?? DEFAULT_MONTHLY_QUOTA;
  const rateFor = (a: EmulatorAccount): number => a.ratePerMinute ?? defaultRate;
  const quotaFor = (a: EmulatorAccount): number => a.monthlyQuota ?? defaultQuota;
  const contexts = new WeakMap<FastifyRequest, RequestContext>();
  /** Bodies being dripped (the drip fault), stopped when the server closes. */
  const drips = new Set<NodeJS.Timeout>();
  let stats = emptyStats();

  const app = Fastify({
    logger: opts.logger ? { level: 'info', redact: ['req.headers.authorization'] } : false,
    genReqId: () => `req_${randomBytes(12).toString('hex')}`,
    requestIdHeader: false,
    forceCloseConnections: true,
  });

  function sendError(reply: FastifyReply, status: number, code: string, message: string, type: ErrorType, param?: string): FastifyReply {
    const body: SvcErrorBody = { error: { code, message, type, ...(param ? { param } : {}) } };
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  }

  function setRateHeaders(reply: FastifyReply, d: RateDecision): void {
    reply.header('x-ratelimit-limit', String(d.limit));
    reply.header('x-ratelimit-remaining', String(d.remaining));
    reply.header('x-ratelimit-reset', String(d.resetAt));
  }

  function sendRateLimited(reply: FastifyReply, retryAfter: number): FastifyReply {
    stats.rateLimited++;
    reply.header('retry-after', String(faults.retryAfterSeconds ?? retryAfter));
    return sendError(
      reply,
      429,
      'rate_limit_exceeded',
      'Too many requests in this minute: wait Retry-After seconds, then retry.',
      'rate_limit_error',
    );
  }

  function sendUnavailable(reply: FastifyReply, message: string): FastifyReply {
    if (faults.error503RetryAfterSeconds !== undefined) reply.header('retry-after', String(faults.error503RetryAfterSeconds));
    return sendError(reply, 503, 'scoring_unavailable', message, 'api_error');
  }

  function sendAuthFailure(reply: FastifyReply, failure: AuthFailure | undefined): FastifyReply {
    const f = failure ?? { code: 'missing_api_key', message: 'No API key.' };
    return sendError(reply, 401, f.code, f.message, 'authentication_error');
  }

  type Lookup = { profile: CarrierProfile } | { outage: true } | { notFound: string };

  function lookup(q: ScoreQuery): Lookup {
    if ('dot' in q) {
      const dot = canonicalDot(q.dot);
      if (mode === 'sandbox' && dot === SANDBOX_OUTAGE_DOT) return { outage: true };
      const profile = mode === 'sandbox' ? sandbox(sandboxByDot(dot)) : live(liveCarrier(dot));
      return profile ? { profile } : { notFound: `No carrier with DOT number ${dot}.` };
    }
    const mc = `MC${q.mcDigits}`;
    const profile = mode === 'sandbox' ? sandbox(sandboxByMc(mc)) : live(liveCarrierByMc(q.mcDigits));
    return profile ? { profile } : { notFound: `No carrier with MC number ${mc}.` };
  }

  app.addHook('onRequest', async (req, reply) => {
    const isScore = req.routeOptions.url === '/v1/svc-score';
    if (isScore) stats.scoreRequests++;
    const auth = registry.authenticate(req.headers.authorization, mode);
    if ('failure' in auth) {
      // Unauthenticated requests belong to no account: not counted, headers show a fresh window.
      contexts.set(req, { failure: auth.failure });
      return;
    }
    contexts.set(req, { account: auth.account });
    // Every authenticated request counts, whatever the route (usage and health included).
    const d = limiter.take(auth.account.id, rateFor(auth.account));
    setRateHeaders(reply, d);
    if (!d.allowed) return sendRateLimited(reply, d.retryAfter);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-request-id', req.id);
    reply.header('svc-environment', mode);
    reply.header('svc-api-version', SVC_API_VERSION);
    const account = contexts.get(req)?.account;
    if (!reply.hasHeader('x-ratelimit-limit')) setRateHeaders(reply, limiter.peek('\0anonymous', account ? rateFor(account) : defaultRate));
    if (mode === 'live' && account) {
      reply.header('x-quota-limit', String(quotaFor(account)));
      reply.header('x-quota-remaining', String(ledger.remaining(account.id, quotaFor(account))));
    }
    return payload;
  });

  app.addHook('preClose', async () => {
    sleeps.endAll();
    for (const t of drips) clearInterval(t);
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    return sendError(
      reply,
      404,
      'not_found',
      `No route ${req.method} ${path}. Endpoints: GET /v1/svc-score, GET /v1/usage, GET /v1/health.`,
      'invalid_request_error',
    );
  });

  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    const status = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'emulator error');
      return sendError(reply, 500, 'internal_error', 'Internal error; retry with backoff.', 'api_error');
    }
    return sendError(reply, status, 'invalid_request', err.message ?? 'Invalid request.', 'invalid_request_error');
  });

  app.get('/v1/svc-score', async (req, reply) => {
    const ctx = contexts.get(req);
    const account = ctx?.account;
    if (!account) return sendAuthFailure(reply, ctx?.failure);
    let query: ScoreQuery;
    try {
      query = parseScoreQuery(req.query as Record<string, unknown>);
    } catch (e) {
      if (e instanceof QueryError) return sendError(reply, 400, 'invalid_request', e.message, 'invalid_request_error', e.param);
      throw e;
    }

    const plan = faults.plan();
    for (const [name, value] of Object.entries(faults.headerOverrides)) reply.header(name, value);
    if (plan.delayMs > 0) await sleeps.sleep(plan.delayMs);
    switch (plan.fault) {
      case 'rate_limit': {
        const d = limiter.peek(account.id, rateFor(account));
        setRateHeaders(reply, { ...d, remaining: 0 });
        return sendRateLimited(reply, d.retryAfter);
      }
      case 'error503':
        stats.errors++;
        return sendUnavailable(reply, 'Scoring is temporarily unavailable; retry with backoff.');
      case 'error500':
        stats.errors++;
        return sendError(reply, 500, 'internal_error', 'Internal error; retry with backoff.', 'api_error');
      case 'custom_error': {
        const c = faults.customError!;
        stats.errors++;
        if (c.retryAfterSeconds !== undefined) reply.header('retry-after', String(c.retryAfterSeconds));
        return sendError(reply, c.status, c.code, `Injected ${c.status} ${c.code}.`, 'api_error');
      }
      case 'not_score':
        // Well-formed JSON of another kind: not a score, so not counted as a lookup.
        stats.errors++;
        return reply.code(200).send({ object: 'maintenance_notice', message: 'Scoring is in maintenance.', until: null });
      default:
        break;
    }

    // Checked and spent with no await in between, so concurrent lookups cannot overspend.
    if (mode === 'live' && ledger.remaining(account.id, quotaFor(account)) <= 0) {
      stats.quotaRejected++;
      return sendError(
        reply,
        429,
        'monthly_quota_exceeded',
        'The monthly quota of score lookups is used up; lookups are refused until the 1st of next month, 00:00 UTC, or until the quota is raised.',
        'rate_limit_error',
      );
    }
    const found = lookup(query);
    if ('notFound' in found) return sendError(reply, 404, 'carrier_not_found', found.notFound, 'invalid_request_error');
    if ('outage' in found) {
      stats.errors++;
      return sendUnavailable(reply, 'Scoring is temporarily unavailable (simulated outage); retry with backoff.');
    }
    const body = scoreBody(found.profile, mode, now());
    if (plan.fault === 'malformed') {
      // Not a score, so not counted as a lookup.
      stats.errors++;
      const text = JSON.stringify(body);
      return reply
        .code(200)
        .type('application/json; charset=utf-8')
        .send(text.slice(0, Math.floor(text.length / 2)));
    }
    if (plan.unknownFields) addUnknownFields(body);
    if (plan.drift) driftDisplayFields(body);
    if (plan.omitNullable) {
      const carrier = body.carrier as unknown as Record<string, unknown>;
      for (const k of ['mc_number', 'legal_name', 'dba_name']) delete carrier[k];
    }
    if (mode === 'live') ledger.consume(account.id);
    stats.scoreLookups++;
    const dot = found.profile.carrier.dot_number;
    stats.byDot[dot] = (stats.byDot[dot] ?? 0) + 1;
    if (plan.fault === 'drip')
      return reply
        .code(200)
        .type('application/json; charset=utf-8')
        .send(drip(JSON.stringify(body)));
    return reply.code(200).send(body);
  });

  /** The body a few bytes at a time: every gap is short, the whole takes long (the drip fault). */
  function drip(text: string): Readable {
    const { bytes, intervalMs } = faults.drip;
    let i = 0;
    const stream = new Readable({ read() {} });
    const timer = setInterval(() => {
      if (i >= text.length) {
        stream.push(null);
        return stop();
      }
      stream.push(text.slice(i, (i += bytes)));
    }, intervalMs);
    const stop = (): void => {
      clearInterval(timer);
      drips.delete(timer);
    };
    drips.add(timer);
    stream.on('close', stop);
    return stream;
  }

  // Sandbox test controls (sandbox-changes.ts): not part of /v1, absent in live mode (404).
  if (mode === 'sandbox') {
    app.post('/v1/sandbox/carriers/:dot/change', async (req, reply) => {
      const ctx = contexts.get(req);
      if (!ctx?.account) return sendAuthFailure(reply, ctx?.failure);
      const dot = canonicalDot((req.params as { dot: string }).dot);
      if (!sandboxByDot(dot))
        return sendError(reply, 404, 'carrier_not_found', `No sandbox carrier with DOT number ${dot}.`, 'invalid_request_error', 'dot');
      const change = (req.body as { change?: unknown } | undefined)?.change;
      if (!isSandboxChange(change))
        return sendError(
          reply,
          400,
          'invalid_request',
          `change must be one of ${SANDBOX_CHANGES.join(', ')}`,
          'invalid_request_error',
          'change',
        );
      sandboxChanges.set(dot, change);
      return reply.send({ object: 'sandbox_change', dot_number: dot, change: sandboxChanges.current(dot) ?? 'none' });
    });
  }

  app.get('/v1/usage', async (req, reply) => {
    const ctx = contexts.get(req);
    const account = ctx?.account;
    if (!account) return sendAuthFailure(reply, ctx?.failure);
    const quota = quotaFor(account);
    const used = mode === 'live' ? ledger.usedThisMonth(account.id) : 0;
    const usage: SvcUsage = {
      object: 'usage',
      livemode: mode === 'live',
      account: { id: account.id, name: account.name },
      live_requests_used: used,
      monthly_quota: quota,
      remaining: Math.max(0, quota - used),
      rate_limit_per_minute: rateFor(account),
    };
    return reply.send(usage);
  });

  app.get('/v1/health', async (req, reply) => {
    const ctx = contexts.get(req);
    if (!ctx?.account) return sendAuthFailure(reply, ctx?.failure);
    return reply.send({ object: 'health', status: 'ok', livemode: mode === 'live', api_version: SVC_API_VERSION });
  });

  return Object.assign(app, {
    emulatorStats: (): EmulatorStats => structuredClone(stats),
    resetEmulatorStats: (): void => {
      stats = emptyStats();
    },
  });
}
