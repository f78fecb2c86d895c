import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../electron/shared/bridge.js';
import { HttpBridge } from '../../electron/shared/http-bridge.js';
import { SettingsStore, type SecretBox } from '../../electron/main/settings.js';
import { TraySession, type SessionPorts } from '../../electron/main/tray-session.js';

/** Reversible, but not the identity: what is on disk is not the token. */
const box: SecretBox = {
  isAvailable: () => true,
  encrypt: (plain) => Uint8Array.from(Buffer.from(plain), (b) => b ^ 0x21),
  decrypt: (cipher) => Buffer.from(Uint8Array.from(cipher, (b) => b ^ 0x21)).toString(),
};

let dir: string;
let server: Server | undefined;
const bridges: HttpBridge[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tray-session-'));
});
afterEach(async () => {
  for (const b of bridges.splice(0)) b.close();
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Session ports that record what main would do, with fake connections. */
function recorded(store: SettingsStore) {
  const calls: string[] = [];
  const ports: SessionPorts<{ close(): void }> = {
    open: (url, token) => {
      calls.push(`open ${url} ${token}`);
      return { close: () => void calls.push(`close ${url}`) };
    },
    showUnconfigured: () => void calls.push('unconfigured'),
    resetDashboard: () => void calls.push('reset dashboard'),
    setOpenAtLogin: (open) => void calls.push(`login item ${open}`),
    save: (input) => store.save(input),
  };
  return { calls, ports };
}

describe('Settings → Save and connect', () => {
  it('always reconnects, also with the same address and token; the login item only when the user changes it', async () => {
    const store = new SettingsStore(join(dir, 'settings.json'), box);
    await store.save({ workerUrl: 'http://127.0.0.1:8787', token: 'tok-1', openAtLogin: true });
    const { calls, ports } = recorded(store);
    const session = new TraySession(ports);
    session.start(await store.load());
    // Launch: connect, and leave the OS login item as the user has it (no "login item true").
    expect(calls).toEqual(['open http://127.0.0.1:8787 tok-1']);

    calls.length = 0;
    await session.save({ workerUrl: 'http://127.0.0.1:8787', token: 'tok-1', openAtLogin: true });
    expect(calls).toEqual(['close http://127.0.0.1:8787', 'open http://127.0.0.1:8787 tok-1']);

    calls.length = 0;
    await session.save({ workerUrl: 'http://127.0.0.1:8787', token: '', openAtLogin: false });
    expect(calls).toEqual(['login item false', 'close http://127.0.0.1:8787', 'open http://127.0.0.1:8787 tok-1']);
  });

  it('a different worker drops what the dashboard shows of the old one', async () => {
    const store = new SettingsStore(join(dir, 'settings.json'), box);
    await store.save({ workerUrl: 'http://127.0.0.1:8787', token: 'tok-1' });
    const { calls, ports } = recorded(store);
    const session = new TraySession(ports);
    session.start(await store.load());
    calls.length = 0;
    await session.save({ workerUrl: 'http://localhost:9000', token: 'tok-2' });
    expect(calls).toEqual(['reset dashboard', 'close http://127.0.0.1:8787', 'open http://localhost:9000 tok-2']);
  });

  it('bad input changes nothing: no reconnect, the old connection stays', async () => {
    const store = new SettingsStore(join(dir, 'settings.json'), box);
    await store.save({ workerUrl: 'http://127.0.0.1:8787', token: 'tok-1' });
    const { calls, ports } = recorded(store);
    const session = new TraySession(ports);
    session.start(await store.load());
    calls.length = 0;
    await expect(session.save({ workerUrl: 'http://10.0.0.5:8787', token: 'tok-2' })).rejects.toThrow(/use https/);
    await expect(session.save({ workerUrl: 'http://127.0.0.1:8787', token: 'has space' })).rejects.toThrow(/spaces/);
    expect(calls).toEqual([]);
    expect(session.current().settings?.token).toBe('tok-1');
  });

  it('no token: "not set up", nothing opened', async () => {
    const store = new SettingsStore(join(dir, 'settings.json'), box);
    const { calls, ports } = recorded(store);
    new TraySession(ports).start(await store.load());
    expect(calls).toEqual(['unconfigured']);
  });

  it('a refused token is fixed from Settings without quitting: the same token, re-enabled, connects on Save', async () => {
    let enabled = false;
    server = createServer((req, res) => {
      if (!enabled || req.headers.authorization !== 'Bearer desk-tok')
        return void res.writeHead(401).end('{"error":{"code":"unauthorized","message":"token revoked"}}');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(':hb\n\n');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const store = new SettingsStore(join(dir, 'settings.json'), box);
    await store.save({ workerUrl: url, token: 'desk-tok' });
    const states: ConnectionState[] = [];
    const session = new TraySession<HttpBridge>({
      // An hour between tries after a refusal: only Save can bring it back within the test.
      open: (workerUrl, token) => {
        const b = new HttpBridge({ baseUrl: workerUrl, token, refusedRetryMs: 3_600_000 });
        bridges.push(b);
        b.onConnectionChange((s) => states.push(s));
        b.onEvent(() => undefined);
        return b;
      },
      showUnconfigured: () => undefined,
      resetDashboard: () => undefined,
      setOpenAtLogin: () => undefined,
      save: (input) => store.save(input),
    });
    session.start(await store.load());
    await until(() => states.includes('unauthorized'));
    enabled = true; // the admin re-enables the token; the dispatcher pastes the same one again
    await session.save({ workerUrl: url, token: 'desk-tok' });
    await until(() => session.current().connection?.connectionState() === 'open');
    expect(states).toEqual(['connecting', 'unauthorized', 'closed', 'connecting', 'open']);
  });
});

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('gave up waiting');
}
