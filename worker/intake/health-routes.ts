import type { IntakePlugin } from './intake-app.js';
import { HealthSchema, NoQuery } from './schemas.js';

/** GET /healthz: Redis, SQLite (and its writes), /v1; no token (a load balancer's probe). */

export const healthRoutes: IntakePlugin = async (r) => {
  const { screener } = r;

  r.get(
    '/healthz',
    {
      config: { public: true, rateLimit: false },
      schema: { summary: 'Health (no auth)', security: [], querystring: NoQuery, response: { 200: HealthSchema, 503: HealthSchema } },
    },
    async (req, reply) => {
      let h: { redis: boolean; sqlite: boolean; sqlite_writable?: boolean; svc: boolean; svc_key_rejected?: boolean };
      try {
        h = await screener.health();
      } catch (err) {
        req.log.warn({ err }, 'health check failed');
        h = { redis: false, sqlite: false, sqlite_writable: false, svc: false };
      }
      // Writes refused (a full disk): reads are still served, new work is not. 503, so a load
      // balancer or orchestrator sends work elsewhere; 200 again once a write succeeds.
      if (h.redis && h.sqlite && h.sqlite_writable === false)
        return reply.code(503).send({
          status: 'degraded',
          ...h,
          error: {
            code: 'storage_unavailable',
            message: 'SQLite refuses writes (a full disk or a file-size limit): reads are served, new work is not accepted',
          },
        });
      if (h.redis && h.sqlite) return { status: h.svc ? 'ok' : 'degraded', ...h };
      const down = [h.redis ? null : 'Redis', h.sqlite ? null : 'SQLite'].filter(Boolean).join(' and ');
      return reply
        .code(503)
        .send({ status: 'down', ...h, error: { code: 'unavailable', message: `${down} ${down.includes(' and ') ? 'are' : 'is'} down` } });
    },
  );
};
