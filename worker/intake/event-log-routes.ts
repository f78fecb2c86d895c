import { Type } from 'typebox';
import { badRequest, isoParam } from './http-error.js';
import { PageQueryFields, pageParams } from './paging.js';
import { sendJsonBody } from './reply-json.js';
import { ErrorBody } from './schemas.js';
import type { IntakePlugin } from './intake-app.js';

/**
 * GET /event-log: the event log as a list to catch up from (Stripe's GET /v1/events), beside the
 * live stream of GET /events. Newest first, cursor-paged, filtered by type and time; kept as long
 * as SCREEN_EVENTS_RETENTION (7 days by default).
 */

const EventLogQuery = Type.Object(
  {
    type: Type.Optional(
      Type.String({
        maxLength: 400,
        pattern: '^[a-z_.]+(,[a-z_.]+)*$',
        description: 'event names, comma-separated (e.g. carrier.changed,review.resolved); default all',
      }),
    ),
    created_gte: Type.Optional(Type.String({ description: 'ISO 8601: events created at or after it' })),
    created_lt: Type.Optional(Type.String({ description: 'ISO 8601: events created before it' })),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);

const EventLogEntry = Type.Object(
  {
    object: Type.Literal('event'),
    id: Type.Integer({ minimum: 1, description: "The same id as the stream's `id:` line (Last-Event-ID); the cursor of this list." }),
    event: Type.String({ description: 'The event name, as on the stream (an open set: ignore one you do not know).' }),
    created_at: Type.String({ format: 'date-time' }),
    data: Type.Unknown({ description: 'As the stream sends it (StreamEvent): the object as it is now.' }),
  },
  { title: 'EventLogEntry' },
);

export const eventLogRoutes: IntakePlugin = async (r) => {
  const { listBodies } = r;
  r.get(
    '/event-log',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'The event log to catch up from: newest first, cursor-paged, by type and time',
        querystring: EventLogQuery,
        response: {
          200: Type.Object({ object: Type.Literal('list'), data: Type.Array(EventLogEntry), has_more: Type.Boolean() }),
          400: ErrorBody,
          401: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      for (const c of [q.starting_after, q.ending_before])
        if (c !== undefined && !/^\d{1,15}$/.test(c))
          throw badRequest("an event id is a whole number (the stream's id:)", q.starting_after === c ? 'starting_after' : 'ending_before');
      const now = new Date();
      const gte = q.created_gte === undefined ? undefined : isoParam(q.created_gte, now, 'created_gte');
      const lt = q.created_lt === undefined ? undefined : isoParam(q.created_lt, now, 'created_lt');
      if (gte !== undefined && lt !== undefined && gte >= lt) throw badRequest('created_gte must be before created_lt', 'created_gte');
      const filter = {
        ...(q.type ? { types: q.type.split(',') } : {}),
        ...(gte === undefined ? {} : { createdGte: gte }),
        ...(lt === undefined ? {} : { createdLt: lt }),
      };
      // The page and its JSON are made in a reader thread (worker/events/event-log-page.ts).
      return sendJsonBody(reply, await listBodies.eventLog(filter, pageParams(q)));
    },
  );
};
