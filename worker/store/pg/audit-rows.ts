import type { AuditRow, AuditRowsRepo } from '../audit-rows.js';
import type { AsyncRepo } from '../async-repo.js';
import type { PgExecutor } from './executor.js';
import { statement } from './sql.js';

/**
 * The rows of the due-diligence export on PostgreSQL (worker/store/audit-rows.ts is the SQLite
 * twin; worker/decisions/audit-export.ts writes the CSV): one per screening, by keyset on
 * (created_at, seq), seq standing for SQLite's rowid (`k_rowid` keeps its name: the cursor the
 * export hands back).
 *
 * The CSV must be byte for byte SQLite's, so the 14 JSON fields are taken here, not with
 * PostgreSQL's json operators: `#>>` answers text where SQLite's json_extract answers a number
 * (score 66, a true as 1), and `::json #>` refuses a whole document when any string in it, even
 * one not read, holds \u0000 or half a surrogate pair, which SQLite reads. Each document is parsed
 * once and read as json_extract reads it (`jsonExtract`): 50 000 rows with 1.5 kB scores took
 * 1.6-2.2 s so, against 6.8 s for the same fields by `#>>` (each parses the whole document).
 */

interface PgAuditRow {
  k_created: string;
  k_rowid: number;
  screening_id: string;
  created_at: string;
  completed_at: string | null;
  tender_id: string | null;
  query_kind: string;
  query_value: string;
  /** The score: the screening's own copy (older rows) or the fetch it refers to (score-refs.ts). */
  score_json: string | null;
  standing_json: string | null;
  load_json: string | null;
  action: string | null;
  hold_reason: string | null;
  source: string | null;
  model_version: string | null;
  score_fetched_at: string | null;
  review_id: string | null;
  review_state: string | null;
  r_decided_by: string | null;
  r_token_id: string | null;
  r_decided_at: string | null;
  note: string | null;
}

/** One page; the index (created_at, seq) answers it in order, with no sort (pg-audit-rows-contract.test.ts). */
export const auditPage = statement<{ after_created: string; after_seq: number; to: string; limit: number }>(
  'audit_rows_page',
  `SELECT s.created_at AS k_created, s.seq AS k_rowid,
     s.id AS screening_id, s.created_at, s.completed_at, s.tender_id, s.query_kind, s.query_value,
     COALESCE(s.score, f.body) AS score_json, s.standing_decision AS standing_json, s.load AS load_json,
     s.action, s.hold_reason, s.source, s.model_version, s.score_fetched_at,
     COALESCE(r.parent_id, r.id) AS review_id, r.state AS review_state,
     r.decided_by AS r_decided_by, r.token_id AS r_token_id, r.decided_at AS r_decided_at,
     -- A review closed without a person: what closed it, as its note.
     COALESCE(r.note, r.closed_reason) AS note
   FROM screenings s LEFT JOIN reviews r ON r.screening_id = s.id
     LEFT JOIN score_fetches f ON f.id = s.score_fetch_id
   WHERE (s.created_at, s.seq) > (@after_created, @after_seq) AND s.created_at < @to
   ORDER BY s.created_at, s.seq LIMIT @limit`,
);

type SqliteValue = string | number | null;

// A lone half of a surrogate pair: SQLite writes it as three bytes that are not UTF-8, which
// better-sqlite3 reads back as three U+FFFD.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * SQLite's `json_extract(doc, '$.a.b')` on JSON text written by JSON.stringify: SQL NULL for a
 * missing member or JSON null, 1/0 for true/false, a number, a string, or an object or array as
 * its minified text (SQLite keeps the document's own spelling, which JSON.stringify's is).
 */
export function jsonExtract(doc: unknown, path: readonly string[]): SqliteValue {
  let v = doc;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, k)) return null;
    v = (v as Record<string, unknown>)[k];
  }
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return v.replace(LONE_SURROGATE, '\ufffd\ufffd\ufffd');
  return JSON.stringify(v);
}

// As json_extract, a document that is not JSON fails the read (SQLite: "malformed JSON").
const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function auditRowOf(p: PgAuditRow): AuditRow {
  const score = parsed(p.score_json);
  const standing = parsed(p.standing_json);
  const load = parsed(p.load_json);
  // The columns of audit-rows.ts's SELECT, in its order.
  return {
    k_created: p.k_created,
    k_rowid: p.k_rowid,
    screening_id: p.screening_id,
    created_at: p.created_at,
    completed_at: p.completed_at,
    tender_id: p.tender_id,
    dot_number: jsonExtract(score, ['carrier', 'dot_number']) ?? (p.query_kind === 'dot_number' ? p.query_value : null),
    mc_number: jsonExtract(score, ['carrier', 'mc_number']) ?? (p.query_kind === 'mc_number' ? p.query_value : null),
    legal_name: jsonExtract(score, ['carrier', 'legal_name']),
    action: p.action,
    hold_reason: p.hold_reason,
    source: p.source,
    score: jsonExtract(score, ['score']),
    grade: jsonExtract(score, ['grade']),
    decision: jsonExtract(score, ['decision']),
    model_version: p.model_version,
    score_fetched_at: p.score_fetched_at,
    review_id: p.review_id,
    review_state: p.review_state,
    decided_by: p.r_decided_by ?? jsonExtract(standing, ['decided_by']),
    // The credential that decided: the review's, or the standing decision's (docs/decisions.md).
    token_id: p.r_token_id ?? jsonExtract(standing, ['token_id']),
    decided_at: p.r_decided_at ?? jsonExtract(standing, ['decided_at']),
    note: p.note,
    standing_decision_id: jsonExtract(standing, ['id']),
    load_customer_ref: jsonExtract(load, ['customer_ref']),
    load_pickup_at: jsonExtract(load, ['pickup_at']),
    load_origin: jsonExtract(load, ['origin']),
    load_destination: jsonExtract(load, ['destination']),
    load_equipment: jsonExtract(load, ['equipment']),
  };
}

export function pgAuditRowsOf(x: PgExecutor): AsyncRepo<AuditRowsRepo> {
  return {
    async page(after, to, limit) {
      const rows = await auditPage.all<PgAuditRow>(x, { after_created: after[0], after_seq: after[1], to, limit });
      return rows.map(auditRowOf);
    },
  };
}
