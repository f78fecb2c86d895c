import { readFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { ConfigError, type Config } from '../../shared/config.js';

/**
 * How the intake listens: HTTPS from INTAKE_TLS_CERT / INTAKE_TLS_KEY, or plain HTTP only where
 * nobody else can listen in (a loopback address), or behind a TLS proxy the operator vouches for
 * with INTAKE_INSECURE_HTTP=1 (docs/operations.md "TLS").
 */

export interface IntakeTls {
  cert: Buffer;
  key: Buffer;
}

/** TLS 1.0 and 1.1 are refused in the handshake. */
export const TLS_MIN_VERSION = 'TLSv1.2';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for an address only this host can reach: 127.0.0.0/8, ::1, ::ffff:127.x, localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const v = isIP(h);
  if (v === 0) return false;
  const mapped = v === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)?.[1] : undefined;
  if (mapped !== undefined) return LOOPBACK.check(mapped, 'ipv4');
  return LOOPBACK.check(h, v === 4 ? 'ipv4' : 'ipv6');
}

function readPem(path: string, variable: string): Buffer {
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (e) {
    throw new ConfigError(`cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`, variable);
  }
  if (!pem.toString('latin1').includes('-----BEGIN ')) throw new ConfigError(`${path} is not a PEM file`, variable);
  return pem;
}

/**
 * The intake's TLS material, or undefined for plain HTTP; throws ConfigError (the worker then
 * exits 2 with one line) for plain HTTP on a wide address without INTAKE_INSECURE_HTTP=1.
 */
export function intakeTransport(config: Pick<Config, 'intakeHost' | 'intakeTls' | 'intakeInsecureHttp'>): IntakeTls | undefined {
  if (config.intakeTls)
    return { cert: readPem(config.intakeTls.certPath, 'INTAKE_TLS_CERT'), key: readPem(config.intakeTls.keyPath, 'INTAKE_TLS_KEY') };
  if (isLoopbackHost(config.intakeHost) || config.intakeInsecureHttp) return undefined;
  throw new ConfigError(
    `${config.intakeHost} is not a loopback address and the intake has no TLS: set INTAKE_TLS_CERT and INTAKE_TLS_KEY, or INTAKE_INSECURE_HTTP=1 when a TLS proxy is in front (docs/operations.md)`,
    'INTAKE_HOST',
  );
}

/** The scheme a local client (`carrier-screen status`) should use for this configuration. */
export function intakeScheme(config: Pick<Config, 'intakeTls'>): 'http' | 'https' {
  return config.intakeTls ? 'https' : 'http';
}
