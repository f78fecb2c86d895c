import type { Database } from 'better-sqlite3';

/**
 * A migration that touches every row of a big table runs in batches (issue 35), each batch its
 * own transaction, so that start-up on a big file writes in bounded steps, reports its progress,
 * and a crash resumes where it stopped instead of from the start.
 */
export interface BatchedStep {
  /** What is walked, for the log ("screenings"). */
  what: string;
  /** The position the walk ends at (e.g. the largest rowid), for the progress log. */
  total(db: Database): number;
  /** One batch from after position `after` (0: the start), in the open transaction. `last` null: nothing left. */
  run(db: Database, after: number, size: number): { last: number | null; rows: number };
}

/** Where migrate() reports each step's time and a long step's progress (a pino logger fits). */
export interface MigrationLog {
  info(obj: object, msg: string): void;
}
