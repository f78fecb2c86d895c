import type { HealthReport } from '../screener-types.js';
import type { IntakePlugin } from './intake-app.js';
import { HealthSchema, NoQuery } from './schemas.js';

/** GET /healthz: Redis, the record (and its writes), /v1; no token (a load balancer's probe). */

const ENGINE = { sqlite: 'SQLite', postgresql: 'PostgreSQL' } as const;

export const healthRoutes: IntakePlugin = async (r) => {
  const { screener } = r;

  r.get(
    '/healthz',
    {
      config: { public: true, rateLimit: false },
      schema: { summary: 'Health (no auth)', security: [], querystring: NoQuery, response: { 200: HealthSchema, 503: HealthSchema } },
    },
    async (req, reply) => {
      let h: HealthReport;
      try {
        h = await screener.health();
      } catch (err) {
        req.log.warn({ err }, 'health check failed');
        h = {
          redis: false,
          record: false,
          record_writable: false,
          record_backend: screener.recordBackend,
          svc: false,
          svc_key_rejected: false,
        };
      }
      const engine = ENGINE[h.record_backend];
      // The fields of probes written before PostgreSQL: on SQLite only, where they are true to their name.
      const body = h.record_backend === 'sqlite' ? { ...h, sqlite: h.record, sqlite_writable: h.record_writable } : h;
      // Writes refused (a full disk): reads are still served, new work is not. 503, so a load
      // balancer or orchestrator sends work elsewhere; 200 again once a write succeeds.
      if (h.redis && h.record && !h.record_writable)
        return reply.code(503).send({
          status: 'degraded',
          ...body,
          error: {
            code: 'storage_unavailable',
            message: `${engine} refuses writes (${h.record_backend === 'sqlite' ? 'a full disk or a file-size limit' : 'a full disk, a read-only standby or missing privileges'}): reads are served, new work is not accepted`,
          },
        });
      if (h.redis && h.record) return { status: h.svc ? 'ok' : 'degraded', ...body };
      const down = [h.redis ? null : 'Redis', h.record ? null : engine].filter(Boolean).join(' and ');
      return reply.code(503).send({
        status: 'down',
        ...body,
        error: { code: 'unavailable', message: `${down} ${down.includes(' and ') ? 'are' : 'is'} down` },
      });
    },
  );
};
