import { notFound } from './http-error.js';
import type { IntakePlugin } from './intake-app.js';
import { UI_CSP, readUiFile } from './static-ui.js';

/** What needs no token and holds no data: the OpenAPI document and the tray's UI under /ui/. */

export interface UiRouteOptions {
  /** The built tray dashboard. */
  uiDir: string;
}

export const uiRoutes: IntakePlugin<UiRouteOptions> = async (r, { uiDir }) => {
  // The contract holds no data: served without a token, as the docs are.
  r.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => r.swagger());

  r.get('/ui', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async (_req, reply) => reply.redirect('/ui/', 301));
  r.get('/ui/*', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async (req, reply) => {
    const rel = (req.params as { '*'?: string })['*'] ?? '';
    const file = await readUiFile(uiDir, rel === '' ? 'index.html' : rel);
    if (!file) throw notFound(rel === '' ? 'the tray UI is not built (run the build first)' : `no UI file ${rel}`);
    return reply
      .header('content-security-policy', UI_CSP)
      .header('cache-control', 'no-cache')
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY')
      .type(file.contentType)
      .send(file.body);
  });
};
