import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { parseCarrierQuery } from '../../shared/carrier-id.js';
import { checkCallbackDestination, parseCallbackUrl } from './callback-url.js';
import { toHttpError } from './http-error.js';
import { checkRefresh, type IntakePlugin } from './intake-app.js';
import type { FastifyRequest } from 'fastify';
import { ErrorBody, NoQuery, ScreeningBody, ScreeningSchema } from './schemas.js';
import { describeValidation } from './validation.js';
import { idempotent } from './idempotent.js';

/**
 * POST /screenings/batch: a load board screened at once. Up to 100 items, each with its own
 * tender_id; each is accepted or refused on its own (207 Multi-Status), so one bad row does not
 * cost the others. An accepted item is exactly what POST /screenings would have made. With an
 * Idempotency-Key the whole batch is replayed: the same screenings, none made again.
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

const Index = Type.Integer({ minimum: 0, description: 'the position of the item in the request' });
const ItemError = Type.Object(
  { code: Type.String(), message: Type.String(), param: Type.Optional(Type.String()) },
  { additionalProperties: true, description: 'as in ErrorEnvelope' },
);
/** The statuses a refused item can have (worker/intake/http-error.ts). */
const ITEM_ERROR_STATUSES = [400, 403, 404, 409, 429, 500, 503] as const;
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- only its type is used: the one source of `Item`
const BatchItem = Type.Object({
  index: Index,
  status: Type.Integer({ description: '200 (done at once: a cache hit), 202 (queued) or the 4xx/5xx of this item' }),
  screening: Type.Optional(ScreeningSchema),
  error: Type.Optional(ItemError),
});
/**
 * What the document says an item is: one of three shapes told apart by `status`, so a generated
 * client narrows (200: a done screening; 202: a queued one; else an error and no screening).
 */
const BatchItemDoc = Type.Union(
  [
    Type.Object(
      { index: Index, status: Type.Literal(200), screening: Type.Ref('ScreeningDone') },
      { title: 'BatchItemDone', description: 'Done at once (a cache hit).' },
    ),
    Type.Object(
      { index: Index, status: Type.Literal(202), screening: Type.Ref('Screening') },
      { title: 'BatchItemQueued', description: 'Queued: read it later, or take its callback.' },
    ),
    Type.Object(
      {
        index: Index,
        status: Type.Union(
          ITEM_ERROR_STATUSES.map((n) => Type.Literal(n)),
          { description: 'The status POST /screenings would have answered.' },
        ),
        error: ItemError,
      },
      { title: 'BatchItemRefused', description: 'Refused on its own; nothing was kept for it.' },
    ),
  ],
  { description: 'One answer per item, in request order.' },
);
const BatchResult = Type.Object({ object: Type.Literal('batch_result'), data: Type.Array(BatchItemDoc) });

const checkItem = Compile(ScreeningBody);

type Item = Static<typeof BatchItem>;
type Result = { object: 'batch_result'; data: Item[] };
/** What a batch's Idempotency-Key keeps: each item's screening id, or its refusal. */
type Recorded = { index: number; screening_id?: string; status?: number; error?: Item['error'] };

export const batchRoutes: IntakePlugin = async (r) => {
  const { screener, idempotencyKeys: keys } = r;
  async function screenAll(req: FastifyRequest, items: readonly unknown[]): Promise<Item[]> {
    const data: Item[] = [];
    for (const [index, item] of items.entries()) {
      try {
        if (!checkItem.Check(item)) {
          const d = describeValidation(checkItem.Errors(item) as unknown[], 'body', ScreeningBody);
          data.push({
            index,
            status: 400,
            error: { code: 'invalid_request', message: d.message, param: `screenings[${index}].${d.param}` },
          });
          continue;
        }
        const b = item;
        // Cheap checks first: the DNS lookup only for an item nothing else refuses.
        const query = parseCarrierQuery(b);
        checkRefresh(req, b.refresh);
        const url = b.callback_url == null ? null : parseCallbackUrl(b.callback_url);
        const callback_url = url === null ? null : await checkCallbackDestination(url, screener.callbackPolicy, req.log);
        const s = await screener.submit({
          query,
          tender_id: b.tender_id ?? null,
          load: b.load ?? null,
          callback_url,
          priority: b.priority ?? 'tender',
          refresh: b.refresh ?? false,
        });
        data.push({ index, status: s.status === 'done' ? 200 : 202, screening: s });
      } catch (err) {
        const e = toHttpError(err);
        const body = e.body().error;
        data.push({
          index,
          status: e.statusCode,
          error: { ...body, ...(body.param ? { param: `screenings[${index}].${body.param}` } : {}) },
        });
      }
    }
    return data;
  }

  const recordOf = (res: Result): string =>
    JSON.stringify(
      res.data.map((d): Recorded =>
        d.screening
          ? { index: d.index, screening_id: (d.screening as { id: string }).id }
          : { index: d.index, status: d.status, error: d.error },
      ),
    );

  /** The first answer again, each screening as it is now; undefined when one is gone (pruned). */
  async function replayOf(recorded: string): Promise<Result | undefined> {
    const data: Item[] = [];
    for (const it of JSON.parse(recorded) as Recorded[]) {
      if (it.screening_id === undefined) {
        data.push({ index: it.index, status: it.status ?? 500, ...(it.error ? { error: it.error } : {}) });
        continue;
      }
      const s = await screener.get(it.screening_id);
      if (!s) return undefined;
      data.push({ index: it.index, status: s.status === 'done' ? 200 : 202, screening: s });
    }
    return { object: 'batch_result', data };
  }

  r.post(
    '/screenings/batch',
    {
      config: { role: 'tms' },
      // The body may be a whole load board: allow more than the 16 KiB of a single screening.
      bodyLimit: 1024 * 1024,
      schema: {
        summary: `Screen up to ${BATCH_MAX} carriers at once; each item is answered on its own (207)`,
        querystring: NoQuery,
        body: BatchBody,
        response: {
          207: BatchResult,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          409: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          429: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      const result = await idempotent(
        keys,
        req,
        reply,
        'POST /screenings/batch',
        async () => ({ object: 'batch_result' as const, data: await screenAll(req, req.body.screenings) }),
        replayOf,
        recordOf,
      );
      // The documented union is what `Item` holds, told apart by status (BatchItemDoc); TypeScript cannot see it.
      return reply.code(207).send(result as never);
    },
  );
};
