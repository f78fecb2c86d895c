import type { Database } from 'better-sqlite3';
import { canonicalDot, canonicalMc } from '../../shared/carrier-id.js';
import type { BatchedStep } from './batched-step.js';

/**
 * The carrier of a screening in two indexed columns (issue 35): `carrier_dot` and `carrier_mc`,
 * canonical. Carrier search (GET /screenings?dot_number=|mc_number=) reads these through their
 * indexes instead of parsing every screening's score. The number the screening was asked by
 * is kept for its kind; the other comes from the score's carrier (its own copy or its fetch's).
 */

/** Migration 21 adds the columns (cheap: no row is rewritten); 22 fills them, then indexes them. */
export const CARRIER_COLUMNS_MIGRATION_SQL = `
  ALTER TABLE screenings ADD COLUMN carrier_dot TEXT;
  ALTER TABLE screenings ADD COLUMN carrier_mc TEXT;
`;

/** Built after the fill: one sorted build is far cheaper than millions of inserts in carrier order. */
export const CARRIER_INDEXES_MIGRATION_SQL = `
  CREATE INDEX screenings_by_carrier_dot ON screenings (carrier_dot, created_at) WHERE carrier_dot IS NOT NULL;
  CREATE INDEX screenings_by_carrier_mc ON screenings (carrier_mc, created_at) WHERE carrier_mc IS NOT NULL;
`;

/** A number from a score or the store, canonical; null when there is none. */
export function dotOf(v: unknown): string | null {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return String(v);
  if (typeof v !== 'string' || v.trim() === '') return null;
  return canonicalDot(v);
}

export function mcOf(v: unknown): string | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  return canonicalMc(v);
}

/** The two columns of a screening: asked by `kind` = `value`, the score's carrier ids (if any). */
export function carrierColumns(
  kind: 'dot_number' | 'mc_number',
  value: string,
  scoreDot: unknown,
  scoreMc: unknown,
): [string | null, string | null] {
  return kind === 'dot_number' ? [dotOf(value), mcOf(scoreMc)] : [dotOf(scoreDot), mcOf(value)];
}

/** Rows per transaction of the fill: short enough that another process's write waits little. */
export const CARRIER_FILL_BATCH = 5_000;

/**
 * Migration 22: fill the columns of every screening written before 21, by rowid, a batch per
 * transaction; the score is parsed in SQLite (once per row, this once), and the columns are
 * canonicalised here as new writes are.
 */
export const FILL_CARRIER_COLUMNS: BatchedStep = {
  what: 'screenings',
  total: (db) => (db.prepare('SELECT COALESCE(MAX(rowid), 0) AS n FROM screenings').get() as { n: number }).n,
  run(db: Database, after: number, size: number) {
    const rows = db
      .prepare<[number, number], { rid: number; kind: 'dot_number' | 'mc_number'; value: string; dot: unknown; mc: unknown }>(
        `SELECT s.rowid AS rid, s.query_kind AS kind, s.query_value AS value,
           json_extract(COALESCE(s.score, f.body), '$.carrier.dot_number') AS dot,
           json_extract(COALESCE(s.score, f.body), '$.carrier.mc_number') AS mc
         FROM screenings s LEFT JOIN score_fetches f ON f.id = s.score_fetch_id
         WHERE s.rowid > ? ORDER BY s.rowid LIMIT ?`,
      )
      .all(after, size);
    const set = db.prepare<[string | null, string | null, number]>('UPDATE screenings SET carrier_dot = ?, carrier_mc = ? WHERE rowid = ?');
    for (const r of rows) {
      const [dot, mc] = carrierColumns(r.kind, r.value, r.dot, r.mc);
      set.run(dot, mc, r.rid);
    }
    return { last: rows.length === 0 ? null : rows[rows.length - 1]!.rid, rows: rows.length };
  },
};
