/** Which backend SCREEN_DB names: a PostgreSQL URL, or else a SQLite file (the default, embedded). */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db.trim());
}

/**
 * A database URL as it may be shown (a log line, an error): its password replaced, in the
 * user part and in a `password=` parameter (libpq and node-postgres take either). The one rule
 * for every place that prints a URL of the record.
 */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const key of [...u.searchParams.keys()]) if (/pass/i.test(key)) u.searchParams.set(key, '***');
    return u.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

/** libpq's sslmode values. */
const SSLMODES = new Set(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']);
/** The URL parameters naming TLS files (read by the driver when it connects). */
export const PG_TLS_FILES = ['sslrootcert', 'sslcert', 'sslkey'] as const;

/**
 * Why SCREEN_DB's TLS settings are refused, or undefined. The record's connection either does
 * without TLS (no sslmode, or `disable`) or checks the server's certificate and host name
 * (`verify-full`, and `require` / `verify-ca`, which `pinnedPgTls` makes verify-full). `prefer`
 * and `allow` would go on without TLS when the server offers none: not a choice to leave to the
 * network.
 */
export function pgTlsProblem(url: string): string | undefined {
  const p = new URL(url).searchParams;
  // pg reads a parameter's last value, this its first: one of each, so both read the same.
  for (const k of ['sslmode', 'ssl', ...PG_TLS_FILES]) if (p.getAll(k).length > 1) return `${k}= is given more than once`;
  // pg's own switches that turn the certificate check off (ssl=no-verify) or make sslmode mean less.
  if (p.has('ssl')) return 'ssl= is not taken: say sslmode=verify-full (or sslmode=disable)';
  if (p.has('uselibpqcompat')) return 'uselibpqcompat= is not taken: sslmode here always checks the certificate and host';
  const mode = p.get('sslmode');
  if (mode !== null && !SSLMODES.has(mode))
    return `sslmode=${mode.slice(0, 20)} is not one of libpq's (disable, require, verify-ca, verify-full, …)`;
  if (mode === 'prefer' || mode === 'allow')
    return `sslmode=${mode} goes on without TLS when the server offers none; give sslmode=verify-full (and sslrootcert=<the CA's PEM file>), or sslmode=disable on a network you trust`;
  for (const f of PG_TLS_FILES) if (p.get(f) === '') return `${f}= names no file`;
  if (mode === 'disable' && PG_TLS_FILES.some((f) => p.has(f)))
    return `sslmode=disable with ${PG_TLS_FILES.filter((f) => p.has(f)).join(', ')}: ask for TLS (sslmode=verify-full) or name no TLS file`;
  return undefined;
}

/** Whether the record's connection is TLS (an sslmode other than disable, or a TLS file named). */
export function pgTlsOn(url: string): boolean {
  const p = new URL(url).searchParams;
  const mode = p.get('sslmode');
  return mode !== null ? mode !== 'disable' : PG_TLS_FILES.some((f) => p.has(f));
}

/**
 * The URL as the driver is given it: `require` and `verify-ca` as `verify-full`. node-postgres 8
 * reads them so already, with a warning on every start; its next major version reads them as libpq
 * does (no check of the host name, or none of the certificate). Pinned here, a driver upgrade
 * cannot quietly stop checking who the server is.
 */
export function pinnedPgTls(url: string): string {
  const u = new URL(url);
  const mode = u.searchParams.get('sslmode');
  if (mode !== 'require' && mode !== 'verify-ca') return url;
  u.searchParams.set('sslmode', 'verify-full');
  return u.toString();
}

/** The server's host, when the URL names one that is not this machine (loopback or a socket): the network between them is not ours. */
export function pgRemoteHost(url: string): string | undefined {
  const u = new URL(url);
  let host = u.searchParams.get('host') ?? u.hostname;
  try {
    host = decodeURIComponent(host);
  } catch {
    // Not percent-encoding: the name as written.
  }
  if (
    host === '' ||
    host.startsWith('/') ||
    host === 'localhost' ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '[::1]' ||
    host === '::1'
  )
    return undefined;
  return host;
}
