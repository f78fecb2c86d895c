import { createRequire } from 'node:module';
import { Readable, pipeline } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { stringify } from 'csv-stringify';
import type { Store } from '../store/index.js';
import { connectionOf } from '../store/sqlite-store.js';

/**
 * The due-diligence record as CSV (`GET /audit.csv?from=&to=`): one row per screening created
 * in [from, to), with the score it was decided on, who decided and on what standing decision.
 * Read in pages of PAGE rows (keyset, never OFFSET) by a thread on its own read-only connection
 * (issue 35: a year's export never stalls tender-time answers), and written through
 * csv-stringify as the client reads, so a year of screenings is exported in constant memory;
 * RFC 4180 quoting, formulas escaped (OWASP's CSV injection rule).
 */

export const AUDIT_COLUMNS = [
  'screening_id',
  'created_at',
  'completed_at',
  'tender_id',
  'dot_number',
  'mc_number',
  'legal_name',
  'action',
  'hold_reason',
  'source',
  'score',
  'grade',
  'decision',
  'model_version',
  'score_fetched_at',
  'review_id',
  'review_state',
  'decided_by',
  'token_id',
  'decided_at',
  'note',
  'standing_decision_id',
] as const;

const PAGE = 1_000;

type AuditRow = Record<(typeof AUDIT_COLUMNS)[number], string | number | null> & { k_created: string; k_rowid: number };

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
      COALESCE(r.note, r.closed_reason) AS note, json_extract(s.standing_decision, '$.id') AS standing_decision_id
    FROM screenings s LEFT JOIN reviews r ON r.screening_id = s.id
      -- The score: the screening's own copy (older rows) or the fetch it refers to (worker/store/score-refs.ts).
      LEFT JOIN score_fetches f ON f.id = s.score_fetch_id
    WHERE (s.created_at, s.rowid) > (?, ?) AND s.created_at < ?
    ORDER BY s.created_at, s.rowid LIMIT ?`;

function page(db: Database) {
  // One statement per page: a page is read whole, so the connection is never held between pages.
  return db.prepare<[string, number, string, number], AuditRow>(PAGE_SQL);
}

// A CommonJS script (a worker started from a string runs as one): the export's reads on their
// own read-only connection, a page per request, so a year's export never holds the event loop
// that answers tenders. One page in flight: the CSV stream asks for the next as it drains.
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
let db, stmt;
let after = [workerData.from, 0];
parentPort.on('message', (m) => {
  if (m !== 'next') return;
  try {
    db ??= new Database(workerData.path, { readonly: true, fileMustExist: true, timeout: 5000 });
    stmt ??= db.prepare(workerData.sql);
    const rows = stmt.all(after[0], after[1], workerData.to, workerData.page);
    if (rows.length > 0) after = [rows[rows.length - 1].k_created, rows[rows.length - 1].k_rowid];
    parentPort.postMessage({ rows });
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e) });
  }
});
`;

/** The pages of [from, to) read by a thread on its own read-only connection; ended early, the thread ends. */
async function* threadPages(path: string, from: string, to: string): AsyncGenerator<AuditRow[]> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, { eval: true, workerData: { path, from, to, page: PAGE, sql: PAGE_SQL, driver } });
  const answers: Array<{ rows?: AuditRow[]; error?: string }> = [];
  let wake: (() => void) | undefined;
  let failed: Error | undefined;
  worker.on('message', (m: { rows?: AuditRow[]; error?: string }) => {
    answers.push(m);
    wake?.();
  });
  worker.on('error', (e) => {
    failed = e;
    wake?.();
  });
  worker.on('exit', () => {
    failed ??= new Error('the audit reader thread ended early');
    wake?.();
  });
  try {
    for (;;) {
      worker.postMessage('next');
      while (answers.length === 0 && failed === undefined) await new Promise<void>((resolve) => (wake = resolve));
      const m = answers.shift();
      if (!m) throw failed!;
      if (m.error !== undefined) throw new Error(`the audit export could not read the store: ${m.error}`);
      yield m.rows!;
      if (m.rows!.length < PAGE) return;
    }
  } finally {
    worker.removeAllListeners('exit');
    void worker.terminate();
  }
}

/** The same pages on the store's own connection (an in-memory store has no file to share). */
async function* ownPages(store: Store, from: string, to: string): AsyncGenerator<AuditRow[]> {
  const stmt = page(connectionOf(store));
  let after: [string, number] = [from, 0];
  for (;;) {
    const batch = stmt.all(after[0], after[1], to, PAGE);
    yield batch;
    if (batch.length < PAGE) return;
    const last = batch[batch.length - 1]!;
    after = [last.k_created, last.k_rowid];
    // Let the event loop answer other requests between pages.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The CSV of screenings created in [from, to) (ISO 8601 UTC), header first, as a stream. */
export function auditCsv(store: Store, from: string, to: string): Readable {
  // Rows created exactly at `from` have created_at = from and rowid > 0: included.
  const pages = store.path === ':memory:' ? ownPages(store, from, to) : threadPages(store.path, from, to);
  async function* rows(): AsyncGenerator<AuditRow> {
    for await (const batch of pages) for (const r of batch) yield r;
  }
  // A cell starting with = + - @ (a tender id, a name, a note, the service's legal_name) is
  // prefixed with ' so a spreadsheet shows it as text instead of running it as a formula.
  const csv = stringify({ header: true, columns: [...AUDIT_COLUMNS], escape_formulas: true });
  // A store error mid-way ends the download with an error rather than a short file.
  pipeline(Readable.from(rows()), csv, (err) => {
    if (err) csv.destroy(err);
  });
  return csv;
}
