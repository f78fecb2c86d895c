import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomBytesPooled } from '../../shared/random-pool.js';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import type { Screener } from '../screener-types.js';
import { authenticator } from './auth.js';
import { IntakeTokens, type Caller } from '../tokens/intake-tokens.js';
import type { IntakeApp } from './intake-app.js';
import { mayUse } from '../tokens/roles.js';
import type { EventStream } from './event-stream.js';
import { HttpError, badRequest, routeNotFound, toHttpError } from './http-error.js';
import { firstNulPath } from './nul-check.js';
import { replyJson } from './reply-json.js';
import { describeValidation, typeboxValidatorCompiler } from './validation.js';
import { intakeServices } from './intake-services.js';
import { logRequest } from './request-log.js';
import { withLogContext } from '../log-context.js';
import { RouteTable } from './route-table.js';
import { COMPONENTS } from './components.js';
import { completeDocument, documentRoute, openapiBase } from './openapi-doc.js';
import { DEFAULT_INTAKE_LIMITS, type IntakeLimits } from '../../shared/config.js';
import { TLS_MIN_VERSION, type IntakeTls } from './transport.js';
import { API_VERSIONS, API_VERSION_HEADER, LATEST_API_VERSION, isApiVersion } from '../../shared/api-versions.js';
// The routes: one plugin per resource (IntakePlugin, intake-app.ts), registered in buildIntake.
import { batchRoutes } from './batch-routes.js';
import { blockRoutes } from './block-routes.js';
import { callbackRoutes } from './callback-routes.js';
import { decisionRoutes } from './decision-routes.js';
import { eventLogRoutes } from './event-log-routes.js';
import { eventsRoutes } from './events-routes.js';
import { healthRoutes } from './health-routes.js';
import { metricsRoutes } from './metrics-routes.js';
import { reviewRoutes } from './review-routes.js';
import { sandboxRoutes } from './sandbox-routes.js';
import { screeningRoutes } from './screening-routes.js';
import { statusRoutes } from './status-routes.js';
import { uiRoutes } from './ui-routes.js';
import { watchRoutes } from './watch-routes.js';

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

export function buildIntake(o: IntakeOptions): IntakeApp {
  const { screener } = o;
  const services = intakeServices(screener);
  const tokens = new IntakeTokens(screener.store);
  const authenticate = authenticator(o.token, tokens);
  // For the free-bytes gauge (worker/open-record.ts says which directory).
  const { dataDir } = screener;
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

  // The services every route plugin uses (intake-app.ts declares their types), and who a request is.
  for (const [name, service] of Object.entries(services)) app.decorate(name, service);
  app.decorateRequest('caller', null);

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
    if (config?.public !== true && config?.role === undefined)
      throw new Error(`intake route ${String(route.method)} ${route.url} declares neither config.role nor config.public`);
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

  /** Whether its token's role may use the route (401, 403); the caller found by authenticate. */
  function checkCaller(req: FastifyRequest, caller: Caller | undefined): void {
    if (!caller)
      throw new HttpError(
        401,
        'unauthorized',
        'missing or wrong bearer token: send Authorization: Bearer <token> (INTAKE_TOKEN, or one from `carrier-screen token create`)',
      );
    req.caller = caller;
    // An unknown route has no role of its own: the not-found handler answers it.
    const url = req.routeOptions.url;
    if (url === undefined) return;
    // The route's own role: a HEAD route carries its GET's config, so HEAD needs what GET needs.
    const needed = req.routeOptions.config.role;
    if (needed === undefined) throw new HttpError(500, 'internal_error', `${req.method} ${url} declares no role`);
    if (!mayUse(caller.role, needed))
      throw new HttpError(403, 'forbidden', `${req.method} ${url} needs a ${needed} token (or admin); this token's role is ${caller.role}`);
  }

  // Hooks in callback style: an async hook costs promises on every request, and a cache hit is
  // a request of ~200 us.
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.routeOptions.config.public === true) {
      checked(req, done);
      return;
    }
    // The token lookup waits for an open unit of work (a promise, resolved at once when none is).
    authenticate(req.headers.authorization).then(
      (caller) => {
        try {
          checkCaller(req, caller);
        } catch (e) {
          done(e as Error);
          return;
        }
        checked(req, done);
      },
      (e: unknown) => done(e as Error),
    );
  });
  /** The rest of onRequest, once the caller is known. */
  function checked(req: FastifyRequest, done: (err?: Error) => void): void {
    try {
      // Stripe's way: an answer may be pinned to an API version; an unknown one is refused.
      // Stripe's way: the header's version, else the one the token was pinned to when it was made.
      const pinned = req.headers[VERSION_HEADER];
      if (pinned !== undefined && !isApiVersion(String(pinned)))
        throw badRequest(
          `unknown ${API_VERSION_HEADER}: ${String(pinned).slice(0, 40)}; known: ${API_VERSIONS.join(', ')}`,
          API_VERSION_HEADER,
        );
      req.apiVersion = pinned !== undefined ? String(pinned) : (req.caller?.api_version ?? API_VERSION);
    } catch (e) {
      done(e as Error);
      return;
    }
    // The rest of the request (its handler, the screening it accepts) logs with its request id.
    withLogContext({ request_id: req.id }, done);
  }
  // Before the schemas: a NUL is refused the same way whatever else is wrong with the request.
  app.addHook('preValidation', (req, _reply, done) => {
    // '' is the whole of it: a top-level string, or a key of its own that holds the NUL.
    const inQuery = firstNulPath(req.query);
    const inBody = inQuery === undefined ? firstNulPath(req.body) : undefined;
    const param = inQuery !== undefined ? inQuery || 'query' : inBody !== undefined ? inBody || 'body' : undefined;
    if (param === undefined) return done();
    done(new HttpError(400, 'invalid_request', `${param} holds a NUL character (U+0000), which nothing here may contain`, param));
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
    void (async () => {
      const gone = new Set<string>();
      for (const id of ids) if (!(await tokens.isActive(id))) gone.add(id);
      for (const [s, id] of streams) if (id !== null && gone.has(id)) s.close();
    })().catch((err: unknown) => {
      logger.warn({ err }, 'could not check the open event streams for revoked tokens');
    });
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
        new HttpError(
          429,
          'rate_limited',
          `more than ${ctx.max} requests a minute with this token (INTAKE_RATE_LIMIT); retry in ${ctx.after}`,
        ),
    });

  void app.register(swagger, {
    openapi: openapiBase(API_VERSION) as never,
    transformObject: completeDocument as never,
    // Components keep their own names (Screening, Review …), not def-0, def-1.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  // One plugin per resource, registered here and only here (ARCHITECTURE.md, "where a new
  // route goes"); the order is the OpenAPI document's order of paths.
  // /screenings: screen a carrier, search, read one.
  void app.register(screeningRoutes);
  // /reviews: the review queue, approve and reject (docs/decisions.md).
  void app.register(reviewRoutes);
  // /status, /me, /usage/daily, /queue/pause|resume.
  void app.register(statusRoutes);
  // /events: the live feed (SSE).
  void app.register(eventsRoutes, { streams, ssePerToken: limits.ssePerToken, heartbeatMs: o.heartbeatMs });
  // /healthz (no token).
  void app.register(healthRoutes);

  // /watchlist, /changes (docs/watchlist.md).
  void app.register(watchRoutes);
  // /blocks: the local do-not-use list (docs/watchlist.md).
  void app.register(blockRoutes);
  // /screenings/batch: a load board at once, one answer per item (207).
  void app.register(batchRoutes);
  // /callbacks: the outbox's deliveries, retry of a dead one (docs/callbacks.md).
  void app.register(callbackRoutes);
  // /decisions, /audit.csv: standing carrier decisions (docs/decisions.md).
  void app.register(decisionRoutes);
  // /sandbox/*: test helpers, admin only, sandbox keys only (docs/api.md).
  void app.register(sandboxRoutes);
  // /event-log: the events as a list to catch up from (the stream is /events).
  void app.register(eventLogRoutes);

  // /metrics: Prometheus text (docs/operations.md); any token, a metrics token only this.
  void app.register(metricsRoutes, { dataDir });
  // /openapi.json and the tray's UI under /ui/ (no token).
  void app.register(uiRoutes, { uiDir });

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
