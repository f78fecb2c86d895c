import { Type } from 'typebox';
import {
  CallbackDeliveredError,
  CallbackNotFoundError,
  getCallback,
  listCallbacks,
  retryCallback,
} from '../callbacks/index.js';
import type { Store } from '../store/index.js';
import { conflict, notFound } from './http-error.js';
import { LIST_CAP, PageQueryFields, pageOf, pageParams } from './paging.js';
import { CallbackSchema, ErrorBody, ListOf, NoQuery } from './schemas.js';
import type { IntakeApp } from './intake-app.js';

/** Intake routes of the callback outbox (docs/callbacks.md): look at deliveries, retry a dead one. */


const CallbackParams = Type.Object({
  id: Type.String({ pattern: '^cb_[a-z2-7]{26}$', description: 'a callback id: "cb_" and 26 characters a–z, 2–7' }),
});
const CallbackListQuery = Type.Object(
  {
    state: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('dead'), Type.Literal('all')], { description: 'pending, delivered, dead or all (default dead)' }),
    ),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);

export function registerCallbackRoutes(r: IntakeApp, store: Store, now: () => Date = () => new Date()): void {
  const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody };

  r.get(
    '/callbacks',
    { config: { role: 'tms' }, schema: { summary: 'Callback deliveries in one state (dead by default), most recently changed first', querystring: CallbackListQuery, response: { 200: ListOf(CallbackSchema), ...errors } } },
    async (req) => {
      const state = req.query.state ?? 'dead';
      const all =
        state === 'all'
          ? (['pending', 'delivered', 'dead'] as const).flatMap((s) => listCallbacks(store, s, LIST_CAP)).sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id))
          : listCallbacks(store, state, LIST_CAP);
      return pageOf(all, (c) => c.id, pageParams(req.query));
    },
  );

  r.get(
    '/callbacks/:id',
    { config: { role: 'tms' }, schema: { summary: 'One callback delivery', params: CallbackParams, querystring: NoQuery, response: { 200: CallbackSchema, ...errors } } },
    async (req) => getCallback(store, req.params.id) ?? Promise.reject(notFound(`no callback ${req.params.id}`)),
  );

  r.post(
    '/callbacks/:id/retry',
    {
      config: { role: 'admin' },
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
        if (e instanceof CallbackDeliveredError) throw conflict(e.code, e.message, req.params.id);
        throw e;
      }
    },
  );
}
