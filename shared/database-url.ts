/** Which backend SCREEN_DB names: a PostgreSQL URL, or else a SQLite file (the default, embedded). */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db.trim());
}
