/**
 * worker/open-record.ts on PostgreSQL, in this process: the WorkerRecord names the database
 * without its password, reads through its reader, keeps its free-space directory in
 * SCREEN_DATA_DIR (there is no file), and its /healthz write probe says "not writable" while the
 * server refuses writes (a read-only database: what a standby gives), then writable again.
 */
import { resolve } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.js';
import { openRecord, type WorkerRecord } from '../../worker/open-record.js';
import { screeningsPage } from '../../worker/store/list-reads.js';
import { PG_ADMIN_URL, pgTestDatabase, type PgTestDatabase } from '../helpers/pg-db.js';

let db: PgTestDatabase;
let opened: WorkerRecord | undefined;

beforeAll(async () => {
  db = await pgTestDatabase();
});
afterAll(async () => {
  await opened?.close();
  await db?.drop();
});

/** As the admin: this database read-only (or not) for new sessions, and its sessions ended so the pool opens new ones. */
async function readOnly(on: boolean): Promise<void> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    await c.query(`ALTER DATABASE ${db.name} SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
    await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db.name]);
  } finally {
    await c.end();
  }
}

describe('openRecord with SCREEN_DB=postgres://…', () => {
  it('opens the record, reads through its reader, and probes writes on the server', async () => {
    const url = new URL(db.url);
    url.password = 'not-shown';
    const config = loadConfig({ SCREEN_DB: url.toString(), SCREEN_DATA_DIR: 'pg-open-record-files' });
    const warned: string[] = [];
    opened = await openRecord(config, { log: pino({ level: 'warn' }, { write: (line: string) => void warned.push(line) }) });
    expect(opened.where).toBe(db.url.replace('postgres://postgres@', 'postgres://postgres:***@'));
    expect(opened.dataDir).toBe(resolve('pg-open-record-files'));
    expect(warned.some((l) => l.includes('"msg":"schema migration 1 applied'))).toBe(true);
    expect(warned.join('')).not.toContain('not-shown');
    expect(JSON.parse((await opened.reader.readJson(screeningsPage, { filter: {}, page: { limit: 5 } })).toString())).toMatchObject({
      data: [],
      has_more: false,
    });
    expect(await opened.writeProbe()).toEqual({ writable: true });

    await readOnly(true);
    try {
      // The first call after the sessions ended may meet a dead idle client: the pool replaces it.
      let probe = await opened.writeProbe();
      if (probe.writable || probe.reason === 'db_unavailable') probe = await opened.writeProbe();
      expect(probe).toEqual({ writable: false, reason: 'db_readonly' });
      // Reads still work.
      expect(await opened.record.events.lastEventId()).toBe(0);
    } finally {
      await readOnly(false);
    }
    let again = await opened.writeProbe();
    if (!again.writable) again = await opened.writeProbe();
    expect(again).toEqual({ writable: true });
  });
});
