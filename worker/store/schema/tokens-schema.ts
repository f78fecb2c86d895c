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

/**
 * Migration 20: a `metrics` role (GET /metrics and nothing else, for Prometheus). SQLite cannot
 * change a CHECK in place: the table is copied into one that allows it, rows and ids unchanged.
 */
export const METRICS_ROLE_MIGRATION_SQL = `
  CREATE TABLE intake_tokens_v19 (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('metrics', 'tms', 'desk', 'admin')),
    hash         TEXT NOT NULL UNIQUE,
    prefix       TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    revoked_at   TEXT,
    last_used_at TEXT
  );
  INSERT INTO intake_tokens_v19 (rowid, id, name, role, hash, prefix, created_at, revoked_at, last_used_at)
    SELECT rowid, id, name, role, hash, prefix, created_at, revoked_at, last_used_at FROM intake_tokens;
  DROP TABLE intake_tokens;
  ALTER TABLE intake_tokens_v19 RENAME TO intake_tokens;
`;

/**
 * Migration 24: each token is pinned to an API version (docs/api.md "Versioning"). Tokens made
 * before get the one version they have been answered in all along.
 */
export const TOKEN_API_VERSION_MIGRATION_SQL = `
  ALTER TABLE intake_tokens ADD COLUMN api_version TEXT NOT NULL DEFAULT '2026-11-25';
`;
