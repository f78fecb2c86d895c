import type { RouteOptions } from 'fastify';
import { TAGS, operationOf } from './operations.js';
import { ErrorBody } from './schemas.js';

/**
 * The parts of /openapi.json that no single route owns (docs/api.md): servers, tags, the
 * callbacks as `webhooks`, the headers every answer carries, and the statuses every route can
 * answer at the door (auth, role, rate limit, a closing or failing server). Routes declare
 * their own bodies, parameters and the statuses of what they do; `documentRoute` adds the
 * rest from their config, `completeDocument` the headers.
 */

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const paramRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** Operations that take an Idempotency-Key (worker/intake/idempotent.ts). */
const IDEMPOTENT = new Set(['createScreening', 'createScreeningBatch', 'approveReview', 'rejectReview']);
/** A tms route still answers 403 when its body asks for what a tms token may not (refresh: true). */
const FORBIDDEN_BY_BODY = new Set(['createScreening']);

const ERROR_STATUS_TEXT: Record<number, string> = {
  400: 'invalid_request: a parameter, header or body field is wrong (param names it).',
  401: 'unauthorized: no, wrong or revoked bearer token.',
  403: "forbidden: the token's role may not do this.",
  404: 'resource_missing: no such object.',
  409: 'A conflict: the code says which (docs/api.md "Errors").',
  413: 'payload_too_large: the body is over the limit.',
  415: 'unsupported_media_type: only application/json bodies.',
  429: 'rate_limited (INTAKE_RATE_LIMIT) or too_many_streams: wait Retry-After seconds.',
  500: 'internal_error: quote X-Request-Id to support.',
  503: 'unavailable or storage_unavailable (Redis or SQLite), or the intake is closing: retry after Retry-After.',
};

interface RouteSchema {
  hide?: boolean;
  operationId?: string;
  tags?: string[];
  description?: string;
  summary?: string;
  response?: Record<string, unknown>;
}

/** Name, tag, describe a route and add the statuses its door can answer; a hidden route is left alone. */
export function documentRoute(route: RouteOptions): void {
  const schema = route.schema as RouteSchema | undefined;
  const method = String(route.method);
  if (!schema || schema.hide || method === 'HEAD') return;
  const op = operationOf(method, route.url);
  const description = schema.description ?? op.description;
  if (!description)
    throw new Error(`intake route ${method} ${route.url} has no description: give it one in its schema or in worker/intake/operations.ts`);
  const config = (route.config ?? {}) as { public?: boolean; role?: string; rateLimit?: unknown };
  const response: Record<string, unknown> = { ...schema.response };
  const add = (status: number) => {
    response[status] ??= ErrorBody;
  };
  // Every route validates its query and the Carrier-Screen-Version header.
  add(400);
  if (config.public !== true) add(401);
  if (config.public !== true && (config.role !== 'tms' || FORBIDDEN_BY_BODY.has(op.id))) add(403);
  else if (config.role === 'tms') delete response[403];
  if (method === 'POST' || method === 'DELETE') {
    add(413);
    add(415);
  }
  if (config.rateLimit !== false) add(429);
  add(500);
  add(503);
  route.schema = { ...schema, operationId: op.id, tags: [op.tag], description, response };
}

const HEADERS = {
  XRequestId: {
    description: 'The id of this request: yours when you sent a sane one, else ours (req_…). Quote it to support; it is in our logs.',
    schema: { type: 'string' },
  },
  CarrierScreenVersion: { description: 'The API version that answered (a date).', schema: { type: 'string' } },
  RetryAfter: {
    description: 'Seconds to wait before looking again (a queued screening, a rate limit, a moment of unavailability).',
    schema: { type: 'integer', minimum: 0 },
  },
  IdempotentReplayed: {
    description: '"true" when this answer replays an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  Location: { description: 'Where the screening is read: /screenings/{id}.', schema: { type: 'string' } },
  WwwAuthenticate: { description: 'Bearer.', schema: { type: 'string' } },
  RateLimitLimit: {
    description: 'Requests a minute this token may send (INTAKE_RATE_LIMIT; absent when off).',
    schema: { type: 'integer' },
  },
  RateLimitRemaining: { description: 'Requests left in this minute.', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the minute resets.', schema: { type: 'integer' } },
} as const;

/** The headers of a callback (worker/callbacks/signature.ts). */
const CALLBACK_HEADERS = {
  XCarrierScreenEvent: {
    description: 'The event: screening.completed, review.resolved or carrier.changed (an open set).',
    required: true,
    schema: { type: 'string' },
  },
  XCarrierScreenDelivery: { description: 'Stable per event: de-duplicate on it.', required: true, schema: { type: 'string' } },
  XCarrierScreenSignature: {
    description:
      't=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with CALLBACK_SECRET>: verify it, and refuse an old t (docs/callbacks.md).',
    required: true,
    schema: { type: 'string' },
  },
} as const;

/** Request headers: in `parameters` of the operations that read them. */
const PARAMETERS = {
  CarrierScreenVersion: {
    name: 'Carrier-Screen-Version',
    in: 'header',
    required: false,
    description: 'Pin the API version this request was written against (a date); an unknown one is 400. Default: the newest.',
    schema: { type: 'string', example: '2026-11-25' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Any unique string (1–255 printable ASCII): the same key and body within 24 h replays the first answer (Idempotent-Replayed: true); another body is 409 idempotency_conflict.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  XRequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description: "Your own request id ([A-Za-z0-9._:-], up to 128): kept as this request's id when sane.",
    schema: { type: 'string', maxLength: 128, pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  LastEventId: {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description: 'The id of the last event received: the stream first replays what followed it.',
    schema: { type: 'string', pattern: '^\\d{1,15}$' },
  },
} as const;

/** The document's own parts, given to @fastify/swagger. */
export function openapiBase(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'carrier-screen intake API',
      version,
      description:
        'Tender-time carrier screening for a TMS. docs/api.md: authentication, roles, versioning, errors, paging. Every answer carries X-Request-Id and Carrier-Screen-Version. Before any route: 408 request_timeout (the request was not received in time) and 431 headers_too_large, in the same error envelope.',
      license: { name: 'UNLICENSED (private)' },
    },
    servers: [
      {
        url: '{scheme}://{host}:{port}',
        description: 'The intake of a carrier-screen installation (INTAKE_HOST, INTAKE_PORT; https with INTAKE_TLS_CERT).',
        variables: {
          scheme: { default: 'http', enum: ['http', 'https'] },
          host: { default: '127.0.0.1', description: 'INTAKE_HOST' },
          port: { default: '8787', description: 'INTAKE_PORT' },
        },
      },
    ],
    tags: TAGS.map((t) => ({ ...t })),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'INTAKE_TOKEN, or a scoped token from `carrier-screen token create` (role tms, desk or admin).',
        },
      },
      headers: HEADERS,
      parameters: PARAMETERS,
    },
    security: [{ bearer: [] }],
    webhooks: {
      'screening.completed': webhook('onScreeningCompleted', 'A screening with a callback_url is done', 'ScreeningCallback'),
      'review.resolved': webhook('onReviewResolved', "A held screening's review was decided, closed or superseded", 'ScreeningCallback'),
      'carrier.changed': webhook(
        'onCarrierChanged',
        'A watched carrier used by your tenders screens differently now',
        'CarrierChangedCallback',
      ),
    },
  };
}

function webhook(operationId: string, summary: string, body: string) {
  return {
    post: {
      operationId,
      tags: ['callbacks'],
      summary,
      description:
        'A signed POST to the callback_url, retried with backoff for 24 h until a 2xx (docs/callbacks.md). Delivery is at least once: de-duplicate on X-Carrier-Screen-Delivery.',
      security: [],
      parameters: [
        {
          name: 'X-Carrier-Screen-Event',
          in: 'header',
          required: true,
          description: CALLBACK_HEADERS.XCarrierScreenEvent.description,
          schema: { type: 'string' },
        },
        {
          name: 'X-Carrier-Screen-Delivery',
          in: 'header',
          required: true,
          description: CALLBACK_HEADERS.XCarrierScreenDelivery.description,
          schema: { type: 'string' },
        },
        {
          name: 'X-Carrier-Screen-Signature',
          in: 'header',
          required: true,
          description: CALLBACK_HEADERS.XCarrierScreenSignature.description,
          schema: { type: 'string' },
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: schemaRef(body) } } },
      responses: {
        '200': { description: 'Any 2xx acknowledges it (answer quickly, work afterwards).' },
        '400': { description: 'Anything else, a time-out (10 s) or a network error: it is sent again later.' },
      },
    },
  };
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** transformObject: the request and response headers of every operation. */
export function completeDocument({ openapiObject }: { openapiObject: unknown }): Json {
  const doc = structuredClone(openapiObject) as Json & { paths?: Record<string, Record<string, Json>> };
  for (const ops of Object.values(doc.paths ?? {}))
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.includes(method)) continue;
      const id = String(op.operationId);
      const params = (op.parameters as Json[] | undefined) ?? [];
      params.push(paramRef('CarrierScreenVersion'), paramRef('XRequestId'));
      if (IDEMPOTENT.has(id)) params.push(paramRef('IdempotencyKey'));
      if (id === 'streamEvents') params.push(paramRef('LastEventId'));
      op.parameters = params;
      const rateLimited = Object.hasOwn((op.responses as Json) ?? {}, '429');
      for (const [status, res] of Object.entries((op.responses as Record<string, Json>) ?? {})) {
        const headers: Record<string, unknown> = { ...(res.headers as Json | undefined) };
        headers['X-Request-Id'] = headerRef('XRequestId');
        headers['Carrier-Screen-Version'] = headerRef('CarrierScreenVersion');
        if (status === '202' || status === '429' || status === '503') headers['Retry-After'] = headerRef('RetryAfter');
        if (status === '401') headers['WWW-Authenticate'] = headerRef('WwwAuthenticate');
        if (IDEMPOTENT.has(id) && status.startsWith('2')) headers['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
        if (id === 'createScreening' && (status === '200' || status === '202')) headers.Location = headerRef('Location');
        if (rateLimited && status !== '401') {
          headers['X-RateLimit-Limit'] = headerRef('RateLimitLimit');
          headers['X-RateLimit-Remaining'] = headerRef('RateLimitRemaining');
          headers['X-RateLimit-Reset'] = headerRef('RateLimitReset');
        }
        res.headers = headers;
        if (typeof res.description !== 'string' || res.description === 'Default Response') res.description = describeStatus(Number(status));
      }
    }
  return doc;
}

function describeStatus(status: number): string {
  return (
    ERROR_STATUS_TEXT[status] ??
    (status === 202 ? 'Accepted: queued.' : status === 201 ? 'Created.' : status === 207 ? 'One answer per item.' : 'OK.')
  );
}
