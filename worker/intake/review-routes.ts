import { conflict, notFound } from './http-error.js';
import { idempotent } from './idempotent.js';
import { actorOf, type IntakePlugin } from './intake-app.js';
import { pageParams } from './paging.js';
import { sendJsonBody } from './reply-json.js';
import {
  ERRORS,
  ErrorBody,
  ListOf,
  NoQuery,
  RejectBody,
  ReviewDecisionBody,
  ReviewListQuery,
  ReviewParams,
  ReviewSchema,
} from './schemas.js';

/** The review queue (docs/decisions.md): list and read reviews, approve or reject one. */

export const reviewRoutes: IntakePlugin = async (r) => {
  const { screener, idempotencyKeys: keys, reviewReads, listBodies } = r;
  const errors = ERRORS;

  r.get(
    '/reviews',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Review items (pending: oldest first)',
        querystring: ReviewListQuery,
        response: { 200: ListOf(ReviewSchema), ...errors },
      },
    },
    async (req, reply) => {
      const state = req.query.state === 'all' || req.query.state === undefined ? undefined : req.query.state;
      return sendJsonBody(reply, await listBodies.reviews(state, pageParams(req.query)));
    },
  );

  r.get(
    '/reviews/:id',
    {
      config: { role: 'tms' },
      schema: { summary: 'One review item', params: ReviewParams, querystring: NoQuery, response: { 200: ReviewSchema, ...errors } },
    },
    async (req) => (await reviewReads.get(req.params.id)) ?? Promise.reject(notFound(`no review ${req.params.id}`)),
  );

  for (const decision of ['approve', 'reject'] as const) {
    r.post(
      `/reviews/:id/${decision}`,
      {
        config: { role: 'desk' },
        schema: {
          summary:
            decision === 'approve' ? 'Approve a held carrier (action becomes tender)' : 'Reject a held carrier (action becomes block)',
          description:
            "Send review_version, the version of the review you decided on: 409 review_stale (with the review as it is now) when the carrier's facts changed since. Who decided is the token's name; `by` counts only from an admin token (docs/decisions.md).",
          params: ReviewParams,
          querystring: NoQuery,
          body: decision === 'reject' ? RejectBody : ReviewDecisionBody,
          response: { 200: ReviewSchema, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
        },
      },
      async (req, reply) => {
        // Bad input is refused before anything is looked up. Who decides: the credential (actorOf).
        const actor = actorOf(req, req.body.by);
        const review = await idempotent(
          keys,
          req,
          reply,
          `POST /reviews/${req.params.id}/${decision}`,
          async () => {
            const existing = await reviewReads.get(req.params.id);
            if (!existing) throw notFound(`no review ${req.params.id}`);
            // A review closed by new facts is not a conflict but news (review_stale, from resolveReview).
            if (existing.state !== 'pending' && existing.state !== 'closed')
              throw conflict(
                'review_conflict',
                `review ${existing.id} is already ${existing.state} by ${existing.decided_by ?? 'someone'}`,
                existing.id,
              );
            const block = (req.body as { block?: boolean }).block === true;
            const version = req.body.review_version;
            return screener.resolveReview(req.params.id, decision, actor, req.body.note ?? null, {
              block,
              ...(version === undefined ? {} : { version }),
            });
          },
          (id) => reviewReads.get(id),
        );
        req.screeningId = review.screening_id;
        return review;
      },
    );
  }
};
