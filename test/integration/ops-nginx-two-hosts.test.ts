/**
 * docs/operations.md "Two hosts": its nginx block, run by a real nginx in front of two stand-in
 * intakes (HTTP servers that say which host answered: what is under test is the proxy's config,
 * not the intake). The doc's addresses, port and certificate are pointed at the test's. It
 * spreads requests over both hosts; a host that is gone (connection refused) costs no request,
 * they go to the other one; a host back is tried again after fail_timeout; a POST a dying host
 * had already taken is answered 502 and not sent to the other host as well (the TMS sends it
 * again, with its Idempotency-Key).
 * Skipped with one line when nginx is not installed, except in CI.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { mkdirTemp, REPO_ROOT, until } from '../helpers/processes.js';
import { makeTestCerts } from '../helpers/test-ca.js';

const inCi = process.env.CI !== undefined;

/** The first ```nginx block under the heading line `heading` (exact), before the next heading. */
function nginxBlock(heading: string): string {
  const lines = readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8').split('\n');
  let inside = false;
  let fence: string | undefined;
  const code: string[] = [];
  for (const line of lines) {
    if (line.startsWith('```')) {
      if (fence === '```nginx' && inside) return code.join('\n');
      fence = fence === undefined ? line : undefined;
      continue;
    }
    if (fence !== undefined) {
      if (inside && fence === '```nginx') code.push(line);
      continue;
    }
    if (/^#{1,6} /.test(line)) {
      if (inside) break;
      inside = line === heading;
    }
  }
  throw new Error(`docs/operations.md: no nginx block under "${heading}" (a heading moved?)`);
}

interface StandIn {
  name: string;
  port: number;
  /** POSTs it received, by path. */
  posts: string[];
  /** Take a POST to this path and drop the connection without answering (the host dies under it). */
  dieOn: string | undefined;
  close(): Promise<void>;
}

async function standIn(name: string, onPort = 0): Promise<StandIn> {
  const s: StandIn = { name, port: 0, posts: [], dieOn: undefined, close: async () => {} };
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST') s.posts.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && req.url === s.dieOn) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ host: name }));
    });
  });
  await new Promise<void>((r) => server.listen(onPort, '127.0.0.1', r));
  s.port = (server.address() as AddressInfo).port;
  s.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return s;
}

describe('docs/operations.md "Two hosts": the nginx upstream, run by nginx', () => {
  const haveNginx = spawnSync('sh', ['-c', 'command -v nginx']).status === 0;
  const dir = mkdirTemp('cs-nginx-');
  let hosts: StandIn[] = [];
  let nginx: ChildProcess | undefined;
  let port = 0;
  let agent: Agent | undefined;

  beforeAll(async () => {
    if (!haveNginx) return;
    hosts = [await standIn('A'), await standIn('B')];
    const certs = makeTestCerts(dir);
    port = await freePort();
    const block = nginxBlock('## Two hosts')
      .replace(/server 10\.20\.0\.11:8787/, `server 127.0.0.1:${hosts[0]!.port}`)
      .replace(/server 10\.20\.0\.12:8787/, `server 127.0.0.1:${hosts[1]!.port}`)
      .replace(/listen 443 ssl;/, `listen 127.0.0.1:${port} ssl;`)
      .replace(/ssl_certificate +\S+;/, `ssl_certificate ${certs.certPath};`)
      .replace(/ssl_certificate_key +\S+;/, `ssl_certificate_key ${certs.keyPath};`);
    expect(block.replace(/#.*$/gm, '')).not.toMatch(/10\.20\.0\.|\/etc\/ssl/);
    for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, t));
    // What /etc/nginx/nginx.conf gives a site on Debian, as a user may run it.
    const conf = [
      'worker_processes 1;',
      'daemon off;',
      `pid ${join(dir, 'nginx.pid')};`,
      'error_log stderr warn;',
      'events {}',
      'http {',
      '  access_log off;',
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t === 'body' ? 'client_body' : t}_temp_path ${join(dir, t)};`),
      block,
      '}',
    ].join('\n');
    writeFileSync(join(dir, 'nginx.conf'), conf);
    const check = spawnSync('nginx', ['-t', '-e', 'stderr', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
    expect(check.status, `nginx -t:\n${check.stderr}`).toBe(0);
    nginx = spawn('nginx', ['-e', 'stderr', '-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    agent = new Agent({ connect: { ca: readFileSync(certs.caPath) } });
    await until(
      'nginx to answer',
      10_000,
      async () => {
        try {
          const r = await request(`https://127.0.0.1:${port}/healthz`, { dispatcher: agent });
          await r.body.text();
          return true;
        } catch {
          return undefined;
        }
      },
      100,
    );
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const gone = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGQUIT');
      await gone;
    }
    await agent?.close();
    for (const h of hosts) await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (path: string): Promise<{ status: number; host: string | undefined }> => {
    const r = await request(`https://127.0.0.1:${port}${path}`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body: '{"dot_number":"1000003"}',
    });
    const text = await r.body.text();
    let host: string | undefined;
    try {
      host = (JSON.parse(text) as { host?: string }).host;
    } catch {
      /* nginx's own error page */
    }
    return { status: r.statusCode, host };
  };

  it('spreads over both, sends nothing twice, and moves everything to the host left', async (ctx) => {
    if (!haveNginx) {
      if (inCi) throw new Error('nginx is not installed');
      ctx.skip('nginx is not installed');
      return;
    }
    const [A, B] = hosts as [StandIn, StandIn];
    const first = [];
    for (let i = 0; i < 10; i++) first.push(await post(`/screenings?n=${i}`));
    expect(first.every((a) => a.status === 200)).toBe(true);
    expect(new Set(first.map((a) => a.host))).toEqual(new Set(['A', 'B']));

    // A gone (its connections refused): every request is B's, none lost or answered 502.
    await A.close();
    const after = [];
    for (let i = 0; i < 20; i++) after.push(await post(`/screenings?m=${i}`));
    expect(after.map((a) => `${a.status} ${a.host}`)).toEqual(Array.from({ length: 20 }, () => '200 B'));

    // A back, once its fail_timeout (10 s) is over nginx tries it again; it takes a POST and dies
    // under it: that one is 502, and B never gets it.
    const A2 = await standIn('A', A.port);
    hosts[0] = A2;
    A2.dieOn = '/screenings?n=dying';
    // nginx keeps time in whole seconds: A is tried again 10 to 11 s after it failed.
    await new Promise((r) => setTimeout(r, 9_000));
    const dying = [];
    const deadline = Date.now() + 15_000;
    while (A2.posts.length === 0 && Date.now() < deadline) {
      dying.push(await post('/screenings?n=dying'));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(A2.posts).toEqual(['/screenings?n=dying']);
    expect(dying.at(-1)!.status).toBe(502);
    expect(B.posts.filter((p) => p === '/screenings?n=dying')).toHaveLength(dying.length - 1);
  }, 40_000);
});
