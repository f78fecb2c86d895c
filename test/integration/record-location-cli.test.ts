/**
 * Where the record is (SCREEN_DB) and where the worker's own files are (SCREEN_DATA_DIR), as the
 * real command line (dist/worker/cli.js) takes them. A PostgreSQL record that cannot be opened
 * (here: a database that does not exist) stops every command that opens it in one line naming it
 * without the URL's password (exit 2), before anything is started for it; backup and restore
 * point to pg_dump / pg_restore and the data dir's files. (A PostgreSQL record that opens:
 * pg-start.test.ts.) On SQLite, backup and restore carry the token and secret files from and to
 * SCREEN_DATA_DIR when it is not the database's directory.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../worker/store/index.js';
import { PG_ADMIN_URL } from '../helpers/pg-db.js';
import { ensureBuilt, mkdirTemp, spawnCli } from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';

const PASSWORD = 's3cret-pw';
const URL_WITH_PASSWORD = `postgres://cs:${PASSWORD}@127.0.0.1:5432/carrier_screen`;
/** The test server, as the postgres role with a password (trust ignores it), and a database nobody made. */
const MISSING = new URL(PG_ADMIN_URL);
MISSING.password = PASSWORD;
MISSING.pathname = `/cs_missing_${process.pid}`;
const MISSING_SHOWN = MISSING.toString().replace(`:${PASSWORD}@`, ':***@');
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdirTemp('cs-record-');
}, 180_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Run a command to its end; its exit code and output. */
async function run(args: string[], env: Record<string, string | undefined>) {
  const p = spawnCli(args, { env: { REDIS_URL: inject('redisUrl'), SCREEN_REDIS_PREFIX: uniquePrefix(), ...env } });
  const timer = setTimeout(() => void p.kill(), 60_000);
  const exit = await p.exited;
  clearTimeout(timer);
  return { code: exit.code, out: p.stdout(), err: p.stderr() };
}

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('SCREEN_DB=postgres://… that cannot be opened, backup and restore', () => {
  const dataDir = (): string => join(dir, 'pg-data');

  it('backup refuses, pointing to pg_dump and the token and secret files of SCREEN_DATA_DIR; nothing is written', async () => {
    const file = join(dir, 'pg-backup.dump');
    const r = await run(['backup', file], { SCREEN_DB: URL_WITH_PASSWORD, SCREEN_DATA_DIR: dataDir() });
    expect(r.code).toBe(2);
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^carrier-screen backup: SCREEN_DB is a PostgreSQL URL \(postgres:\/\/cs:\*\*\*@127\.0\.0\.1:5432\/carrier_screen\)/,
    );
    expect(lines[0]).toContain('pg_dump');
    expect(lines[0]).toContain(`SCREEN_DATA_DIR (${dataDir()}): intake-token and callback-secret`);
    expect(r.err + r.out).not.toContain(PASSWORD);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(dataDir())).toBe(false);
  });

  it('restore refuses, pointing to pg_restore and where the token and secret files go back; nothing is touched', async () => {
    const file = join(dir, 'pg-restore.dump');
    writeFileSync(file, 'not looked at');
    const r = await run(['restore', file], { SCREEN_DB: URL_WITH_PASSWORD, SCREEN_DATA_DIR: dataDir() });
    expect(r.code).toBe(2);
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^carrier-screen restore: SCREEN_DB is a PostgreSQL URL \(postgres:\/\/cs:\*\*\*@/);
    expect(lines[0]).toContain('pg_restore');
    expect(lines[0]).toContain(`SCREEN_DATA_DIR (${dataDir()}): intake-token and callback-secret`);
    expect(r.err + r.out).not.toContain(PASSWORD);
    expect(existsSync(dataDir())).toBe(false);
  });

  it.each([[['token', 'list']], [['token', 'create', '--role', 'tms']], [['worker']], [['start']], [['screen', '--dot', '1000001']]])(
    '%j on a database that does not exist refuses in one line naming it, before starting anything for it',
    async (args) => {
      const r = await run(args, { SCREEN_DB: MISSING.toString(), SCREEN_DATA_DIR: dataDir(), INTAKE_PORT: '0', SVC_API_KEY: undefined });
      expect(r.code).toBe(2);
      expect(
        r.err
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('carrier-screen: ')),
      ).toEqual([
        `carrier-screen: PostgreSQL record ${MISSING_SHOWN}: the database does not exist (create it, UTF8, and give its name in the URL) (3D000)`,
      ]);
      expect(r.err + r.out).not.toContain(PASSWORD);
      expect(r.out).not.toContain('carrier-screen is running');
      expect(r.err).not.toContain('emulator');
      // No token, secret or Redis directory made for a record that is not opened.
      expect(existsSync(dataDir())).toBe(false);
    },
  );

  it('a SCREEN_DATA_DIR that is a URL is refused naming it, without its password', async () => {
    const r = await run(['token', 'list'], { SCREEN_DB: join(dir, 'none.db'), SCREEN_DATA_DIR: URL_WITH_PASSWORD });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^carrier-screen: SCREEN_DATA_DIR: is a postgres: URL/);
    expect(r.err).not.toContain(PASSWORD);
  });
});

describe('a SCREEN_DATA_DIR the process cannot make', () => {
  // Root may write anywhere: a directory under a regular file cannot be made by anyone (ENOTDIR).
  it('start stops in one line naming SCREEN_DATA_DIR (exit 2: a restart cannot fix it), before anything is started', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const r = await run(['start'], { SCREEN_DB: join(dir, 'dd', 'screen.db'), SCREEN_DATA_DIR: join(file, 'data'), INTAKE_PORT: '0' });
    expect(r.code).toBe(2);
    const said = r.err.split('\n').filter((l) => l.startsWith('carrier-screen: '));
    expect(said).toEqual([
      `carrier-screen: SCREEN_DATA_DIR: ${join(file, 'data')} cannot be made or written by this user (ENOTDIR): give SCREEN_DATA_DIR a directory it owns, e.g. /var/lib/carrier-screen`,
    ]);
    expect(r.out).not.toMatch(/redis-server|emulator/);
  });
});

describe('SQLite with SCREEN_DATA_DIR elsewhere', () => {
  it('token list names the admin token file in SCREEN_DATA_DIR', async () => {
    const db = join(dir, 'tokens', 'screen.db');
    mkdirSync(join(dir, 'tokens'));
    openStore(db).close();
    const files = join(dir, 'tokens-files');
    const r = await run(['token', 'list'], { SCREEN_DB: db, SCREEN_DATA_DIR: files });
    expect(r).toMatchObject({ code: 0, out: `no scoped tokens (the admin token is in ${join(files, 'intake-token')})\n` });
  });

  it('backup copies the token and secret from SCREEN_DATA_DIR; restore puts them back into its SCREEN_DATA_DIR, not beside the database', async () => {
    const oldDb = join(dir, 'old', 'screen.db');
    const oldFiles = join(dir, 'old-files');
    mkdirSync(join(dir, 'old'));
    mkdirSync(oldFiles, { mode: 0o700 });
    openStore(oldDb).close();
    writeFileSync(join(oldFiles, 'intake-token'), 'old-intake-token\n', { mode: 0o600 });
    writeFileSync(join(oldFiles, 'callback-secret'), 'old-callback-secret\n', { mode: 0o600 });
    const backup = join(dir, 'b.db');
    const b = await run(['backup', backup], { SCREEN_DB: oldDb, SCREEN_DATA_DIR: oldFiles });
    expect(b.err).toBe('');
    expect(b.code).toBe(0);
    expect(b.out).toContain(`copied ${join(oldFiles, 'intake-token')} to ${backup}.intake-token (mode 0600)`);
    expect(readFileSync(`${backup}.callback-secret`, 'utf8')).toBe('old-callback-secret\n');

    const newDb = join(dir, 'new', 'screen.db');
    const newFiles = join(dir, 'new-files');
    const r = await run(['restore', backup], { SCREEN_DB: newDb, SCREEN_DATA_DIR: newFiles });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(newDb)).toBe(true);
    expect(readFileSync(join(newFiles, 'intake-token'), 'utf8')).toBe('old-intake-token\n');
    expect(readFileSync(join(newFiles, 'callback-secret'), 'utf8')).toBe('old-callback-secret\n');
    expect([mode(newFiles), mode(join(newFiles, 'intake-token'))]).toEqual([0o700, 0o600]);
    expect(readdirSync(join(dir, 'new'))).toEqual(['screen.db']);
  });
});
