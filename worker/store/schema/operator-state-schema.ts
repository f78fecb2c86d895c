/**
 * What an operator set that must outlive Redis (worker/recovery/operator-state.ts): one row
 * per setting, e.g. `queue_paused`.
 */
export const OPERATOR_STATE_MIGRATION_SQL = `
  CREATE TABLE operator_state (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) WITHOUT ROWID;
`;
