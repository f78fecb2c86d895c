import { CsvError, parse } from 'csv-parse/sync';
import { parseCarrierQuery, type CarrierQuery } from '../shared/carrier-id.js';

/**
 * Carrier queries from a roster file (`carrier-screen screen --file`): a CSV with a header
 * naming a `dot_number` and/or `mc_number` column (any case, as FMCSA exports write
 * `DOT_NUMBER`; spaces or hyphens for the underscore), or one number a line without a header.
 * RFC 4180 quoting (a name like "Smith, Inc." stays one cell), a UTF-8 BOM, CRLF, blank lines
 * and `#` comment lines are fine. Each bad row is reported with its line in the file.
 */
export interface Roster {
  queries: CarrierQuery[];
  errors: string[];
}

const headerName = (cell: string): string =>
  cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

export function readRoster(text: string): Roster {
  const queries: CarrierQuery[] = [];
  const errors: string[] = [];
  let rows: Array<{ record: string[]; info: { lines: number } }>;
  try {
    rows = parse(text, {
      bom: true,
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      comment: '#',
      comment_no_infix: true,
    }) as unknown as typeof rows; // `info: true` makes each row { record, info }
  } catch (e) {
    // A broken quote leaves the rest of the file unreadable: say where, take nothing.
    const line = e instanceof CsvError ? (e as CsvError & { lines?: number }).lines : undefined;
    return { queries, errors: [`${line ? `line ${line}: ` : ''}not a readable CSV file: ${(e as Error).message}`] };
  }
  rows = rows.filter((r) => r.record.some((c) => c !== ''));
  if (rows.length === 0) return { queries, errors };

  const header = rows[0]!.record.map(headerName);
  const dotCol = header.indexOf('dot_number');
  const mcCol = header.indexOf('mc_number');
  const hasHeader = dotCol >= 0 || mcCol >= 0;
  for (const { record, info } of rows.slice(hasHeader ? 1 : 0)) {
    try {
      if (hasHeader) {
        const d = dotCol >= 0 ? record[dotCol] : undefined;
        const m = mcCol >= 0 ? record[mcCol] : undefined;
        queries.push(parseCarrierQuery(d ? { dot_number: d } : { mc_number: m || undefined }));
      } else {
        const v = record[0]!;
        queries.push(parseCarrierQuery(/^mc/i.test(v) ? { mc_number: v } : { dot_number: v }));
      }
    } catch (e) {
      errors.push(`line ${info.lines}: ${(e as Error).message}`);
    }
  }
  return { queries, errors };
}
