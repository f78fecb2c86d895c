/**
 * Every intake route names the least role it needs (`config: { role }`, read by the auth hook),
 * or says it is public; HEAD follows GET. Walks the real intake's routes through `onRoute`, and
 * shows that a route without a role stops the intake from starting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import { pino } from 'pino';
import { buildIntake } from '../../worker/intake/server.js';
import type { IntakeApp } from '../../worker/intake/intake-app.js';
import type { Screener } from '../../worker/screener-types.js';
import { openStore, type Store, recordOf } from '../../worker/store/index.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { isRole } from '../../worker/tokens/roles.js';

const TOKEN = 'intake-token-for-route-roles-test';
let store: Store | undefined;
let app: IntakeApp | undefined;

/** The intake over a real in-memory store; the routes read what they need only when called. */
function intake(): IntakeApp {
  store = openStore(':memory:');
  // Registering routes asks nothing of the screener but its store (and whether it has a watch list).
  const screener = { store: recordOf(store), environment: 'sandbox', dataDir: '.' } as unknown as Screener;
  app = buildIntake({ screener, token: TOKEN, logger: pino({ level: 'silent' }), limits: { ratePerMinute: 0 } });
  return app;
}

afterEach(async () => {
  await app?.close();
  store?.close();
  app = undefined;
  store = undefined;
});

describe('intake route roles', () => {
  it('every route, HEAD included, has a role or is public, and a HEAD route needs what its GET needs', async () => {
    const a = intake();
    const routes: RouteOptions[] = [];
    a.addHook('onRoute', (r) => void routes.push(r));
    await a.ready();
    const methods = routes.flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => ({ m, r })));
    expect(methods.length).toBeGreaterThan(40);
    const heads = methods.filter(({ m }) => m === 'HEAD');
    expect(heads.length).toBeGreaterThan(10);
    for (const { m, r } of methods) {
      const config = (r.config ?? {}) as { role?: unknown; public?: unknown };
      const what = `${m} ${r.url}`;
      if (config.public === true) {
        expect(config.role, what).toBeUndefined();
        continue;
      }
      expect(isRole(config.role), `${what} has no role`).toBe(true);
    }
    for (const { r } of heads) {
      const get = methods.find(({ m, r: g }) => m === 'GET' && g.url === r.url);
      expect(get, `HEAD ${r.url} without its GET`).toBeDefined();
      expect((r.config as { role?: string }).role, `HEAD ${r.url}`).toBe((get!.r.config as { role?: string }).role);
    }
  });

  it('a route that declares no role stops the intake from starting', async () => {
    const a = intake();
    void a.register(async (r) => {
      r.get('/forgotten', async () => 'no role');
    });
    await expect(a.ready()).rejects.toThrow(/GET \/forgotten declares neither config\.role nor config\.public/);
  });

  it('the auth hook checks the role of a HEAD request as of its GET', async () => {
    const a = intake();
    await a.ready();
    const tokens = new IntakeTokens(recordOf(store!));
    const metrics = (await tokens.create('metrics', 'prometheus')).token;
    const tms = (await tokens.create('tms', 'a tms')).token;
    for (const method of ['GET', 'HEAD'] as const) {
      const refused = await a.inject({ method, url: '/me', headers: { authorization: `Bearer ${metrics}` } });
      expect(refused.statusCode, `${method} /me with a metrics token`).toBe(403);
      const allowed = await a.inject({ method, url: '/me', headers: { authorization: `Bearer ${tms}` } });
      expect(allowed.statusCode, `${method} /me with a tms token`).toBe(200);
    }
    const anonymous = await a.inject({ method: 'HEAD', url: '/me' });
    expect(anonymous.statusCode).toBe(401);
  });
});
