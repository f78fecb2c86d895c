import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SvcClient } from '../../worker/svc/client.js';
import { InvalidIdentifierError } from '../../shared/carrier-id.js';

const KEY = 'svc_test_sEcReT0123456789abcdef';
const base = { baseUrl: 'http://127.0.0.1:1', apiKey: KEY };

describe('SvcClient options', () => {
  it('rejects bad options with a message naming the parameter and never the key', () => {
    const cases: [Partial<typeof base> & Record<string, unknown>, RegExp][] = [
      [{ baseUrl: '' }, /baseUrl/],
      [{ baseUrl: 'not a url' }, /baseUrl/],
      [{ baseUrl: 'ftp://x' }, /baseUrl/],
      [{ baseUrl: 'http://x/v1' }, /baseUrl must not end in \/v1/],
      [{ baseUrl: `http://u:${KEY}@x` }, /baseUrl must not contain credentials/],
      [{ apiKey: '' }, /apiKey/],
      [{ apiKey: `${KEY}\r\nX: y` }, /apiKey/],
      [{ timeoutMs: 0 }, /timeoutMs/],
      [{ maxAttempts: 6 }, /maxAttempts/],
      [{ maxAttempts: 0 }, /maxAttempts/],
      [{ connections: 1.5 }, /connections/],
      [{ backoff: { capMs: -5 } }, /backoff\.capMs/],
    ];
    for (const [patch, re] of cases) {
      let thrown: unknown;
      try {
        new SvcClient({ ...base, ...patch } as never);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, JSON.stringify(Object.keys(patch))).toBeInstanceOf(Error);
      expect((thrown as Error).message).toMatch(re);
      expect((thrown as Error).message).not.toContain('sEcReT');
    }
  });

  it('normalises the base URL and keeps a path prefix', async () => {
    const a = new SvcClient({ ...base, baseUrl: 'http://127.0.0.1:1/' });
    const b = new SvcClient({ ...base, baseUrl: 'http://127.0.0.1:1/api/' });
    expect(a.baseUrl).toBe('http://127.0.0.1:1');
    expect(b.baseUrl).toBe('http://127.0.0.1:1/api');
    await a.close();
    await b.close();
  });

  it('util.inspect, JSON and own properties of a client never show the key', async () => {
    const c = new SvcClient(base);
    expect(inspect(c, { depth: 10, showHidden: true })).not.toContain('sEcReT');
    expect(JSON.stringify(c)).not.toContain('sEcReT');
    expect(Object.values(c).join(' ')).not.toContain('sEcReT');
    expect(inspect(c)).toContain('127.0.0.1:1');
    await c.close();
  });

  it('refuses a malformed carrier query before any request', async () => {
    const c = new SvcClient(base);
    await expect(c.getScore({ dot_number: '12ab' })).rejects.toBeInstanceOf(InvalidIdentifierError);
    await expect(c.getScore({} as never)).rejects.toThrow(/dot_number or mc_number/);
    await c.close();
  });
});
