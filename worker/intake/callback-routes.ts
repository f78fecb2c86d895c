import { Type } from 'typebox';
import { CALLBACK_STATES, CallbackDeliveredError, CallbackNotFoundError, CallbackSupersededError } from '../callbacks/index.js';
import { Enum } from './components.js';
import { badRequest, conflict, notFound } from './http-error.js';
import { PageQueryFields, pageParams } from './paging.js';
import { sendJsonBody } from './reply-json.js';
import { CallbackSchema, ERRORS, ErrorBody, ListOf, NoQuery } from './schemas.js';
import type { IntakePlugin } from './intake-app.js';

/** Intake routes of the callback outbox (docs/callbacks.md): look at deliveries, retry or cancel them. */

const CallbackParams = Type.Object({
  id: Type.String({ pattern: '^cb_[a-z2-7]{26}$', description: 'a callback id: "cb_" and 26 characters a–z, 2–7' }),
});
const CancelByUrlBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'The callback_url whose deliveries to stop (compared after URL normalisation, as stored).',
    }),
  },
  { additionalProperties: false },
);
const CancellationSchema = Type.Object(
  {
    object: Type.Literal('callback_cancellation'),
    url: Type.String(),
    cancelled: Type.Integer({ description: 'How many pending or dead deliveries were cancelled.' }),
  },
  { additionalProperties: true },
);
const CallbackListQuery = Type.Object(
  {
    state: Type.Optional(Enum([...CALLBACK_STATES, 'all'], { description: 'pending, delivered, dead, cancelled or all (default dead)' })),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);

export const callbackRoutes: IntakePlugin = async (r) => {
  const outbox = r.callbackOutbox;
  const errors = ERRORS;
  const now = () => new Date();

  r.get(
    '/callbacks',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Callback deliveries in one state (dead by default), most recently changed first',
        querystring: CallbackListQuery,
        response: { 200: ListOf(CallbackSchema), ...errors },
      },
    },
    async (req, reply) => {
      const state = req.query.state ?? 'dead';
      // A reader thread (worker/store/reader-pool.ts) reads the page and makes its JSON.
      return sendJsonBody(reply, await r.listBodies.callbacks(state, pageParams(req.query)));
    },
  );

  r.get(
    '/callbacks/:id',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'One callback delivery',
        params: CallbackParams,
        querystring: NoQuery,
        response: { 200: CallbackSchema, ...errors },
      },
    },
    async (req) => (await outbox.get(req.params.id)) ?? Promise.reject(notFound(`no callback ${req.params.id}`)),
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
        return await outbox.retry(req.params.id, now());
      } catch (e) {
        if (e instanceof CallbackNotFoundError) throw notFound(e.message);
        if (e instanceof CallbackDeliveredError) throw conflict(e.code, e.message, req.params.id);
        if (e instanceof CallbackSupersededError) throw conflict(e.code, e.message, e.newer);
        throw e;
      }
    },
  );

  r.post(
    '/callbacks/:id/cancel',
    {
      config: { role: 'admin' },
      schema: {
        summary: 'Stop a pending or dead callback: it is never sent unless retried (409 when already delivered)',
        params: CallbackParams,
        querystring: NoQuery,
        response: { 200: CallbackSchema, 409: ErrorBody, ...errors },
      },
    },
    async (req) => {
      try {
        return await outbox.cancel(req.params.id, now());
      } catch (e) {
        if (e instanceof CallbackNotFoundError) throw notFound(e.message);
        if (e instanceof CallbackDeliveredError) throw conflict(e.code, e.message, req.params.id);
        throw e;
      }
    },
  );

  r.post(
    '/callbacks/cancel',
    {
      config: { role: 'admin' },
      schema: {
        summary: 'Stop every callback still owed to one URL (pending and dead ones): e.g. a TMS endpoint that is gone',
        querystring: NoQuery,
        body: CancelByUrlBody,
        response: { 200: CancellationSchema, ...errors },
      },
    },
    async (req) => {
      let url: string;
      try {
        url = new URL(req.body.url).toString();
      } catch {
        throw badRequest('url must be an absolute URL, as given in callback_url', 'url');
      }
      return { object: 'callback_cancellation' as const, url, cancelled: await outbox.cancelTo(url, now()) };
    },
  );
};
