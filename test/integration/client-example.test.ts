import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierScreen, CarrierScreenError, verifyCallbackSignature } from '../../clients/typescript/src/index.js';
import { signCallback } from '../../shared/callback-signature.js';
import { ensureBuilt } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The TMS client (clients/typescript/): its example program, compiled as `npm run build` does, run
 * as a real process against the real stack (intake, worker, emulator, Redis, SQLite): it screens
 * twice with one idempotency key, waits, receives and verifies the signed callback, and finds the
 * load by tender id. And the helpers on their own: errors carry code, param and request id; a
 * tampered or stale callback does not verify.
 */

const root = resolve(import.meta.dirname, '../..');
let stack: Stack;
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  stack = await startStack({ mode: 'sandbox' });
  dir = mkdtempSync(join(tmpdir(), 'client-example-'));
  writeFileSync(join(dir, 'callback-secret'), stack.callbackSecret, { mode: 0o600 });
}, 240_000);

afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function runExample(dot: string): Promise<{ code: number | null; lines: Array<Record<string, unknown>>; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [join(root, 'dist/clients/typescript/examples/screen-and-verify.js'), dot], {
      env: {
        ...process.env,
        CARRIER_SCREEN_URL: stack.intakeUrl,
        CARRIER_SCREEN_TOKEN: stack.token,
        CARRIER_SCREEN_CALLBACK_SECRET_FILE: join(dir, 'callback-secret'),
      },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('close', (code) =>
      done({
        code,
        stderr: err,
        lines: out
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      }),
    );
  });
}

describe('the TypeScript TMS client', () => {
  it('its example screens once for two requests with one key, gets the signed callback, and finds the load again', async () => {
    const r = await runExample('1000001');
    expect(r.code, r.stderr).toBe(0);
    const step = (name: string) => r.lines.find((l) => l.step === name)!;
    expect(step('screened')).toMatchObject({ replay_same_id: true });
    const id = step('screened').id as string;
    expect(step('done')).toMatchObject({ id, action: 'tender' });
    // The load it sent comes back as sent.
    expect(step('done').pickup_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(step('callback')).toMatchObject({ event: 'screening.completed', signature_ok: true, id, action: 'tender' });
    expect(step('found')).toMatchObject({ ids: [id] });
  }, 120_000);

  it('throws CarrierScreenError with the code, the parameter and the request id', async () => {
    const client = new CarrierScreen({ baseUrl: stack.intakeUrl, token: stack.token });
    const err = await client.screen({ dot_number: 'abc' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CarrierScreenError);
    expect(err).toMatchObject({ status: 400, param: 'dot_number' });
    expect((err as CarrierScreenError).requestId).toMatch(/.+/);
    const refused = await new CarrierScreen({ baseUrl: stack.intakeUrl, token: 'not-a-token' })
      .screen({ dot_number: '1000001' })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401 });
    expect(() => new CarrierScreen({ baseUrl: 'ftp://x', token: 't' })).toThrow(/baseUrl/);
  });

  it('verifies a signature only for the body, secret and time it was made for', () => {
    const body = '{"event":"screening.completed"}';
    const t = Math.floor(Date.now() / 1000);
    const header = signCallback('s3cret', body, t);
    expect(verifyCallbackSignature('s3cret', header, body)).toMatchObject({ ok: true });
    expect(verifyCallbackSignature('s3cret', header, `${body} `)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyCallbackSignature('other', header, body)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyCallbackSignature('s3cret', signCallback('s3cret', body, t - 3600), body)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyCallbackSignature('s3cret', undefined, body)).toEqual({ ok: false, reason: 'malformed' });
  });
});
