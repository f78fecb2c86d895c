import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { logMixin } from './log-context.js';

/**
 * The command line's logger: always stderr (stdout stays for results, e.g. `screen --json`).
 * JSON lines when stderr is a pipe or a file (a service manager, a log shipper); one readable
 * line per event when it is a terminal (pino-pretty). Secrets are redacted either way.
 */

export const LOG_REDACT = ['apiKey', '*.apiKey', 'token', '*.token'];

export type LogFormat = 'json' | 'pretty';

/** JSON unless a person is watching: the choice, apart so it can be tested. */
export function logFormat(stderrIsTty: boolean, env: NodeJS.ProcessEnv = process.env): LogFormat {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT;
  return stderrIsTty ? 'pretty' : 'json';
}

export function createLogger(
  o: { defaultLevel?: string; env?: NodeJS.ProcessEnv; stderrIsTty?: boolean; destination?: DestinationStream } = {},
): Logger {
  const env = o.env ?? process.env;
  const format = logFormat(o.stderrIsTty ?? process.stderr.isTTY === true, env);
  const dest: DestinationStream =
    o.destination ??
    (format === 'pretty'
      ? pretty({ destination: 2, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true })
      : pino.destination(2));
  // mixin: the request and screening ids in force (worker/log-context.ts) on every line.
  return pino({ level: env.LOG_LEVEL ?? o.defaultLevel ?? 'info', redact: LOG_REDACT, mixin: logMixin }, dest);
}
