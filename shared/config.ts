import { dirname } from 'node:path';
import { isPostgresUrl, pgTlsProblem, redactedUrl } from './database-url.js';
import { parseCallbackAllow, type CallbackAllow } from './callback-allow.js';

/**
 * Configuration from the environment (DESIGN.md, "Configuration"). One parser, one place for
 * defaults; a bad value is a ConfigError naming the variable.
 */

export interface Config {
  /** Unset: start the bundled emulator and use its sandbox key. */
  svcApiKey: string | undefined;
  /** Base URL without /v1. Unset: the bundled emulator. */
  svcBaseUrl: string | undefined;
  redisUrl: string;
  /** True when REDIS_URL (or REDIS_SENTINELS) was given: then we never start a private redis-server. */
  redisUrlGiven: boolean;
  /**
   * REDIS_SENTINELS and REDIS_SENTINEL_NAME: Redis found through Sentinel (docs/operations.md "Two
   * hosts"); REDIS_URL then gives only the user, password and database number.
   */
  redisSentinel: RedisSentinel | undefined;
  /** SCREEN_DB: where the record is, a SQLite file or a PostgreSQL URL (show it with `recordWhere`: a URL may carry a password). */
  db: RecordLocation;
  /** SCREEN_DATA_DIR: the worker's own files (intake-token, callback-secret, the bundled Redis's dir); default: the SQLite file's directory, or ./data. */
  dataDir: string;
  cacheTtlMs: number;
  staleIfErrorMs: number;
  /** SCREEN_RESCREEN_WITHIN: holds of an outage are screened again on recovery only for tenders younger than this (default 2h). */
  rescreenWithinMs: number;
  /** Below this share (0–1) or absolute count of the monthly quota, only tender requests spend quota. */
  quotaReserve: { kind: 'share'; value: number } | { kind: 'count'; value: number };
  intakeHost: string;
  intakePort: number;
  intakeToken: string | undefined;
  /** SCREEN_METRICS_PORT: a `worker` process (no intake API) serves GET /metrics here; unset: none. */
  metricsPort: number | undefined;
  /** SCREEN_METRICS_HOST: the address it binds (default 127.0.0.1). */
  metricsHost: string;
  /** INTAKE_TLS_CERT / INTAKE_TLS_KEY: PEM file paths; both or neither (docs/operations.md "TLS"). */
  intakeTls: { certPath: string; keyPath: string } | undefined;
  /** INTAKE_INSECURE_HTTP=1: plain HTTP on a wide address is meant (a TLS proxy is in front). */
  intakeInsecureHttp: boolean;
  /** What the intake tolerates of one client (docs/operations.md "Limits at the door"). */
  intakeLimits: IntakeLimits;
  callbackSecret: string | undefined;
  /** CALLBACK_ALLOW: where callbacks may go; unset: loopback only, while the intake binds loopback (docs/callbacks.md). */
  callbackAllow: CallbackAllow | undefined;
  watchDays: number;
  /** Key prefix for every Redis key (BullMQ queues included). */
  redisPrefix: string;
  /** The service's rate window; 1 minute per the spec (tests use a shorter emulator window). */
  rateWindowMs: number;
  /** Jobs one worker process works at once. */
  concurrency: number;
  /** SCREEN_READER_THREADS: threads of the reader pool that run heavy reads off the tender path (default 2; 0: on the main connection). */
  readerThreads?: number;
  /** SCREEN_EVENTS_RETENTION: the event log (SSE replay) and delivered callbacks (default 7d). */
  eventsRetentionMs: number;
  /** SCREEN_RETENTION: screenings, reviews, decisions, changes, audit (default 3y). */
  retentionMs: number;
  /** SCREEN_DECISION_TTL: how long a dispatcher's decision stands while the score's basis is unchanged (default 30d). */
  decisionTtlMs: number;
}

/** Sentinels to ask for the current master of a monitored group. */
export interface RedisSentinel {
  sentinels: Array<{ host: string; port: number }>;
  /** The master group's name, as in the sentinels' `sentinel monitor <name> …`. */
  name: string;
}

/**
 * Where the record is: the embedded SQLite file, or a PostgreSQL database (docs/design/postgres.md).
 * `poolMax`: SCREEN_DB_POOL_MAX, the connections each process holds at most (unset: the pool's
 * DEFAULT_PG_POOL_MAX): what a DBA sizes max_connections by.
 */
export type RecordLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; poolMax?: number };

/** Connections per process to a PostgreSQL record, unless SCREEN_DB_POOL_MAX says otherwise. */
export const DEFAULT_PG_POOL_MAX = 10;
/**
 * A unit of work holds one connection while a token lookup, the event feed or /healthz's probe
 * reads on another: at 1, pg-pool-size.test.ts's burst got a 503 (tried; 2 passed it). 4 leaves
 * room for what that burst does not do at once; the test runs at this.
 */
export const MIN_PG_POOL_MAX = 4;

/** The record's location as it may be printed: a URL without its password. */
export function recordWhere(db: RecordLocation): string {
  return db.kind === 'sqlite' ? db.path : redactedUrl(db.url);
}

export interface IntakeLimits {
  /** INTAKE_HEADERS_TIMEOUT: the request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** INTAKE_REQUEST_TIMEOUT: the whole request (headers and body) must arrive within this. */
  requestTimeoutMs: number;
  /** INTAKE_KEEPALIVE_TIMEOUT: an idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** INTAKE_MAX_CONNECTIONS: open connections beyond this are dropped at once. */
  maxConnections: number;
  /** INTAKE_SSE_PER_TOKEN: open /events streams per token. */
  ssePerToken: number;
  /** INTAKE_RATE_LIMIT: requests per minute per token (0: no limit). */
  ratePerMinute: number;
}

export const DEFAULT_INTAKE_LIMITS: IntakeLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
  ssePerToken: 8,
  ratePerMinute: 1200,
};

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly variable: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, y: 365 * 86_400_000 };

/** "4h", "90s", "1.5h", "250ms", "7d", "2w", "3y" (365 days), or a bare number of seconds. */
export function parseDuration(text: string, variable: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w|y)?\s*$/i.exec(text);
  if (!m) throw new ConfigError(`"${text}" is not a duration (e.g. 4h, 30m, 90s)`, variable);
  const ms = Number(m[1]) * UNIT_MS[(m[2] ?? 's').toLowerCase()]!;
  return Math.round(ms);
}

/** "5%" (a share of the monthly quota) or "500" (lookups). */
export function parseReserve(text: string, variable: string): Config['quotaReserve'] {
  const pct = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  if (pct) {
    const v = Number(pct[1]);
    if (v > 100) throw new ConfigError(`"${text}" is over 100%`, variable);
    return { kind: 'share', value: v / 100 };
  }
  if (/^\s*\d+\s*$/.test(text)) return { kind: 'count', value: Number(text) };
  throw new ConfigError(`"${text}" is neither a percentage (5%) nor a count (500)`, variable);
}

/** A retention of at least one hour (less would prune what is still being worked on). */
function parseRetention(text: string, variable: string): number {
  const ms = parseDuration(text, variable);
  if (ms < 3_600_000) throw new ConfigError(`"${text}" is under one hour`, variable);
  return ms;
}

function parsePort(text: string, variable: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 0 || n > 65535) throw new ConfigError(`"${text}" is not a port (0–65535)`, variable);
  return n;
}

function parseCount(text: string, variable: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 256) throw new ConfigError(`"${text}" is not a whole number from 1 to 256`, variable);
  return n;
}

function parseWhole(text: string, variable: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max)
    throw new ConfigError(`"${text}" is not a whole number from ${min} to ${max}`, variable);
  return n;
}

/** A time-out of 1 s to 1 h: 0 (none) would let a slow client hold a connection for ever. */
function parseTimeout(text: string, variable: string): number {
  const ms = parseDuration(text, variable);
  if (ms < 1_000 || ms > 3_600_000) throw new ConfigError(`"${text}" is not from 1s to 1h`, variable);
  return ms;
}

/** REDIS_SENTINELS: `host:port` pairs, comma-separated; REDIS_SENTINEL_NAME must name the group. */
function parseSentinels(list: string | undefined, name: string | undefined): RedisSentinel | undefined {
  if (list === undefined) {
    if (name !== undefined) throw new ConfigError('is set but REDIS_SENTINELS is not: give the sentinels to ask', 'REDIS_SENTINEL_NAME');
    return undefined;
  }
  const sentinels = list.split(',').map((item) => {
    const m = /^\s*([^\s:]+|\[[0-9a-fA-F:.]+\]):(\d{1,5})\s*$/.exec(item);
    if (!m) throw new ConfigError(`"${item.trim()}" is not host:port (e.g. 10.0.0.5:26379,10.0.0.6:26379)`, 'REDIS_SENTINELS');
    return { host: m[1]!.replace(/^\[|\]$/g, ''), port: parsePort(m[2]!, 'REDIS_SENTINELS') };
  });
  if (name === undefined || !/^[A-Za-z0-9._-]+$/.test(name))
    throw new ConfigError(
      name === undefined
        ? 'is required with REDIS_SENTINELS: the master group the sentinels monitor (`sentinel monitor <name> …`)'
        : `"${name}" is not a sentinel group name (letters, digits, . _ -)`,
      'REDIS_SENTINEL_NAME',
    );
  return { sentinels, name };
}

function parseUrl(text: string, variable: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new ConfigError(`"${text}" is not a URL`, variable);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError('must be an http(s) URL', variable);
  // Paths /v1/... are appended: drop a trailing slash and a trailing /v1 given by mistake.
  return text.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** A scheme before `://`: a URL, not a path. */
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/**
 * SCREEN_DB: a `postgres://` / `postgresql://` URL, or else the path of a SQLite file. A value
 * is never echoed whole in an error: a URL may carry a password.
 */
function parseRecordLocation(text: string): RecordLocation {
  if (isPostgresUrl(text)) {
    // No host is libpq's default (a local socket): only a URL that does not parse is refused.
    if (!URL.canParse(text))
      throw new ConfigError('is not a valid PostgreSQL URL (postgres://user:password@host:5432/database; value not shown)', 'SCREEN_DB');
    const tls = pgTlsProblem(text);
    if (tls) throw new ConfigError(tls, 'SCREEN_DB');
    return { kind: 'postgres', url: text };
  }
  const scheme = URL_SCHEME.exec(text);
  if (scheme)
    throw new ConfigError(
      `is a ${scheme[1]}: URL (value not shown); give the path of a SQLite file, or a postgres:// URL for a PostgreSQL record`,
      'SCREEN_DB',
    );
  // A libpq key=value string ("host=db dbname=cs password=…") would become a file of that name,
  // its password shown wherever the file is named.
  if (/(^|\s)(host|hostaddr|dbname|user|password|port|sslmode)\s*=/i.test(text))
    throw new ConfigError(
      'looks like a PostgreSQL key=value connection string (value not shown); give it as a URL: postgres://user:password@host:5432/database',
      'SCREEN_DB',
    );
  if (/[\\/]$/.test(text) || /(^|[\\/])\.{1,2}$/.test(text))
    throw new ConfigError(
      `"${text}" is a directory; give the SQLite file in it (e.g. ${text.replace(/[\\/]+$/, '')}/carrier-screen.db)`,
      'SCREEN_DB',
    );
  return { kind: 'sqlite', path: text };
}

/** SCREEN_DATA_DIR: a directory path; unset, the SQLite file's directory, or ./data beside a PostgreSQL record. */
function parseDataDir(text: string | undefined, db: RecordLocation): string {
  if (text === undefined) return db.kind === 'sqlite' ? dirname(db.path) : './data';
  const scheme = URL_SCHEME.exec(text);
  if (scheme)
    throw new ConfigError(`is a ${scheme[1]}: URL (value not shown); give a directory path for the worker's own files`, 'SCREEN_DATA_DIR');
  return text;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const v = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const key = v('SVC_API_KEY');
  if (key !== undefined && !/^svc_(test|live)_\S+$/.test(key))
    throw new ConfigError('must start with svc_test_ or svc_live_ (value not shown)', 'SVC_API_KEY');
  const baseUrl = v('SVC_BASE_URL');
  if (baseUrl !== undefined && key === undefined)
    throw new ConfigError('is set but SVC_API_KEY is not: set both, or neither to use the bundled emulator', 'SVC_BASE_URL');
  if (key !== undefined && baseUrl === undefined)
    throw new ConfigError('is set but SVC_BASE_URL is not: set the base URL matching the key', 'SVC_API_KEY');
  const tlsCert = v('INTAKE_TLS_CERT');
  const tlsKey = v('INTAKE_TLS_KEY');
  if ((tlsCert === undefined) !== (tlsKey === undefined))
    throw new ConfigError(
      'is set but its pair is not: set both INTAKE_TLS_CERT and INTAKE_TLS_KEY (PEM files), or neither',
      tlsCert === undefined ? 'INTAKE_TLS_KEY' : 'INTAKE_TLS_CERT',
    );
  const insecure = v('INTAKE_INSECURE_HTTP');
  if (insecure !== undefined && insecure !== '0' && insecure !== '1')
    throw new ConfigError(`"${insecure}" is neither 1 nor 0`, 'INTAKE_INSECURE_HTTP');
  const D = DEFAULT_INTAKE_LIMITS;
  const intakeLimits: IntakeLimits = {
    headersTimeoutMs: parseTimeout(v('INTAKE_HEADERS_TIMEOUT') ?? `${D.headersTimeoutMs}ms`, 'INTAKE_HEADERS_TIMEOUT'),
    requestTimeoutMs: parseTimeout(v('INTAKE_REQUEST_TIMEOUT') ?? `${D.requestTimeoutMs}ms`, 'INTAKE_REQUEST_TIMEOUT'),
    keepAliveTimeoutMs: parseTimeout(v('INTAKE_KEEPALIVE_TIMEOUT') ?? `${D.keepAliveTimeoutMs}ms`, 'INTAKE_KEEPALIVE_TIMEOUT'),
    maxConnections: parseWhole(v('INTAKE_MAX_CONNECTIONS') ?? String(D.maxConnections), 'INTAKE_MAX_CONNECTIONS', 1, 1_000_000),
    ssePerToken: parseWhole(v('INTAKE_SSE_PER_TOKEN') ?? String(D.ssePerToken), 'INTAKE_SSE_PER_TOKEN', 1, 10_000),
    ratePerMinute: parseWhole(v('INTAKE_RATE_LIMIT') ?? String(D.ratePerMinute), 'INTAKE_RATE_LIMIT', 0, 10_000_000),
  };
  // Node answers 408 only once the headers time-out is within the request time-out.
  if (intakeLimits.headersTimeoutMs > intakeLimits.requestTimeoutMs)
    throw new ConfigError('must not be longer than INTAKE_REQUEST_TIMEOUT', 'INTAKE_HEADERS_TIMEOUT');
  const allow = v('CALLBACK_ALLOW');
  let callbackAllow: CallbackAllow | undefined;
  try {
    callbackAllow = allow === undefined ? undefined : parseCallbackAllow(allow);
  } catch (e) {
    throw new ConfigError((e as Error).message, 'CALLBACK_ALLOW');
  }
  const redisSentinel = parseSentinels(v('REDIS_SENTINELS'), v('REDIS_SENTINEL_NAME'));
  const parsedDb = parseRecordLocation(v('SCREEN_DB') ?? './data/carrier-screen.db');
  const poolMax = v('SCREEN_DB_POOL_MAX');
  if (poolMax !== undefined && parsedDb.kind !== 'postgres')
    throw new ConfigError('is set but SCREEN_DB is a SQLite file: a pool size is for a postgres:// record', 'SCREEN_DB_POOL_MAX');
  const db: RecordLocation =
    parsedDb.kind === 'postgres' && poolMax !== undefined
      ? { ...parsedDb, poolMax: parseWhole(poolMax, 'SCREEN_DB_POOL_MAX', MIN_PG_POOL_MAX, 1000) }
      : parsedDb;
  const dataDir = parseDataDir(v('SCREEN_DATA_DIR'), db);
  const watchDays = Number(v('SCREEN_WATCH_DAYS') ?? '14');
  if (!Number.isInteger(watchDays) || watchDays < 0) throw new ConfigError('must be a whole number of days', 'SCREEN_WATCH_DAYS');
  return {
    svcApiKey: key,
    svcBaseUrl: baseUrl === undefined ? undefined : parseUrl(baseUrl, 'SVC_BASE_URL'),
    redisUrl: v('REDIS_URL') ?? 'redis://127.0.0.1:6379',
    redisUrlGiven: v('REDIS_URL') !== undefined || redisSentinel !== undefined,
    redisSentinel,
    db,
    dataDir,
    cacheTtlMs: parseDuration(v('SCREEN_CACHE_TTL') ?? '4h', 'SCREEN_CACHE_TTL'),
    staleIfErrorMs: parseDuration(v('SCREEN_STALE_IF_ERROR') ?? '6h', 'SCREEN_STALE_IF_ERROR'),
    rescreenWithinMs: parseDuration(v('SCREEN_RESCREEN_WITHIN') ?? '2h', 'SCREEN_RESCREEN_WITHIN'),
    quotaReserve: parseReserve(v('SCREEN_QUOTA_RESERVE') ?? '5%', 'SCREEN_QUOTA_RESERVE'),
    intakeHost: v('INTAKE_HOST') ?? '127.0.0.1',
    intakePort: parsePort(v('INTAKE_PORT') ?? '8787', 'INTAKE_PORT'),
    intakeToken: v('INTAKE_TOKEN'),
    metricsPort: v('SCREEN_METRICS_PORT') === undefined ? undefined : parsePort(v('SCREEN_METRICS_PORT')!, 'SCREEN_METRICS_PORT'),
    metricsHost: v('SCREEN_METRICS_HOST') ?? '127.0.0.1',
    intakeTls: tlsCert === undefined || tlsKey === undefined ? undefined : { certPath: tlsCert, keyPath: tlsKey },
    intakeInsecureHttp: insecure === '1',
    intakeLimits,
    callbackSecret: v('CALLBACK_SECRET'),
    callbackAllow,
    watchDays,
    redisPrefix: v('SCREEN_REDIS_PREFIX') ?? 'carrier-screen',
    rateWindowMs: parseDuration(v('SCREEN_RATE_WINDOW') ?? '60s', 'SCREEN_RATE_WINDOW'),
    concurrency: parseCount(v('SCREEN_CONCURRENCY') ?? '4', 'SCREEN_CONCURRENCY'),
    readerThreads: parseWhole(v('SCREEN_READER_THREADS') ?? '2', 'SCREEN_READER_THREADS', 0, 16),
    eventsRetentionMs: parseRetention(v('SCREEN_EVENTS_RETENTION') ?? '7d', 'SCREEN_EVENTS_RETENTION'),
    retentionMs: parseRetention(v('SCREEN_RETENTION') ?? '3y', 'SCREEN_RETENTION'),
    decisionTtlMs: parseDuration(v('SCREEN_DECISION_TTL') ?? '30d', 'SCREEN_DECISION_TTL'),
  };
}

/** The reserve as a number of lookups for a given monthly quota. */
export function reserveCount(reserve: Config['quotaReserve'], monthlyQuota: number): number {
  return reserve.kind === 'count' ? reserve.value : Math.ceil(reserve.value * monthlyQuota);
}
