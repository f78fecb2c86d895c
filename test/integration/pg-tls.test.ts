/**
 * The record over TLS (docs/operations.md, "TLS to PostgreSQL"): `carrier-screen start` with
 * SCREEN_DB=postgres://…?sslmode=verify-full&sslrootcert=<CA> against a PostgreSQL server of the
 * test's own that takes logins over TLS only (test/helpers/pg-tls-server.ts, openssl test
 * certificates). Every connection the service holds is TLS; a server it cannot trust, or a URL
 * that would go on without TLS, is refused in one line that says what to fix.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.js';
import { keyOf, withEmulator } from '../helpers/emulator.js';
import { pgBinDir, startTlsPgServer, type TlsPgServer } from '../helpers/pg-tls-server.js';
import { ensureBuilt, mkdirTemp, spawnCli, startIntakeProcess, until, type StartedIntake, type WorkerEnv } from '../helpers/processes.js';
import { uniquePrefix } from '../helpers/redis-prefix.js';
import { startRedis, type OwnRedis } from '../helpers/redis-server.js';
import { makeTestCerts, type TestCerts } from '../helpers/test-ca.js';

const TOKEN = 'pg-tls-test-admin-token-0123456789abcdef';
const PASSWORD = `tls-pw-${process.pid}`;

// CI installs PostgreSQL from Debian (.ci/run): there, a machine without its binaries is a failure, not a skip.
const bin = pgBinDir();
if (!bin && process.env.CI) throw new Error('pg-tls: no PostgreSQL server binaries (Debian package postgresql)');

describe.skipIf(!bin)('the record on PostgreSQL over TLS', () => {
  let dir: string;
  let certs: TestCerts;
  let otherCa: TestCerts;
  let server: TlsPgServer;
  let redis: OwnRedis;
  let emulator: RunningEmulator;
  let env: WorkerEnv;
  let svc: StartedIntake | undefined;

  const url = (o: { host?: string; query?: string; password?: string } = {}): string =>
    `postgres://cs:${o.password ?? PASSWORD}@${o.host ?? '127.0.0.1'}:${server.port}/csdb${o.query === undefined ? `?sslmode=verify-full&sslrootcert=${certs.caPath}` : o.query}`;

  /** `carrier-screen token list` on `db`: its exit code and its stderr's lines. */
  async function tokenList(db: string): Promise<{ code: number | null; lines: string[]; out: string }> {
    const p = spawnCli(['token', 'list'], { name: 'token-list', env: { SCREEN_DB: db, SCREEN_DATA_DIR: dir } });
    const { code } = await p.exited;
    return { code, lines: p.stderr().trim().split('\n').filter(Boolean), out: p.stdout() };
  }

  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdirTemp('cs-pg-tls-test-');
    certs = makeTestCerts(mkdirTemp('cs-pg-tls-ca-'));
    otherCa = makeTestCerts(mkdirTemp('cs-pg-tls-other-'));
    server = await startTlsPgServer(certs);
    await server.sql(`CREATE ROLE cs LOGIN PASSWORD '${PASSWORD}'`);
    await server.sql('CREATE DATABASE csdb OWNER cs');
    redis = await startRedis();
    emulator = await withEmulator({ mode: 'sandbox' });
    env = {
      SVC_API_KEY: keyOf(emulator),
      SVC_BASE_URL: emulator.baseUrl,
      REDIS_URL: redis.url,
      SCREEN_DB: url(),
      SCREEN_DATA_DIR: dir,
      SCREEN_REDIS_PREFIX: uniquePrefix('pgtls'),
      INTAKE_TOKEN: TOKEN,
    };
  }, 180_000);

  afterAll(async () => {
    await svc?.stop();
    await emulator?.close();
    await redis?.stop();
    await server?.stop();
    for (const d of [dir, certs && join(certs.caPath, '..'), otherCa && join(otherCa.caPath, '..')])
      if (d) rmSync(d, { recursive: true, force: true });
  });

  it('start runs on it: it screens, and every connection it holds is TLS with the server it checked', async () => {
    svc = await startIntakeProcess(env);
    const res = await request(`${svc.url}/screenings?wait=10`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dot_number: '1000001', tender_id: 'TLS-1' }),
    });
    const body = (await res.body.json()) as { status: string; source: string; action: string };
    expect(res.statusCode, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: 'done', source: 'service', action: 'tender' });
    // Seen from the server: the service's sessions, each over TLS.
    const sessions = await until('the service connected', 10_000, async () => {
      const rows = await server.sql<{ ssl: boolean; version: string | null }>(
        `SELECT s.ssl, s.version FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
         WHERE a.datname = 'csdb' AND a.application_name = 'carrier-screen'`,
      );
      return rows.length > 0 && rows;
    });
    expect(sessions.every((s) => s.ssl && /^TLSv1\.[23]$/.test(s.version ?? ''))).toBe(true);
    expect(svc.stdout() + svc.stderr()).not.toContain(PASSWORD);
  }, 120_000);

  it.each(['require', 'verify-ca'])(
    'sslmode=%s checks the certificate and the host name as verify-full does',
    async (mode) => {
      // With the CA: in (the record exists now). pg 8 reads these modes as verify-full too, but warns;
      // pinned before pg reads it, nothing is said.
      const ok = await tokenList(url({ query: `?sslmode=${mode}&sslrootcert=${certs.caPath}` }));
      expect(ok.code, ok.lines.join('\n')).toBe(0);
      expect(ok.lines.join('\n')).not.toMatch(/SECURITY WARNING/);
      // Without the CA: libpq's `require` would connect to whoever answers; here it is refused.
      const r = await tokenList(url({ query: `?sslmode=${mode}` }));
      expect(r.code).toBe(1);
      expect(r.lines).toEqual([
        expect.stringMatching(/TLS certificate is not signed by a CA this host trusts .*\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)$/),
      ]);
      // A host the certificate does not name: libpq's `verify-ca` would not look.
      const h = await tokenList(url({ host: '127.0.0.2', query: `?sslmode=${mode}&sslrootcert=${certs.caPath}` }));
      expect(h.code).toBe(1);
      expect(h.lines).toEqual([expect.stringMatching(/does not name the host in the URL .*\(ERR_TLS_CERT_ALTNAME_INVALID\)$/)]);
    },
    60_000,
  );

  it.each([
    {
      what: 'a certificate another CA signed',
      db: () => url({ query: `?sslmode=verify-full&sslrootcert=${otherCa.caPath}` }),
      code: 1,
      line: /: the server's TLS certificate is not signed by a CA this host trusts \(sslrootcert= in the URL names the PEM of the CA that signed it\) \([A-Z_]+\)$/,
    },
    {
      what: 'a host the certificate does not name',
      db: () => url({ host: '127.0.0.2' }),
      code: 1,
      line: /: the server's TLS certificate does not name the host in the URL .*\(ERR_TLS_CERT_ALTNAME_INVALID\)$/,
    },
    {
      what: 'no TLS asked for, to a server that takes logins only over TLS',
      db: () => url({ query: '' }),
      code: 2,
      line: /: the server takes this login only over TLS: add sslmode=verify-full&sslrootcert=<the CA's PEM file> to the URL \(28000\)$/,
    },
    {
      what: 'a CA file that is not there',
      db: () => url({ query: `?sslmode=verify-full&sslrootcert=${join(dir, 'no-such-ca.pem')}` }),
      code: 2,
      line: /^carrier-screen: SCREEN_DB: sslrootcert=\S+no-such-ca\.pem cannot be read \(ENOENT\); it must name a PEM file this user can read$/,
    },
    {
      what: 'a CA path that is a directory',
      db: () => url({ query: `?sslmode=verify-full&sslrootcert=${dir}` }),
      code: 2,
      line: /^carrier-screen: SCREEN_DB: sslrootcert=\S+ cannot be read \(not a file\); it must name a PEM file this user can read$/,
    },
    {
      what: 'a client key that is not a key',
      db: () => url({ query: `?sslmode=verify-full&sslrootcert=${certs.caPath}&sslcert=${certs.caPath}&sslkey=${certs.caPath}` }),
      code: 1,
      line: /: the TLS handshake with the server failed \(its certificate, or sslcert\/sslkey: see the code\) \(ERR_[A-Z_]+\)$/,
    },
    {
      what: 'sslmode=prefer (it would go on without TLS)',
      db: () => url({ query: '?sslmode=prefer' }),
      code: 2,
      line: /^carrier-screen: SCREEN_DB: sslmode=prefer goes on without TLS when the server offers none; give sslmode=verify-full/,
    },
  ])(
    'refuses $what in one line that says what to fix',
    async ({ db, code, line }) => {
      const r = await tokenList(db());
      expect(r.code).toBe(code);
      expect(r.lines).toEqual([expect.stringMatching(line)]);
      expect(r.lines[0]).not.toContain(PASSWORD);
    },
    60_000,
  );

  // Last: it turns TLS off at the server.
  it('refuses a server that does not accept TLS when the URL asks for it', async () => {
    await server.sql('ALTER SYSTEM SET ssl = off');
    await server.sql('SELECT pg_reload_conf()');
    await until('TLS off at the server', 10_000, async () => (await server.sql<{ ssl: string }>('SHOW ssl'))[0]!.ssl === 'off');
    const r = await tokenList(url());
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([
      expect.stringMatching(/: the server does not accept TLS, and the URL asks for it \(sslmode\): turn ssl on in its postgresql\.conf/),
    ]);
  }, 60_000);
});
