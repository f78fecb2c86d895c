import { ConfigError, recordWhere, type Config } from '../shared/config.js';
import { openStore, type OpenStoreOptions, type Store } from './store/index.js';

/**
 * Where every command opens the worker's record (SCREEN_DB): `start`, `worker`, `screen` and
 * `token`. The configuration takes a PostgreSQL URL, but the product does not open one yet
 * (docs/design/postgres.md, issue 34): wiring it in replaces these two functions, and nothing
 * else opens the record.
 */

/** The record's SQLite file; a PostgreSQL URL is refused, naming SCREEN_DB (before anything is started for it). */
export function recordFile(config: Pick<Config, 'db'>): string {
  if (config.db.kind === 'postgres')
    throw new ConfigError(
      `is a PostgreSQL URL (${recordWhere(config.db)}): this version opens its record only in a SQLite file; ` +
        'the PostgreSQL record is not wired in yet (docs/design/postgres.md): give the path of a SQLite file',
      'SCREEN_DB',
    );
  return config.db.path;
}

/** The worker's record, opened where SCREEN_DB says. */
export function openRecord(config: Pick<Config, 'db'>, opts: OpenStoreOptions = {}): Store {
  return openStore(recordFile(config), opts);
}
