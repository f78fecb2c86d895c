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
