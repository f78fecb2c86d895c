/**
 * main's IPC table (electron/main/ipc-handlers.ts): every channel the preload invokes has a
 * handler, and answers are data (`{ok, value}` / `{ok: false, error}`), never a thrown error that
 * IPC would flatten to a bare message.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ipcHandlers, type IpcHandlerDeps } from '../../electron/main/ipc-handlers.js';
import { IntakeError } from '../../electron/shared/bridge.js';
import type { HttpBridge } from '../../electron/shared/http-bridge.js';
import { IpcChannel } from '../../electron/shared/ipc-channels.js';

const preload = readFileSync(resolve(import.meta.dirname, '../../electron/preload/preload.ts'), 'utf8');

const deps = (over: Partial<IpcHandlerDeps> = {}): IpcHandlerDeps => ({
  bridge: () => undefined,
  connectionState: () => 'unconfigured',
  exportAudit: async () => null,
  settingsView: () => ({ workerUrl: 'http://127.0.0.1:8787', tokenSaved: false }) as never,
  saveSettings: async () => undefined,
  ...over,
});

describe("main's IPC handler table", () => {
  it('has a handler for every channel the preload invokes', () => {
    const invoked = [...preload.matchAll(/ipcRenderer\.invoke\(\s*IpcChannel\.(\w+)/g)].map((m) => m[1]!);
    expect(invoked.length).toBeGreaterThan(20);
    const table = ipcHandlers(deps());
    const missing = invoked.filter((name) => !(IpcChannel[name as keyof typeof IpcChannel] in table));
    expect(missing).toEqual([]);
  });

  it('answers "not set up" as data while the tray has no connection', async () => {
    const table = ipcHandlers(deps());
    expect(await table[IpcChannel.getStatus]!()).toEqual({
      ok: false,
      error: { message: 'The tray is not set up: add the worker URL and token in Settings', status: 0, code: 'not_configured' },
    });
  });

  it("passes the intake's error through with its code and parameter, and only a filter's string fields", async () => {
    const seen: unknown[] = [];
    const bridge = {
      searchScreenings: async (filter: unknown) => {
        seen.push(filter);
        throw new IntakeError('dot_number must be digits', 400, 'invalid_request', 'dot_number');
      },
    } as unknown as HttpBridge;
    const table = ipcHandlers(deps({ bridge: () => bridge }));
    const answer = await table[IpcChannel.searchScreenings]!({ dot_number: 'x1', mc_number: 7, evil: 'y' }, 10);
    expect(answer).toEqual({
      ok: false,
      error: { message: 'dot_number must be digits', status: 400, code: 'invalid_request', param: 'dot_number' },
    });
    expect(seen).toEqual([{ dot_number: 'x1' }]);
  });

  it('notes a refused admin action on the tray and refreshes it after one that succeeds', async () => {
    const noted: unknown[] = [];
    let refreshed = 0;
    const refused = new IntakeError('needs an admin token', 403, 'forbidden');
    let fail = true;
    const bridge = {
      pauseQueue: async () => {
        if (fail) throw refused;
        return { paused: true };
      },
    } as unknown as HttpBridge;
    const controller = { noteAdminError: (e: unknown) => void noted.push(e), refresh: async () => void (refreshed += 1) };
    const table = ipcHandlers(deps({ bridge: () => bridge, controller: () => controller }));
    expect(await table[IpcChannel.pauseQueue]!()).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect([noted, refreshed]).toEqual([[refused], 0]);
    fail = false;
    expect(await table[IpcChannel.pauseQueue]!()).toEqual({ ok: true, value: { paused: true } });
    expect(refreshed).toBe(1);
  });
});
