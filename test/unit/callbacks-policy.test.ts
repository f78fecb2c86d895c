import { describe, expect, it } from 'vitest';
import { parseCallbackAllow } from '../../shared/callback-allow.js';
import { ConfigError, loadConfig } from '../../shared/config.js';
import { DestinationPolicy, REFUSALS, isLoopbackHost, normalizeAddress } from '../../worker/callbacks/destination-policy.js';

/** The callback destination rule (docs/callbacks.md "Where callbacks may go"), on its own. */

const policy = (allow: string | undefined, intakeHost = '127.0.0.1') =>
  new DestinationPolicy({ allow: allow === undefined ? undefined : parseCallbackAllow(allow), intakeHost });

/** The hostname a URL's parser makes of each form (what the sender and the intake check). */
const hostOf = (h: string) => new URL(`http://${h}/`).hostname;

describe('normalising an address before the check', () => {
  it('decimal, hex, octal and short IPv4 forms all reach 127.0.0.1 through the URL parser', () => {
    for (const form of ['127.0.0.1', '0x7f000001', '2130706433', '0177.0.0.1', '127.1', '0x7f.0.0.1'])
      expect([form, normalizeAddress(hostOf(form))]).toEqual([form, { address: '127.0.0.1', family: 'ipv4' }]);
    expect(normalizeAddress(hostOf('0251.0376.0251.0376'))).toEqual({ address: '169.254.169.254', family: 'ipv4' });
  });

  it('IPv4-mapped and IPv4-compatible IPv6 become the IPv4 address they reach; :: and ::1 stay themselves', () => {
    expect(normalizeAddress('[::ffff:127.0.0.1]')).toEqual({ address: '127.0.0.1', family: 'ipv4' });
    expect(normalizeAddress(hostOf('[::ffff:127.0.0.1]'))).toEqual({ address: '127.0.0.1', family: 'ipv4' });
    expect(normalizeAddress('::ffff:a9fe:a9fe')).toEqual({ address: '169.254.169.254', family: 'ipv4' });
    expect(normalizeAddress('0:0:0:0:0:ffff:0a14:0001')).toEqual({ address: '10.20.0.1', family: 'ipv4' });
    expect(normalizeAddress('::7f00:1')).toEqual({ address: '127.0.0.1', family: 'ipv4' });
    expect(normalizeAddress('::1')).toEqual({ address: '::1', family: 'ipv6' });
    expect(normalizeAddress('::')).toEqual({ address: '::', family: 'ipv6' });
    expect(normalizeAddress('fe80::1%eth0')).toEqual({ address: 'fe80::1', family: 'ipv6' });
    expect(normalizeAddress('localhost')).toBeUndefined();
  });

  it('loopback bindings', () => {
    for (const h of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost']) expect([h, isLoopbackHost(h)]).toEqual([h, true]);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', 'tms.example']) expect([h, isLoopbackHost(h)]).toEqual([h, false]);
  });
});

describe('the policy', () => {
  it('without CALLBACK_ALLOW: loopback only, and only while the intake binds loopback', () => {
    const local = policy(undefined, '127.0.0.1');
    expect(local.refusal('127.0.0.1', '127.0.0.1')).toBeUndefined();
    expect(local.refusal('localhost', '::1')).toBeUndefined();
    expect(local.refusal('x', '::ffff:127.0.0.1')).toBeUndefined();
    expect(local.refusal('x', '10.0.0.1')).toBe('a private address');
    expect(local.refusal('x', '192.0.2.7')).toBe('an address outside the allowed callback destinations');
    const wide = policy(undefined, '0.0.0.0');
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(wide.refusal('localhost', a)).toBe('a loopback address');
    expect(wide.refusal('localhost', '10.0.0.1')).toBe('a private address');
  });

  it('with CALLBACK_ALLOW: the listed names and networks, nothing else (not even loopback)', () => {
    const p = policy('tms.corp.example, 10.20.0.0/16, 2001:db8::/32', '127.0.0.1');
    expect(p.refusal('tms.corp.example', '192.0.2.7')).toBeUndefined();
    expect(p.refusal('TMS.corp.example.', '192.0.2.7')).toBeUndefined();
    expect(p.refusal('other.example', '10.20.3.4')).toBeUndefined();
    expect(p.refusal('other.example', '::ffff:10.20.3.4')).toBeUndefined();
    expect(p.refusal('other.example', '2001:db8::5')).toBeUndefined();
    expect(p.refusal('other.example', '10.21.0.1')).toBe('a private address');
    expect(p.refusal('other.example', '198.51.100.1')).toBe('an address outside the allowed callback destinations');
    expect(p.refusal('127.0.0.1', '127.0.0.1')).toBe('a loopback address');
  });

  it('says why in general terms only: never the allow list, never an address', () => {
    const p = policy('tms.corp.example, 10.20.0.0/16');
    for (const a of [
      '127.0.0.1',
      '::1',
      '10.9.9.9',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      'fd00::1',
      '198.51.100.1',
      '169.254.169.254',
      'x',
    ]) {
      const why = p.refusal('other.example', a)!;
      expect(Object.values(REFUSALS)).toContain(why);
      expect(why).not.toMatch(/tms\.corp|10\.20|CALLBACK_ALLOW|\d+\.\d+|::/);
    }
  });

  it('link-local, metadata, unspecified and multicast are refused even for a listed name, unless listed by CIDR', () => {
    const p = policy('tms.corp.example');
    for (const a of ['169.254.169.254', '::ffff:169.254.169.254', 'fe80::1', '0.0.0.0', '::', '224.0.0.1', 'ff02::1', '255.255.255.255'])
      expect([a, p.refusal('tms.corp.example', a)]).toEqual([a, expect.stringMatching(/link-local/)]);
    const listed = policy('169.254.169.254/32, fe80::/10');
    expect(listed.refusal('169.254.169.254', '169.254.169.254')).toBeUndefined();
    expect(listed.refusal('x', 'fe80::9')).toBeUndefined();
    // Loopback default never covers 0.0.0.0 or :: (they reach this host too).
    expect(policy(undefined).refusal('0.0.0.0', '0.0.0.0')).toMatch(/link-local/);
  });

  it('checkUrl: literal forms at once, names by every address they resolve to; an unresolvable name is left to the send-time check', async () => {
    const wide = policy(undefined, '0.0.0.0');
    expect(await wide.checkUrl(new URL('http://0x7f000001:6379/'))).toEqual({
      refusal: 'a loopback address',
      literal: true,
      address: '127.0.0.1',
    });
    expect(await wide.checkUrl(new URL('http://localhost:1/'))).toMatchObject({
      refusal: 'a loopback address',
      literal: false,
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
    const p = policy('10.0.0.0/8');
    expect(await p.checkUrl(new URL('http://tms.example/'), async () => ['10.1.1.1', '10.2.2.2'])).toBeUndefined();
    expect(await p.checkUrl(new URL('http://tms.example/'), async () => ['10.1.1.1', '127.0.0.1'])).toEqual({
      refusal: 'a loopback address',
      literal: false,
      address: '127.0.0.1',
    });
    expect(await p.checkUrl(new URL('http://nowhere.example/'), async () => Promise.reject(new Error('ENOTFOUND')))).toBeUndefined();
  });
});

describe('CALLBACK_ALLOW', () => {
  it('parses hosts, CIDRs and bare addresses', () => {
    expect(parseCallbackAllow(' tms.corp.example ,10.20.0.0/16,203.0.113.7, [fd00::]/8 ')).toEqual({
      hosts: ['tms.corp.example'],
      cidrs: [
        { address: '10.20.0.0', prefix: 16, family: 'ipv4' },
        { address: '203.0.113.7', prefix: 32, family: 'ipv4' },
        { address: 'fd00::', prefix: 8, family: 'ipv6' },
      ],
    });
  });

  it('a bad entry stops the start, naming the variable', () => {
    for (const bad of ['10.0.0.0/33', '010.0.0.0/8', 'tms.example/24', 'http://tms.example', 'a b', ',']) {
      expect(() => loadConfig({ CALLBACK_ALLOW: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ CALLBACK_ALLOW: bad })).toThrow(/CALLBACK_ALLOW/);
    }
    expect(loadConfig({}).callbackAllow).toBeUndefined();
  });
});
