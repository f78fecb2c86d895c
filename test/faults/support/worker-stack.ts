import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { uniquePrefix } from '../../helpers/redis-prefix.js';
import { mkdirTemp, startIntakeProcess, type StartedIntake, type WorkerEnv } from '../../helpers/processes.js';
import { IntakeClient } from './intake-client.js';

/**
 * One carrier-screen installation for a fault scenario: a data dir, a Redis prefix, an intake
 * token and callback secret, and the `start` process (worker + intake) that can be killed and
 * started again on the same files.
 */

export interface Installation {
  dataDir: string;
  dbPath: string;
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
  /** Stop the process (SIGTERM) and remove the data dir. */
  close(): Promise<void>;
}

export function installation(o: {
  svcBaseUrl: string;
  svcKey: string;
  redisUrl: string;
  env?: Record<string, string | undefined>;
}): Installation {
  const dataDir = mkdirTemp('cs-fault-');
  const dbPath = join(dataDir, 'carrier-screen.db');
  const prefix = uniquePrefix('fault');
  const token = `tok-${randomBytes(18).toString('base64url')}`;
  const callbackSecret = randomBytes(24).toString('base64url');
  const env: WorkerEnv = {
    SVC_API_KEY: o.svcKey,
    SVC_BASE_URL: o.svcBaseUrl,
    REDIS_URL: o.redisUrl,
    SCREEN_DB: dbPath,
    SCREEN_REDIS_PREFIX: prefix,
    INTAKE_TOKEN: token,
    CALLBACK_SECRET: callbackSecret,
    LOG_LEVEL: 'info',
    // The scenarios send thousands of requests a minute with one token: no per-token limit.
    INTAKE_RATE_LIMIT: '0',
    ...o.env,
  };
  const past: StartedIntake[] = [];
  let port: string | undefined;
  const inst: Installation = {
    dataDir,
    dbPath,
    prefix,
    token,
    callbackSecret,
    env,
    proc: undefined,
    client: undefined,
    async start(extraEnv = {}, wrapper = []) {
      await inst.client?.close();
      const proc = await startIntakeProcess({ ...env, ...extraEnv, ...(port ? { INTAKE_PORT: port } : {}) }, { cwd: dataDir, wrapper });
      port = String(proc.port);
      past.push(proc);
      inst.proc = proc;
      // Without INTAKE_TOKEN the process generates one beside the database.
      if (env.INTAKE_TOKEN === undefined) inst.token = readFileSync(join(dataDir, 'intake-token'), 'utf8').trim();
      inst.client = new IntakeClient(proc.url, inst.token);
      return { proc, client: inst.client };
    },
    logs: () => past.map((p) => p.stdout() + p.stderr()).join('\n'),
    async close() {
      await inst.client?.close();
      for (const p of past) await p.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return inst;
}
