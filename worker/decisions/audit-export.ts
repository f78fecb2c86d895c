import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { RecordStore, Store } from '../store/index.js';
import type { RecordRepos } from '../store/record.js';
import { openReaderPool, streamJob, type Reader } from '../store/reader-pool.js';

/**
 * The due-diligence record as CSV (`GET /audit.csv?from=&to=`): one row per screening created
 * in [from, to), with the score it was decided on, who decided and on what standing decision.
 * Read in pages of PAGE rows (keyset, never OFFSET) and formatted by csv-stringify in a thread of
 * the reader pool on its own read-only connection (issue 35: a year's export never stalls
 * tender-time answers), one page ahead of the socket at most, so a year of screenings is
 * exported in constant memory; RFC 4180 quoting, formulas escaped (OWASP's CSV injection rule).
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
  // The load the tender was for, as the TMS sent it (appended: positional readers keep working).
  'load_customer_ref',
  'load_pickup_at',
  'load_origin',
  'load_destination',
  'load_equipment',
] as const;

const PAGE = 1_000;

/**
 * The export as text chunks, a page each (the header first), read by keyset through the record's
 * audit rows (either backend); the next page is read only when the last chunk was taken.
 * `pageSize`: rows a page (tests page small).
 */
export async function* auditCsvText(
  repos: Pick<RecordRepos, 'auditRows'>,
  from: string,
  to: string,
  pageSize = PAGE,
): AsyncGenerator<string> {
  // A page is read whole, so the connection is never held between pages.
  // Rows created exactly at `from` have created_at = from and rowid > 0: included.
  let after: [string, number] = [from, 0];
  for (let header = true; ; header = false) {
    const rows = await repos.auditRows.page(after, to, pageSize);
    // A cell starting with = + - @ (a tender id, a name, a note, the service's legal_name) is
    // prefixed with ' so a spreadsheet shows it as text instead of running it as a formula.
    const text = stringify(rows, { header, columns: [...AUDIT_COLUMNS], escape_formulas: true });
    if (text !== '') yield text;
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    after = [last.k_created, last.k_rowid];
  }
}

/**
 * auditCsvText as a reader stream job: on SQLite run by a reader-pool thread
 * (worker/store/reader-pool.ts), so the reads and the CSV formatting never hold the event loop
 * that answers tenders; the thread is asked for the next chunk only when the socket has taken
 * the last one. On PostgreSQL run on the record itself (record-reader.ts).
 */
export const auditCsvChunks = streamJob(import.meta.url, 'auditCsvChunks', (record, a: { from: string; to: string }) =>
  auditCsvText(record, a.from, a.to),
);

/**
 * The CSV of screenings created in [from, to) (ISO 8601 UTC), header first, as a stream: read
 * through `source`: the process's reader pool; a SQLite Store (a pool of one thread of its own,
 * closed when the stream ends); or a record, read on this thread (a store without reader
 * threads, as PostgreSQL's: its reads do not block the event loop).
 */
export function auditCsv(source: Reader | Store | RecordStore, from: string, to: string): Readable {
  // Readable.from pulls a chunk only when the response has room (pipe waits for 'drain'); a store
  // error mid-way ends the download with an error rather than a short file.
  const opts = { objectMode: false, highWaterMark: 1 };
  if ('auditRows' in source) return Readable.from(auditCsvText(source, from, to), opts);
  const own = 'stream' in source ? undefined : openReaderPool(source, { size: 1 });
  const reader = own ?? (source as Reader);
  const out = Readable.from(reader.stream(auditCsvChunks, { from, to }), opts);
  if (own) out.once('close', () => void own.close());
  return out;
}
