/**
 * Migration 26 (issue 30): the load a tender is for, as POST /screenings sent it (`load`:
 * pickup_at, origin, destination, equipment, customer_ref), kept as JSON text exactly as sent.
 * Rows from before have none (NULL: the API answers `load: null`); ADD COLUMN rewrites no row.
 * No index: nothing lists or sorts screenings by load in SQL (the desk sorts its cards itself).
 */
export const LOAD_MIGRATION_SQL = `
  ALTER TABLE screenings ADD COLUMN load TEXT;
`;
