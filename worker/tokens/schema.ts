/**
 * Scoped intake tokens (worker/tokens/, docs/api.md "Tokens and roles"): each one is stored only
 * as a SHA-256 hash, with its role, a name (the default `by` of what it decides) and a short
 * prefix to tell them apart in lists.
 */
export const TOKENS_MIGRATION_SQL = `
  CREATE TABLE intake_tokens (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('tms', 'desk', 'admin')),
    hash         TEXT NOT NULL UNIQUE,
    prefix       TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    revoked_at   TEXT,
    last_used_at TEXT
  );
`;
