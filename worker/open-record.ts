import type { RecordBackendName } from './store/index.js';
import { dirname, resolve } from 'node:path';
import type { Logger } from 'pino';
import { recordWhere, type Config } from '../shared/config.js';
import { probePgWrite } from './health/pg-write-probe.js';
import { probeSqliteWrite, type WriteProbe } from './health/sqlite-write-probe.js';
import { openStore, recordOf, type RecordStore } from './store/index.js';
import { pgRemoteHost, pgTlsOn } from '../shared/database-url.js';
import { openPgStore } from './store/pg/pg-store.js';
import { DEFAULT_READER_THREADS, openReaderPool, type Reader } from './store/reader-pool.js';
import { inProcessReader } from './store/record-reader.js';

/**
 * Where every command opens the worker's record (SCREEN_DB): `start`, `worker`, `screen` and
 * `token`. The one place outside worker/store/ that knows which backend is open: a SQLite file
 * (its reader threads, its write probe, its checkpointer) or a PostgreSQL database (a pool; reads
 * in this process; the server's write probe). Everything else takes the WorkerRecord it answers.
 *
 * Nothing here assumes one process per database: several `start`s and `worker`s may open one
 * PostgreSQL database (its migration runs under an advisory lock), as they may one SQLite file.
 */

export type { WriteProbe } from './health/sqlite-write-probe.js';

/** The record as a worker process holds it, whichever backend it is on. */
export interface WorkerRecord {
  /** What every product module takes. */
  readonly record: RecordStore;
  /** List pages, the carrier search, the audit export: off the tender path (threads on SQLite). */
  readonly reader: Reader;
  /** What messages name: the SQLite file, or the database URL without its password. */
  readonly where: string;
  /** Which engine holds it: what /healthz names. */
  readonly backend: RecordBackendName;
  /**
   * The directory whose free space /metrics shows: the SQLite file's (the database grows there);
   * on PostgreSQL, whose database grows on its server, this process's own files' (SCREEN_DATA_DIR).
   */
  readonly dataDir: string;
  /** /healthz's write probe: a real committed write, and whether a store write was refused lately. */
  writeProbe(): Promise<WriteProbe>;
  /** The reader, then the store. */
  close(): Promise<void>;
}

export interface OpenRecordOptions {
  /** The clock for every timestamp the store writes (tests pin it). */
  now?: () => Date;
  /** The worker's logger: each schema step this open applies (at warn), a long one's progress, what the store did by itself. */
  log?: Pick<Logger, 'info' | 'warn'>;
  /** A long-running worker: SQLite's WAL is checkpointed from a background thread, not inside a commit. */
  backgroundCheckpoints?: boolean;
  /**
   * Open only a record that exists: a PostgreSQL database without one is refused, not made (a
   * command other than `start`; a missing SQLite file is refused before, by requireDatabase).
   */
  existing?: boolean;
  /** SQLite's reader threads (default 2; 0: on the main connection) and how many start now. */
  readers?: { size?: number; warm?: number };
  /** Opened only to be checked and closed (checkRecordOpens): what the open says is said by the real one. */
  checkOnly?: boolean;
}

/** The worker's record, opened where SCREEN_DB says (migrated to the newest schema). */
export async function openRecord(config: Pick<Config, 'db' | 'dataDir'>, opts: OpenRecordOptions = {}): Promise<WorkerRecord> {
  const { now, log } = opts;
  // At warn: a schema change is a lifecycle event an operator at LOG_LEVEL=warn should see.
  const onMigration = log
    ? (m: { version: number; name: string; ms: number }) =>
        log.warn({ version: m.version, name: m.name, ms: m.ms }, `schema migration ${m.version} applied in ${m.ms} ms: ${m.name}`)
    : undefined;
  if (config.db.kind === 'postgres') {
    const remote = pgRemoteHost(config.db.url);
    // Said at each open, not refused: a private network may be trusted (a DBA's choice to make).
    if (remote !== undefined && !pgTlsOn(config.db.url) && !opts.checkOnly)
      log?.warn(
        { db_host: remote },
        `PostgreSQL at ${remote} without TLS: the password and the record cross the network in the clear; add sslmode=verify-full&sslrootcert=<the CA's PEM file> to SCREEN_DB (docs/operations.md, "TLS to PostgreSQL")`,
      );
    const store = await openPgStore(config.db.url, {
      applicationName: 'carrier-screen',
      max: config.db.poolMax,
      ...(opts.existing ? { existing: true } : {}),
      ...(now ? { now } : {}),
      ...(log ? { log } : {}),
      ...(onMigration ? { onMigration } : {}),
    });
    return {
      record: store,
      reader: inProcessReader(store),
      where: store.where,
      backend: 'postgresql',
      dataDir: resolve(config.dataDir),
      writeProbe: () => probePgWrite(store),
      close: () => store.close(),
    };
  }
  const store = openStore(config.db.path, {
    ...(now ? { now } : {}),
    ...(log ? { log } : {}),
    ...(onMigration ? { onMigration } : {}),
    ...(opts.backgroundCheckpoints ? { backgroundCheckpoints: true } : {}),
  });
  let reader: Reader;
  try {
    reader = openReaderPool(store, { size: opts.readers?.size ?? DEFAULT_READER_THREADS, warm: opts.readers?.warm ?? 0 });
  } catch (e) {
    store.close();
    throw e;
  }
  return {
    record: recordOf(store),
    reader,
    where: recordWhere(config.db),
    backend: 'sqlite',
    dataDir: dirname(resolve(store.path)),
    // With no unit of work open: the probe's write commits by itself, never inside another's.
    writeProbe: () => store.readCommitted(() => probeSqliteWrite(store)),
    close: async () => {
      await reader.close();
      store.close();
    },
  };
}

/**
 * Refuse a record this process cannot open before a Redis or an emulator is started for it (the
 * commands that start them call this first). A PostgreSQL database is opened, brought to the
 * newest schema and closed again: an unreachable server, a missing database or a refused login
 * stops the command here, in one line; with `existing` (every command but `start`), so does a
 * database that holds no record yet. A SQLite file is left to the command (requireDatabase).
 */
export async function checkRecordOpens(
  config: Pick<Config, 'db' | 'dataDir'>,
  o: { log?: Pick<Logger, 'info' | 'warn'>; existing: boolean },
): Promise<void> {
  if (config.db.kind !== 'postgres') return;
  const opened = await openRecord(config, { ...(o.log ? { log: o.log } : {}), existing: o.existing, checkOnly: true });
  await opened.close();
}
