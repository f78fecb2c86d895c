import type { IntakePlugin } from './intake-app.js';
import { CallerSchema, DailyUsageSchema, ERRORS, NoQuery, StatusSchema } from './schemas.js';

/** The operator's view: /status, who a token is (/me), daily usage, and pausing the queue. */

export const statusRoutes: IntakePlugin = async (r) => {
  const { screener } = r;
  const errors = ERRORS;

  r.get(
    '/status',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Queue, quota, rate limit, reviews, /v1 reachability',
        querystring: NoQuery,
        response: { 200: StatusSchema, ...errors },
      },
    },
    () => screener.status(),
  );
  // Who this token is: the desk shows it and needs no typed name when the token has one.
  r.get(
    '/me',
    {
      config: { role: 'tms' },
      schema: {
        summary: 'Who the bearer token is: its id, name and role',
        querystring: NoQuery,
        response: { 200: CallerSchema, ...errors },
      },
    },
    async (req) => {
      const c = req.caller!;
      return { object: 'caller' as const, token_id: c.token_id, name: c.name, role: c.role };
    },
  );
  r.get(
    '/usage/daily',
    {
      config: { role: 'tms' },
      schema: { summary: 'Live lookups per UTC day this month', querystring: NoQuery, response: { 200: DailyUsageSchema, ...errors } },
    },
    async () => screener.dailyUsage(),
  );
  r.post(
    '/queue/pause',
    {
      config: { role: 'admin' },
      schema: { summary: 'Stop calling /v1 (intake keeps accepting)', querystring: NoQuery, response: { 200: StatusSchema, ...errors } },
    },
    async () => {
      await screener.pause();
      return screener.status();
    },
  );
  r.post(
    '/queue/resume',
    {
      config: { role: 'admin' },
      schema: { summary: 'Resume calling /v1', querystring: NoQuery, response: { 200: StatusSchema, ...errors } },
    },
    async () => {
      await screener.resume();
      return screener.status();
    },
  );
};
