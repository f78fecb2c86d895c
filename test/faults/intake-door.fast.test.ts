/**
 * The intake's door on a broker's network (issue 26), against real `carrier-screen` processes
 * on loopback: TLS with an operator's own CA, plain HTTP on a wide address refused at start,
 * slow clients cut off by the configured time-outs, a revoked token's event stream closed.
 */
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, mkdirTemp, spawnCli, startIntakeProcess, until } from '../helpers/processes.js';
import { makeTestCerts, type TestCerts } from '../helpers/test-ca.js';
import { startRecordingEmulator, type RecordingEmulator } from './support/recording-emulator.js';
import { installation, type Installation } from './support/worker-stack.js';

let emu: RecordingEmulator;
let certs: TestCerts;
const opened: Installation[] = [];

async function install(env: Record<string, string> = {}): Promise<Installation> {
  const inst = await installation({ svcBaseUrl: emu.baseUrl, svcKey: emu.key, redisUrl: inject('redisUrl'), env });
  opened.push(inst);
  return inst;
}

beforeAll(async () => {
  await ensureBuilt();
  emu = await startRecordingEmulator({ mode: 'sandbox', ratePerMinute: 100_000 });
  certs = makeTestCerts(mkdirTemp('cs-ca-'));
}, 240_000);

afterAll(async () => {
  for (const i of opened) await i.close();
  await emu?.close();
});

/** GET over https trusting only the test CA: the status code and the negotiated protocol. */
function httpsGet(port: number, path: string, token: string | undefined, ca: string): Promise<{ status: number; protocol: string | null }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port,
        path,
        ca,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        timeout: 10_000,
      },
      (res) => {
        const protocol = (res.socket as import('node:tls').TLSSocket).getProtocol();
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, protocol }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Resolves when the server closes the socket. */
function closedByServer(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}

describe('TLS in the worker', () => {
  let inst: Installation;
  beforeAll(async () => {
    inst = await install({ INTAKE_TLS_CERT: certs.certPath, INTAKE_TLS_KEY: certs.keyPath });
    await inst.start();
  }, 120_000);

  it('serves https that a client trusting the test CA accepts, with TLS 1.2 or later', async () => {
    const { readFileSync } = await import('node:fs');
    const ca = readFileSync(certs.caPath, 'utf8');
    const r = await httpsGet(inst.proc!.port, '/status', inst.token, ca);
    expect(r.status).toBe(200);
    expect(['TLSv1.2', 'TLSv1.3']).toContain(r.protocol);
  });

  it('refuses a TLS 1.1 handshake (the server sends a protocol_version alert)', async () => {
    const { readFileSync } = await import('node:fs');
    const err = await new Promise<Error & { code?: string }>((resolve, reject) => {
      // SECLEVEL=0 lets this client offer TLS 1.1: the refusal must come from the server.
      const s = tlsConnect({
        host: '127.0.0.1',
        port: inst.proc!.port,
        servername: 'localhost',
        ca: readFileSync(certs.caPath, 'utf8'),
        minVersion: 'TLSv1.1',
        maxVersion: 'TLSv1.1',
        ciphers: 'DEFAULT@SECLEVEL=0',
      });
      s.on('secureConnect', () => {
        s.destroy();
        reject(new Error(`TLS 1.1 was accepted (${s.getProtocol()})`));
      });
      s.on('error', resolve);
    });
    expect(`${err.code} ${err.message}`).toMatch(/ALERT_PROTOCOL_VERSION|protocol version/i);
  });

  it('`carrier-screen status` talks https to it, trusting the CA given in NODE_EXTRA_CA_CERTS', async () => {
    const env = {
      INTAKE_TLS_CERT: certs.certPath,
      INTAKE_TLS_KEY: certs.keyPath,
      INTAKE_HOST: 'localhost',
      INTAKE_PORT: String(inst.proc!.port),
      INTAKE_TOKEN: inst.token,
      SCREEN_DB: inst.screenDb,
      SCREEN_DATA_DIR: inst.dataDir,
    };
    const trusted = spawnCli(['status', '--json'], { env: { ...env, NODE_EXTRA_CA_CERTS: certs.caPath } });
    expect((await trusted.exited).code).toBe(0);
    expect(JSON.parse(trusted.stdout())).toMatchObject({ object: 'status' });
    // The CA is what makes it work: without it the certificate is refused, and status says that is the problem.
    const untrusted = spawnCli(['status'], { env });
    expect((await untrusted.exited).code).toBe(2);
    expect(untrusted.stderr()).toMatch(
      /the worker at https:\/\/localhost:\d+ answered, but its TLS certificate is not accepted here \(\w+\): trust its CA with NODE_EXTRA_CA_CERTS/,
    );
  });
});

describe('plain HTTP on a wide address', () => {
  it('is refused at start: exit 2 and one line naming INTAKE_HOST and the way out', async () => {
    const inst = await install({ INTAKE_HOST: '0.0.0.0' });
    const p = spawnCli(['start'], { cwd: inst.dataDir, env: { ...inst.env, INTAKE_PORT: '0' } });
    // Today's code would serve instead: stop it after a while rather than wait for ever.
    const stopper = setTimeout(() => void p.kill(), 30_000);
    const exit = await p.exited;
    clearTimeout(stopper);
    expect(exit.code).toBe(2);
    const lines = p.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^carrier-screen: INTAKE_HOST: 0\.0\.0\.0 is not a loopback address .*INTAKE_TLS_CERT.*INTAKE_INSECURE_HTTP=1/,
    );
    expect(p.stdout()).not.toContain('carrier-screen is running');
  });

  it('starts when INTAKE_INSECURE_HTTP=1 says a TLS proxy is in front', async () => {
    const inst = await install({ INTAKE_HOST: '0.0.0.0', INTAKE_INSECURE_HTTP: '1' });
    const { client } = await inst.start();
    expect((await client.call('GET', '/healthz')).status).toBe(200);
  });
});

describe('limits at the door', () => {
  let inst: Installation;
  beforeAll(async () => {
    inst = await install({ INTAKE_HEADERS_TIMEOUT: '2s', INTAKE_REQUEST_TIMEOUT: '3s' });
    await inst.start();
  }, 120_000);

  /** Write `text` a byte every 200 ms (minutes for the whole) until the server closes. */
  async function trickle(text: string): Promise<{ sent: number; closed: boolean }> {
    const socket = netConnect(inst.proc!.port, '127.0.0.1');
    const closed = closedByServer(socket);
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < text.length && !socket.destroyed) socket.write(text[sent++]!);
    }, 200);
    // The whole text would take text.length / 5 seconds; the time-outs are 2 s and 3 s.
    const outcome = await Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20_000))]);
    clearInterval(timer);
    socket.destroy();
    return { sent, closed: outcome };
  }

  it('cuts off a client trickling its headers, before its token is ever looked at', async () => {
    const headers = `GET /status HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(400)}\r\nAuthorization: Bearer ${inst.token}\r\n\r\n`;
    const r = await trickle(headers);
    expect(r.closed).toBe(true);
    expect(r.sent).toBeLessThan(headers.length);
  });

  it('cuts off a client trickling its body, even after an early 401', async () => {
    const body = JSON.stringify({ dot_number: '1000003', tender_id: 'x'.repeat(300) });
    const head = `POST /screenings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const socket = netConnect(inst.proc!.port, '127.0.0.1');
    const closed = closedByServer(socket);
    let answer = '';
    socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
    socket.write(head);
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < body.length && !socket.destroyed) socket.write(body[sent++]!);
    }, 200);
    const outcome = await Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20_000))]);
    clearInterval(timer);
    socket.destroy();
    expect(outcome).toBe(true);
    expect(sent).toBeLessThan(body.length);
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
  });
});

describe('a revoked token', () => {
  it('has its open /events stream closed within seconds of `carrier-screen token revoke` in another process', async () => {
    const inst = await install();
    await inst.start();
    const env = { ...inst.env };
    const create = spawnCli(['token', 'create', '--role', 'tms', '--name', 'tms-door'], { env });
    expect((await create.exited).code).toBe(0);
    const token = create.stdout().trim();
    const socket = netConnect(inst.proc!.port, '127.0.0.1');
    const closed = closedByServer(socket);
    let got = '';
    socket.setEncoding('utf8').on('data', (d: string) => (got += d));
    socket.write(`GET /events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`);
    await until('the stream to open', 10_000, () => got.includes(': connected'));
    const revoke = spawnCli(['token', 'revoke', token.slice(0, 'tms'.length + 8)], { env });
    expect((await revoke.exited).code).toBe(0);
    // The response ends (the last chunk of a chunked answer) or the connection closes.
    let gone = false;
    void closed.then(() => (gone = true));
    const ended = await until('the stream to end', 15_000, () => gone || got.endsWith('\r\n0\r\n\r\n')).catch(() => false);
    socket.destroy();
    expect(ended).toBe(true);
  });
});

describe('private files', () => {
  it('with umask 000: data directory 0700; intake-token and callback-secret 0600; on SQLite the database, WAL, SHM and a backup 0600 too', async () => {
    const root = mkdirTemp('cs-modes-');
    const dataDir = join(root, 'var', 'data');
    // The loosest umask there is: every mode below is the program's own doing.
    const umask0 = ['sh', '-c', 'umask 000; exec "$0" "$@"'];
    const base = await install();
    const onSqlite = base.kind === 'sqlite';
    // The data dir made by the worker itself: beside a SQLite file of its own, or SCREEN_DATA_DIR beside a PostgreSQL record.
    const where = onSqlite ? { SCREEN_DB: join(dataDir, 'carrier-screen.db') } : { SCREEN_DATA_DIR: dataDir };
    const env = { ...base.env, ...where, INTAKE_TOKEN: undefined, CALLBACK_SECRET: undefined };
    const proc = await startIntakeProcess(env, { cwd: root, wrapper: umask0 });
    try {
      const mode = (p: string): string => (statSync(p).mode & 0o777).toString(8);
      expect(mode(dataDir)).toBe('700');
      expect(mode(join(root, 'var'))).toBe('700');
      const dbFiles = onSqlite ? ['carrier-screen.db', 'carrier-screen.db-wal', 'carrier-screen.db-shm'] : [];
      for (const f of [...dbFiles, 'intake-token', 'callback-secret']) {
        expect(existsSync(join(dataDir, f)), f).toBe(true);
        expect(mode(join(dataDir, f)), f).toBe('600');
      }
      // `backup` copies a SQLite file; a PostgreSQL record is pg_dump's (it refuses a URL).
      if (onSqlite) {
        const backup = join(root, 'backup.db');
        const b = spawnCli(['backup', backup], { cwd: root, env: { ...env }, wrapper: umask0 });
        expect((await b.exited).code).toBe(0);
        expect(mode(backup)).toBe('600');
      }
    } finally {
      await proc.stop();
    }
  });
});
