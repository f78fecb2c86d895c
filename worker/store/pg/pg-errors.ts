import pg from 'pg';
import { StoreError, type StoreErrorCode } from '../store-error.js';

/**
 * Why PostgreSQL rolled a statement or a unit back so that it may simply be run again: it was the
 * victim of a deadlock (40P01) or a serialization failure (40001). Undefined for anything else.
 */
const RETRIED: Readonly<Record<string, 'deadlock' | 'serialization'>> = { '40P01': 'deadlock', '40001': 'serialization' };
export const retryCause = (err: unknown): 'deadlock' | 'serialization' | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? RETRIED[code] : undefined;
};

/** The store's code for what PostgreSQL, or the way to it, said. */
export type PgStoreErrorCode = Extract<StoreErrorCode, `db_${string}`>;

const WHAT: Record<PgStoreErrorCode, string> = {
  db_unavailable: 'the database server cannot be reached',
  db_busy: 'the database is busy (a lock or statement time-out); try again',
  db_full: 'the database server is out of disk space',
  db_readonly: 'the database is read-only (a standby?); cannot write',
  db_ioerr: 'the database server reported an I/O error',
  db_constraint: 'a uniqueness or integrity rule was violated',
  db_error: 'the database reported an error',
};

/**
 * What an operator fixes when the server refuses the connection itself (SQLSTATE → words): said
 * instead of the code's general words. The server's own message is not shown: it may quote data.
 */
const REFUSED_AT_CONNECT: Readonly<Record<string, string>> = {
  '3D000': 'the database does not exist (create it, UTF8, and give its name in the URL)',
  '28000': 'the server refused the login (no such role, or pg_hba.conf does not let it in)',
  '28P01': 'the server refused the password',
  '42501':
    'the role lacks a privilege the record needs (CONNECT, CREATE on the schema, or rights on tables another role owns: restore with pg_restore --no-owner --role=<the service role>)',
};

/**
 * The TLS handshake refused the server (Node's codes for a certificate check that failed): what
 * the operator fixes. sslmode=verify-full checks both the CA and the host name.
 */
const NOT_TRUSTED =
  "the server's TLS certificate is not signed by a CA this host trusts (sslrootcert= in the URL names the PEM of the CA that signed it)";
const TLS_REFUSED: Readonly<Record<string, string>> = {
  ERR_TLS_CERT_ALTNAME_INVALID:
    "the server's TLS certificate does not name the host in the URL (connect by a name or address the certificate lists)",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  CERT_NOT_YET_VALID: "the server's TLS certificate is not valid yet (or this host's clock is wrong)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: NOT_TRUSTED,
  UNABLE_TO_GET_ISSUER_CERT: NOT_TRUSTED,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: NOT_TRUSTED,
  DEPTH_ZERO_SELF_SIGNED_CERT: NOT_TRUSTED,
  SELF_SIGNED_CERT_IN_CHAIN: NOT_TRUSTED,
  CERT_UNTRUSTED: NOT_TRUSTED,
  CERT_SIGNATURE_FAILURE: NOT_TRUSTED,
  CERT_REJECTED: NOT_TRUSTED,
};
/** Any other failed handshake: Node's and OpenSSL's TLS codes (a bad client key, a refused version…). */
const TLS_FAILED =
  /^(ERR_SSL_|ERR_OSSL_|ERR_TLS_)|^(INVALID_CA|CERT_REVOKED|INVALID_PURPOSE|CA_MD_TOO_WEAK|EE_KEY_TOO_SMALL|CA_KEY_TOO_SMALL|CERT_CHAIN_TOO_LONG)$/;
const TLS_FAILED_WORDS = 'the TLS handshake with the server failed (its certificate, or sslcert/sslkey: see the code)';
/** pg's words when the server's answer to TLS's request is neither yes nor no. */
const TLS_NOT_ESTABLISHED = 'There was an error establishing an SSL connection';
/** pg's words when the server answers TLS's request with no (no code of its own). */
const NO_TLS_AT_SERVER = 'The server does not support SSL connections';
const NO_TLS_WORDS =
  'the server does not accept TLS, and the URL asks for it (sslmode): turn ssl on in its postgresql.conf, or give sslmode=disable on a network you trust';
/** 28000 for a login pg_hba.conf takes only over TLS (the server's message says "no encryption"). */
const TLS_ONLY_WORDS = "the server takes this login only over TLS: add sslmode=verify-full&sslrootcert=<the CA's PEM file> to the URL";

/** What to fix when TLS is why a connection failed (the handshake, or a login pg_hba.conf takes only over TLS); else undefined. */
function tlsRefusal(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  if (err instanceof pg.DatabaseError) return err.code === '28000' && /no encryption/.test(err.message) ? TLS_ONLY_WORDS : undefined;
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string') {
    if (TLS_REFUSED[code]) return TLS_REFUSED[code];
    if (TLS_FAILED.test(code)) return TLS_FAILED_WORDS;
  }
  if (err.message === NO_TLS_AT_SERVER) return NO_TLS_WORDS;
  if (err.message === TLS_NOT_ESTABLISHED) return TLS_FAILED_WORDS;
  return undefined;
}

/** Classify a failed statement or connection by its SQLSTATE, or its socket error. */
export function pgErrorCode(err: unknown): PgStoreErrorCode {
  if (err instanceof pg.DatabaseError && typeof err.code === 'string') {
    const c = err.code;
    // lock_not_available (lock_timeout), query_canceled (statement_timeout), deadlock, serialization.
    if (c === '55P03' || c === '57014' || c === '40P01' || c === '40001') return 'db_busy';
    if (c === '53100') return 'db_full';
    // read_only_sql_transaction: a standby, or default_transaction_read_only.
    if (c === '25006') return 'db_readonly';
    if (c === '58030' || c === '58P01' || c === 'XX001' || c === 'XX002') return 'db_ioerr';
    if (c.startsWith('23')) return 'db_constraint';
    // connection exceptions, admin shutdown / crash recovery / cannot connect now, too many connections.
    if (c.startsWith('08') || c.startsWith('57P') || c === '53300') return 'db_unavailable';
    return 'db_error';
  }
  const sys = (err as NodeJS.ErrnoException | null)?.code;
  // A server that cannot be trusted is as good as one that cannot be reached.
  if (tlsRefusal(err) !== undefined) return 'db_unavailable';
  if (typeof sys === 'string' && /^(ECONN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EPIPE|EAI_)/.test(sys)) return 'db_unavailable';
  if (err instanceof Error) {
    // pg-pool: every client busy for connectionTimeoutMillis (load, as SQLite's busy), unlike a
    // new connection that timed out or ended (the server is not there).
    if (err.message === 'timeout exceeded when trying to connect') return 'db_busy';
    if (/^Connection terminated|Client has encountered a connection error/.test(err.message)) return 'db_unavailable';
  }
  return 'db_error';
}

/**
 * A driver or socket error as a StoreError naming `where` (the database, without its password);
 * anything else (our own errors: NotFoundError, StoreArgumentError, StoreError…) passes through.
 */
export function toPgStoreError(err: unknown, where: string): unknown {
  if (err instanceof StoreError) return err;
  const driver = err instanceof pg.DatabaseError || (err instanceof Error && pgErrorCode(err) !== 'db_error');
  if (!driver) return err;
  const code = pgErrorCode(err);
  const detail = err instanceof pg.DatabaseError ? (err.code ?? null) : ((err as NodeJS.ErrnoException).code ?? null);
  const what = tlsRefusal(err) ?? ((detail !== null && REFUSED_AT_CONNECT[detail]) || WHAT[code]);
  return new StoreError(code, `PostgreSQL record ${where}: ${what}${detail ? ` (${detail})` : ''}`, detail);
}

/** The one redaction rule for a database URL (shared/database-url.ts), where the store's errors find it. */
export { redactedUrl } from '../../../shared/database-url.js';
