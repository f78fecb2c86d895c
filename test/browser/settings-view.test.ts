import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wireBridge } from '../../electron/main/bridge-wiring.js';
import { SettingsStore, type SecretBox } from '../../electron/main/settings.js';
import { TraySession, type Connection } from '../../electron/main/tray-session.js';
import { ipcHandlers } from '../../electron/main/ipc-handlers.js';
import { IntakeError } from '../../electron/shared/bridge.js';
import { HttpBridge } from '../../electron/shared/http-bridge.js';
import { IpcChannel } from '../../electron/shared/ipc-channels.js';
import { seriousViolations } from '../helpers/axe.js';
import { artifacts, hasChromium, SIZES, shootBothSizes, withBrowserStack } from '../helpers/browser-stack.js';

/**
 * The Settings view (key 7), which the renderer shows only under Electron (`window.desk`), in
 * real headless Chromium: the REAL renderer bundle served by the real stack's intake, axe over
 * it, a bad worker address refused with the settings module's own message, a good one saved
 * and connected, and screenshots at 1440×900 and 1024×700 in test-artifacts/.
 *
 * STAND-IN FOR ELECTRON'S MAIN PROCESS: the Electron binary cannot be downloaded or run here, so
 * this test plays main's part in Node. `window.desk` is installed by an init script with the
 * preload's exact surface (electron/preload/preload.ts, DeskIpcApi): every call goes to one
 * exposed function, as `ipcRenderer.invoke(channel, …args)` would, with the same fields copied.
 * On the Node side the handlers are main's own table (electron/main/ipc-handlers.ts, which main.ts
 * registers), answering in its `{ok, value}` / `{ok: false, error}` envelope, over the REAL main modules that never import `electron`:
 * SettingsStore (validation, the token kept for its worker, the file on disk), TraySession
 * (Save and connect) and wireBridge, with the REAL HttpBridge (what main uses) calling the
 * real intake over HTTP. Pushes (`desk:connection`, `desk:event`) go back into the page the way
 * `webContents.send` would. Only the OS keychain is replaced: a SecretBox with AES-GCM and a key
 * held in memory for the test.
 */

let settingsDir: string;

const rig = withBrowserStack({ mode: 'sandbox' });

beforeAll(async () => {
  if (!hasChromium) return;
  settingsDir = await mkdtemp(join(tmpdir(), 'settings-store-'));
});

afterAll(async () => {
  if (settingsDir) await rm(settingsDir, { recursive: true, force: true });
});

/** Stands in for Electron's safeStorage (the OS keychain): AES-256-GCM with a key for this test only. */
function testKeychain(): SecretBox {
  const key = randomBytes(32);
  return {
    isAvailable: () => true,
    encrypt(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decrypt(cipher) {
      const b = Buffer.from(cipher);
      const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
      d.setAuthTag(b.subarray(12, 28));
      return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

interface LiveConnection extends Connection {
  bridge: HttpBridge;
}

/** The main process's side for one page: its settings store, tray session and IPC handlers. */
async function standInMain(page: Page, settingsFile: string) {
  const store = new SettingsStore(settingsFile, testKeychain());
  const opened: string[] = [];
  const loginItem: boolean[] = [];
  const push = (channel: string, value: unknown): void => {
    if (page.isClosed()) return;
    page
      .evaluate(([c, v]) => (window as unknown as { __deskPush(c: string, v: unknown): void }).__deskPush(c as string, v), [
        channel,
        value,
      ] as const)
      .catch(() => undefined);
  };
  const session = new TraySession<LiveConnection>({
    open(workerUrl, token) {
      opened.push(workerUrl);
      const bridge = new HttpBridge({ baseUrl: workerUrl, token });
      const unsubs = wireBridge(bridge, { connection: (s) => push(IpcChannel.connection, s), event: (e) => push(IpcChannel.event, e) });
      return {
        bridge,
        close() {
          for (const u of unsubs) u();
          bridge.close();
        },
      };
    },
    showUnconfigured: () => push(IpcChannel.connection, 'unconfigured'),
    resetDashboard: () => void page.reload().catch(() => undefined),
    setOpenAtLogin: (open) => void loginItem.push(open),
    save: (input) => store.save(input),
  });
  // main.ts's own handler table (electron/main/ipc-handlers.ts); only the save dialog is missing here.
  const handlers = ipcHandlers({
    bridge: () => session.current().connection?.bridge,
    connectionState: () => session.current().connection?.bridge.connectionState() ?? 'unconfigured',
    exportAudit: () => Promise.reject(new IntakeError('no save dialog in this test', 0, 'tray_error')),
    settingsView: () => store.view(),
    saveSettings: (input) => session.save(input),
  });
  await page.exposeFunction('__deskInvoke', (channel: string, args: unknown[]) => {
    const h = handlers[channel];
    if (!h) throw new Error(`no handler for ${channel}`);
    return h(...args);
  });
  // The preload, as an init script: its surface and its argument copies, invoke → __deskInvoke.
  await page.addInitScript((ch: typeof IpcChannel) => {
    const invoke = (channel: string, ...args: unknown[]): Promise<never> =>
      (window as unknown as { __deskInvoke(c: string, a: unknown[]): Promise<never> }).__deskInvoke(channel, args);
    const listeners = new Map<string, Set<(v: unknown) => void>>();
    const subscribe = (channel: string, cb: (v: never) => void): (() => void) => {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      const l = (v: unknown): void => cb(v as never);
      set.add(l);
      return () => void set.delete(l);
    };
    (window as unknown as { __deskPush(c: string, v: unknown): void }).__deskPush = (channel, value) => {
      for (const l of [...(listeners.get(channel) ?? [])]) l(value);
    };
    type F = { dot_number?: string; mc_number?: string; tender_id?: string } | undefined;
    const desk = {
      kind: 'electron',
      getStatus: () => invoke(ch.getStatus),
      whoAmI: () => invoke(ch.whoAmI),
      listReviews: (state: string) => invoke(ch.listReviews, state),
      recentDecisions: (limit: number) => invoke(ch.recentDecisions, limit),
      resolveReview: (
        id: string,
        verdict: string,
        d: { by?: string | null; note: string; block?: boolean; review_version?: number | null },
      ) =>
        invoke(ch.resolveReview, id, verdict, {
          by: d.by ?? null,
          note: d.note,
          block: d.block === true,
          review_version: d.review_version ?? null,
        }),
      listScreenings: (limit: number) => invoke(ch.listScreenings, limit),
      getScreening: (id: string) => invoke(ch.getScreening, id),
      searchScreenings: (f: NonNullable<F>, limit: number) =>
        invoke(ch.searchScreenings, { dot_number: f.dot_number, mc_number: f.mc_number, tender_id: f.tender_id }, limit),
      getReview: (id: string) => invoke(ch.getReview, id),
      dailyUsage: () => invoke(ch.dailyUsage),
      pauseQueue: () => invoke(ch.pauseQueue),
      resumeQueue: () => invoke(ch.resumeQueue),
      listChanges: (state: string, f: F) => invoke(ch.listChanges, state, { dot_number: f?.dot_number }),
      acknowledgeChange: (id: string, by: string | null, note?: string | null) => invoke(ch.acknowledgeChange, id, by, note ?? null),
      recentChanges: (state: string, limit: number) => invoke(ch.recentChanges, state, limit),
      listBlocks: (state: string, f: F) => invoke(ch.listBlocks, state, { dot_number: f?.dot_number }),
      blockCarrier: (i: { dot_number?: string; mc_number?: string; by: string; reason: string }) =>
        invoke(ch.blockCarrier, { dot_number: i.dot_number, mc_number: i.mc_number, by: i.by, reason: i.reason }),
      liftBlock: (carrier: string, by: string, note?: string) => invoke(ch.liftBlock, carrier, by, note),
      listDecisions: (state: string, f: F) => invoke(ch.listDecisions, state, { dot_number: f?.dot_number }),
      revokeDecision: (id: string, by: string | null, note: string) => invoke(ch.revokeDecision, id, by, note),
      endedDecisions: (limit: number, after?: string) => invoke(ch.endedDecisions, limit, after),
      liftedBlocks: (limit: number, after?: string) => invoke(ch.liftedBlocks, limit, after),
      recheckCarrier: (i: { dot_number?: string; mc_number?: string }) =>
        invoke(ch.recheckCarrier, { dot_number: i.dot_number, mc_number: i.mc_number }),
      auditExport: (from: string, to: string) => invoke(ch.auditExport, from, to),
      onAuditProgress: (cb: (b: number) => void) => subscribe(ch.auditProgress, cb),
      connectionState: () => invoke(ch.connectionState),
      onEvent: (cb: (e: unknown) => void) => subscribe(ch.event, cb),
      onConnectionChange: (cb: (s: string) => void) => subscribe(ch.connection, cb),
      onNavigate: (cb: (v: string) => void) => subscribe(ch.navigate, cb),
      settingsGet: () => invoke(ch.settingsGet),
      settingsSave: (i: { workerUrl: string; token?: string; openAtLogin?: boolean }) =>
        invoke(ch.settingsSave, { workerUrl: i.workerUrl, token: i.token, openAtLogin: i.openAtLogin }),
    };
    // contextBridge.exposeInMainWorld: a frozen, read-only property.
    Object.defineProperty(window, 'desk', { value: Object.freeze(desk), writable: false, configurable: false, enumerable: true });
  }, IpcChannel);
  return { store, session, opened, loginItem };
}

describe.skipIf(!hasChromium)('Settings view (Electron only) with the preload surface and main stood in for', () => {
  it('opens on key 7, passes axe, refuses a bad worker address with its real message and saves a good one', async () => {
    const settingsFile = join(settingsDir, 'settings.json');
    const page = await rig.browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const main = await standInMain(page, settingsFile);
    // As main does at launch: the saved settings (here: saved once, for this stack), then connect.
    main.session.start(await main.store.save({ workerUrl: rig.stack.intakeUrl, token: rig.stack.token }));

    await page.goto(`${rig.stack.intakeUrl}/ui/`);
    // The Electron bridge was picked (no token form), and the live feed reached the page through the pushes.
    await page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    await page.keyboard.press('7');
    await page.locator('#tab-settings[aria-selected="true"]').waitFor();
    const url = page.locator('#worker-url');
    await expect.poll(() => url.inputValue()).toBe(rig.stack.intakeUrl);
    await expect
      .poll(() => page.locator('.settings-state').textContent())
      .toBe('A token is saved. It is stored encrypted by the system keychain.');
    expect(await seriousViolations(page)).toEqual([]);
    await shootBothSizes(page, join(artifacts, 'i30-view-settings'), SIZES[0]);

    // A worker on another machine over plain http: refused by validateWorkerUrl, nothing saved.
    const error = page.locator('.view-settings [role="alert"]');
    await url.fill('http://192.0.2.10:8787');
    await page.locator('#worker-token').fill(rig.stack.token);
    await page.getByRole('button', { name: 'Save and connect' }).click();
    await expect
      .poll(() => error.textContent())
      .toBe(
        'workerUrl: use https:// for a worker on another machine (over http the token would travel in clear); http is fine for 127.0.0.1 and localhost',
      );
    expect(JSON.parse(await readFile(settingsFile, 'utf8')).workerUrl).toBe(rig.stack.intakeUrl);
    expect(main.opened).toEqual([rig.stack.intakeUrl]);
    // Axe with the error shown, too.
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(artifacts, 'i30-view-settings-refused-1440x900.png') });

    // Another address with no token: the saved one is not sent elsewhere (SettingsStore.save).
    await url.fill('https://worker.example.test');
    await page.locator('#worker-token').fill('');
    await page.getByRole('button', { name: 'Save and connect' }).click();
    await expect
      .poll(() => error.textContent())
      .toBe('the worker address changed: enter the token for the new worker (the saved one is not sent to another address)');

    // A good one: this stack's address with a trailing slash, the token again, start at login on.
    await url.fill(`${rig.stack.intakeUrl}/`);
    await page.locator('#worker-token').fill(rig.stack.token);
    await page.locator('#open-at-login').check();
    await page.getByRole('button', { name: 'Save and connect' }).click();
    await page.getByText('Saved. Connecting to the worker…').waitFor();
    await expect.poll(() => error.textContent()).toBe('');
    await expect.poll(() => page.locator('#worker-token').inputValue()).toBe('');
    await expect.poll(() => main.opened.length).toBe(2);
    await page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    const saved = JSON.parse(await readFile(settingsFile, 'utf8')) as { workerUrl: string; tokenCiphertext: string; openAtLogin: boolean };
    expect(saved.openAtLogin).toBe(true);
    expect(main.loginItem).toEqual([true]);
    // Encrypted on disk: the token itself is not in the file.
    expect(JSON.stringify(saved)).not.toContain(rig.stack.token);
    const view = main.store.view();
    expect(view).toMatchObject({ hasToken: true, canEncrypt: true, openAtLogin: true, notice: null });
    // A fresh view reads back what was saved.
    await page.reload();
    await page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    await page.keyboard.press('7');
    await expect.poll(() => page.locator('#open-at-login').isChecked()).toBe(true);
    await expect.poll(() => url.inputValue()).toBe(view.workerUrl);

    expect(errors).toEqual([]);
    main.session.stop();
    await page.close();
  }, 120_000);
});
