import { Type } from 'typebox';
import type { Screener } from '../screener-types.js';
import { HttpError, notFound } from './http-error.js';
import { DecisionSchema, ErrorBody, ListOf, NoQuery, ResolveBody } from './schemas.js';
import type { IntakeApp } from './server.js';

/** Intake routes of standing carrier decisions (docs/decisions.md): list, look at, revoke. */

const DecisionParams = Type.Object({
  id: Type.String({ pattern: '^dec_[a-z2-7]{26}$', description: 'a decision id: "dec_" and 26 characters a–z, 2–7' }),
});
const DecisionListQuery = Type.Object(
  {
    dot_number: Type.Optional(Type.String({ pattern: '^[0-9]{1,8}$', description: '1 to 8 digits' })),
    state: Type.Optional(
      Type.Union([Type.Literal('standing'), Type.Literal('lapsed'), Type.Literal('revoked'), Type.Literal('all')], { description: 'standing, lapsed, revoked or all (default all)' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'a whole number from 1 to 500 (default 100)' })),
  },
  { additionalProperties: false },
);

export function registerDecisionRoutes(r: IntakeApp, screener: Screener): void {
  const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 503: ErrorBody };

  r.get(
    '/decisions',
    { schema: { summary: 'Carrier decisions, newest first', querystring: DecisionListQuery, response: { 200: ListOf(DecisionSchema), ...errors } } },
    async (req) => {
      const { dot_number, state, limit } = req.query;
      const data = screener.listDecisions({
        ...(dot_number === undefined ? {} : { dot_number }),
        ...(state === undefined || state === 'all' ? {} : { state }),
        limit: limit ?? 100,
      });
      return { object: 'list' as const, data };
    },
  );

  r.get(
    '/decisions/:id',
    { schema: { summary: 'One carrier decision', params: DecisionParams, querystring: NoQuery, response: { 200: DecisionSchema, ...errors } } },
    async (req) => screener.getDecision(req.params.id) ?? Promise.reject(notFound(`no decision ${req.params.id}`)),
  );

  r.post(
    '/decisions/:id/revoke',
    {
      schema: {
        summary: 'End a standing decision: the next hold of the carrier opens a review (409 when it no longer stands)',
        params: DecisionParams,
        querystring: NoQuery,
        body: ResolveBody,
        response: { 200: DecisionSchema, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
      },
    },
    async (req) => {
      const d = screener.getDecision(req.params.id);
      if (!d) throw notFound(`no decision ${req.params.id}`);
      if (d.state !== 'standing') throw new HttpError(409, 'decision_conflict', `decision ${d.id} is already ${d.state}${d.ended_by ? ` by ${d.ended_by}` : ''}`);
      return screener.revokeDecision(req.params.id, req.body.by.trim(), req.body.note ?? null);
    },
  );
}
