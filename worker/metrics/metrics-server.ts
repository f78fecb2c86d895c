import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_CONTENT_TYPE } from './metrics.js';

/**
 * GET /metrics on a port of its own, for a `worker` process (it has no intake API to serve it;
 * SCREEN_METRICS_PORT, docs/operations.md "Metrics"). The same text and the same bearer tokens
 * as the intake's /metrics; nothing else is served.
 */
export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(o: {
  host: string;
  port: number;
  /** Whether the Authorization header is a token that may read /metrics. */
  allowed: (authorization: string | undefined) => Promise<boolean>;
  text: () => Promise<string>;
}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, code: string, message: string): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: { code, message } }));
    };
    if (path !== '/metrics') return json(404, 'route_not_found', `only GET /metrics is served on this port, not ${path}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return json(405, 'method_not_allowed', `${req.method} is not allowed on /metrics; allowed: GET, HEAD`);
    }
    o.allowed(req.headers.authorization)
      .then(async (allowed) => {
        if (!allowed)
          return json(
            401,
            'unauthorized',
            'missing or wrong bearer token: send Authorization: Bearer <token> (a metrics token from `carrier-screen token create --role metrics`)',
          );
        const body = await o.text();
        res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(req.method === 'HEAD' ? undefined : body);
      })
      .catch((e: unknown) => json(500, 'api_error', `metrics could not be read: ${(e as Error).message}`));
  });
  // A slow scraper must not hold a connection for ever.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
