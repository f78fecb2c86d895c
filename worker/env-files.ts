import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../shared/config.js';

/**
 * Where every command finds its settings and its database, whatever the current directory
 * (docs/operations.md, "Paths"). Precedence, first wins:
 *   1. the process environment (systemd's EnvironmentFile= lands here);
 *   2. /etc/carrier-screen/env (SCREEN_ENV_FILE overrides the path, and must exist then), the
 *      service's own file, so an operator's shell reads what systemd reads;
 *   3. `.env` in the working directory (a developer's checkout).
 */
export const SYSTEM_ENV_FILE = '/etc/carrier-screen/env';

/** A setting file that exists but cannot be read: stop rather than run on other settings. */
export class EnvFileError extends Error {
  override readonly name = 'EnvFileError';
}

/** The database a command other than `start` needs is not there: it must not make a new one. */
export class DatabaseMissingError extends Error {
  override readonly name = 'DatabaseMissingError';
}

/** Load the env files in precedence order; the files read. */
export function loadEnvFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const read: string[] = [];
  // A file named on purpose that is not there: stop, rather than run on other settings unnoticed.
  const named = env.SCREEN_ENV_FILE?.trim();
  if (named && !existsSync(named)) throw new EnvFileError(`SCREEN_ENV_FILE=${named}: no such file (unset it to read ${SYSTEM_ENV_FILE})`);
  // process.loadEnvFile never replaces a variable already set: load the stronger file first.
  for (const path of [env.SCREEN_ENV_FILE?.trim() || SYSTEM_ENV_FILE, '.env']) {
    if (!existsSync(path)) continue;
    try {
      process.loadEnvFile(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      throw new EnvFileError(
        `cannot read ${resolve(path)} (${code}): run the command as the service's user (sudo -u carrier-screen …) so it reads the service's settings`,
      );
    }
    read.push(resolve(path));
  }
  return read;
}

/**
 * Stop with a clear message when the database is not there: every command but `start` (and
 * `restore`, which puts one there) works on an existing install. A relative SCREEN_DB (or the
 * default ./data) run from another directory would otherwise make a new, empty one. A
 * PostgreSQL record is not a file to look for: opening it says whether it is there.
 */
export function requireDatabase(config: Config, env: NodeJS.ProcessEnv = process.env): void {
  if (config.db.kind !== 'sqlite') return;
  const path = resolve(config.db.path);
  if (existsSync(path)) return;
  const given = env.SCREEN_DB?.trim();
  const why = given
    ? `SCREEN_DB=${given}${given.startsWith('/') ? '' : `, relative to the current directory ${process.cwd()}`}`
    : `SCREEN_DB is not set: the default ./data/carrier-screen.db under the current directory ${process.cwd()}`;
  throw new DatabaseMissingError(
    `no database at ${path} (${why}). Set SCREEN_DB to the service's database (an absolute path, in ${SYSTEM_ENV_FILE} or .env), ` +
      'or run `npx carrier-screen start` to create a new one',
  );
}
