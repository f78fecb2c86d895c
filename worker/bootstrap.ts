import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { newRedis, redisWhere, type RedisTarget } from './redis-connection.js';
import type { Logger } from 'pino';
import type { Config } from '../shared/config.js';
import { ensurePrivateDir } from './store/private-files.js';
import { DEMO_KEYS, startEmulator, type RunningEmulator } from '../emulator/index.js';

/**
 * What `start`, `worker` and `screen` need before the screening core can run (after the env
 * files, worker/env-files.ts): a /v1 service (the bundled sandbox emulator when no key is set) and a reachable
 * Redis (a private redis-server with persistence in the data dir when none is and
 * REDIS_URL was not given).
 */

export interface ServiceTarget {
  baseUrl: string;
  apiKey: string;
  emulator?: RunningEmulator;
}

export async function ensureService(config: Config, logger: Logger): Promise<ServiceTarget> {
  if (config.svcApiKey && config.svcBaseUrl) return { baseUrl: config.svcBaseUrl, apiKey: config.svcApiKey };
  const emulator = await startEmulator({ mode: 'sandbox', port: 0 });
  logger.info({ baseUrl: emulator.baseUrl }, 'SVC_API_KEY not set: using the bundled sandbox emulator');
  return { baseUrl: emulator.baseUrl, apiKey: DEMO_KEYS.sandbox, emulator };
}

async function redisAnswers(target: RedisTarget): Promise<boolean> {
  const probe = newRedis(target, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1_000 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

export class RedisMissingError extends Error {
  override readonly name = 'RedisMissingError';
  constructor(
    message: string,
    /** Redis may answer in a moment (e.g. still starting at boot): a service manager should try again. */
    readonly transient = false,
  ) {
    super(message);
  }
}

/**
 * Redis for the queue. Returns the URL to use and, when we started one, a stop function.
 * A REDIS_URL given by the operator is never replaced: if it does not answer, we say so.
 */
export async function ensureRedis(config: Config, logger: Logger): Promise<{ url: string; stop?: () => void }> {
  if (await redisAnswers(config)) return { url: config.redisUrl };
  if (config.redisSentinel)
    throw new RedisMissingError(`Redis does not answer through ${redisWhere(config)}: are the sentinels and a master up?`, true);
  if (config.redisUrlGiven) throw new RedisMissingError(`REDIS_URL does not answer: is Redis running there?`, true);
  const which = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const bin = which.stdout.trim();
  if (which.status !== 0 || bin === '')
    throw new RedisMissingError(
      'Redis is not running on 127.0.0.1:6379 and redis-server is not installed.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y redis-server\n' +
        '  macOS:         brew install redis\n' +
        '  or point REDIS_URL at a running Redis.',
    );
  const dir = resolve(config.dataDir, 'redis');
  ensurePrivateDir(dir);
  const port = Number(new URL(config.redisUrl).port || 6379);
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '60 1', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await redisAnswers({ redisUrl: url, redisSentinel: undefined })) {
      logger.info({ url, dir: join(dir) }, 'started a private redis-server (persistence in the data dir)');
      return { url, stop: () => child.kill('SIGTERM') };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new RedisMissingError(`started redis-server on port ${port} but it did not answer`, true);
}
