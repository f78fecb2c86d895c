/**
 * Migration 30: the ended decisions (lapsed or revoked), latest end first, on an index of their
 * own (issue 30): the desk's Decisions history asks GET /decisions?state=ended for one page and
 * reads the next from its cursor, never every page of both states. Spelt as the list's query
 * spells it (worker/decisions/carrier-decisions.ts `page`), so SQLite reads it in order.
 */
export const ENDED_DECISIONS_MIGRATION_SQL = `
  CREATE INDEX decisions_ended_by_ended ON decisions (ended_at) WHERE state IN ('lapsed', 'revoked');
`;
