import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_INTAKE_LIMITS, loadConfig } from '../../shared/config.js';
import { intakeScheme, intakeTransport, isLoopbackHost } from '../../worker/intake/transport.js';

describe('the intake transport (issue 26)', () => {
  it('knows loopback addresses from wide ones', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', 'tms.corp.example', '::ffff:10.0.0.1', '128.0.0.1'])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it('refuses plain HTTP on a wide address unless INTAKE_INSECURE_HTTP=1', () => {
    expect(() => intakeTransport(loadConfig({ INTAKE_HOST: '0.0.0.0' }))).toThrow(ConfigError);
    expect(() => intakeTransport(loadConfig({ INTAKE_HOST: '10.1.2.3' }))).toThrow(/INTAKE_HOST: 10\.1\.2\.3 is not a loopback address/);
    expect(intakeTransport(loadConfig({ INTAKE_HOST: '0.0.0.0', INTAKE_INSECURE_HTTP: '1' }))).toBeUndefined();
    expect(intakeTransport(loadConfig({}))).toBeUndefined();
    expect(() => loadConfig({ INTAKE_INSECURE_HTTP: 'yes' })).toThrow(/INTAKE_INSECURE_HTTP/);
  });

  it('wants both TLS files, readable PEM', () => {
    expect(() => loadConfig({ INTAKE_TLS_CERT: '/x.pem' })).toThrow(/INTAKE_TLS_CERT: .*INTAKE_TLS_KEY/);
    expect(() => loadConfig({ INTAKE_TLS_KEY: '/x.pem' })).toThrow(/INTAKE_TLS_KEY/);
    const c = loadConfig({ INTAKE_TLS_CERT: '/nonexistent/cert.pem', INTAKE_TLS_KEY: '/nonexistent/key.pem', INTAKE_HOST: '0.0.0.0' });
    expect(intakeScheme(c)).toBe('https');
    expect(() => intakeTransport(c)).toThrow(/INTAKE_TLS_CERT: cannot read \/nonexistent\/cert.pem \(ENOENT\)/);
  });

  it('has safe limits by default, each configurable', () => {
    expect(loadConfig({}).intakeLimits).toEqual(DEFAULT_INTAKE_LIMITS);
    const c = loadConfig({
      INTAKE_HEADERS_TIMEOUT: '5s',
      INTAKE_REQUEST_TIMEOUT: '1m',
      INTAKE_KEEPALIVE_TIMEOUT: '2s',
      INTAKE_MAX_CONNECTIONS: '64',
      INTAKE_SSE_PER_TOKEN: '2',
      INTAKE_RATE_LIMIT: '0',
    }).intakeLimits;
    expect(c).toEqual({
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 2_000,
      maxConnections: 64,
      ssePerToken: 2,
      ratePerMinute: 0,
    });
    expect(() => loadConfig({ INTAKE_REQUEST_TIMEOUT: '0' })).toThrow(/INTAKE_REQUEST_TIMEOUT/);
    expect(() => loadConfig({ INTAKE_HEADERS_TIMEOUT: '40s' })).toThrow(
      /INTAKE_HEADERS_TIMEOUT: must not be longer than INTAKE_REQUEST_TIMEOUT/,
    );
    expect(() => loadConfig({ INTAKE_MAX_CONNECTIONS: '0' })).toThrow(/INTAKE_MAX_CONNECTIONS/);
  });
});
