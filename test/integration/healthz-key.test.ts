/**
 * /healthz when /v1 refuses the API key: the key passed its check at start (GET /v1/usage), then
 * every score lookup is answered 401 `invalid_api_key` (a revoked key, as the emulator's fault
 * options give it). Real emulator over HTTP, real Redis, a SQLite file.
 */
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack | undefined;
afterAll(async () => stack?.close());

describe('/healthz and a refused API key', () => {
  it('is degraded, svc false and svc_key_rejected true, once a lookup was refused', async () => {
    stack = await startStack({ emulator: { faults: { customErrorShare: 1, customError: { status: 401, code: 'invalid_api_key' } } } });
    const health = async () => (await (await request(`${stack!.intakeUrl}/healthz`)).body.json()) as Record<string, unknown>;
    expect(await health()).toMatchObject({ status: 'ok', svc: true, svc_key_rejected: false });
    const res = await request(`${stack.intakeUrl}/screenings?wait=10`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dot_number: '1000003' }),
    });
    const screening = (await res.body.json()) as { action: string; hold_reason: string };
    expect([res.statusCode, screening.action, screening.hold_reason]).toEqual([200, 'hold', 'service_error']);
    expect(await health()).toMatchObject({ status: 'degraded', redis: true, record: true, svc: false, svc_key_rejected: true });
  });
});
