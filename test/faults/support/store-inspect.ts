import Database from 'better-sqlite3';

/** Read a worker's SQLite file from the outside, as an operator would with sqlite3. */

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

export function storeFigures(path: string): StoreFigures {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const rows = (sql: string) => db.prepare(sql).all() as Array<{ k: string | null; n: number }>;
    const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const byStatus: Record<string, number> = {};
    for (const r of rows('SELECT status AS k, COUNT(*) AS n FROM screenings GROUP BY status')) byStatus[String(r.k)] = r.n;
    const byAction: Record<string, number> = {};
    for (const r of rows("SELECT action AS k, COUNT(*) AS n FROM screenings WHERE status = 'done' GROUP BY action"))
      byAction[String(r.k)] = r.n;
    return {
      screenings: one('SELECT COUNT(*) AS n FROM screenings'),
      byStatus,
      byAction,
      doneWithoutAction: one(
        "SELECT COUNT(*) AS n FROM screenings WHERE status = 'done' AND (action IS NULL OR action NOT IN ('tender', 'hold', 'block'))",
      ),
      reviews: one('SELECT COUNT(*) AS n FROM reviews'),
      duplicateReviews: one('SELECT COUNT(*) AS n FROM (SELECT screening_id FROM reviews GROUP BY screening_id HAVING COUNT(*) > 1)'),
      holdsWithoutReview: one(
        "SELECT COUNT(*) AS n FROM screenings s WHERE s.status = 'done' AND s.action = 'hold' AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.screening_id = s.id)",
      ),
    };
  } finally {
    db.close();
  }
}

/** Status and action of each screening id, from the file. */
export function screeningStates(path: string): Map<string, { status: string; action: string | null; hold_reason: string | null }> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const m = new Map<string, { status: string; action: string | null; hold_reason: string | null }>();
    for (const r of db.prepare('SELECT id, status, action, hold_reason FROM screenings').all() as Array<{
      id: string;
      status: string;
      action: string | null;
      hold_reason: string | null;
    }>)
      m.set(r.id, { status: r.status, action: r.action, hold_reason: r.hold_reason });
    return m;
  } finally {
    db.close();
  }
}

/**
 * Open the file as the next process would (recovering the WAL) and run SQLite's own checks.
 * Returns the problems found: [] when the file is sound.
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
