import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { canonicalDot, parseCarrierQuery } from '../../shared/carrier-id.js';
import { LOCAL_BLOCK_STATES } from '../../shared/screening.js';
import { By, CarrierParams, carrierOfParam, rethrowConflict } from './carrier-param.js';
import { Enum } from './components.js';
import { notFound } from './http-error.js';
import { actorOf, type IntakePlugin } from './intake-app.js';
import { PageQueryFields, pageParams } from './paging.js';
import { sendJsonBody } from './reply-json.js';
import { BODY_ERRORS, DotNumber, ERRORS, ErrorBody, ListOf, LocalBlockSchema, McNumber, NoQuery } from './schemas.js';

/**
 * Intake routes of the local do-not-use list (docs/watchlist.md; the rule: worker/blocks/):
 * list, read, block and lift. Same auth, validation and error shapes as the other routes.
 */

export const BlockBody = Type.Object(
  {
    dot_number: Type.Optional(DotNumber),
    mc_number: Type.Optional(McNumber),
    by: Type.Optional(By),
    reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'why: 1 to 500 characters, not only spaces' }),
  },
  { additionalProperties: false, description: 'Exactly one of dot_number or mc_number, who blocks and why.' },
);

const LiftNote = Type.String({ maxLength: 500, description: 'why the block is lifted: at most 500 characters, kept with the lift' });
export const LiftBody = Type.Object({ by: Type.Optional(By), note: Type.Optional(LiftNote) }, { additionalProperties: false });
/** DELETE takes no body (clients and proxies drop them): who lifts and why go in the query. */
export const LiftQuery = Type.Object({ by: Type.Optional(By), note: Type.Optional(LiftNote) }, { additionalProperties: false });

export const BlockListQuery = Type.Object(
  {
    state: Type.Optional(Enum([...LOCAL_BLOCK_STATES, 'all'], { description: 'active (default), lifted or all' })),
    dot_number: Type.Optional(
      Type.String({
        pattern: '^\\s*\\d{1,8}\\s*$',
        description: 'the blocks of the carrier with this DOT number (1 to 8 digits), newest block first',
      }),
    ),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);

/** /blocks; none for a screener built without local blocks. */
export const blockRoutes: IntakePlugin = async (r) => {
  const blocks = r.localBlocks;
  if (!blocks) return;
  const errors = ERRORS;
  const bodyErrors = BODY_ERRORS;

  r.get(
    '/blocks',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Local do-not-use list (active by default)',
        querystring: BlockListQuery,
        response: { 200: ListOf(LocalBlockSchema), ...errors },
      },
    },
    async (req, reply) => {
      const state = req.query.state ?? 'active';
      const dot = req.query.dot_number === undefined ? undefined : canonicalDot(req.query.dot_number.trim());
      return sendJsonBody(reply, await blocks.pageJson(state === 'all' ? undefined : state, pageParams(req.query), dot));
    },
  );

  r.get(
    '/blocks/:dot',
    {
      config: { role: 'tms' },
      schema: {
        summary: "A carrier's active block (by DOT or MC number)",
        params: CarrierParams,
        querystring: NoQuery,
        response: { 200: LocalBlockSchema, ...errors },
      },
    },
    async (req) => {
      const block = await blocks.findCommitted(carrierOfParam(req.params.dot));
      if (!block) throw notFound(`carrier ${req.params.dot} is not on the do-not-use list`);
      return block;
    },
  );

  r.post(
    '/blocks',
    {
      config: { role: 'desk' },
      schema: {
        summary: 'Put a carrier on the local do-not-use list: every screening of it is blocked, without asking /v1',
        querystring: NoQuery,
        body: BlockBody,
        response: { 201: LocalBlockSchema, 409: ErrorBody, ...bodyErrors },
      },
    },
    async (req, reply) => {
      const query = parseCarrierQuery(req.body);
      const actor = actorOf(req, req.body.by);
      // The block and what it ends (the carrier's open review, its tenders blocked): one commit.
      const block = await blocks.block(query, actor, req.body.reason.trim()).catch(rethrowConflict);
      return reply.code(201).send(block);
    },
  );

  const lift = async (req: FastifyRequest, dot: string, by: string | undefined, note: string | undefined) => {
    const who = actorOf(req, by);
    try {
      return await blocks.lift(carrierOfParam(dot), who.by, who.token_id, note?.trim() || null);
    } catch (e) {
      return rethrowConflict(e);
    }
  };
  r.delete(
    '/blocks/:dot',
    {
      config: { role: 'desk' },
      schema: {
        summary: 'Lift a local block (recorded, not deleted); who lifts it in ?by= and why in ?note= (no body)',
        params: CarrierParams,
        querystring: LiftQuery,
        response: { 200: LocalBlockSchema, 409: ErrorBody, ...errors },
      },
    },
    async (req) => lift(req, req.params.dot, req.query.by ?? (req.body as { by?: string } | undefined)?.by, req.query.note),
  );
  r.post(
    '/blocks/:dot/lift',
    {
      config: { role: 'desk' },
      schema: {
        summary: 'Lift a local block (the same as DELETE /blocks/:dot, with who lifts it and why in the body)',
        params: CarrierParams,
        querystring: NoQuery,
        body: LiftBody,
        response: { 200: LocalBlockSchema, 409: ErrorBody, ...bodyErrors },
      },
    },
    async (req) => lift(req, req.params.dot, req.body.by, req.body.note),
  );
};
