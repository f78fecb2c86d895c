/**
 * What every scenario shares: a temp dir, a private Redis, the load-generator process, and
 * worker processes started against a given /v1 emulator. close() stops all of it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_KEYS } from '../emulator/index.js';
import type { LoadJob, LoadResult } from './load-generator.js';
import { CpuMeter, peakRssMiB } from './proc-stats.js';
import { startRedis, type BenchRedis } from './redis-server.js';
import { forkRpc, type ChildRpc } from './rpc.js';

export interface BenchOptions {
  /** Seconds per throughput measurement. */
  durationS: number;
  /** Closed loops of the load generator (and tenders in flight in the economy run). */
  concurrency: number;
  /** Tenders in the economy stream. */
  stream: number;
  repeats: number;
  /** Carriers queued at once in the backlog drain. */
  drain: number;
  /** Samples per arm and repeat in the miss-path measurement. */
  missSamples: number;
  /** Write CPU profiles of the worker processes here (node --cpu-prof). */
  profileDir: string | undefined;
  quick: boolean;
}

export interface WorkerHandle {
  name: string;
  url: string;
  pid: number;
  /** Authorization and nothing else: what the TMS sends. */
  headers: Record<string, string>;
  call<T>(method: string, arg?: unknown): Promise<T>;
  /** Peak RSS in MiB so far (kept after stop()). */
  peakRssMiB(): number;
  stop(): Promise<void>;
}

export interface Measured {
  result: LoadResult;
  /** CPU share (1 = one core) of each process during the run, from /proc. */
  cpu: Record<string, number>;
}

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

export class Harness {
  readonly dir = mkdtempSync(join(tmpdir(), 'cs-bench-'));
  readonly workers: WorkerHandle[] = [];
  #redis: BenchRedis | undefined;
  #loadgen: ChildRpc | undefined;

  constructor(
    readonly opts: BenchOptions,
    readonly log: (line: string) => void,
  ) {}

  /** `redis: false`: the load generator only (the PostgreSQL scenario needs no Redis). */
  async start(o: { redis?: boolean } = {}): Promise<void> {
    if (o.redis !== false) this.#redis = await startRedis();
    this.#loadgen = forkRpc(here('./loadgen-process.js'), { name: 'load generator' });
  }

  get redis(): BenchRedis {
    if (!this.#redis) throw new Error('harness not started');
    return this.#redis;
  }

  get loadgenPid(): number {
    if (!this.#loadgen) throw new Error('harness not started');
    return this.#loadgen.pid;
  }

  /** Run a load job in the load-generator process, metering the CPU of `pids` meanwhile. */
  async load(job: LoadJob, pids: Record<string, number> = {}): Promise<Measured> {
    if (!this.#loadgen) throw new Error('harness not started');
    const redis: Record<string, number> = this.#redis ? { redis: this.#redis.pid } : {};
    const meter = new CpuMeter({ ...pids, loadgen: this.#loadgen.pid, ...redis, bench: process.pid }).start();
    const result = await this.#loadgen.call<LoadResult>('run', job);
    return { result, cpu: meter.stop() };
  }

  /** A worker process (core + intake) against the live emulator at `svcBaseUrl`, with its own DB and key prefix. */
  /** `script`: another build's worker-process.js (the year-three A/B, `--ab`); default this build's. */
  async startWorker(
    name: string,
    svcBaseUrl: string,
    env: Record<string, string> = {},
    script = here('./worker-process.js'),
  ): Promise<WorkerHandle> {
    const token = randomBytes(24).toString('base64url');
    const child = forkRpc(script, {
      name: `worker "${name}"`,
      execArgv: this.opts.profileDir
        ? ['--cpu-prof', `--cpu-prof-dir=${this.opts.profileDir}`, `--cpu-prof-name=worker-${name}.cpuprofile`]
        : [],
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        REDIS_URL: this.redis.url,
        SCREEN_DB: join(this.dir, `${name}.db`),
        SCREEN_REDIS_PREFIX: `bench-${name}-${randomBytes(4).toString('hex')}`,
        SCREEN_RATE_WINDOW: '1s',
        INTAKE_TOKEN: token,
        CALLBACK_SECRET: randomBytes(24).toString('base64url'),
        SVC_API_KEY: DEMO_KEYS.live,
        SVC_BASE_URL: svcBaseUrl,
        BENCH_LOG_FILE: join(this.dir, `${name}.log`),
        // LOG_LEVEL=warn npm run bench shows what logging costs; the default is the product's (info).
        ...(process.env.LOG_LEVEL ? { LOG_LEVEL: process.env.LOG_LEVEL } : {}),
        ...env,
      },
    });
    let url: string;
    try {
      url = await child.call<string>('url');
    } catch (e) {
      await child.stop();
      throw e;
    }
    let peak = Number.NaN;
    let stopped = false;
    const handle: WorkerHandle = {
      name,
      url,
      pid: child.pid,
      headers: { authorization: `Bearer ${token}` },
      call: (method, arg) => child.call(method, arg),
      peakRssMiB: () => (stopped ? peak : peakRssMiB(child.pid)),
      async stop() {
        if (stopped) return;
        peak = peakRssMiB(child.pid);
        stopped = true;
        await child.stop();
      },
    };
    this.workers.push(handle);
    return handle;
  }

  async close(): Promise<void> {
    for (const w of this.workers) await w.stop().catch(() => {});
    await this.#loadgen?.stop().catch(() => {});
    await this.#redis?.stop().catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}
