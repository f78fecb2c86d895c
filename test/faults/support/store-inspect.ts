import Database from 'better-sqlite3';
import type { RecordReader } from './record-inspect.js';

/**
 * The figures a fault scenario checks, read from the outside as an operator would (sqlite3 or
 * psql): the same SQL on either backend, through a RecordReader on SCREEN_DB (record-inspect.ts).
 */

export interface StoreFigures {
  screenings: number;
  byStatus: Record<string, number>;
  byAction: Record<string, number>;
  /** Screenings done without one of tender, hold, block. */
  doneWithoutAction: number;
  reviews: number;
  /** Screenings with more than one review item. */
  duplicateReviews: number;
  /** Held screenings without a review item. */
  holdsWithoutReview: number;
}

export async function storeFigures(r: RecordReader): Promise<StoreFigures> {
  // COUNT is a bigint on PostgreSQL, which pg hands over as text.
  const grouped = async (sql: string) => {
    const out: Record<string, number> = {};
    for (const row of await r.rows<{ k: string | null; n: number | string }>(sql)) out[String(row.k)] = Number(row.n);
    return out;
  };
  const one = async (sql: string) => Number((await r.rows<{ n: number | string }>(sql))[0]!.n);
  return {
    screenings: await one('SELECT COUNT(*) AS n FROM screenings'),
    byStatus: await grouped('SELECT status AS k, COUNT(*) AS n FROM screenings GROUP BY status'),
    byAction: await grouped("SELECT action AS k, COUNT(*) AS n FROM screenings WHERE status = 'done' GROUP BY action"),
    doneWithoutAction: await one(
      "SELECT COUNT(*) AS n FROM screenings WHERE status = 'done' AND (action IS NULL OR action NOT IN ('tender', 'hold', 'block'))",
    ),
    reviews: await one('SELECT COUNT(*) AS n FROM reviews'),
    duplicateReviews: await one(
      'SELECT COUNT(*) AS n FROM (SELECT screening_id FROM reviews GROUP BY screening_id HAVING COUNT(*) > 1) AS twice',
    ),
    holdsWithoutReview: await one(
      "SELECT COUNT(*) AS n FROM screenings s WHERE s.status = 'done' AND s.action = 'hold' AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.screening_id = s.id)",
    ),
  };
}

/** Screenings done so far: the cheap poll while waiting. */
export async function doneCount(r: RecordReader): Promise<number> {
  const [row] = await r.rows<{ n: number | string }>("SELECT COUNT(*) AS n FROM screenings WHERE status = 'done'");
  return Number(row?.n ?? 0);
}

/** Status and action of each screening id. */
export async function screeningStates(
  r: RecordReader,
): Promise<Map<string, { status: string; action: string | null; hold_reason: string | null }>> {
  const m = new Map<string, { status: string; action: string | null; hold_reason: string | null }>();
  for (const row of await r.rows<{ id: string; status: string; action: string | null; hold_reason: string | null }>(
    'SELECT id, status, action, hold_reason FROM screenings',
  ))
    m.set(row.id, { status: row.status, action: row.action, hold_reason: row.hold_reason });
  return m;
}

/** The callback rows the record owes. */
export async function outboxRows(r: RecordReader): Promise<Array<{ delivery_id: string; state: string; attempts: number }>> {
  return (
    await r.rows<{ delivery_id: string; state: string; attempts: number | string }>(
      'SELECT delivery_id, state, attempts FROM callback_outbox',
    )
  ).map((o) => ({ ...o, attempts: Number(o.attempts) }));
}

/**
 * SQLite only: open the file as the next process would (recovering the WAL) and run SQLite's own
 * checks. Returns the problems found: [] when the file is sound.
 */
export function integrityProblems(path: string): string[] {
  const db = new Database(path, { fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    const fk = db.pragma('foreign_key_check') as unknown[];
    return [...integrity.filter((r) => r !== 'ok'), ...fk.map((r) => `foreign key: ${JSON.stringify(r)}`)];
  } finally {
    db.close();
  }
}

/** What the record says of a screening's lookups: when it was done, and the outage re-screen's mark. */
export interface ScreeningLookups {
  id: string;
  /** `dot:123` or `mc:MC123`, as the recording emulator names a carrier. */
  carrier: string;
  created_at: string;
  /** When its own lookup ended (the screening was done); null while it is not. */
  completed_at: string | null;
  /** The last outage re-screen of its hold (worker/recovery/outage-rescreen.ts); null if never. */
  rescreened_at: string | null;
  /** Why it was held when done: its review's reason, which a re-screen keeps; null if never held. */
  held_for: string | null;
}

export async function screeningLookups(r: RecordReader): Promise<ScreeningLookups[]> {
  const rows = await r.rows<Omit<ScreeningLookups, 'carrier'> & { query_kind: string; query_value: string }>(
    `SELECT s.id, s.query_kind, s.query_value, s.created_at, s.completed_at, s.rescreened_at, rv.hold_reason AS held_for
     FROM screenings s LEFT JOIN reviews rv ON rv.screening_id = s.id`,
  );
  return rows.map(({ query_kind, query_value, ...s }) => ({
    ...s,
    carrier: `${query_kind === 'dot_number' ? 'dot' : 'mc'}:${query_value}`,
  }));
}
