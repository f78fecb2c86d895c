import { Type } from 'typebox';
import { METRICS_CONTENT_TYPE, metricsText } from '../metrics/metrics.js';
import type { IntakePlugin } from './intake-app.js';
import { NoQuery } from './schemas.js';

export interface MetricsRouteOptions {
  /** The directory the database grows in, for the free-bytes gauge. */
  dataDir: string;
}

export const metricsRoutes: IntakePlugin<MetricsRouteOptions> = async (r, { dataDir }) => {
  const { screener } = r;

  // Prometheus text (docs/operations.md); bearer token like every route but /healthz.
  r.get(
    '/metrics',
    {
      config: { role: 'metrics' },
      schema: {
        summary:
          'Prometheus metrics: per-process counters and shared state read at scrape time (any token; a metrics token reads only this)',
        querystring: NoQuery,
        response: {
          200: { description: 'Prometheus text exposition format 0.0.4.', content: { 'text/plain': { schema: Type.String() } } },
        },
      },
    },
    async (_req, reply) =>
      reply
        .type(METRICS_CONTENT_TYPE)
        .send((await metricsText(() => screener.status(), { dataDir, ages: () => screener.ages() })) as never),
  );
};
