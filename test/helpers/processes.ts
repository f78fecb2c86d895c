import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

/**
 * Real carrier-screen processes for the fault suite: `node dist/worker/cli.js start|worker`
 * with a clean environment, their stdout and stderr kept whole, killed however the test
 * likes (SIGKILL mid-write included), and never left behind when the test process ends.
 */

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(REPO_ROOT, 'dist', 'worker', 'cli.js');
const SOURCE_DIRS = ['shared', 'clients', 'worker', 'emulator'];

// ---------- build once ----------

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(p));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** True when dist/ is missing or older than a source file it is built from. */
export function distIsStale(): boolean {
  if (!existsSync(CLI)) return true;
  const built = statSync(CLI).mtimeMs;
  return SOURCE_DIRS.some((d) => newestSourceMtime(join(REPO_ROOT, d)) > built);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Build dist/ when it is stale (`tsc -p tsconfig.build.json`, what `npm run build` runs).
 * Test files run in parallel processes: a lock directory makes one of them build and the
 * others wait for it.
 */
export async function ensureBuilt(): Promise<void> {
  if (!distIsStale()) return;
  const lock = join(tmpdir(), `carrier-screen-build-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}.lock`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Someone else builds; a lock older than 3 minutes belongs to a dead build.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        /* gone meanwhile */
      }
      if (Date.now() > deadline) throw new Error(`ensureBuilt: waited 3 minutes for the build lock ${lock}`);
      await sleep(250);
    }
  }
  try {
    if (!distIsStale()) return;
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 170_000 });
    if (r.status !== 0) throw new Error(`the build failed (tsc -p tsconfig.build.json):\n${r.stdout}${r.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

// ---------- processes ----------

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningProcess {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything the process wrote so far. */
  stdout(): string;
  stderr(): string;
  alive(): boolean;
  readonly exited: Promise<Exit>;
  /** Resolves with the output once `re` matches stdout or stderr; rejects if the process exits first or after `ms`. */
  waitForOutput(re: RegExp, ms?: number): Promise<string>;
  /** Send `signal` (default SIGKILL) and wait for the exit. */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs?: number): Promise<Exit>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A test that throws before its cleanup must not leave workers running.
  process.once('exit', () => {
    for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
}

/** The environment a child gets: a few basics, never the developer's SVC_API_KEY or REDIS_URL. */
export function baseEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) if (process.env[k] !== undefined) env[k] = process.env[k];
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export interface SpawnOptions {
  name?: string;
  env?: Record<string, string | undefined>;
  /** Working directory (default: a fresh temp dir, so no developer `.env` is read). */
  cwd?: string;
  /** Run the command under these words (e.g. ['prlimit', '--fsize=…']). */
  wrapper?: string[];
  /** Drop to this user and group (root only). */
  uid?: number;
  gid?: number;
}

/** `node dist/worker/cli.js <args>` as a child process. */
export function spawnCli(args: string[], o: SpawnOptions = {}): RunningProcess {
  installExitHook();
  const ownCwd = o.cwd === undefined;
  const cwd = o.cwd ?? mkdirTemp('cs-proc-');
  const argv = [...(o.wrapper ?? []), process.execPath, CLI, ...args];
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd,
    env: baseEnv(o.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(o.uid === undefined ? {} : { uid: o.uid }),
    ...(o.gid === undefined ? {} : { gid: o.gid }),
  });
  running.add(child);
  let out = '';
  let err = '';
  const watchers = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of watchers) w();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    for (const w of watchers) w();
  });
  const exited = new Promise<Exit>((resolveExit) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (ownCwd) rmSync(cwd, { recursive: true, force: true });
      // Let the last buffered output arrive before anyone reads it.
      setImmediate(() => {
        for (const w of watchers) w();
        resolveExit({ code, signal });
      });
    });
    child.once('error', () => {
      running.delete(child);
      resolveExit({ code: null, signal: null });
    });
  });
  const name = o.name ?? args[0] ?? 'cli';
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;

  const proc: RunningProcess = {
    name,
    pid: child.pid ?? -1,
    child,
    stdout: () => out,
    stderr: () => err,
    alive,
    exited,
    waitForOutput(re, ms = 30_000) {
      return new Promise<string>((resolveWait, reject) => {
        let done = false;
        const finish = (f: () => void): void => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          watchers.delete(check);
          f();
        };
        const check = (): void => {
          if (re.test(out) || re.test(err)) finish(() => resolveWait(out + err));
          else if (!alive())
            finish(() =>
              reject(new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before printing ${re}:\n${tail(err || out)}`)),
            );
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`${name} did not print ${re} within ${ms} ms:\n${tail(err || out)}`))),
          ms,
        );
        watchers.add(check);
        check();
      });
    },
    async kill(signal = 'SIGKILL') {
      if (alive()) child.kill(signal);
      return exited;
    },
    async stop(graceMs = 15_000) {
      if (!alive()) return exited;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const e = await exited;
      clearTimeout(t);
      return e;
    },
  };
  return proc;
}

function tail(s: string, n = 3000): string {
  return s.length > n ? `…${s.slice(-n)}` : s;
}

export function mkdirTemp(prefix: string): string {
  const dir = join(tmpdir(), `${prefix}${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** What a worker process needs to know; the rest comes from shared/config.ts defaults. */
export interface WorkerEnv {
  SVC_API_KEY: string;
  SVC_BASE_URL: string;
  REDIS_URL: string;
  SCREEN_DB: string;
  SCREEN_REDIS_PREFIX: string;
  INTAKE_TOKEN?: string;
  CALLBACK_SECRET?: string;
  INTAKE_HOST?: string;
  INTAKE_PORT?: string;
  SCREEN_CONCURRENCY?: string;
  SCREEN_RATE_WINDOW?: string;
  LOG_LEVEL?: string;
  [k: string]: string | undefined;
}

export interface StartedIntake extends RunningProcess {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  port: number;
}

/**
 * `carrier-screen start` (queue worker + intake API) on a free port. Resolves once the
 * intake answers; rejects with the process's stderr if it exits or never gets there.
 */
export async function startIntakeProcess(env: WorkerEnv, o: Omit<SpawnOptions, 'env'> & { readyMs?: number } = {}): Promise<StartedIntake> {
  const port = env.INTAKE_PORT ? Number(env.INTAKE_PORT) : await freePort();
  const p = spawnCli(['start'], { name: 'start', ...o, env: { LOG_LEVEL: 'info', ...env, INTAKE_PORT: String(port) } });
  try {
    await p.waitForOutput(/carrier-screen is running/, o.readyMs ?? 30_000);
  } catch (e) {
    await p.kill();
    throw e;
  }
  return Object.assign(p, { url: `http://127.0.0.1:${port}`, port });
}

/** `carrier-screen worker` (queue worker only). Resolves once it says it runs. */
export async function startWorkerProcess(
  env: WorkerEnv,
  o: Omit<SpawnOptions, 'env'> & { readyMs?: number } = {},
): Promise<RunningProcess> {
  const p = spawnCli(['worker'], { name: 'worker', ...o, env: { LOG_LEVEL: 'info', ...env } });
  try {
    await p.waitForOutput(/screening worker running/, o.readyMs ?? 30_000);
  } catch (e) {
    await p.kill();
    throw e;
  }
  return p;
}

/** Poll `f` until it returns a value other than undefined/false, or throw `what` after `ms`. */
export async function until<T>(
  what: string,
  ms: number,
  f: () => T | undefined | false | Promise<T | undefined | false>,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
