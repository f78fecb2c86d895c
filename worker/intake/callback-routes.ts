import { Type } from 'typebox';
import {
  CallbackDeliveredError,
  CallbackNotFoundError,
  getCallback,
  listCallbacks,
  retryCallback,
} from '../callbacks/index.js';
import type { Store } from '../store/index.js';
import { HttpError, notFound } from './http-error.js';
import { ErrorBody, ListOf, NoQuery } from './schemas.js';
import type { IntakeApp } from './server.js';

/** Intake routes of the callback outbox (docs/callbacks.md): look at deliveries, retry a dead one. */

const CallbackParams = Type.Object({
  id: Type.String({ pattern: '^cb_[a-z2-7]{26}$', description: 'a callback id: "cb_" and 26 characters a–z, 2–7' }),
});
const CallbackListQuery = Type.Object(
  {
    state: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('dead')], { description: 'pending, delivered or dead (default dead)' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'a whole number from 1 to 500 (default 100)' })),
  },
  { additionalProperties: false },
);
const CallbackSchema = Type.Object({ object: Type.Literal('callback') }, { additionalProperties: true, description: 'CallbackRecord (worker/callbacks/outbox.ts)' });

export function registerCallbackRoutes(r: IntakeApp, store: Store, now: () => Date = () => new Date()): void {
  const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 503: ErrorBody };

  r.get(
    '/callbacks',
    { schema: { summary: 'Callback deliveries in one state (dead by default), most recently changed first', querystring: CallbackListQuery, response: { 200: ListOf(CallbackSchema), ...errors } } },
    async (req) => ({ object: 'list' as const, data: listCallbacks(store, req.query.state ?? 'dead', req.query.limit ?? 100) }),
  );

  r.get(
    '/callbacks/:id',
    { schema: { summary: 'One callback delivery', params: CallbackParams, querystring: NoQuery, response: { 200: CallbackSchema, ...errors } } },
    async (req) => getCallback(store, req.params.id) ?? Promise.reject(notFound(`no callback ${req.params.id}`)),
  );

  r.post(
    '/callbacks/:id/retry',
    {
      schema: {
        summary: 'Send a callback again now, with a fresh 24 h retry window (409 when already delivered)',
        params: CallbackParams,
        querystring: NoQuery,
        response: { 200: CallbackSchema, 409: ErrorBody, ...errors },
      },
    },
    async (req) => {
      try {
        return retryCallback(store, req.params.id, now());
      } catch (e) {
        if (e instanceof CallbackNotFoundError) throw notFound(e.message);
        if (e instanceof CallbackDeliveredError) throw new HttpError(409, e.code, e.message);
        throw e;
      }
    },
  );
}
