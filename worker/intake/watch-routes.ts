import { Type } from 'typebox';
import { canonicalDot, parseCarrierQuery } from '../../shared/carrier-id.js';
import { CHANGE_STATES } from '../../shared/screening.js';
import { By, CarrierParams, carrierOfParam, rethrowConflict } from './carrier-param.js';
import { Enum } from './components.js';
import { isoParam, notFound } from './http-error.js';
import { PageQueryFields, pageParams } from './paging.js';
import { sendJsonBody } from './reply-json.js';
import { BODY_ERRORS, CarrierChangeSchema, DotNumber, ERRORS, ErrorBody, ListOf, McNumber, NoQuery, WatchEntrySchema } from './schemas.js';
import { actorOf, type IntakePlugin } from './intake-app.js';

/**
 * Intake routes of the watch list and carrier changes (docs/watchlist.md; the local do-not-use
 * list is block-routes.ts). Same auth, validation and error shapes as the other routes.
 */

export const WatchAddBody = Type.Object(
  {
    dot_number: Type.Optional(DotNumber),
    mc_number: Type.Optional(McNumber),
    note: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { description: 'a note of at most 500 characters' })),
  },
  { additionalProperties: false, description: 'Exactly one of dot_number or mc_number.' },
);

export const AcknowledgeBody = Type.Object(
  {
    by: Type.Optional(By),
    note: Type.Optional(
      Type.Union([Type.String({ maxLength: 500 }), Type.Null()], {
        description: 'why it is acknowledged (what was done about the loads): at most 500 characters, kept with the acknowledgement',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CHANGE_ID = '^chg_[a-z2-7]{26}$';
export const ChangeParams = Type.Object({
  id: Type.String({ pattern: CHANGE_ID, description: 'a change id: "chg_" and 26 characters a–z, 2–7' }),
});

export const WatchListQuery = Type.Object({ ...PageQueryFields }, { additionalProperties: false });
export const ChangeListQuery = Type.Object(
  {
    state: Type.Optional(Enum([...CHANGE_STATES, 'all'], { description: 'new, acknowledged or all (default all)' })),
    updated_since: Type.Optional(
      Type.String({
        description: "ISO 8601: changes detected or acknowledged at or after it (a TMS's own read position; state=new is the desk's)",
      }),
    ),
    dot_number: Type.Optional(
      Type.String({ pattern: '^\\s*\\d{1,8}\\s*$', description: 'changes of the carrier with this DOT number (1 to 8 digits)' }),
    ),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);

/**
 * The /changes filters a TMS syncs with. Applied to the list as read (bounded like every list
 * here), before paging, so cursors page within the filtered list.
 */
function changeFilter(q: { updated_since?: string; dot_number?: string }): { since?: string; dot?: string } {
  return {
    ...(q.updated_since === undefined ? {} : { since: isoParam(q.updated_since, new Date(), 'updated_since') }),
    ...(q.dot_number === undefined ? {} : { dot: canonicalDot(q.dot_number.trim()) }),
  };
}
export const WatchRemovedSchema = Type.Object({
  object: Type.Literal('watch_entry_removed'),
  dot_number: Type.Union([Type.String(), Type.Null()]),
  mc_number: Type.Union([Type.String(), Type.Null()]),
});

/** /watchlist, /changes; none for a screener built without a watch service. */
export const watchRoutes: IntakePlugin = async (r) => {
  const watch = r.watchList;
  if (!watch) return;
  const errors = ERRORS;
  const bodyErrors = BODY_ERRORS;

  // ---- watch list ----
  r.get(
    '/watchlist',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Watched carriers (re-screened daily), soonest re-screen first',
        querystring: WatchListQuery,
        response: { 200: ListOf(WatchEntrySchema), ...errors },
      },
    },
    async (req, reply) => sendJsonBody(reply, await watch.pageJson(pageParams(req.query))),
  );

  r.get(
    '/watchlist/:dot',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'One watched carrier (by DOT or MC number)',
        params: CarrierParams,
        querystring: NoQuery,
        response: { 200: WatchEntrySchema, ...errors },
      },
    },
    async (req) =>
      (await watch.get(carrierOfParam(req.params.dot))) ?? Promise.reject(notFound(`carrier ${req.params.dot} is not on the watch list`)),
  );

  r.post(
    '/watchlist',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Watch a carrier until removed',
        description: '201 when added, 200 when it was already watched (the note is kept unless a new one is sent).',
        querystring: NoQuery,
        body: WatchAddBody,
        response: { 200: WatchEntrySchema, 201: WatchEntrySchema, ...bodyErrors },
      },
    },
    async (req, reply) => {
      const query = parseCarrierQuery(req.body);
      const { entry, created } = await watch.add(query, req.body.note?.trim() || null);
      return reply.code(created ? 201 : 200).send(entry);
    },
  );

  r.delete(
    '/watchlist/:dot',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Stop watching a carrier (a later tender puts it back)',
        params: CarrierParams,
        querystring: NoQuery,
        response: { 200: WatchRemovedSchema, ...errors },
      },
    },
    async (req) => {
      const query = carrierOfParam(req.params.dot);
      if (!(await watch.remove(query))) throw notFound(`carrier ${req.params.dot} is not on the watch list`);
      return {
        object: 'watch_entry_removed' as const,
        dot_number: 'dot_number' in query ? query.dot_number : null,
        mc_number: 'mc_number' in query ? query.mc_number : null,
      };
    },
  );

  // ---- changes (the tray's Changes list) ----
  r.get(
    '/changes',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Changes of watched carriers, newest first',
        querystring: ChangeListQuery,
        response: { 200: ListOf(CarrierChangeSchema), ...errors },
      },
    },
    async (req, reply) => {
      const state = req.query.state === 'all' ? undefined : req.query.state;
      return sendJsonBody(reply, await watch.changesPageJson(state, pageParams(req.query), changeFilter(req.query)));
    },
  );

  r.get(
    '/changes/:id',
    {
      config: { role: 'tms' },
      schema: { summary: 'One change', params: ChangeParams, querystring: NoQuery, response: { 200: CarrierChangeSchema, ...errors } },
    },
    async (req) => (await watch.getChange(req.params.id)) ?? Promise.reject(notFound(`no change ${req.params.id}`)),
  );

  r.post(
    '/changes/:id/acknowledge',
    {
      config: { role: 'desk' },
      schema: {
        summary: 'Acknowledge a change (409 when already acknowledged)',
        params: ChangeParams,
        querystring: NoQuery,
        body: AcknowledgeBody,
        response: { 200: CarrierChangeSchema, 409: ErrorBody, ...bodyErrors },
      },
    },
    async (req) => watch.acknowledge(req.params.id, actorOf(req, req.body.by).by, req.body.note ?? null).catch(rethrowConflict),
  );
};
