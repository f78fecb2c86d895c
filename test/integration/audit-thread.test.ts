/**
 * The audit export reads on its own read-only connection in a thread (issue 35): a year's
 * export never holds the connection and event loop that answer tenders. Shown by what it sees:
 * a write the store's own connection has not committed is not in the CSV (the store's
 * connection would see it), and the export still streams every committed row in order. Given a
 * record instead (a backend without reader threads), the same pages are read on this thread.
 * SQLite only by nature: its reader threads on the file. On PostgreSQL the export reads in
 * process on the pool: pg-audit-rows-contract.test.ts "a write not yet committed is not exported"
 * (this file's first case there) and pg-reader-jobs-contract.test.ts "GET /audit.csv" (the same
 * bytes on both backends).
 */
import { parse } from 'csv-parse/sync';
import { afterEach, expect } from 'vitest';
import { auditCsv } from '../../worker/decisions/audit-export.js';
import { openStore, recordOf, type Store } from '../../worker/store/index.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { tempDbPath } from '../helpers/temp-db.js';
import { itSqlite } from '../helpers/test-db.js';

let store: Store | undefined;
let cleanup: (() => void) | undefined;
afterEach(() => {
  store?.close();
  cleanup?.();
});

async function text(s: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  for await (const chunk of s) out += String(chunk);
  return out;
}

itSqlite('reads on another connection than the store: an uncommitted write is not exported; every committed row is, in order', async () => {
  const db = tempDbPath();
  cleanup = db.cleanup;
  store = openStore(db.path);
  const conn = connectionOf(store);
  const ins =
    conn.prepare(`INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, action, created_at, completed_at)
    VALUES (?, ?, 'done', 'dot_number', '1000003', 'tender', 'tender', ?, ?)`);
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  // More than one page of the export (1 000 rows a page).
  conn.transaction(() => {
    for (let i = 0; i < 2_500; i++) ins.run(`scr_${String(i).padStart(5, '0')}`, `LOAD-${i}`, at(i), at(i));
  })();
  conn.exec('BEGIN IMMEDIATE');
  try {
    ins.run('scr_uncommitted', 'LOAD-X', at(5), at(5));
    const rows = parse(await text(auditCsv(store, at(0), at(10_000))), { columns: true }) as Array<{
      screening_id: string;
      tender_id: string;
    }>;
    expect(rows).toHaveLength(2_500);
    expect(rows.some((r) => r.screening_id === 'scr_uncommitted')).toBe(false);
    expect(rows.map((r) => r.tender_id)).toEqual(Array.from({ length: 2_500 }, (_, i) => `LOAD-${i}`));
  } finally {
    conn.exec('ROLLBACK');
  }
});

itSqlite('a record without reader threads (auditCsv given a RecordStore) exports the same bytes on this thread', async () => {
  const db = tempDbPath();
  cleanup = db.cleanup;
  store = openStore(db.path);
  const ins = connectionOf(store)
    .prepare(`INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, action, created_at, completed_at)
    VALUES (?, ?, 'done', 'dot_number', '1000003', 'tender', 'tender', ?, ?)`);
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  for (let i = 0; i < 1_500; i++) ins.run(`scr_${String(i).padStart(5, '0')}`, i % 7 ? `LOAD-${i}` : `=LOAD-${i}`, at(i), at(i));
  const threaded = await text(auditCsv(store, at(0), at(10_000)));
  expect(threaded.split('\n').length).toBeGreaterThan(1_500);
  expect(await text(auditCsv(recordOf(store), at(0), at(10_000)))).toBe(threaded);
});
