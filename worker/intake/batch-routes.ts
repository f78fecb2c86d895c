import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { parseCarrierQuery } from '../../shared/carrier-id.js';
import type { Screener } from '../screener-types.js';
import { checkCallbackUrl } from './callback-url.js';
import { toHttpError } from './http-error.js';
import type { IntakeApp } from './intake-app.js';
import { ErrorBody, NoQuery, ScreeningBody, ScreeningSchema } from './schemas.js';
import { describeValidation } from './validation.js';

/**
 * POST /screenings/batch: a load board screened at once. Up to 100 items, each with its own
 * tender_id; each is accepted or refused on its own (207 Multi-Status), so one bad row does not
 * cost the others. An accepted item is exactly what POST /screenings would have made.
 */

export const BATCH_MAX = 100;

const BatchBody = Type.Object(
  {
    screenings: Type.Array(Type.Object({}, { additionalProperties: true }), {
      minItems: 1,
      maxItems: BATCH_MAX,
      description: `1 to ${BATCH_MAX} objects shaped like the body of POST /screenings`,
    }),
  },
  { additionalProperties: false },
);

const BatchItem = Type.Object({
  index: Type.Integer({ description: 'the position of the item in the request' }),
  status: Type.Integer({ description: '200 (done at once: a cache hit), 202 (queued) or the 4xx/5xx of this item' }),
  screening: Type.Optional(ScreeningSchema),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String(), param: Type.Optional(Type.String()) }, { additionalProperties: true, description: 'as in Error' })),
});
const BatchResult = Type.Object({ object: Type.Literal('batch_result'), data: Type.Array(BatchItem) });

const checkItem = Compile(ScreeningBody);

export function registerBatchRoutes(r: IntakeApp, screener: Screener): void {
  r.post(
    '/screenings/batch',
    {
      // The body may be a whole load board: allow more than the 16 KiB of a single screening.
      bodyLimit: 1024 * 1024,
      schema: {
        summary: `Screen up to ${BATCH_MAX} carriers at once; each item is answered on its own (207)`,
        querystring: NoQuery,
        body: BatchBody,
        response: { 207: BatchResult, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody },
      },
    },
    async (req, reply) => {
      const data = [];
      for (const [index, item] of req.body.screenings.entries()) {
        try {
          if (!checkItem.Check(item)) {
            const d = describeValidation(checkItem.Errors(item) as unknown[], 'body', ScreeningBody);
            data.push({ index, status: 400, error: { code: 'invalid_request', message: d.message, param: `screenings[${index}].${d.param}` } });
            continue;
          }
          const b = item;
          const query = parseCarrierQuery(b);
          const callback_url = b.callback_url == null ? null : await checkCallbackUrl(b.callback_url, screener.callbackPolicy);
          const s = await screener.submit({ query, tender_id: b.tender_id ?? null, callback_url, priority: b.priority ?? 'tender', refresh: b.refresh ?? false });
          data.push({ index, status: s.status === 'done' ? 200 : 202, screening: s });
        } catch (err) {
          const e = toHttpError(err);
          const body = e.body().error;
          data.push({ index, status: e.statusCode, error: { ...body, ...(body.param ? { param: `screenings[${index}].${body.param}` } : {}) } });
        }
      }
      return reply.code(207).send({ object: 'batch_result' as const, data });
    },
  );
}
