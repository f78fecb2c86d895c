import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The ids a log line should carry without every function passing them on: the intake's
 * request id, the screening a queue job works on. Set where the work begins (an intake
 * request, a job); every line logged inside it — by any module, through any await — gets them
 * through the logger's mixin (worker/log.ts). docs/operations.md "Logs".
 */
export interface LogContext {
  /** The intake request (X-Request-Id, or one the intake made). */
  request_id?: string;
  /** The screening a queue job works on. */
  screening?: string;
}

const store = new AsyncLocalStorage<LogContext>();

/** Run `fn` with these ids added to the ones already in force. */
export function withLogContext<T>(ids: LogContext, fn: () => T): T {
  const merged: LogContext = { ...store.getStore() };
  for (const [k, v] of Object.entries(ids) as Array<[keyof LogContext, string | undefined]>) if (v !== undefined) merged[k] = v;
  return store.run(merged, fn);
}

/** The ids in force here (for a job that carries the request id on). */
export function logContext(): LogContext {
  return store.getStore() ?? {};
}

/** pino's mixin: the ids in force, merged into every line (a line's own fields win). */
export function logMixin(): object {
  return store.getStore() ?? {};
}
