import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, chmodSync, copyFileSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { mkdirTemp } from './processes.js';
import type { TestCerts } from './test-ca.js';

/**
 * A PostgreSQL server of the test's own, taking logins over TLS only (pg_hba.conf: `hostssl`, and
 * `host … reject`), with the server certificate `certs` gives: what a broker's DBA runs on another
 * machine. Made with the machine's own initdb and pg_ctl (Debian's postgresql package), in a temp
 * dir, on a free port, on 127.0.0.1 and 127.0.0.2 (the certificate names the first only), and
 * removed by stop(). Run as root, it runs as the `postgres` user (initdb refuses root).
 */
export interface TlsPgServer {
  port: number;
  /** SQL as the superuser, over the server's own socket (trust there: nothing else takes it). */
  sql<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  stop(): Promise<void>;
}

/** The newest PostgreSQL's bin directory of the machine (/usr/lib/postgresql/<n>/bin), if any. */
export function pgBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export async function startTlsPgServer(certs: TestCerts): Promise<TlsPgServer> {
  const bin = pgBinDir();
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (Debian package postgresql)');
  const dir = mkdirTemp('cs-pg-tls-');
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      }
    : undefined;
  const own = (path: string): void => {
    if (owner) chownSync(path, owner.uid, owner.gid);
  };
  const run = (cmd: string, args: string[]): string =>
    execFileSync(asRoot ? 'runuser' : join(bin, cmd), asRoot ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
      // A directory the postgres user may enter (initdb and pg_ctl change back to it).
      cwd: dir,
    });
  own(dir);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
  for (const [from, to] of [
    [certs.certPath, 'server.pem'],
    [certs.keyPath, 'server.key'],
  ] as const) {
    copyFileSync(from, join(data, to));
    own(join(data, to));
  }
  chmodSync(join(data, 'server.key'), 0o600);
  // TLS or nothing over TCP; the socket (this test's setup) trusts its own user.
  writeFileSync(
    join(data, 'pg_hba.conf'),
    'local all all trust\nhostssl all all 127.0.0.0/8 scram-sha-256\nhost all all 127.0.0.0/8 reject\n',
  );
  own(join(data, 'pg_hba.conf'));
  // In postgresql.conf, not on the command line: ALTER SYSTEM (a test turning TLS off) overrides it there.
  appendFileSync(join(data, 'postgresql.conf'), "\nssl = on\nssl_cert_file = 'server.pem'\nssl_key_file = 'server.key'\n");
  const port = await freePort();
  const options = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1,127.0.0.2'", '-c fsync=off'].join(' ');
  run('pg_ctl', ['start', '-w', '-D', data, '-l', join(dir, 'server.log'), '-o', options]);
  const stop = async (): Promise<void> => {
    try {
      run('pg_ctl', ['stop', '-m', 'immediate', '-D', data]);
    } catch {
      // Already stopped.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    port,
    async sql<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
      const c = new pg.Client({ host: dir, port, user: 'postgres', database: 'postgres' });
      await c.connect();
      try {
        return (await c.query<R>(text, values)).rows;
      } finally {
        await c.end();
      }
    },
    stop,
  };
}
