import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { uniquePrefix } from '../../helpers/redis-prefix.js';
import { startIntakeProcess, type StartedIntake, type WorkerEnv } from '../../helpers/processes.js';
import { testRecord, type TestDbKind } from '../../helpers/test-db.js';
import { IntakeClient } from './intake-client.js';
import { recordReader, type RecordReader } from './record-inspect.js';

/**
 * One carrier-screen installation for a fault scenario: a record on the backend of this pass
 * (testRecord(): a SQLite file, or under SCREEN_TEST_DB=postgres a PostgreSQL database of its
 * own), a data dir, a Redis prefix, an intake token and callback secret, and the `start` process
 * (worker + intake) that can be killed and started again on the same record.
 */

export interface Installation {
  kind: TestDbKind;
  /** The worker's own files (intake-token, callback-secret): SCREEN_DATA_DIR, or the SQLite file's directory. */
  dataDir: string;
  /** SCREEN_DB: the SQLite file's path, or the PostgreSQL database's URL. */
  screenDb: string;
  /** The SQLite file; undefined on PostgreSQL (for a case that is by nature about the file). */
  sqlitePath: string | undefined;
  /** The record read from the outside (store-inspect.ts, record-inspect.ts). */
  reader: RecordReader;
  prefix: string;
  token: string;
  callbackSecret: string;
  env: WorkerEnv;
  /** The running `start` process (after start()). */
  proc: StartedIntake | undefined;
  client: IntakeClient | undefined;
  /** Start (or start again) the `start` process on the same data, Redis prefix and port. */
  start(extraEnv?: Record<string, string>, wrapper?: string[]): Promise<{ proc: StartedIntake; client: IntakeClient }>;
  /** Every byte every process of this installation wrote to stdout and stderr. */
  logs(): string;
  /** Stop the process (SIGTERM), then remove the record (the SQLite file's directory, or the database). */
  close(): Promise<void>;
}

export async function installation(o: {
  svcBaseUrl: string;
  svcKey: string;
  redisUrl: string;
  env?: Record<string, string | undefined>;
  /**
   * SCREEN_DB as the processes are given it, from the record's own (e.g. through a proxy the
   * test can take down); the test's reader reads the record directly.
   */
  via?: (screenDb: string) => string;
}): Promise<Installation> {
  const rec = await testRecord();
  // The process's working directory: the record's own (no .env is read from it).
  const cwd = rec.sqlitePath ? dirname(rec.sqlitePath) : rec.env.SCREEN_DATA_DIR!;
  const prefix = uniquePrefix('fault');
  const token = `tok-${randomBytes(18).toString('base64url')}`;
  const callbackSecret = randomBytes(24).toString('base64url');
  const env: WorkerEnv = {
    SVC_API_KEY: o.svcKey,
    SVC_BASE_URL: o.svcBaseUrl,
    REDIS_URL: o.redisUrl,
    ...rec.env,
    SCREEN_DB: o.via ? o.via(rec.screenDb) : rec.screenDb,
    SCREEN_REDIS_PREFIX: prefix,
    INTAKE_TOKEN: token,
    CALLBACK_SECRET: callbackSecret,
    LOG_LEVEL: 'info',
    // The scenarios send thousands of requests a minute with one token: no per-token limit.
    INTAKE_RATE_LIMIT: '0',
    ...o.env,
  };
  const screenDb = o.via ? rec.screenDb : env.SCREEN_DB;
  const sqlitePath = /^postgres(ql)?:\/\//.test(screenDb) ? undefined : screenDb;
  const dataDir = env.SCREEN_DATA_DIR ?? dirname(screenDb);
  const reader = recordReader(screenDb);
  const past: StartedIntake[] = [];
  let port: string | undefined;
  const inst: Installation = {
    kind: sqlitePath ? 'sqlite' : 'postgres',
    dataDir,
    screenDb,
    sqlitePath,
    reader,
    prefix,
    token,
    callbackSecret,
    env,
    proc: undefined,
    client: undefined,
    async start(extraEnv = {}, wrapper = []) {
      await inst.client?.close();
      const proc = await startIntakeProcess({ ...env, ...extraEnv, ...(port ? { INTAKE_PORT: port } : {}) }, { cwd, wrapper });
      port = String(proc.port);
      past.push(proc);
      inst.proc = proc;
      // Without INTAKE_TOKEN the process generates one in its data dir.
      if (env.INTAKE_TOKEN === undefined) inst.token = readFileSync(join(dataDir, 'intake-token'), 'utf8').trim();
      inst.client = new IntakeClient(proc.url, inst.token);
      return { proc, client: inst.client };
    },
    logs: () => past.map((p) => p.stdout() + p.stderr()).join('\n'),
    async close() {
      await inst.client?.close();
      for (const p of past) await p.stop();
      await reader.close();
      await rec.cleanup();
    },
  };
  return inst;
}
