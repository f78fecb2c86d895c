/**
 * A year of screenings exported from the real worker process: 100 000 rows streamed through
 * GET /audit.csv, read back by a CSV parser, while the process's peak memory stays flat
 * (it never holds the export whole). The record of the pass (SCREEN_TEST_DB: a SQLite file, or a
 * PostgreSQL database whose pages are read in the worker's own process), Redis, emulator, HTTP.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startEmulator, DEMO_KEYS, type RunningEmulator } from '../../emulator/index.js';
import { openStore } from '../../worker/store/index.js';
import { executorOf, openPgStore } from '../../worker/store/pg/pg-store.js';
import { connectionOf } from '../../worker/store/sqlite-store.js';
import { ensureBuilt, startIntakeProcess, type StartedIntake } from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { testRecord, type TestRecord } from '../helpers/test-db.js';

const N = 100_000;
const TOKEN = 'audit-export-test-token-0123456789abcdef';
let emu: RunningEmulator;
let proc: StartedIntake;
let rec: TestRecord | undefined;

/** Peak resident memory of a process so far (VmHWM), in bytes. */
const peakRss = (pid: number): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** The legal name of seeded carrier i: quotes and a comma, so the CSV must quote it. */
const legalName = (i: number) => `Hauler "${i}", Inc.`;

/** A year of done screenings, written straight into the record the worker will open. */
async function seed(r: TestRecord): Promise<void> {
  if (r.sqlitePath === undefined) {
    // PostgreSQL: the schema made by the store's open, then the rows in one statement (the same
    // rows as SQLite's below; 100 000 single inserts would take minutes on a loaded machine).
    const store = await openPgStore(r.screenDb, { max: 1, applicationName: 'carrier-screen-test' });
    try {
      await executorOf(store).query({
        text: `INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, action, hold_reason, source, score, model_version, created_at, completed_at)
          SELECT 'scr_seed' || lpad(i::text, 22, '0'), 'LOAD-' || i, 'done', 'dot_number', (2000000 + i)::text, 'tender', 'tender', NULL, 'cache',
            json_build_object('carrier', json_build_object('dot_number', (2000000 + i)::text, 'mc_number', NULL, 'legal_name', 'Hauler "' || i || '", Inc.'),
              'score', 80, 'grade', 'B', 'decision', 'approved')::text,
            'carrier-risk-3.5', at, at
          FROM generate_series(0, $1::int - 1) AS g (i),
            LATERAL (SELECT to_char((timestamptz '2025-11-01T00:00:00Z' + i * interval '300 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) t`,
        values: [N],
      });
    } finally {
      await store.close();
    }
    return;
  }
  const store = openStore(r.sqlitePath);
  const db = connectionOf(store);
  const ins =
    db.prepare(`INSERT INTO screenings (id, tender_id, status, query_kind, query_value, priority, action, hold_reason, source, score, model_version, created_at, completed_at)
    VALUES (?, ?, 'done', 'dot_number', ?, 'tender', 'tender', NULL, 'cache', ?, 'carrier-risk-3.5', ?, ?)`);
  const t0 = Date.parse('2025-11-01T00:00:00Z');
  db.transaction(() => {
    for (let i = 0; i < N; i++) {
      const at = new Date(t0 + i * 300_000).toISOString();
      const score = JSON.stringify({
        carrier: { dot_number: String(2_000_000 + i), mc_number: null, legal_name: legalName(i) },
        score: 80,
        grade: 'B',
        decision: 'approved',
      });
      ins.run(`scr_seed${String(i).padStart(22, '0')}`, `LOAD-${i}`, String(2_000_000 + i), score, at, at);
    }
  })();
  store.close();
}

beforeAll(async () => {
  await ensureBuilt();
  rec = await testRecord();
  await seed(rec);
  emu = await startEmulator({ port: 0 });
  proc = await startIntakeProcess({
    SVC_API_KEY: DEMO_KEYS.sandbox,
    SVC_BASE_URL: emu.baseUrl,
    REDIS_URL: inject('redisUrl'),
    SCREEN_DB: rec.screenDb,
    ...rec.env,
    SCREEN_REDIS_PREFIX: uniquePrefix('audit'),
    INTAKE_TOKEN: TOKEN,
    // A heap too small to hold the export whole: buffering it would crash the worker (and fail
    // the row count), streaming it does not. GC under a busy machine makes RSS alone a loose bound.
    // The young generation is fixed too: Node 24's V8 grows it to 64 MiB by default, which RSS
    // counts whatever the export holds (grew 110-124 MiB with it, 61 MiB at 8 MiB).
    NODE_OPTIONS: '--max-old-space-size=96 --max-semi-space-size=8',
  });
}, 120_000);

afterAll(async () => {
  await proc?.stop();
  await emu?.close();
  await rec?.cleanup();
});

describe('GET /audit.csv over 100 000 screenings', () => {
  it('streams every row once, in order, with bounded memory in the worker', async () => {
    const before = peakRss(proc.pid);
    const res = await request(`${proc.url}/audit.csv?from=2025-11-01&to=2026-11-01`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    let rows = 0;
    let last = '';
    let ordered = true;
    let first: Record<string, string> | undefined;
    for await (const row of res.body.pipe(parse({ columns: true })) as AsyncIterable<Record<string, string>>) {
      if (row.created_at! < last) ordered = false;
      last = row.created_at!;
      first ??= row;
      rows++;
    }
    const grew = peakRss(proc.pid) - before;
    console.info(
      `audit export: ${rows} rows; worker peak RSS ${Math.round(before / 2 ** 20)} MiB before, grew ${Math.round(grew / 2 ** 20)} MiB`,
    );
    expect(rows).toBe(N);
    expect(ordered).toBe(true);
    expect(first).toMatchObject({ tender_id: 'LOAD-0', legal_name: legalName(0), dot_number: '2000000', grade: 'B' });
    // The CSV is ~15 MB; held whole (rows, strings, the body) it would be several times that.
    expect(grew).toBeLessThan(100 * 2 ** 20);
    expect(proc.alive()).toBe(true);
  });
});
