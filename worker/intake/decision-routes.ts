import { Type } from 'typebox';
import { DECISION_STATES, type Decision } from '../../shared/screening.js';
import { Enum } from './components.js';
import { NotFoundError, ReviewConflictError } from '../store/index.js';
import { AUDIT_COLUMNS } from '../decisions/audit-export.js';
import { badRequest, conflict, isoParam, notFound } from './http-error.js';
import { PageQueryFields, pageParams } from './paging.js';
import { sendJsonBody } from './reply-json.js';
import { DecisionParams, DecisionSchema, ERRORS, ErrorBody, ListOf, NoQuery, ResolveBody } from './schemas.js';
import { actorOf, type IntakePlugin } from './intake-app.js';

/** Intake routes of standing carrier decisions (docs/decisions.md): list, look at, revoke. */

const DecisionListQuery = Type.Object(
  {
    dot_number: Type.Optional(Type.String({ pattern: '^[0-9]{1,8}$', description: '1 to 8 digits' })),
    state: Type.Optional(
      Enum([...DECISION_STATES, 'ended', 'all'], {
        description: 'standing, lapsed, revoked, ended (lapsed or revoked, latest end first) or all (default all)',
      }),
    ),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);

const AuditQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ description: 'ISO 8601 (UTC), inclusive; default 30 days before `to`' })),
    to: Type.Optional(Type.String({ description: 'ISO 8601 (UTC), exclusive; default now' })),
  },
  { additionalProperties: false },
);

export const decisionRoutes: IntakePlugin = async (r) => {
  const { screener, auditExport } = r;
  const errors = ERRORS;
  const now = () => new Date();

  r.get(
    '/audit.csv',
    {
      config: { role: 'desk' },
      schema: {
        summary: 'The due-diligence record: one CSV row per screening created in [from, to), streamed',
        description: `Columns: ${AUDIT_COLUMNS.join(', ')}. RFC 4180 quoting.`,
        querystring: AuditQuery,
        response: {
          200: {
            description: 'CSV with a header row (Content-Disposition names the file).',
            content: { 'text/csv': { schema: Type.String() } },
          },
          400: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      const to = isoParam(req.query.to, now(), 'to');
      const from = isoParam(req.query.from, new Date(Date.parse(to) - 30 * 86_400_000), 'from');
      if (from >= to) throw badRequest('from must be before to', 'from');
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="carrier-screen-audit-${from.slice(0, 10)}-${to.slice(0, 10)}.csv"`);
      // A stream is not one of the JSON shapes above: Fastify sends it as it comes.
      return reply.send(auditExport.csv(from, to) as never);
    },
  );

  r.get(
    '/decisions',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Carrier decisions, newest first',
        querystring: DecisionListQuery,
        response: { 200: ListOf(DecisionSchema), ...errors },
      },
    },
    async (req, reply) => {
      const { dot_number, state } = req.query;
      const filter = {
        ...(dot_number === undefined ? {} : { dot_number }),
        ...(state === undefined || state === 'all' ? {} : { state }),
      };
      // The page and its JSON are made in a reader thread (decisionsPage).
      return sendJsonBody(reply, await r.listBodies.decisions(filter, pageParams(req.query)));
    },
  );

  r.get(
    '/decisions/:id',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'One carrier decision',
        params: DecisionParams,
        querystring: NoQuery,
        response: { 200: DecisionSchema, ...errors },
      },
    },
    async (req) => (await screener.getDecision(req.params.id)) ?? Promise.reject(notFound(`no decision ${req.params.id}`)),
  );

  r.post(
    '/decisions/:id/revoke',
    {
      config: { role: 'desk' },
      schema: {
        summary: 'End a standing decision: the next hold of the carrier opens a review (409 when it no longer stands)',
        params: DecisionParams,
        querystring: NoQuery,
        body: ResolveBody,
        response: { 200: DecisionSchema, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
      },
    },
    async (req) => {
      const actor = actorOf(req, req.body.by);
      return endStandingDecision(req.params.id, () => screener.revokeDecision(req.params.id, actor, req.body.note ?? null));
    },
  );
};

/**
 * The one path of a route that ends a standing decision (POST /decisions/:id/revoke, the
 * sandbox's POST /sandbox/decisions/:id/lapse): whether it exists and still stands is checked
 * in the transaction that ends it; 404 when there is none, 409 `decision_conflict` when it no
 * longer stands (and who ended it).
 */
export async function endStandingDecision(id: string, end: () => Promise<Decision>): Promise<Decision> {
  try {
    return await end();
  } catch (e) {
    if (e instanceof NotFoundError) throw notFound(e.message);
    if (e instanceof ReviewConflictError) throw conflict('decision_conflict', e.message, id);
    throw e;
  }
}
