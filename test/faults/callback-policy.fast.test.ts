/**
 * Callback destinations on a real `carrier-screen start` process (issue 26): CALLBACK_ALLOW from
 * its environment decides where callbacks may go. Listeners on the targets count connections.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ensureBuilt, until } from '../helpers/processes.js';
import type { IntakeClient } from './support/intake-client.js';
import { startRecordingEmulator, type RecordingEmulator } from './support/recording-emulator.js';
import { installation, type Installation } from './support/worker-stack.js';

let emu: RecordingEmulator;
let inst: Installation;
let client: IntakeClient;
let target: TcpServer;
let connections = 0;
let rx: Server;
const received: Array<{ event: string; version: number; screening: { id: string; version: number } }> = [];

beforeAll(async () => {
  await ensureBuilt();
  emu = await startRecordingEmulator({ mode: 'sandbox', ratePerMinute: 100_000 });
  // Only `localhost` by name: 127.0.0.1 and its other spellings are not listed.
  inst = await installation({
    svcBaseUrl: emu.baseUrl,
    svcKey: emu.key,
    redisUrl: inject('redisUrl'),
    env: { CALLBACK_ALLOW: 'localhost' },
  });
  ({ client } = await inst.start());
  target = createTcpServer((c) => {
    connections++;
    c.destroy();
  });
  await new Promise<void>((r) => target.listen({ port: 0, host: '::', ipv6Only: false }, r));
  rx = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
}, 240_000);

afterAll(async () => {
  await inst?.close();
  await emu?.close();
  await new Promise((r) => target?.close(r));
  await new Promise((r) => rx?.close(r));
});

describe('CALLBACK_ALLOW on a real start process', () => {
  it('every unlisted spelling of this host, the metadata address and the Redis port: 400 naming callback_url, 0 connections', async () => {
    const port = (target.address() as AddressInfo).port;
    const redisPort = new URL(inject('redisUrl')).port;
    const urls = [
      `http://127.0.0.1:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://2130706433:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      `http://127.0.0.1:${redisPort}/`,
    ];
    for (const url of urls) {
      const r = await client.call('POST', '/screenings', { body: { dot_number: '1000005', callback_url: url } });
      expect([url, r.status, r.json?.error?.param]).toEqual([url, 400, 'callback_url']);
    }
    expect(connections).toBe(0);
  });

  it('the listed host gets its callback, with the screening version', async () => {
    const port = (rx.address() as AddressInfo).port;
    const r = await client.call('POST', '/screenings?wait=10', {
      body: { dot_number: '1000005', tender_id: 'POL-1', callback_url: `http://localhost:${port}/tms` },
    });
    expect(r.status).toBe(200);
    const got = await until('the callback', 30_000, () => received.find((b) => b.screening.id === r.json.id));
    expect(got).toMatchObject({ event: 'screening.completed', version: r.json.version, screening: { version: r.json.version } });
    expect(connections).toBe(0);
  });
});
