import { repositoryOf } from './repo.js';

/**
 * The rows of the due-diligence export (worker/decisions/audit-export.ts names the columns and
 * writes the CSV): one per screening, with its score, review and standing decision, by keyset on
 * (created_at, rowid).
 */

/** An export row: the columns of AUDIT_COLUMNS, and its keyset position. */
export type AuditRow = Record<string, string | number | null> & { k_created: string; k_rowid: number };

export interface AuditRowsRepo {
  /** Up to `limit` rows after `after` (created_at, rowid), created before `to`, in that order. */
  page(after: readonly [string, number], to: string, limit: number): AuditRow[];
}

/** One page after (created_at, rowid), before `to`: bound (after_created, after_rowid, to, limit). */
const PAGE_SQL = `
    SELECT s.created_at AS k_created, s.rowid AS k_rowid,
      s.id AS screening_id, s.created_at, s.completed_at, s.tender_id,
      COALESCE(json_extract(COALESCE(s.score, f.body), '$.carrier.dot_number'), CASE s.query_kind WHEN 'dot_number' THEN s.query_value END) AS dot_number,
      COALESCE(json_extract(COALESCE(s.score, f.body), '$.carrier.mc_number'), CASE s.query_kind WHEN 'mc_number' THEN s.query_value END) AS mc_number,
      json_extract(COALESCE(s.score, f.body), '$.carrier.legal_name') AS legal_name,
      s.action, s.hold_reason, s.source,
      json_extract(COALESCE(s.score, f.body), '$.score') AS score, json_extract(COALESCE(s.score, f.body), '$.grade') AS grade,
      json_extract(COALESCE(s.score, f.body), '$.decision') AS decision, s.model_version, s.score_fetched_at,
      COALESCE(r.parent_id, r.id) AS review_id, r.state AS review_state,
      COALESCE(r.decided_by, json_extract(s.standing_decision, '$.decided_by')) AS decided_by,
      -- The credential that decided: the review's, or the standing decision's (docs/decisions.md).
      COALESCE(r.token_id, json_extract(s.standing_decision, '$.token_id')) AS token_id,
      COALESCE(r.decided_at, json_extract(s.standing_decision, '$.decided_at')) AS decided_at,
      -- A review closed without a person: what closed it, as its note.
      COALESCE(r.note, r.closed_reason) AS note, json_extract(s.standing_decision, '$.id') AS standing_decision_id,
      json_extract(s.load, '$.customer_ref') AS load_customer_ref, json_extract(s.load, '$.pickup_at') AS load_pickup_at,
      json_extract(s.load, '$.origin') AS load_origin, json_extract(s.load, '$.destination') AS load_destination,
      json_extract(s.load, '$.equipment') AS load_equipment
    FROM screenings s LEFT JOIN reviews r ON r.screening_id = s.id
      -- The score: the screening's own copy (older rows) or the fetch it refers to (worker/store/score-refs.ts).
      LEFT JOIN score_fetches f ON f.id = s.score_fetch_id
    WHERE (s.created_at, s.rowid) > (?, ?) AND s.created_at < ?
    ORDER BY s.created_at, s.rowid LIMIT ?`;

export const auditRowsOf = repositoryOf<AuditRowsRepo>((db) => {
  const stmt = db.prepare<[string, number, string, number], AuditRow>(PAGE_SQL);
  return { page: (after, to, limit) => stmt.all(after[0], after[1], to, limit) };
});
