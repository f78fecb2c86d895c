/** The spec's error table, authentication rules and malformed requests, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseErrorBody } from '../../shared/svc-contract.js';
import { DEMO_KEYS, type RunningEmulator } from '../../emulator/index.js';
import { svcGet, withEmulator, type SvcResponse } from '../helpers/emulator.js';

let sandbox: RunningEmulator;
let live: RunningEmulator;
beforeAll(async () => {
  sandbox = await withEmulator({ mode: 'sandbox' });
  live = await withEmulator({ mode: 'live' });
});
afterAll(async () => {
  await sandbox.close();
  await live.close();
});

/** The error body is always { error: { code, message, type? } }. */
function expectError(res: SvcResponse, status: number, code: string): { code: string; message: string; type?: string; param?: string } {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(res.json)).toEqual(['error']);
  const err = parseErrorBody(res.json);
  expect(err, res.text).toBeDefined();
  expect(err!.code).toBe(code);
  expect(err!.message.length).toBeGreaterThan(10);
  return err!;
}

describe('401 authentication', () => {
  it('no Authorization header: missing_api_key', async () => {
    for (const path of ['/v1/svc-score?dot_number=1000003', '/v1/usage', '/v1/health']) {
      const err = expectError(await svcGet(sandbox, path, null), 401, 'missing_api_key');
      expect(err.type).toBe('authentication_error');
    }
  });

  it('"Bearer" with no key: missing_api_key', async () => {
    expectError(await svcGet(sandbox, '/v1/usage', null, { authorization: 'Bearer ' }), 401, 'missing_api_key');
  });

  it('a mistyped key: invalid_api_key, the message says so and does not echo the key', async () => {
    const typo = `${DEMO_KEYS.sandbox.slice(0, -1)}X`;
    for (const key of [typo, 'svc_test_unknown123', 'sk_somethingelse']) {
      const res = await svcGet(sandbox, '/v1/svc-score?dot_number=1000003', key);
      const err = expectError(res, 401, 'invalid_api_key');
      expect(err.message).toMatch(/mistyped/);
      expect(res.text).not.toContain(key);
    }
  });

  it('an Authorization header that is not Bearer: invalid_api_key', async () => {
    expectError(await svcGet(sandbox, '/v1/usage', null, { authorization: `Basic ${DEMO_KEYS.sandbox}` }), 401, 'invalid_api_key');
  });

  it('a live key sent to the sandbox: wrong_environment_key, the message names both environments', async () => {
    const res = await svcGet(sandbox, '/v1/svc-score?dot_number=1000003', DEMO_KEYS.live);
    const err = expectError(res, 401, 'wrong_environment_key');
    expect(err.message).toMatch(/live key/);
    expect(err.message).toMatch(/sandbox/);
    expect(res.text).not.toContain(DEMO_KEYS.live);
  });

  it('a sandbox key sent to live: wrong_environment_key, the message says which', async () => {
    const res = await svcGet(live, '/v1/usage', DEMO_KEYS.sandbox);
    const err = expectError(res, 401, 'wrong_environment_key');
    expect(err.message).toMatch(/sandbox key/);
    expect(err.message).toMatch(/live/);
    expect(res.text).not.toContain(DEMO_KEYS.sandbox);
  });

  it('the matching demo key works on each instance', async () => {
    expect((await svcGet(sandbox, '/v1/usage', DEMO_KEYS.sandbox)).status).toBe(200);
    expect((await svcGet(live, '/v1/usage', DEMO_KEYS.live)).status).toBe(200);
  });
});

describe('404', () => {
  it('carrier_not_found for an unknown carrier', async () => {
    expectError(await svcGet(sandbox, '/v1/svc-score?dot_number=4242'), 404, 'carrier_not_found');
  });

  it('not_found JSON error for unknown routes and methods, with or without a key', async () => {
    for (const [path, method] of [
      ['/v1/nope', 'GET'],
      ['/', 'GET'],
      ['/v2/svc-score?dot_number=1', 'GET'],
      ['/v1/svc-score?dot_number=1000003', 'POST'],
    ] as const) {
      for (const key of [undefined, null]) {
        const res = await svcGet(sandbox, path, key, { method });
        const err = expectError(res, 404, 'not_found');
        expect(err.message).toContain(path.split('?')[0]);
      }
    }
  });
});

describe('503 and 500', () => {
  it('503 scoring_unavailable (sandbox outage trigger)', async () => {
    expectError(await svcGet(sandbox, '/v1/svc-score?dot_number=1000503'), 503, 'scoring_unavailable');
  });

  it('500 via faults, with a JSON error body', async () => {
    const emu = await withEmulator({ mode: 'sandbox', faults: { error500Share: 1 } });
    try {
      const err = expectError(await svcGet(emu, '/v1/svc-score?dot_number=1000003'), 500, 'internal_error');
      expect(err.type).toBe('api_error');
      expect(emu.stats().errors).toBe(1);
    } finally {
      await emu.close();
    }
  });
});

describe('400 invalid_request names the parameter', () => {
  const cases: [string, string][] = [
    ['dot_number=1000003&mc_number=MC1000003', 'dot_number'], // both
    ['', 'dot_number'], // neither
    ['other=1', 'dot_number'], // neither (unknown parameters are ignored)
    ['dot_number=', 'dot_number'],
    ['dot_number=abc', 'dot_number'],
    ['dot_number=123456789', 'dot_number'],
    ['dot_number=-5', 'dot_number'],
    ['dot_number=10.5', 'dot_number'],
    ['dot_number=1000003&dot_number=1000005', 'dot_number'],
    ['mc_number=1000003', 'mc_number'],
    ['mc_number=MC', 'mc_number'],
    ['mc_number=MC-1000003', 'mc_number'],
    ['mc_number=MCabc', 'mc_number'],
    ['mc_number=', 'mc_number'],
  ];
  for (const [query, param] of cases) {
    it(`?${query}`, async () => {
      const err = expectError(await svcGet(sandbox, `/v1/svc-score?${query}`), 400, 'invalid_request');
      expect(err.param).toBe(param);
      expect(err.message).toContain(param);
      expect(err.type).toBe('invalid_request_error');
    });
  }

  it('both parameters: the message names both', async () => {
    const err = expectError(await svcGet(sandbox, '/v1/svc-score?dot_number=1&mc_number=MC1'), 400, 'invalid_request');
    expect(err.message).toContain('dot_number');
    expect(err.message).toContain('mc_number');
  });

  it('leading zeros and lower-case mc are accepted', async () => {
    expect((await svcGet(sandbox, '/v1/svc-score?dot_number=01000003')).json.score).toBe(66);
    expect((await svcGet(sandbox, '/v1/svc-score?mc_number=mc1000003')).json.score).toBe(66);
  });

  it('an unauthenticated malformed request is 401, not 400', async () => {
    expectError(await svcGet(sandbox, '/v1/svc-score?dot_number=abc', null), 401, 'missing_api_key');
  });
});
