import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * The record read from the outside, as an operator would with psql or sqlite3: the rows a fault
 * scenario counts (screenings, reviews, callbacks owed, the event log), on either backend. The
 * SQL is the same on both (no parameters, JSON read in JavaScript), so one scenario can run on a
 * PostgreSQL record or a shared SQLite file.
 */

export interface RecordReader {
  kind: 'sqlite' | 'postgres';
  rows<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

export function pgRecordReader(url: string): RecordReader {
  const pool = new pg.Pool({ connectionString: url, max: 2, application_name: 'carrier-screen-fault-inspect' });
  return {
    kind: 'postgres',
    rows: async <T>(sql: string) => (await pool.query(sql)).rows as T[],
    close: () => pool.end(),
  };
}

/** The reader for SCREEN_DB as a process is given it: a PostgreSQL URL or a SQLite file's path. */
export function recordReader(screenDb: string): RecordReader {
  return /^postgres(ql)?:\/\//.test(screenDb) ? pgRecordReader(screenDb) : sqliteRecordReader(screenDb);
}

export function sqliteRecordReader(path: string): RecordReader {
  return {
    kind: 'sqlite',
    rows: async <T>(sql: string) => {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      try {
        db.pragma('busy_timeout = 5000');
        return db.prepare(sql).all() as T[];
      } finally {
        db.close();
      }
    },
    close: async () => {},
  };
}

export interface RecordSnapshot {
  screenings: Array<{ id: string; tender_id: string | null; status: string; action: string | null; carrier_key: string | null }>;
  /** Top-level reviews (a carrier's review; held tenders joining it have parent_id). */
  reviews: Array<{ id: string; screening_id: string; carrier_key: string | null; state: string; parent_id: string | null }>;
  outbox: Array<{ delivery_id: string; state: string; attempts: number }>;
  /** The event log in id order; `ref` is the screening a screening.completed names. */
  events: Array<{ id: number; event: string; ref: string | undefined }>;
}

export async function recordSnapshot(r: RecordReader): Promise<RecordSnapshot> {
  const screenings = await r.rows<RecordSnapshot['screenings'][number]>(
    'SELECT id, tender_id, status, action, carrier_key FROM screenings ORDER BY id',
  );
  const reviews = await r.rows<RecordSnapshot['reviews'][number]>(
    'SELECT id, screening_id, carrier_key, state, parent_id FROM reviews ORDER BY id',
  );
  const outbox = (
    await r.rows<{ delivery_id: string; state: string; attempts: number | string }>(
      'SELECT delivery_id, state, attempts FROM callback_outbox ORDER BY delivery_id',
    )
  ).map((o) => ({ ...o, attempts: Number(o.attempts) }));
  const events = (await r.rows<{ id: number | string; event: string; data: string }>('SELECT id, event, data FROM events ORDER BY id')).map(
    (e) => {
      let ref: string | undefined;
      try {
        const d = JSON.parse(e.data) as { screening_ref?: unknown };
        if (typeof d.screening_ref === 'string') ref = d.screening_ref;
      } catch {
        /* not JSON: no reference */
      }
      return { id: Number(e.id), event: e.event, ref };
    },
  );
  return { screenings, reviews, outbox, events };
}

/** Screenings that are not done, the cheap poll while waiting. */
export async function unfinishedCount(r: RecordReader): Promise<number> {
  const [row] = await r.rows<{ n: number | string }>("SELECT COUNT(*) AS n FROM screenings WHERE status <> 'done'");
  return Number(row?.n ?? 0);
}

/** Pending top-level reviews, what the desk would see on its list. */
export async function pendingReviews(r: RecordReader): Promise<Array<{ id: string; carrier_key: string | null }>> {
  return r.rows("SELECT id, carrier_key FROM reviews WHERE state = 'pending' AND parent_id IS NULL ORDER BY id");
}

/** Every row of every table of the record, as text: where a secret must not be found. */
export async function recordText(r: RecordReader): Promise<string> {
  const tables = await r.rows<{ name: string }>(
    r.kind === 'postgres'
      ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
      : "SELECT name FROM sqlite_master WHERE type = 'table'",
  );
  const out: string[] = [];
  for (const { name } of tables) {
    if (!/^\w+$/.test(name)) throw new Error(`recordText: table ${name}`);
    out.push(`-- ${name}`, ...(await r.rows<Record<string, unknown>>(`SELECT * FROM ${name}`)).map((row) => JSON.stringify(row)));
  }
  return out.join('\n');
}
