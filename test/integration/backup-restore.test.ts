/**
 * `carrier-screen backup` and `restore` as real processes (dist/worker/cli.js), on a database of
 * over 300 MB while a real `start` process writes ~20 screenings a second; the restored service
 * on another data directory accepts the old tokens and signs callbacks with the old secret.
 * Also: commands run from another directory find the install through the env file, and stop
 * (exit 2, naming the path) rather than make a new empty database.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_KEYS, type RunningEmulator } from '../../emulator/index.js';
import { connectionOf, openStore } from '../../worker/store/sqlite-store.js';
import { startCallbackReceiver } from '../faults/support/callback-receiver.js';
import { withEmulator } from '../helpers/emulator.js';
import { ensureBuilt, mkdirTemp, spawnCli, startIntakeProcess, until, type StartedIntake, type WorkerEnv } from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';

const MB = 1024 * 1024;
let emu: RunningEmulator;
let dir: string;
const cleanup: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  await ensureBuilt();
  emu = await withEmulator({ mode: 'sandbox' });
  dir = mkdirTemp('cs-backup-');
}, 180_000);

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Run a command to its end (from a fresh temp directory unless `cwd`); its exit code and output. */
async function run(args: string[], env: Record<string, string | undefined>, o: { cwd?: string; wrapper?: string[] } = {}) {
  const p = spawnCli(args, { env, ...o });
  const timer = setTimeout(() => void p.kill(), 180_000);
  const exit = await p.exited;
  clearTimeout(timer);
  return { code: exit.code, out: p.stdout(), err: p.stderr() };
}

/** A store with `mb` MB of ballast rows beside the real schema, written in large transactions. */
function bigDatabase(path: string, mb: number): void {
  const store = openStore(path);
  const db = connectionOf(store);
  db.exec('CREATE TABLE ballast (b BLOB NOT NULL)');
  const put = db.prepare('INSERT INTO ballast (b) VALUES (randomblob(?))');
  for (let done = 0; done < mb; done += 50)
    db.transaction(() => {
      for (let i = done; i < Math.min(mb, done + 50); i++) put.run(MB);
    })();
  store.close();
}

function call(svc: StartedIntake, token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  return request(`${svc.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.statusCode, json: (await r.body.json()) as any }));
}

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('backup under traffic, restore on another host', () => {
  it('a 300 MB backup finishes while ~20 writes a second flow; restore refuses while a worker runs and a newer schema; the restored service takes the old tokens and signs with the old secret', async () => {
    const dataDir = join(dir, 'data');
    const dbPath = join(dataDir, 'carrier-screen.db');
    bigDatabase(dbPath, 310);
    const env: WorkerEnv = {
      SVC_API_KEY: DEMO_KEYS.sandbox,
      SVC_BASE_URL: emu.baseUrl,
      REDIS_URL: inject('redisUrl'),
      SCREEN_DB: dbPath,
      SCREEN_REDIS_PREFIX: uniquePrefix('backup'),
      LOG_LEVEL: 'warn',
    };
    // No INTAKE_TOKEN / CALLBACK_SECRET: the service makes its files beside the database.
    const svc = await startIntakeProcess(env);
    cleanup.push(() => svc.stop());
    const admin = readFileSync(join(dataDir, 'intake-token'), 'utf8').trim();
    const secret = readFileSync(join(dataDir, 'callback-secret'), 'utf8');

    // The operator's shell elsewhere, with only the env file saying where the install is.
    const envFile = join(dir, 'env');
    writeFileSync(envFile, `SCREEN_DB=${dbPath}\nSCREEN_REDIS_PREFIX=${env.SCREEN_REDIS_PREFIX}\n`);
    const made = await run(['token', 'create', '--role', 'tms', '--name', 'TMS'], { SCREEN_ENV_FILE: envFile });
    expect(made.code, made.err).toBe(0);
    const tms = made.out.trim();
    expect((await call(svc, tms, 'GET', '/status')).status).toBe(200);

    // ~20 writes a second (a screening each, cache hits after the first), one after another.
    let stop = false;
    const statuses: Array<{ at: number; status: number }> = [];
    const traffic = (async () => {
      for (let i = 0; !stop; i++) {
        const t0 = Date.now();
        const r = await call(svc, admin, 'POST', '/screenings', { dot_number: '1000003', tender_id: `L-${i}` }).catch(() => ({
          status: 0,
        }));
        statuses.push({ at: Date.now(), status: r.status });
        await new Promise((res) => setTimeout(res, Math.max(0, 50 - (Date.now() - t0))));
      }
    })();
    await until('traffic to flow', 30_000, () => statuses.length >= 20 || undefined);

    const backups = join(dir, 'backups');
    mkdirSync(backups);
    const file = join(backups, 'carrier-screen.db');
    const began = Date.now();
    const backup = await run(['backup', file], { SCREEN_ENV_FILE: envFile });
    const ended = Date.now();
    stop = true;
    await traffic;
    const during = statuses.filter((s) => s.at >= began && s.at <= ended);
    const accepted = during.filter((s) => s.status === 200 || s.status === 202).length;
    console.info(
      `backup of ${(statSync(dbPath).size / MB).toFixed(0)} MB under traffic: ${((ended - began) / 1000).toFixed(1)} s, ` +
        `${accepted} writes accepted meanwhile (${(accepted / ((ended - began) / 1000)).toFixed(1)}/s); said: ${backup.out.trim().split('\n')[0]}`,
    );
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toMatch(/integrity ok/);
    expect(during.every((s) => s.status === 200 || s.status === 202)).toBe(true);
    expect(accepted).toBeGreaterThan(5); // writes really flowed while it copied
    expect(statSync(file).size).toBeGreaterThan(300 * MB);
    expect(readdirSync(backups).sort()).toEqual([
      'carrier-screen.db',
      'carrier-screen.db.callback-secret',
      'carrier-screen.db.intake-token',
    ]);
    expect(readFileSync(`${file}.intake-token`, 'utf8').trim()).toBe(admin);
    expect(readFileSync(`${file}.callback-secret`, 'utf8')).toBe(secret);
    expect([mode(`${file}.intake-token`), mode(`${file}.callback-secret`)]).toEqual([0o600, 0o600]);
    const screeningsAtBackup = count(file);
    expect(screeningsAtBackup).toBeGreaterThan(20);

    // Restore refuses while the service has the database open, and changes nothing.
    const busy = await run(['restore', file], env);
    expect([busy.code, busy.err]).toEqual([2, expect.stringMatching(/open in another process.*stop every one/)]);
    expect(readdirSync(dataDir).filter((n) => n.includes('replaced') || n.includes('restoring'))).toEqual([]);
    await svc.stop();

    // A backup from a newer carrier-screen is refused.
    const newer = join(dir, 'newer.db');
    copyFileSync(file, newer);
    const n = new Database(newer);
    n.pragma('user_version = 999');
    n.close();
    const refused = await run(['restore', newer], env);
    expect([refused.code, refused.err]).toEqual([2, expect.stringMatching(/schema version 999, newer than this program knows/)]);

    // Another host: an empty data directory.
    const host2 = join(dir, 'host2', 'data');
    const env2: WorkerEnv = { ...env, SCREEN_DB: join(host2, 'carrier-screen.db'), SCREEN_REDIS_PREFIX: uniquePrefix('restored') };
    const restored = await run(['restore', file], env2);
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toMatch(/restored .* integrity ok/);
    expect([mode(join(host2, 'intake-token')), mode(join(host2, 'callback-secret'))]).toEqual([0o600, 0o600]);
    const receiver = await startCallbackReceiver(secret);
    cleanup.push(() => receiver.close());
    const svc2 = await startIntakeProcess(env2);
    cleanup.push(() => svc2.stop());
    expect((await call(svc2, admin, 'GET', '/status')).status).toBe(200);
    expect((await call(svc2, tms, 'GET', '/status')).status).toBe(200);
    expect(count(env2.SCREEN_DB)).toBeGreaterThanOrEqual(screeningsAtBackup);
    const s = await call(svc2, tms, 'POST', '/screenings?wait=10', {
      dot_number: '1000003',
      tender_id: 'AFTER-RESTORE',
      callback_url: receiver.url,
    });
    expect(s.status).toBe(200);
    const got = await until('the callback', 30_000, () => receiver.deliveries.find((d) => d.body.includes(s.json.id)));
    expect(got.signatureOk).toBe(true); // signed with the secret from before the restore
  }, 300_000);

  it.runIf(spawnSync('prlimit', ['--version']).status === 0)(
    'a backup that fails midway (the file system refuses to grow the copy) leaves no file behind',
    async () => {
      const dataDir = join(dir, 'fail');
      const dbPath = join(dataDir, 'carrier-screen.db');
      bigDatabase(dbPath, 60);
      const out = join(dir, 'fail-backups');
      mkdirSync(out);
      const r = await run(['backup', join(out, 'b.db')], { SCREEN_DB: dbPath }, { wrapper: ['prlimit', `--fsize=${20 * MB}`] });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/VACUUM INTO .* failed/);
      expect(readdirSync(out)).toEqual([]);
      // A copy left by a backup that was killed (its process is gone) is swept by the next one.
      const gone = spawnSync('true').pid;
      writeFileSync(join(out, `b.db.partial-${gone}`), 'half a copy');
      const next = await run(['backup', join(out, 'b.db')], { SCREEN_DB: dbPath });
      expect(next.code, next.err).toBe(0);
      expect(next.out).toContain(`removed ${join(out, `b.db.partial-${gone}`)}, left by a backup that was killed`);
      expect(readdirSync(out)).toEqual(['b.db']);
    },
    120_000,
  );
});

describe('restore refuses what it cannot trust', () => {
  it('a damaged backup or a file that is not ours: exit 2, the database and its secret files untouched', async () => {
    const host = join(dir, 'refuse');
    const dbPath = join(host, 'carrier-screen.db');
    bigDatabase(dbPath, 1);
    writeFileSync(join(host, 'intake-token'), 'the-current-token', { mode: 0o600 });
    const before = readFileSync(dbPath);
    const damaged = join(dir, 'damaged.db');
    const bytes = Buffer.from(before);
    bytes.fill(0x5a, 4096 * 3, 4096 * 3 + 2048); // half a b-tree page of garbage
    writeFileSync(damaged, bytes);
    writeFileSync(`${damaged}.intake-token`, 'a-token-from-the-backup', { mode: 0o600 });
    const other = join(dir, 'other.db');
    const o = new Database(other);
    o.exec('CREATE TABLE notes (x)');
    o.close();
    for (const [file, said] of [
      [damaged, /failed its integrity check|not a readable SQLite database/],
      [other, /is not a carrier-screen database/],
      [join(dir, 'missing.db'), /no backup at/],
    ] as const) {
      const r = await run(['restore', file], { SCREEN_DB: dbPath });
      expect([r.code, r.err], file).toEqual([2, expect.stringMatching(said)]);
    }
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    expect(readFileSync(join(host, 'intake-token'), 'utf8')).toBe('the-current-token');
    expect(readdirSync(host).sort()).toEqual(['carrier-screen.db', 'intake-token']);
  }, 60_000);
});

describe('paths that cannot drift', () => {
  it('from another directory with no SCREEN_DB, token, backup, worker, screen and status stop with exit 2 naming the path and SCREEN_DB, and make nothing', async () => {
    const cwd = mkdirTemp('cs-elsewhere-');
    try {
      // An empty env file: this machine's /etc/carrier-screen/env must not point them anywhere.
      const noSettings = join(cwd, 'empty-env');
      writeFileSync(noSettings, '');
      for (const args of [
        ['token', 'create', '--role', 'tms'],
        ['token', 'list'],
        ['backup', join(cwd, 'b.db')],
        ['worker'],
        ['screen', '--dot', '1000003'],
        ['status'],
      ]) {
        const r = await run(args, { REDIS_URL: inject('redisUrl'), SCREEN_ENV_FILE: noSettings }, { cwd });
        expect([r.code, r.err], args.join(' ')).toEqual([
          2,
          expect.stringContaining(`no database at ${join(cwd, 'data', 'carrier-screen.db')} (SCREEN_DB is not set`),
        ]);
      }
      expect(existsSync(join(cwd, 'data'))).toBe(false);
      expect(existsSync(join(cwd, 'b.db'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);

  it('a SCREEN_ENV_FILE that is not there stops every command with one line and exit 2', async () => {
    const cwd = mkdirTemp('cs-noenv-');
    try {
      const missing = join(cwd, 'no-such-env');
      for (const args of [['token', 'list'], ['start'], ['worker'], ['status'], ['restore', join(cwd, 'b.db')]]) {
        const r = await run(args, { SCREEN_ENV_FILE: missing, SCREEN_DB: join(cwd, 'x.db') }, { cwd });
        expect([r.code, r.err], args.join(' ')).toEqual([
          2,
          `carrier-screen: SCREEN_ENV_FILE=${missing}: no such file (unset it to read /etc/carrier-screen/env)\n`,
        ]);
      }
      expect(readdirSync(cwd)).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);

  it('restore onto a new host makes the data directory 0700, as start does', async () => {
    const cwd = mkdirTemp('cs-restore-dir-');
    try {
      const src = join(cwd, 'src', 'carrier-screen.db');
      openStore(src).close();
      const backup = join(cwd, 'backup.db');
      expect((await run(['backup', backup], { SCREEN_DB: src })).code).toBe(0);
      const target = join(cwd, 'new-host', 'data', 'carrier-screen.db');
      const r = await run(['restore', backup], { SCREEN_DB: target });
      expect(r.code, r.err).toBe(0);
      expect(statSync(join(cwd, 'new-host', 'data')).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);

  it('the env file wins over .env, and the process environment over both', async () => {
    const cwd = mkdirTemp('cs-envs-');
    try {
      const a = join(cwd, 'a.db');
      const b = join(cwd, 'b.db');
      openStore(a).close();
      openStore(b).close();
      writeFileSync(join(cwd, '.env'), `SCREEN_DB=${join(cwd, 'dotenv.db')}\n`);
      writeFileSync(join(cwd, 'env'), `SCREEN_DB=${a}\n`);
      const fromFile = await run(
        ['token', 'create', '--role', 'tms', '--name', 'from-file'],
        { SCREEN_ENV_FILE: join(cwd, 'env') },
        { cwd },
      );
      expect(fromFile.code, fromFile.err).toBe(0);
      const fromEnv = await run(
        ['token', 'create', '--role', 'tms', '--name', 'from-env'],
        { SCREEN_ENV_FILE: join(cwd, 'env'), SCREEN_DB: b },
        { cwd },
      );
      expect(fromEnv.code, fromEnv.err).toBe(0);
      const names = (path: string) => {
        const d = new Database(path, { readonly: true });
        try {
          return (d.prepare('SELECT name FROM intake_tokens').all() as Array<{ name: string }>).map((r) => r.name);
        } finally {
          d.close();
        }
      };
      expect([names(a), names(b), existsSync(join(cwd, 'dotenv.db'))]).toEqual([['from-file'], ['from-env'], false]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});

function count(path: string): number {
  const d = new Database(path, { readonly: true });
  try {
    return (d.prepare('SELECT COUNT(*) AS n FROM screenings').get() as { n: number }).n;
  } finally {
    d.close();
  }
}
