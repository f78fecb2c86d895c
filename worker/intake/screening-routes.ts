import { canonicalDot, normalizeMc, parseCarrierQuery } from '../../shared/carrier-id.js';
import type { Screening } from '../../shared/screening.js';
import { checkCallbackDestination, parseCallbackUrl } from './callback-url.js';
import { isoParam, notFound } from './http-error.js';
import { idempotent } from './idempotent.js';
import { checkRefresh, type IntakePlugin } from './intake-app.js';
import type { ScreeningFilter } from './intake-services.js';
import { pageParams } from './paging.js';
import { sendJsonBody } from './reply-json.js';
import {
  ERRORS,
  ErrorBody,
  ListOf,
  NoQuery,
  ScreeningBody,
  ScreeningCreateQuery,
  ScreeningListQuery,
  ScreeningParams,
  ScreeningSchema,
} from './schemas.js';

/** POST /screenings (screen a carrier), GET /screenings (search, cursor-paged), GET /screenings/:id. */

export const screeningRoutes: IntakePlugin = async (r) => {
  const { screener, idempotencyKeys: keys, listBodies } = r;
  const errors = ERRORS;

  r.post(
    '/screenings',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Screen a carrier',
        description:
          'Exactly one of dot_number or mc_number. 200 with the finished screening when done within `wait` seconds, else 202 queued.',
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
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Recent screenings, newest first',
        querystring: ScreeningListQuery,
        response: { 200: ListOf(ScreeningSchema), ...errors },
      },
    },
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
      return sendJsonBody(reply, await listBodies.screenings(filter, pageParams(q)));
    },
  );

  r.get(
    '/screenings/:id',
    {
      config: { role: 'tms' },
      schema: { summary: 'One screening', params: ScreeningParams, querystring: NoQuery, response: { 200: ScreeningSchema, ...errors } },
    },
    async (req) => (await screener.get(req.params.id)) ?? Promise.reject(notFound(`no screening ${req.params.id}`)),
  );
};
