import { accessSync, constants, statSync } from 'node:fs';
import pg from 'pg';
import { ConfigError, DEFAULT_PG_POOL_MAX } from '../../../shared/config.js';
import { PG_TLS_FILES, pinnedPgTls } from '../../../shared/database-url.js';

export interface PgPoolOptions {
  /** Connections at most (SCREEN_DB_POOL_MAX; default DEFAULT_PG_POOL_MAX). */
  max?: number;
  /** Shown in pg_stat_activity, so a DBA can tell whose connections these are. */
  applicationName?: string;
  /**
   * How long a caller waits for a free connection (or a new one) before an error, in ms (default
   * 5000). pg's own default waits for ever: a pool held by slow work would hold /healthz as long.
   */
  connectionTimeoutMs?: number;
  /** Told when an idle connection fails (the server restarted, a failover): the pool replaces it. */
  onIdleError?: (err: Error) => void;
  /** A connection is closed once this old, when next idle (default PG_CONNECTION_LIFETIME_S). */
  lifetimeSeconds?: number;
}

/**
 * Seconds a connection lives. Its prepared statements keep their plans, and a batch read keeps a
 * generic one (sql.ts, batchArray): made on small tables (a scan, a hash join), it is made again
 * when autovacuum analyzes them, and never when autovacuum is off, where it grew quadratic (a
 * batch of 20 000 carriers' aliases took 13 s). A new connection plans with the tables as they are
 * now: two minutes bounds how long any plan outlives the tables' growth, for one reconnect per
 * connection every two minutes.
 */
export const PG_CONNECTION_LIFETIME_S = 120;

// int8 (COUNT(*), bigint ids, ms epochs) comes back as a string by default; every value we store
// is below 2^53, and one that is not must fail loudly rather than round.
const INT8_OID = 20;
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${value} is beyond JavaScript's safe integers`);
  return n;
}
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A connection pool on `url` (postgres://user@host:port/db), with the record's type mapping. */
export function openPgPool(url: string, opts: PgPoolOptions = {}): pg.Pool {
  checkTlsFiles(url);
  const pool = new pg.Pool({
    // TLS asked for: the server's certificate and host name checked (database-url.ts).
    connectionString: pinnedPgTls(url),
    max: opts.max ?? DEFAULT_PG_POOL_MAX,
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? 5_000,
    maxLifetimeSeconds: opts.lifetimeSeconds ?? PG_CONNECTION_LIFETIME_S,
    application_name: opts.applicationName ?? 'carrier-screen',
    types,
    // A statement may be sent before the one ahead of it is answered (pg-store.ts: a unit's BEGIN
    // with its first lock, reads behind a lock, a COMMIT behind the last statement, a write not
    // waited for): one round trip, not several. Awaited one by one, nothing changes.
    pipeline: true,
  });
  // Without a listener, an idle client's error (the server went away) would end the process.
  pool.on('error', (err) => opts.onIdleError?.(err));
  // The same for a client a unit of work holds (the pool listens only to idle ones): the
  // statement it runs fails with the error (db_unavailable), and the pool drops the client when
  // it comes back (no longer queryable). Found by test/faults/pg-outage.slow.ftest.ts.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * The URL's TLS files (sslrootcert, sslcert, sslkey) can be read: the driver reads them at each
 * connection, and its error there is a stack trace, not the operator's next step.
 */
function checkTlsFiles(url: string): void {
  const params = new URL(url).searchParams;
  for (const name of PG_TLS_FILES) {
    const path = params.get(name);
    if (path === null) continue;
    let why: string | undefined;
    try {
      accessSync(path, constants.R_OK);
      if (!statSync(path).isFile()) why = 'not a file';
    } catch (err) {
      why = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    }
    // A setting to fix on this host (exit 2), not a server that may come back (exit 1: restarted).
    if (why !== undefined)
      throw new ConfigError(`${name}=${path} cannot be read (${why}); it must name a PEM file this user can read`, 'SCREEN_DB');
  }
}

/** Clients whose socket is corked until the next tick (writeTogether). */
const corked = new WeakSet<object>();

/**
 * Hold `client`'s writes until this turn's synchronous sends are done (a socket cork, released at
 * the next tick, before any I/O): statements pipelined together (BEGIN with a lock, the reads behind
 * it, a last statement with its COMMIT) go out in one write, not one each; on loopback each write
 * costs a system call and a wake-up of the server's backend. pg corks per query; its socket is not
 * in its types, so without one nothing is held.
 */
export function writeTogether(client: pg.ClientBase): void {
  const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  if (!stream?.cork || !stream.uncork || corked.has(stream)) return;
  corked.add(stream);
  stream.cork();
  process.nextTick(() => {
    corked.delete(stream);
    stream.uncork!();
  });
}
