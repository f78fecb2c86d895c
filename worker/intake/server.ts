import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomBytesPooled } from '../../shared/random-pool.js';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import { canonicalDot, normalizeMc, parseCarrierQuery } from '../../shared/carrier-id.js';
import type { Screening } from '../../shared/screening.js';
import type { Screener } from '../screener-types.js';
import { authenticator } from './auth.js';
import { IntakeTokens } from '../tokens/intake-tokens.js';
import { actorOf, checkRefresh, type IntakeApp } from './intake-app.js';
import { mayUse } from '../tokens/roles.js';
import { openEventStream, type EventStream } from './event-stream.js';
import { HttpError, badRequest, conflict, isoParam, notFound, routeNotFound, toHttpError } from './http-error.js';
import { pageParams } from './paging.js';
import { connectionOf } from '../store/sqlite-store.js';
import type { ScreeningFilter } from '../store/screening-search.js';
import { reviewsPage, screeningsPage } from '../store/list-reads.js';
import { replyJson, sendJsonBody } from './reply-json.js';
import {
  CallerSchema,
  DailyUsageSchema,
  ErrorBody,
  EventsQuery,
  HealthSchema,
  ListOf,
  NoQuery,
  RejectBody,
  ReviewDecisionBody,
  ReviewListQuery,
  ReviewParams,
  ReviewSchema,
  ScreeningBody,
  ScreeningCreateQuery,
  ScreeningListQuery,
  ScreeningParams,
  ScreeningSchema,
  StatusSchema,
} from './schemas.js';
import { UI_CSP, readUiFile } from './static-ui.js';
import { describeValidation, typeboxValidatorCompiler } from './validation.js';
import { registerBatchRoutes } from './batch-routes.js';
import { checkCallbackDestination, parseCallbackUrl } from './callback-url.js';
import { registerCallbackRoutes } from './callback-routes.js';
import { registerDecisionRoutes } from './decision-routes.js';
import { registerSandboxRoutes } from './sandbox-routes.js';
import { registerEventLogRoutes } from './event-log-routes.js';
import { idempotent } from './idempotent.js';
import { METRICS_CONTENT_TYPE, metricsText } from '../metrics/metrics.js';
import { withLogContext } from '../log-context.js';
import { IdempotencyKeys } from '../decisions/idempotency.js';
import { RouteTable } from './route-table.js';
import { COMPONENTS, STREAM_EVENT_NAMES } from './components.js';
import { completeDocument, documentRoute, openapiBase } from './openapi-doc.js';
import { registerWatchRoutes, watchOf } from './watch-routes.js';
import { DEFAULT_INTAKE_LIMITS, type IntakeLimits } from '../../shared/config.js';
import { TLS_MIN_VERSION, type IntakeTls } from './transport.js';
import { API_VERSIONS, API_VERSION_HEADER, LATEST_API_VERSION, isApiVersion } from '../../shared/api-versions.js';

/** The intake HTTP API (DESIGN.md, "Intake API"): the TMS and the tray talk to the worker here. */


export interface IntakeOptions {
  screener: Screener;
  /** The bearer token every route but /healthz and /ui/* requires. */
  token: string;
  logger?: Logger;
  /** Largest accepted request body in bytes (default 16 KiB). */
  bodyLimit?: number;
  /** The built tray dashboard, served under /ui/ (default dist/electron/renderer). */
  uiDir?: string;
  /** SSE heartbeat interval (default 15 s). */
  heartbeatMs?: number;
  /** HTTPS with this certificate and key (TLS 1.2 and later); plain HTTP when absent. */
  tls?: IntakeTls;
  /** Time-outs, connection and stream caps, rate limit (default DEFAULT_INTAKE_LIMITS). */
  limits?: Partial<IntakeLimits>;
  /** How often open /events streams are checked for a revoked token (default 2 s). */
  revocationCheckMs?: number;
}

/** The newest API version (shared/api-versions.ts): what a request without a pin and a token without one get. */
export const API_VERSION = LATEST_API_VERSION;
const VERSION_HEADER = API_VERSION_HEADER.toLowerCase();
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Secrets must never reach a log line, whatever object they ride in. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'svcApiKey',
  '*.svcApiKey',
  'secret',
  '*.secret',
  'intakeToken',
  '*.intakeToken',
  'callbackSecret',
  '*.callbackSecret',
];

const JSON_TYPE = 'application/json; charset=utf-8';

function sendError(reply: FastifyReply, e: HttpError): void {
  if (e.statusCode === 401) reply.header('www-authenticate', 'Bearer');
  reply.header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
  void reply.code(e.statusCode).type(JSON_TYPE).send(e.body());
}

/** A request id of ours (`req_` and 24 hex digits). */
const newRequestId = (): string => `req_${randomBytesPooled(12).toString('hex')}`;

/**
 * Answers a request Node's HTTP parser refused, in the `{"error":{"code","message"}}` shape,
 * with an X-Request-Id of its own (no request was parsed, so none of the caller's) that the
 * log line names too: a 431 or 408 can be quoted to support like any answer.
 */
function clientErrorAnswerer(log: Logger): (err: Error & { code?: string }, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'the request headers are too large']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'request_timeout', 'the request was not received in time']
          : [400, 'invalid_request', 'the request is not valid HTTP'];
    const body = JSON.stringify({ error: { code, message } });
    // Node's own rule: no error segment once an answer to the request has begun on this socket
    // (e.g. a 401 sent from the headers before a broken body arrived): one answer per request.
    const inFlight = (socket as Socket & { _httpMessage?: { _headerSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?._headerSent) {
      const reqId = newRequestId();
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${reqId}\r\n${VERSION_HEADER}: ${API_VERSION}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
      );
      log.info({ reqId, status, code }, 'request refused before it was read');
    }
    socket.destroy(err);
  };
}


/** Path params that name a screening (GET /screenings/:id). */
const SCREENING_ID_RE = /^scr_[a-z2-7]{26}$/;

/**
 * The request's info line: its id (reqId, from the request's logger), route, status and the
 * screening it concerns, so "quote X-Request-Id to support" holds at the default level.
 * Path only: a query string may hold a caller's ids; the token never appears here.
 */
function logRequest(req: FastifyRequest, status: number, ms?: number): void {
  const param = (req.params as { id?: unknown } | undefined)?.id;
  const screening_id = req.screeningId ?? (typeof param === 'string' && SCREENING_ID_RE.test(param) ? param : undefined);
  req.log.info(
    { method: req.method, route: req.routeOptions.url ?? null, path: req.url.split('?')[0], status, ...(ms === undefined ? {} : { ms }), ...(screening_id ? { screening_id } : {}) },
    'request',
  );
}

function parseLastEventId(req: FastifyRequest, fromQuery: number | undefined): number | undefined {
  const header = req.headers['last-event-id'];
  if (header === undefined) return fromQuery;
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v.trim() === '') return fromQuery;
  if (!/^\d{1,15}$/.test(v.trim())) throw badRequest('the Last-Event-ID header must be a whole number', 'Last-Event-ID');
  return Number(v.trim());
}

export function buildIntake(o: IntakeOptions): IntakeApp {
  const { screener } = o;
  const keys = new IdempotencyKeys(screener.store);
  const tokens = new IntakeTokens(connectionOf(screener.store));
  const authenticate = authenticator(o.token, tokens);
  // For the free-bytes gauge: the file system the database grows on (':memory:' in some tests).
  const dataDir = dirname(resolve(connectionOf(screener.store).name));
  const uiDir = resolve(o.uiDir ?? 'dist/electron/renderer');
  const baseLogger = o.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const logger = baseLogger.child({ module: 'intake' }, { redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
  /** Open /events streams and the token each was opened with (null: INTAKE_TOKEN). */
  const streams = new Map<EventStream, string | null>();
  const limits: IntakeLimits = { ...DEFAULT_INTAKE_LIMITS, ...o.limits };
  // Node's own guards against slow clients: the request line and headers, then the whole
  // request, must arrive in time, checked every second (Node's default is every 30 s). They
  // act before any hook runs, so before auth.
  const nodeServer = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: 1_000,
  };

  const app = Fastify({
    ...(o.tls ? { https: { ...nodeServer, cert: o.tls.cert, key: o.tls.key, minVersion: TLS_MIN_VERSION } } : { http: nodeServer }),
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    loggerInstance: logger as FastifyBaseLogger,
    // One info line per request (the onResponse hook, with the request id), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: o.bodyLimit ?? 16 * 1024,
    // Bad percent-encoding in the path: our JSON error, not Fastify's.
    frameworkErrors: (err, _req, reply) => sendError(reply, toHttpError(err)),
    return503OnClosing: true,
    // A dashboard left open keeps connections alive; shutting down must not wait for it.
    forceCloseConnections: true,
    // Broken HTTP (bad request line or headers, headers over 16 KiB): our JSON error shape too.
    clientErrorHandler: clientErrorAnswerer(logger),
    // X-Request-Id: the caller's own (when it is a sane id) or ours; in every answer and log line.
    requestIdHeader: false,
    genReqId: (req) => {
      const v = req.headers['x-request-id'];
      return typeof v === 'string' && REQUEST_ID_RE.test(v) ? v : newRequestId();
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as IntakeApp;
  // Beyond the cap a new connection is closed at once, before a byte of it is read.
  app.server.maxConnections = limits.maxConnections;

  app.setValidatorCompiler(typeboxValidatorCompiler);
  // Response schemas document only: plain JSON keeps every field of the /v1 score.
  app.setSerializerCompiler(() => replyJson);
  // Only JSON bodies: text/plain would otherwise be parsed and reach the handlers.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((err, req, reply) => {
    let e: HttpError;
    const validation = (err as { validation?: unknown[] }).validation;
    if (Array.isArray(validation)) {
      const part = (err as { validationContext?: string }).validationContext;
      const schemas = req.routeOptions.schema as Record<string, unknown> | undefined;
      const d = describeValidation(validation, part, schemas?.[part ?? 'body'] as never);
      e = badRequest(d.message, d.param);
    } else {
      e = toHttpError(err);
    }
    // A 503 (Redis down, disk full) is the outage's answer, logged where the outage is seen:
    // one debug line per refused request, not a stack trace each.
    if (e.statusCode === 503) req.log.debug({ code: e.code, err: e.message }, 'request refused: unavailable');
    else if (e.statusCode >= 500) req.log.error({ err }, 'request failed');
    sendError(reply, e);
  });
  const routes = new RouteTable();
  app.addHook('onRoute', (route) => {
    // A route that forgot its role must not start (rather than default to the weakest).
    const config = route.config as { public?: boolean; role?: string } | undefined;
    if (config?.public !== true && config?.role === undefined) throw new Error(`intake route ${String(route.method)} ${route.url} declares neither config.role nor config.public`);
    routes.add(route.url, route.method);
    // Every documented operation is named, tagged, described, and lists what its door answers.
    documentRoute(route);
  });
  // The answers' shapes: #/components/schemas/<name>, referenced by $ref from the routes.
  for (const c of COMPONENTS) app.addSchema(c);
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    const allow = routes.allowed(path);
    if (allow.length === 0) return sendError(reply, routeNotFound(req.method, path));
    reply.header('allow', allow.join(', '));
    sendError(reply, new HttpError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}; allowed: ${allow.join(', ')}`));
  });

  /** Who the request is, and whether its token's role may use the route (401, 403). */
  function checkCaller(req: FastifyRequest): void {
    if (req.routeOptions.config.public === true) return;
    const caller = authenticate(req.headers.authorization);
    if (!caller) throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token: send Authorization: Bearer <token> (INTAKE_TOKEN, or one from `carrier-screen token create`)');
    req.caller = caller;
    // An unknown route has no role of its own: the not-found handler answers it.
    const url = req.routeOptions.url;
    if (url === undefined) return;
    // The route's own role: a HEAD route carries its GET's config, so HEAD needs what GET needs.
    const needed = req.routeOptions.config.role;
    if (needed === undefined) throw new HttpError(500, 'api_error', `${req.method} ${url} declares no role`);
    if (!mayUse(caller.role, needed))
      throw new HttpError(403, 'forbidden', `${req.method} ${url} needs a ${needed} token (or admin); this token's role is ${caller.role}`);
  }

  // Hooks in callback style: an async hook costs promises on every request, and a cache hit is
  // a request of ~200 us.
  app.addHook('onRequest', (req, _reply, done) => {
    try {
      checkCaller(req);
      // Stripe's way: an answer may be pinned to an API version; an unknown one is refused.
      // Stripe's way: the header's version, else the one the token was pinned to when it was made.
      const pinned = req.headers[VERSION_HEADER];
      if (pinned !== undefined && !isApiVersion(String(pinned)))
        throw badRequest(`unknown ${API_VERSION_HEADER}: ${String(pinned).slice(0, 40)}; known: ${API_VERSIONS.join(', ')}`, API_VERSION_HEADER);
      req.apiVersion = pinned !== undefined ? String(pinned) : (req.caller?.api_version ?? API_VERSION);
    } catch (e) {
      done(e as Error);
      return;
    }
    // The rest of the request (its handler, the screening it accepts) logs with its request id.
    withLogContext({ request_id: req.id }, done);
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-request-id', req.id);
    reply.header(VERSION_HEADER, req.apiVersion ?? API_VERSION);
    // When to look again: a queued screening, or a moment of unavailability.
    if (!reply.hasHeader('retry-after')) {
      if (reply.statusCode === 202) reply.header('retry-after', '2');
      else if (reply.statusCode === 503) reply.header('retry-after', '5');
    }
    done(null, payload);
  });
  app.addHook('onResponse', (req, reply, done) => {
    logRequest(req, reply.statusCode, Math.round(reply.elapsedTime * 10) / 10);
    done();
  });
  // Open event streams never end by themselves: end them so close() does not hang.
  app.addHook('preClose', async () => {
    clearInterval(revocationCheck);
    for (const s of streams.keys()) s.close();
  });
  // A token revoked from another process (`carrier-screen token revoke`) ends its open streams
  // within seconds; new requests are refused at once by the auth hook.
  const revocationCheck = setInterval(() => {
    const ids = new Set([...streams.values()].filter((id): id is string => id !== null));
    if (ids.size === 0) return;
    try {
      const gone = new Set([...ids].filter((id) => !tokens.isActive(id)));
      for (const [s, id] of streams) if (id !== null && gone.has(id)) s.close();
    } catch (err) {
      logger.warn({ err }, 'could not check the open event streams for revoked tokens');
    }
  }, o.revocationCheckMs ?? 2_000);
  revocationCheck.unref();

  // Per-token rate limit (in this process's memory: one intake per worker installation). A
  // route-level hook, so it runs after the auth hook and counts per token, not per address.
  if (limits.ratePerMinute > 0)
    void app.register(rateLimit, {
      global: true,
      max: limits.ratePerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => (req.caller ? (req.caller.token_id ?? 'intake_token') : `ip:${req.ip}`),
      // Retry-After in seconds, with the error envelope every other refusal has.
      errorResponseBuilder: (_req, ctx) =>
        new HttpError(429, 'rate_limited', `more than ${ctx.max} requests a minute with this token (INTAKE_RATE_LIMIT); retry in ${ctx.after}`),
    });

  void app.register(swagger, {
    openapi: openapiBase(API_VERSION) as never,
    transformObject: completeDocument as never,
    // Components keep their own names (Screening, Review …), not def-0, def-1.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  void app.register(async (plugin) => {
    const r = plugin.withTypeProvider<TypeBoxTypeProvider>();
    const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody };

    r.post(
      '/screenings',
      {
        config: { role: 'tms' },
        schema: {
          summary: 'Screen a carrier',
          description: 'Exactly one of dot_number or mc_number. 200 with the finished screening when done within `wait` seconds, else 202 queued.',
          querystring: ScreeningCreateQuery,
          body: ScreeningBody,
          response: { 200: ScreeningSchema, 202: ScreeningSchema, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
        },
      },
      async (req, reply) => {
        const b = req.body;
        // Cheap checks first; the callback_url's DNS lookup only for a request nothing else refuses
        // (and not for a replayed Idempotency-Key).
        const query = parseCarrierQuery(b);
        checkRefresh(req, b.refresh);
        const url = b.callback_url == null ? null : parseCallbackUrl(b.callback_url);
        let s: Screening = await idempotent(
          keys,
          req,
          reply,
          'POST /screenings',
          async () =>
            screener.submit({
              query,
              tender_id: b.tender_id ?? null,
              load: b.load ?? null,
              callback_url: url === null ? null : await checkCallbackDestination(url, screener.callbackPolicy, req.log),
              priority: b.priority ?? 'tender',
              refresh: b.refresh ?? false,
            }),
          (id) => screener.get(id),
        );
        const wait = req.query.wait ?? 0;
        if (s.status !== 'done' && wait > 0) s = await screener.waitFor(s.id, wait * 1000);
        req.screeningId = s.id;
        reply.header('location', `/screenings/${s.id}`);
        return reply.code(s.status === 'done' ? 200 : 202).send(s);
      },
    );

    r.get(
      '/screenings',
      { config: { role: 'tms' }, schema: { summary: 'Recent screenings, newest first', querystring: ScreeningListQuery, response: { 200: ListOf(ScreeningSchema), ...errors } } },
      async (req, reply) => {
        const q = req.query;
        const filter: ScreeningFilter = {
          ...(q.tender_id === undefined ? {} : { tender_id: q.tender_id }),
          ...(q.dot_number === undefined ? {} : { dot_number: canonicalDot(q.dot_number.trim()) }),
          ...(q.mc_number === undefined ? {} : { mc_number: normalizeMc(q.mc_number) }),
          ...(q.status === undefined || q.status === 'all' ? {} : { status: q.status }),
          ...(q.action === undefined ? {} : { action: q.action }),
          ...(q.updated_since === undefined ? {} : { updated_since: isoParam(q.updated_since, new Date(), 'updated_since') }),
        };
        // A reader thread (worker/store/reader-pool.ts): a search never holds the tender path, and
        // the thread makes the body too (the rows are neither copied to nor serialized here).
        return sendJsonBody(reply, await screener.reader.readJson(screeningsPage, { filter, page: pageParams(q) }));
      },
    );

    r.get(
      '/screenings/:id',
      { config: { role: 'tms' }, schema: { summary: 'One screening', params: ScreeningParams, querystring: NoQuery, response: { 200: ScreeningSchema, ...errors } } },
      async (req) => screener.get(req.params.id) ?? Promise.reject(notFound(`no screening ${req.params.id}`)),
    );

    r.get(
      '/reviews',
      { config: { role: 'tms' }, schema: { summary: 'Review items (pending: oldest first)', querystring: ReviewListQuery, response: { 200: ListOf(ReviewSchema), ...errors } } },
      async (req, reply) => {
        const state = req.query.state === 'all' || req.query.state === undefined ? undefined : req.query.state;
        return sendJsonBody(reply, await screener.reader.readJson(reviewsPage, { state, page: pageParams(req.query) }));
      },
    );

    r.get(
      '/reviews/:id',
      { config: { role: 'tms' }, schema: { summary: 'One review item', params: ReviewParams, querystring: NoQuery, response: { 200: ReviewSchema, ...errors } } },
      async (req) => screener.store.getReview(req.params.id) ?? Promise.reject(notFound(`no review ${req.params.id}`)),
    );

    for (const decision of ['approve', 'reject'] as const) {
      r.post(
        `/reviews/:id/${decision}`,
        {
          config: { role: 'desk' },
          schema: {
            summary: decision === 'approve' ? 'Approve a held carrier (action becomes tender)' : 'Reject a held carrier (action becomes block)',
            description:
              'Send review_version, the version of the review you decided on: 409 review_stale (with the review as it is now) when the carrier\'s facts changed since. Who decided is the token\'s name; `by` counts only from an admin token (docs/decisions.md).',
            params: ReviewParams,
            querystring: NoQuery,
            body: decision === 'reject' ? RejectBody : ReviewDecisionBody,
            response: { 200: ReviewSchema, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
          },
        },
        async (req, reply) => {
          // Bad input is refused before anything is looked up. Who decides: the credential (actorOf).
          const actor = actorOf(req, req.body.by);
          const review = await idempotent(
            keys,
            req,
            reply,
            `POST /reviews/${req.params.id}/${decision}`,
            async () => {
              const existing = screener.store.getReview(req.params.id);
              if (!existing) throw notFound(`no review ${req.params.id}`);
              // A review closed by new facts is not a conflict but news (review_stale, from resolveReview).
              if (existing.state !== 'pending' && existing.state !== 'closed')
                throw conflict('review_conflict', `review ${existing.id} is already ${existing.state} by ${existing.decided_by ?? 'someone'}`, existing.id);
              const block = (req.body as { block?: boolean }).block === true;
              const version = req.body.review_version;
              return screener.resolveReview(req.params.id, decision, actor, req.body.note ?? null, { block, ...(version === undefined ? {} : { version }) });
            },
            (id) => screener.store.getReview(id),
          );
          req.screeningId = review.screening_id;
          return review;
        },
      );
    }

    r.get('/status', { config: { role: 'tms' }, schema: { summary: 'Queue, quota, rate limit, reviews, /v1 reachability', querystring: NoQuery, response: { 200: StatusSchema, ...errors } } }, () =>
      screener.status(),
    );
    // Who this token is: the desk shows it and needs no typed name when the token has one.
    r.get('/me', { config: { role: 'tms' }, schema: { summary: 'Who the bearer token is: its id, name and role', querystring: NoQuery, response: { 200: CallerSchema, ...errors } } }, async (req) => {
      const c = req.caller!;
      return { object: 'caller' as const, token_id: c.token_id, name: c.name, role: c.role };
    });
    r.get('/usage/daily', { config: { role: 'tms' }, schema: { summary: 'Live lookups per UTC day this month', querystring: NoQuery, response: { 200: DailyUsageSchema, ...errors } } }, async () =>
      screener.dailyUsage(),
    );
    r.post('/queue/pause', { config: { role: 'admin' }, schema: { summary: 'Stop calling /v1 (intake keeps accepting)', querystring: NoQuery, response: { 200: StatusSchema, ...errors } } }, async () => {
      await screener.pause();
      return screener.status();
    });
    r.post('/queue/resume', { config: { role: 'admin' }, schema: { summary: 'Resume calling /v1', querystring: NoQuery, response: { 200: StatusSchema, ...errors } } }, async () => {
      await screener.resume();
      return screener.status();
    });

    r.get(
      '/events',
      {
        config: { role: 'tms' },
        // A HEAD would open a stream that never ends.
        exposeHeadRoute: false,
        schema: {
          summary: 'Server-Sent Events: screenings, reviews, carrier changes, quota and queue',
          description:
            'Send Last-Event-ID (header) or last_event_id (query) to replay what was missed (events are kept SCREEN_EVENTS_RETENTION, 7 days by default). At most INTAKE_SSE_PER_TOKEN open streams per token (429 too_many_streams); a revoked token\'s streams end within seconds.',
          querystring: EventsQuery,
          response: {
            200: {
              description: `A stream of Server-Sent Events (${STREAM_EVENT_NAMES.join(', ')}; an open set), each an id:, event: and one data: line of JSON; the data of each is in the StreamEvent schema. A comment line every 15 s keeps it open.`,
              content: { 'text/event-stream': { schema: Type.String({ contentMediaType: 'text/event-stream', contentSchema: Type.Ref('StreamEvent') }) } },
            },
            429: ErrorBody,
          },
        },
      },
      async (req, reply) => {
        const last = parseLastEventId(req, req.query.last_event_id);
        const tokenId = req.caller?.token_id ?? null;
        let open = 0;
        for (const id of streams.values()) if (id === tokenId) open++;
        if (open >= limits.ssePerToken)
          throw new HttpError(429, 'too_many_streams', `this token already has ${open} open /events streams (INTAKE_SSE_PER_TOKEN); close one before opening another`);
        // A hijacked answer skips the onSend and onResponse hooks: its headers and log line here.
        reply.raw.setHeader('x-request-id', req.id);
        reply.raw.setHeader(VERSION_HEADER, API_VERSION);
        reply.raw.setHeader('x-content-type-options', 'nosniff');
        reply.hijack();
        logRequest(req, 200);
        // A stream may end while it opens (the event log unreadable): then it is never counted.
        let ended = false;
        // `let`: onClose may run inside openEventStream, before the assignment below.
        let stream: EventStream | undefined;
        // eslint-disable-next-line prefer-const -- see above
        stream = openEventStream(reply.raw, screener.events, last, {
          ...(o.heartbeatMs === undefined ? {} : { heartbeatMs: o.heartbeatMs }),
          onClose: () => {
            ended = true;
            if (stream) streams.delete(stream);
          },
        });
        if (!ended) streams.set(stream, tokenId);
      },
    );

    r.get(
      '/healthz',
      { config: { public: true, rateLimit: false }, schema: { summary: 'Health (no auth)', security: [], querystring: NoQuery, response: { 200: HealthSchema, 503: HealthSchema } } },
      async (req, reply) => {
        let h: { redis: boolean; sqlite: boolean; sqlite_writable?: boolean; svc: boolean; svc_key_rejected?: boolean };
        try {
          h = await screener.health();
        } catch (err) {
          req.log.warn({ err }, 'health check failed');
          h = { redis: false, sqlite: false, sqlite_writable: false, svc: false };
        }
        // Writes refused (a full disk): reads are still served, new work is not. 503, so a load
        // balancer or orchestrator sends work elsewhere; 200 again once a write succeeds.
        if (h.redis && h.sqlite && h.sqlite_writable === false)
          return reply.code(503).send({ status: 'degraded', ...h, error: { code: 'storage_unavailable', message: 'SQLite refuses writes (a full disk or a file-size limit): reads are served, new work is not accepted' } });
        if (h.redis && h.sqlite) return { status: h.svc ? 'ok' : 'degraded', ...h };
        const down = [h.redis ? null : 'Redis', h.sqlite ? null : 'SQLite'].filter(Boolean).join(' and ');
        return reply.code(503).send({ status: 'down', ...h, error: { code: 'unavailable', message: `${down} ${down.includes(' and ') ? 'are' : 'is'} down` } });
      },
    );

    // watch hook: /watchlist, /changes, /blocks (docs/watchlist.md).
    const watch = watchOf(screener);
    if (watch) registerWatchRoutes(r, watch);
    // /screenings/batch: a load board at once, one answer per item (207).
    registerBatchRoutes(r, screener, keys);
    // /callbacks: the outbox's deliveries, retry of a dead one (docs/callbacks.md).
    registerCallbackRoutes(r, screener.store, screener.reader);
    // /decisions: standing carrier decisions (docs/decisions.md).
    registerDecisionRoutes(r, screener);
    // /sandbox/*: test helpers, admin only, sandbox keys only (docs/api.md).
    registerSandboxRoutes(r, screener);
    // /event-log: the events as a list to catch up from (the stream is /events).
    registerEventLogRoutes(r, screener);

    // Prometheus text (docs/operations.md); bearer token like every route but /healthz.
    r.get(
      '/metrics',
      {
        config: { role: 'metrics' },
        schema: {
          summary: 'Prometheus metrics: per-process counters and shared state read at scrape time (any token; a metrics token reads only this)',
          querystring: NoQuery,
          response: { 200: { description: 'Prometheus text exposition format 0.0.4.', content: { 'text/plain': { schema: Type.String() } } } },
        },
      },
      async (_req, reply) => reply.type(METRICS_CONTENT_TYPE).send((await metricsText(() => screener.status(), { dataDir, ages: () => screener.ages() })) as never),
    );

    // The contract holds no data: served without a token, as the docs are.
    r.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => r.swagger());

    r.get('/ui', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async (_req, reply) => reply.redirect('/ui/', 301));
    r.get('/ui/*', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async (req, reply) => {
      const rel = (req.params as { '*'?: string })['*'] ?? '';
      const file = await readUiFile(uiDir, rel === '' ? 'index.html' : rel);
      if (!file) throw notFound(rel === '' ? 'the tray UI is not built (run the build first)' : `no UI file ${rel}`);
      return reply
        .header('content-security-policy', UI_CSP)
        .header('cache-control', 'no-cache')
        .header('referrer-policy', 'no-referrer')
        .header('x-frame-options', 'DENY')
        .type(file.contentType)
        .send(file.body);
    });
  });

  return app;
}

export interface RunningIntake {
  url: string;
  app: IntakeApp;
  close(): Promise<void>;
}

export async function startIntake(o: IntakeOptions & { host: string; port: number }): Promise<RunningIntake> {
  const app = buildIntake(o);
  await app.listen({ host: o.host, port: o.port });
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('intake: no TCP address');
  const host = addr.address === '0.0.0.0' || addr.address === '::' ? '127.0.0.1' : addr.address;
  const url = `${o.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
  return { url, app, close: () => app.close() };
}
