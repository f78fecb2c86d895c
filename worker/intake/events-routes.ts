import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { API_VERSION_HEADER, LATEST_API_VERSION } from '../../shared/api-versions.js';
import { STREAM_EVENT_NAMES } from './components.js';
import { openEventStream, type EventStream } from './event-stream.js';
import { HttpError, badRequest } from './http-error.js';
import type { IntakePlugin } from './intake-app.js';
import { logRequest } from './request-log.js';
import { ErrorBody, EventsQuery } from './schemas.js';

/** GET /events: the live feed as Server-Sent Events (the list to catch up from is /event-log). */

export interface EventsRouteOptions {
  /** Open streams and the token each was opened with (null: INTAKE_TOKEN); server.ts ends them on close and on revocation. */
  streams: Map<EventStream, string | null>;
  /** At most this many open streams per token (INTAKE_SSE_PER_TOKEN). */
  ssePerToken: number;
  /** SSE heartbeat interval (default 15 s). */
  heartbeatMs?: number | undefined;
}

const VERSION_HEADER = API_VERSION_HEADER.toLowerCase();

function parseLastEventId(req: FastifyRequest, fromQuery: number | undefined): number | undefined {
  const header = req.headers['last-event-id'];
  if (header === undefined) return fromQuery;
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v.trim() === '') return fromQuery;
  if (!/^\d{1,15}$/.test(v.trim())) throw badRequest('the Last-Event-ID header must be a whole number', 'Last-Event-ID');
  return Number(v.trim());
}

export const eventsRoutes: IntakePlugin<EventsRouteOptions> = async (r, o) => {
  const { screener } = r;
  const { streams } = o;

  r.get(
    '/events',
    {
      config: { role: 'tms' },
      // A HEAD would open a stream that never ends.
      exposeHeadRoute: false,
      schema: {
        summary: 'Server-Sent Events: screenings, reviews, carrier changes, quota and queue',
        description:
          "Send Last-Event-ID (header) or last_event_id (query) to replay what was missed (events are kept SCREEN_EVENTS_RETENTION, 7 days by default). At most INTAKE_SSE_PER_TOKEN open streams per token (429 too_many_streams); a revoked token's streams end within seconds.",
        querystring: EventsQuery,
        response: {
          200: {
            description: `A stream of Server-Sent Events (${STREAM_EVENT_NAMES.join(', ')}; an open set), each an id:, event: and one data: line of JSON; the data of each is in the StreamEvent schema. A comment line every 15 s keeps it open.`,
            content: {
              'text/event-stream': {
                schema: Type.String({ contentMediaType: 'text/event-stream', contentSchema: Type.Ref('StreamEvent') }),
              },
            },
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
      if (open >= o.ssePerToken)
        throw new HttpError(
          429,
          'too_many_streams',
          `this token already has ${open} open /events streams (INTAKE_SSE_PER_TOKEN); close one before opening another`,
        );
      // A hijacked answer skips the onSend and onResponse hooks: its headers and log line here.
      reply.raw.setHeader('x-request-id', req.id);
      reply.raw.setHeader(VERSION_HEADER, LATEST_API_VERSION);
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
};
