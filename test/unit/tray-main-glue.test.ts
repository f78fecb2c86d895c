/**
 * The bundled tray main (dist/electron/main/main.js, as packed) run under plain Node with a
 * recording stand-in for `electron` (test/helpers/electron-stub.cjs), against a small intake over
 * real HTTP. It checks main.ts's wiring where the Electron binary cannot run: start at login not
 * written at launch, Save and connect reconnecting with the same token, the desk role's menu, the
 * permission handlers, the first-run hint. Electron's own behaviour is not checked here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTray } from '../../electron/build.mjs';

const STUB = resolve(import.meta.dirname, '../helpers/electron-stub.cjs');
let dir: string;
let server: Server;
let url: string;
const eventsTokens: string[] = [];
let child: ChildProcess | undefined;

const status = {
  object: 'status',
  environment: 'sandbox',
  queue: { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0, paused: false },
  quota: {
    livemode: false,
    monthly_quota: null,
    used: null,
    remaining: null,
    resets_at: '2026-04-01T00:00:00Z',
    gate: 'open',
    reserve: null,
    updated_at: null,
  },
  rate_limit: { per_minute: 120, remaining: 120, resets_at: null },
  reviews: { pending: 0 },
  service: { reachable: true, checked_at: null, last_error: null, key_rejected: false },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tray-glue-'));
  await buildTray({ outDir: join(dir, 'app') });
  // `require('electron')` from the bundle finds the stand-in.
  mkdirSync(join(dir, 'app', 'node_modules', 'electron'), { recursive: true });
  writeFileSync(join(dir, 'app', 'node_modules', 'electron', 'index.js'), `module.exports = require(${JSON.stringify(STUB)});\n`);
  server = createServer((req, res) => {
    if (req.headers.authorization !== 'Bearer desk-tok')
      return void res.writeHead(401).end('{"error":{"code":"unauthorized","message":"no"}}');
    if (req.url === '/events') {
      eventsTokens.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.write(':hb\n\n');
    }
    res.setHeader('content-type', 'application/json');
    if (req.url === '/status') return void res.end(JSON.stringify(status));
    if (req.url === '/me') return void res.end('{"object":"caller","token_id":"tok_1","name":"Dana","role":"desk"}');
    if (req.url?.startsWith('/changes')) return void res.end('{"object":"list","data":[],"has_more":false}');
    if (req.url === '/usage/daily') return void res.end('{"object":"usage_daily","month":"2026-03","monthly_quota":null,"days":[]}');
    res.writeHead(404).end('{"error":{"code":"not_found","message":"?"}}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  child?.kill();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const DRIVER = `
const stub = require(process.env.STUB);
require(process.env.MAIN);
const until = async (cond, what) => {
  for (let i = 0; i < 1000; i++) { if (cond()) return; await new Promise((r) => setTimeout(r, 10)); }
  throw new Error('gave up waiting for ' + what + ': ' + JSON.stringify(labels()));
};
const labels = () => (stub.state.trayMenus.at(-1) || []).map((i) => i.label || '-');
(async () => {
  await until(() => labels().some((l) => l.startsWith('Queue:')) && !labels().includes('Pause queue'), 'the desk menu');
  let allowed = null;
  stub.state.permissionRequest(null, 'notifications', (ok) => (allowed = ok));
  const launch = {
    labels: labels(),
    loginItemCalls: stub.state.loginItemCalls.length,
    permissionCheck: ['notifications', 'media', 'clipboard-read'].map((p) => stub.state.permissionCheck(null, p)),
    permissionRequest: allowed,
    notifications: stub.state.notifications.map((n) => n.title),
  };
  console.log('LAUNCH ' + JSON.stringify(launch));
  // Wait for the test to count launch's event-stream connections before saving adds more.
  await new Promise((r) => process.stdin.once('data', r));
  stub.app.emit('second-instance');
  const win = stub.state.windows[0];
  const answer = await stub.state.handlers['desk:settings-save']({ senderFrame: win.webContents.mainFrame }, { workerUrl: process.env.INTAKE_URL, token: 'desk-tok', openAtLogin: true });
  const refused = await Promise.resolve()
    .then(() => stub.state.handlers['desk:settings-save']({ senderFrame: { url: 'file:///other.html' } }, {}))
    .then(() => 'answered', (e) => e.message);
  const me = await stub.state.handlers['desk:who-am-i']({ senderFrame: win.webContents.mainFrame });
  const fs = require('node:fs');
  const entryAfterSameChoice = fs.existsSync(process.env.AUTOSTART);
  const save = (openAtLogin) => stub.state.handlers['desk:settings-save']({ senderFrame: win.webContents.mainFrame }, { workerUrl: process.env.INTAKE_URL, token: '', openAtLogin });
  await save(false);
  await save(true);
  const entryAfterTurnOn = fs.existsSync(process.env.AUTOSTART);
  const reloadsSameWorker = win.webContents.reloads;
  // Another worker (the same intake under another name): the dashboard drops the old one's lists.
  await stub.state.handlers['desk:settings-save']({ senderFrame: win.webContents.mainFrame }, { workerUrl: process.env.INTAKE_URL.replace('127.0.0.1', 'localhost'), token: 'desk-tok', openAtLogin: true });
  await new Promise((r) => setTimeout(r, 0));
  console.log('SAVED ' + JSON.stringify({ answer, refused, me, reloads: reloadsSameWorker, reloadsNewWorker: win.webContents.reloads, entryAfterSameChoice, entryAfterTurnOn }));
})().catch((e) => { console.log('FAILED ' + String(e.stack).split(String.fromCharCode(10)).join(' | ')); process.exit(1); });
`;

describe('the tray main glue under a stand-in electron', () => {
  it('launch leaves start at login alone; Save and connect reconnects with the same token; start at login only on change; desk menu; no permissions', async () => {
    const profile = join(dir, 'profile');
    const xdg = join(dir, 'xdg');
    mkdirSync(profile, { recursive: true });
    // The user chose "start at login" once; at launch the tray must not write the entry again.
    writeFileSync(join(profile, 'settings.json'), JSON.stringify({ version: 1, workerUrl: url, tokenCiphertext: null, openAtLogin: true }));
    writeFileSync(join(dir, 'driver.cjs'), DRIVER);
    const autostart = join(xdg, 'autostart', 'carrier-screen-tray.desktop');
    const lines: string[] = [];
    child = spawn(process.execPath, [join(dir, 'driver.cjs')], {
      env: {
        PATH: process.env.PATH,
        STUB,
        MAIN: join(dir, 'app', 'main', 'main.js'),
        CARRIER_SCREEN_USER_DATA: profile,
        XDG_CONFIG_HOME: xdg,
        AUTOSTART: autostart,
        INTAKE_URL: url,
        INTAKE_TOKEN: 'desk-tok',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stdout!.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    const line = async (prefix: string): Promise<Record<string, unknown>> => {
      for (let i = 0; i < 2000; i++) {
        const l = lines.find((x) => x.startsWith(prefix) || x.startsWith('FAILED'));
        if (l?.startsWith('FAILED')) throw new Error(`${l}\n${err}`);
        if (l) return JSON.parse(l.slice(prefix.length + 1)) as Record<string, unknown>;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no ${prefix} line; stdout ${lines.join('\n')}; stderr ${err}`);
    };

    const launch = await line('LAUNCH');
    expect(launch.loginItemCalls).toBe(0);
    expect(existsSync(autostart)).toBe(false);
    expect(launch.labels).toContain('Carrier Screen 9.8.7');
    expect(launch.labels).toContain('Export audit CSV…');
    expect(launch.permissionCheck).toEqual([false, false, false]);
    expect(launch.permissionRequest).toBe(false);
    expect(launch.notifications).toContain('Carrier Screen is running');
    for (let i = 0; i < 500 && eventsTokens.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(eventsTokens).toEqual(['Bearer desk-tok']);
    child.stdin!.write('go\n');

    const saved = await line('SAVED');
    expect(saved.answer).toMatchObject({ ok: true, value: { workerUrl: url, openAtLogin: true } });
    expect(saved.me).toEqual({ ok: true, value: { object: 'caller', token_id: 'tok_1', name: 'Dana', role: 'desk' } });
    expect(saved.refused).toMatch(/refused: IPC from a frame that is not the dashboard/);
    expect(saved.reloads).toBe(0); // the same worker: nothing to drop
    expect(saved.reloadsNewWorker).toBe(1);
    // Same address, same token: connected again all the same (and twice more for the two saves after).
    for (let i = 0; i < 500 && eventsTokens.length < 5; i++) await new Promise((r) => setTimeout(r, 10));
    expect(eventsTokens).toEqual(Array(5).fill('Bearer desk-tok'));
    // The user removed the entry in the OS; saving the same choice does not write it back; turning it on does.
    expect(saved.entryAfterSameChoice).toBe(false);
    expect(saved.entryAfterTurnOn).toBe(true);
    expect(readFileSync(autostart, 'utf8')).toContain(`Exec=${process.execPath}`);
  }, 60_000);
});
