import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS } from '../../emulator/index.js';
import { ensureSecret, readSecret } from '../../worker/intake/token-file.js';
import { startStack } from '../helpers/stack.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cs-secret-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('ensureSecret / readSecret', () => {
  it('generates a secret on first use with mode 0600 and reuses it after', () => {
    const dir = join(tempDir(), 'data');
    expect(readSecret(dir, 'intake-token')).toBeUndefined();
    const a = ensureSecret(dir, 'intake-token');
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(join(dir, 'intake-token')).mode & 0o777).toBe(0o600);
    expect(ensureSecret(dir, 'intake-token')).toBe(a);
    expect(readSecret(dir, 'intake-token')).toBe(a);
    const b = ensureSecret(dir, 'callback-secret');
    expect(b).not.toBe(a);
  });

  it('tightens a file others could read, and replaces an empty one', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'intake-token'), 'kept-token-value-123\n');
    chmodSync(join(dir, 'intake-token'), 0o644);
    expect(ensureSecret(dir, 'intake-token')).toBe('kept-token-value-123');
    expect(statSync(join(dir, 'intake-token')).mode & 0o777).toBe(0o600);
    writeFileSync(join(dir, 'callback-secret'), '');
    const fresh = ensureSecret(dir, 'callback-secret');
    expect(fresh.length).toBe(43);
    expect(readSecret(dir, 'callback-secret')).toBe(fresh);
  });

  it('refuses names that are paths', () => {
    expect(() => ensureSecret(tempDir(), '../escape')).toThrow(/must be lower-case/);
    expect(() => readSecret(tempDir(), 'a/b')).toThrow(RangeError);
  });
});

describe('logs', () => {
  it('never contain the intake token, the callback secret or the /v1 key, whatever is sent', async () => {
    let logged = '';
    const sink = new Writable({
      write(chunk, _enc, cb) {
        logged += chunk.toString();
        cb();
      },
    });
    const stack = await startStack({ logger: pino({ level: 'trace' }, sink) });
    try {
      const auth = { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' };
      for (const [path, body] of [
        ['/screenings?wait=10', { dot_number: '1000003', callback_url: 'http://127.0.0.1:9/cb' }],
        ['/screenings', { dot_number: 'bad' }],
        ['/screenings', { token: stack.token }],
      ] as const) {
        const r = await request(stack.intakeUrl + path, { method: 'POST', headers: auth, body: JSON.stringify(body) });
        await r.body.dump();
      }
      const wrong = await request(`${stack.intakeUrl}/status`, { headers: { authorization: `Bearer ${stack.token}-nope` } });
      await wrong.body.dump();
      expect(logged.length).toBeGreaterThan(0);
      expect(logged).toContain('"msg":"request"'); // one info line per request
      expect(logged).not.toContain(stack.token);
      expect(logged).not.toContain(stack.callbackSecret);
      expect(logged).not.toContain(DEMO_KEYS.sandbox);
    } finally {
      await stack.close();
    }
  });
});
