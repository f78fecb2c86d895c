#!/usr/bin/env node
// First, for its side effect: a Node too old for the store's SQLite driver is refused before anything loads it.
import './runtime-check.js';
import { Command, InvalidArgumentError } from 'commander';
import type { Logger } from 'pino';
import { createLogger } from './log.js';
import { ConfigError, loadConfig, type Config } from '../shared/config.js';
import { InvalidIdentifierError, normalizeDot, normalizeMc } from '../shared/carrier-id.js';
import { ensureRedis, RedisMissingError } from './bootstrap.js';
import { loadEnvFiles, requireDatabase } from './env-files.js';
import { ensureDataDir } from './store/private-files.js';
import { BUILD_INFO } from './build-info.js';
import { KeyCheckError } from './svc/index.js';
import { UnavailableError } from './screener-types.js';

/**
 * carrier-screen: start (emulator when no key + worker + intake), worker, emulator, screen,
 * status, tray. Each command's body lives in its own module; this file only parses.
 */

/** stderr, JSON or one readable line per event on a terminal (worker/log.ts). */
function logger(defaultLevel = 'info'): Logger {
  return createLogger({ defaultLevel });
}

/** Print a clear message for the failures an operator can fix, and exit non-zero. */
function fail(e: unknown): never {
  // StoreError (read-only, full, corrupt database …) by name: importing it would load SQLite for every command.
  const storeError = e instanceof Error && e.name === 'StoreError';
  const tokenError = e instanceof Error && e.name === 'TokenArgumentError';
  const pathError = e instanceof Error && (e.name === 'DatabaseMissingError' || e.name === 'EnvFileError');
  if (
    e instanceof ConfigError ||
    e instanceof KeyCheckError ||
    e instanceof RedisMissingError ||
    e instanceof UnavailableError ||
    storeError ||
    tokenError ||
    pathError
  ) {
    process.stderr.write(`carrier-screen: ${e.message}\n`);
    // 2: fix something first (the unit does not restart on it); a Redis or a database server that
    // may come up in a moment is 1 (restarted).
    const transient =
      (e instanceof RedisMissingError && e.transient) || (storeError && (e as { code?: unknown }).code === 'db_unavailable');
    process.exit(transient ? 1 : 2);
  }
  process.stderr.write(`carrier-screen: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}

/** The settings every command reads (worker/env-files.ts); with `existingDb`, a missing database stops it. */
function settings(o: { existingDb: boolean }): Config {
  loadEnvFiles();
  const config = loadConfig();
  if (o.existingDb) requireDatabase(config);
  return config;
}

async function setup(log: Logger, o: { existingDb: boolean }): Promise<{ config: Config; cleanup: Array<() => unknown> }> {
  let config = settings(o);
  // A record this process cannot open is refused before a Redis or an emulator is started for it.
  const { checkRecordOpens } = await import('./open-record.js');
  await checkRecordOpens(config, { log, existing: o.existingDb });
  ensureDataDir(config.dataDir);
  const cleanup: Array<() => unknown> = [];
  const redis = await ensureRedis(config, log);
  if (redis.stop) cleanup.push(redis.stop);
  config = { ...config, redisUrl: redis.url };
  return { config, cleanup };
}

/**
 * Stop on SIGINT/SIGTERM within STOP_DEADLINE_MS whatever is in flight (a service manager kills
 * at 10 s or so). What is cut short stays unfinished in SQLite and its job's lock runs out in
 * Redis: the next start picks those screenings up (stalled jobs, the reconciler).
 */
const STOP_DEADLINE_MS = 8_000;

function onSignals(stop: () => Promise<void>, log: Logger): void {
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.on(sig, () => {
      if (stopping) process.exit(1);
      stopping = true;
      // Lifecycle lines at warn: an operator at LOG_LEVEL=warn still sees what ran, and when it stopped.
      log.warn({ signal: sig }, `${sig}: stopping`);
      setTimeout(() => {
        log.warn({ deadlineMs: STOP_DEADLINE_MS }, 'stopping took too long; exiting with work in flight (picked up at the next start)');
        process.exit(0);
      }, STOP_DEADLINE_MS).unref();
      void stop().finally(() => {
        log.warn('stopped');
        process.exit(0);
      });
    });
}

const program = new Command('carrier-screen')
  .description('Tender-time carrier screening for a TMS')
  .version(`carrier-screen ${BUILD_INFO.version} (Node ${BUILD_INFO.node})`, '-V, --version')
  .showHelpAfterError();

/** `start` and `worker` differ only in whether the intake API runs. */
async function serve(withIntake: boolean): Promise<void> {
  const log = logger();
  // Signals are handled from the first moment: a SIGTERM during start-up stops cleanly too.
  let stop: (() => Promise<void>) | undefined;
  let cleanup: Array<() => unknown> = [];
  onSignals(async () => {
    await stop?.();
    for (const c of cleanup) await c();
  }, log);
  // Refused before anything starts, in one line: plain HTTP on a wide address, an unreadable certificate.
  loadEnvFiles();
  const { intakeTransport } = await import('./intake/transport.js');
  const tls = withIntake ? intakeTransport(loadConfig()) : undefined;
  // Then first, so even a start refused below says what was running.
  // At warn, like every lifecycle line: LOG_LEVEL=warn still says which version runs.
  log.warn({ version: BUILD_INFO.version, node: BUILD_INFO.node }, `carrier-screen ${BUILD_INFO.version} starting`);
  // Only `start` may make a new database; a `worker` elsewhere would quietly work on an empty one.
  const ready = await setup(log, { existingDb: !withIntake });
  cleanup = ready.cleanup;
  const { runStart } = await import('./start.js');
  stop = await runStart(ready.config, log, { withIntake, ...(tls ? { tls } : {}) });
}

program
  .command('start')
  .description('the worker and the intake API (and the bundled emulator when SVC_API_KEY is unset)')
  .action(() => serve(true));

program
  .command('worker')
  .description('a queue worker only (no intake API); run as many as you like against one Redis')
  .action(() => serve(false));

program
  .command('emulator')
  .description('the reference /v1 server (prints its base URL and keys)')
  // Its options are parsed by runEmulatorCli (emulator/main.ts): pass them all through.
  .allowUnknownOption()
  .allowExcessArguments()
  .helpOption(false)
  .action(async (_opts, cmd: Command) => {
    const { runEmulatorCli } = await import('../emulator/main.js');
    try {
      await runEmulatorCli(cmd.args);
    } catch (e) {
      // commander already printed help or the usage error; it tells how to exit.
      const code = (e as { exitCode?: unknown }).exitCode;
      if (typeof code === 'number') process.exit(code);
      throw e;
    }
  });

const dot = (v: string): string => {
  try {
    return normalizeDot(v);
  } catch (e) {
    throw new InvalidArgumentError((e as InvalidIdentifierError).message);
  }
};
const mc = (v: string): string => {
  try {
    return normalizeMc(v);
  } catch (e) {
    throw new InvalidArgumentError((e as InvalidIdentifierError).message);
  }
};

program
  .command('screen')
  .description('screen one carrier, or a roster CSV in bulk at background priority')
  .option('--dot <number>', 'DOT number', dot)
  .option('--mc <number>', 'MC docket number (MC123, mc-123 …)', mc)
  .option('--file <roster.csv>', 'CSV with a dot_number or mc_number column (or one number per line)')
  .option('--tender <id>', 'tender id to record with the screening')
  .option('--refresh', 'skip the cache and ask /v1 now (spends quota on live)')
  .option('--json', 'print the screening(s) as JSON')
  .option(
    '--wait <seconds>',
    'how long to wait for an answer',
    (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0 || n > 600) throw new InvalidArgumentError('a number of seconds from 0 to 600');
      return n;
    },
    60,
  )
  .action(async (o: { dot?: string; mc?: string; file?: string; tender?: string; refresh?: boolean; json?: boolean; wait: number }) => {
    const given = [o.dot, o.mc, o.file].filter((x) => x !== undefined).length;
    if (given !== 1) program.error('screen: give exactly one of --dot, --mc or --file');
    // `screen` prints its result and progress; log lines only for problems, unless LOG_LEVEL says otherwise.
    const log = logger('warn');
    const { config, cleanup } = await setup(log, { existingDb: true });
    const { runScreen } = await import('./screen-cli.js');
    const code = await runScreen(config, log, o);
    for (const c of cleanup) await c();
    process.exit(code);
  });

program
  .command('status')
  .description('queue, quota and reviews of a running worker (from its /status)')
  .option('--url <url>', 'intake URL (default INTAKE_URL, else http(s)://INTAKE_HOST:INTAKE_PORT; a custom CA via NODE_EXTRA_CA_CERTS)')
  .option('--json', 'print the raw status JSON')
  .action(async (o: { url?: string; json?: boolean }) => {
    // The token file lives in the data dir, beside a SQLite database by default: without INTAKE_TOKEN, it must be where we look.
    const config = settings({ existingDb: false });
    if (config.intakeToken === undefined) requireDatabase(config);
    const { readIntakeToken } = await import('./start.js');
    const { runStatus } = await import('./status-cli.js');
    const { intakeScheme } = await import('./intake/transport.js');
    // A wide bind address is not a place to connect to: this host's loopback is.
    const host = config.intakeHost === '0.0.0.0' || config.intakeHost === '::' ? '127.0.0.1' : config.intakeHost;
    const url =
      o.url ?? process.env.INTAKE_URL ?? `${intakeScheme(config)}://${host.includes(':') ? `[${host}]` : host}:${config.intakePort}`;
    process.exit(await runStatus({ url, token: readIntakeToken(config), json: o.json ?? false }));
  });

program
  .command('backup')
  .description(
    'a consistent copy of the SQLite database while workers run (VACUUM INTO), integrity-checked, with the token and secret files',
  )
  .argument('<file>', 'where to write the copy')
  .option('--force', 'replace the file if it exists')
  .action(async (file: string, o: { force?: boolean }) => {
    const config = settings({ existingDb: true });
    const { runBackup } = await import('./backup-cli.js');
    try {
      process.exit(await runBackup(config, file, o));
    } catch (e) {
      process.stderr.write(`carrier-screen backup: ${(e as Error).message}\n`);
      process.exit(2);
    }
  });

program
  .command('restore')
  .description('put a backup (and the token and secret files beside it) back at SCREEN_DB; refuses while a worker runs')
  .argument('<file>', 'the backup to restore')
  .action(async (file: string) => {
    // Restore may make the database (a new host): it is the one command besides start that may.
    const config = settings({ existingDb: false });
    const { runRestore } = await import('./restore-cli.js');
    try {
      process.exit(runRestore(config, file));
    } catch (e) {
      process.stderr.write(`carrier-screen restore: ${(e as Error).message}\n`);
      process.exit(2);
    }
  });

const token = program
  .command('token')
  .description(
    'scoped intake tokens: metrics (scrape /metrics only), tms (screen, read, watch list), desk (also decide), admin (also pause/resume)',
  );
token
  .command('create')
  .description('a new token, printed once (only its hash is kept)')
  .requiredOption('--role <role>', 'metrics (GET /metrics only), tms, desk or admin')
  .option('--name <name>', "who uses it: the default `by` of what it decides (e.g. the dispatcher's name)")
  .action(async (o: { role: string; name?: string }) => {
    const config = settings({ existingDb: true });
    const { runTokenCreate } = await import('./tokens/token-cli.js');
    process.exit(await runTokenCreate(config, o));
  });
token
  .command('list')
  .description('every token: id, role, prefix, state, last use, name (never the token)')
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const config = settings({ existingDb: true });
    const { runTokenList } = await import('./tokens/token-cli.js');
    process.exit(await runTokenList(config, o));
  });
token
  .command('revoke')
  .description('revoke a token by its id or prefix: it is refused from the next request on')
  .argument('<id>', 'the token id (tok_…) or its prefix (cs_desk_…)')
  .action(async (id: string) => {
    const config = settings({ existingDb: true });
    const { runTokenRevoke } = await import('./tokens/token-cli.js');
    process.exit(await runTokenRevoke(config, id));
  });

program
  .command('tray')
  .description('the desktop tray app (needs the Electron binary); INTAKE_URL / INTAKE_TOKEN override its saved settings')
  .option('--open <view>', 'open the dashboard at start: desk, queue, quota, changes, decisions or settings')
  .action(async (o: { open?: string }) => {
    const { runTray } = await import('./tray-launcher.js');
    process.exit(await runTray({ args: o.open ? [`--open=${o.open}`] : [] }));
  });

program.parseAsync(process.argv).catch(fail);
process.on('unhandledRejection', fail);
