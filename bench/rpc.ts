/**
 * Calls into the bench's child processes over the Node IPC channel: the parent forks a module
 * and calls named handlers; the child serves them. One request, one answer, matched by id.
 */
import { fork, type ChildProcess } from 'node:child_process';

type Handler = (arg: never) => unknown;
interface Call {
  id: number;
  method: string;
  arg: unknown;
}
type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface ChildRpc {
  readonly pid: number;
  call<T>(method: string, arg?: unknown): Promise<T>;
  /** Ask the child to stop ("close" handler), then wait for it to exit; kill it if it will not. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Run from the sources (a test importing the bench), a child gets the test's TypeScript preload
 * (test/helpers/ts-threads.mjs: `./x.js` resolves to `./x.ts`); built, none.
 */
function sourceHooks(): string[] {
  if (!import.meta.url.endsWith('.ts')) return [];
  const out: string[] = [];
  process.execArgv.forEach((a, i) => {
    const next = process.execArgv[i + 1];
    if (a === '--import' && next?.includes('ts-threads')) out.push(a, next);
  });
  // stripTypeScriptTypes' ExperimentalWarning, once per child, says nothing here.
  return out.length > 0 ? [...out, '--disable-warning=ExperimentalWarning'] : out;
}

/** Fork `modulePath` (a compiled .js file) and talk to its serveRpc() handlers. */
export function forkRpc(modulePath: string, o: { env?: NodeJS.ProcessEnv; execArgv?: string[]; name: string }): ChildRpc {
  const child: ChildProcess = fork(modulePath, [], {
    env: o.env ?? process.env,
    // The sources' preload whatever else is asked (a worker's --cpu-prof), so a test can fork the worker too.
    execArgv: [...sourceHooks(), ...(o.execArgv ?? [])],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      for (const p of pending.values()) p.reject(new Error(`${o.name} exited (${signal ?? code})`));
      pending.clear();
      resolve();
    });
  });
  child.on('message', (m: Answer) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.value);
    else p.reject(new Error(`${o.name}: ${m.error}`));
  });
  if (child.pid === undefined) throw new Error(`could not start ${o.name}`);
  return {
    pid: child.pid,
    call<T>(method: string, arg?: unknown): Promise<T> {
      if (exited) return Promise.reject(new Error(`${o.name} has exited`));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, method, arg } satisfies Call);
      });
    },
    async stop(timeoutMs = 10_000): Promise<void> {
      if (exited) return;
      const id = nextId++;
      child.send({ id, method: 'close', arg: undefined } satisfies Call);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** In the child: answer calls with `handlers`; "close" runs its handler (if any), then exits. */
export function serveRpc(handlers: Record<string, Handler>): void {
  if (!process.send) throw new Error('serveRpc: this process was not started with an IPC channel');
  const send = (a: Answer): void => {
    process.send!(a);
  };
  process.on('message', (m: Call) => {
    void (async () => {
      try {
        const h = handlers[m.method];
        if (m.method === 'close') {
          await h?.(undefined as never);
          process.exit(0);
        }
        if (!h) throw new Error(`no handler "${m.method}"`);
        send({ id: m.id, ok: true, value: await h(m.arg as never) });
      } catch (e) {
        send({ id: m.id, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
    })();
  });
  // The parent died: do not linger.
  process.on('disconnect', () => process.exit(0));
}
