/**
 * PostgreSQL's schema, step by step. Step 1 is SQLite's schema at its version 30 written for
 * PostgreSQL (docs/design/postgres.md, decision 6): SQLite's 30 steps and their backfills are not
 * ported. Later steps are PostgreSQL's own, numbered from 2.
 */
import { INITIAL_SQL } from './001-initial.js';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [{ version: 1, name: 'initial', sql: INITIAL_SQL }];
