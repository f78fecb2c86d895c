/**
 * The Electron main process: glue only. Logic lives in tray-controller, tray-state,
 * notifier and settings (tested without Electron); this file wires them to Tray, Menu,
 * Notification, BrowserWindow, safeStorage and IPC. The intake token lives here and
 * nowhere else: the renderer asks through IPC and main calls the intake over HTTP.
 */
import { BrowserWindow, Menu, Notification, Tray, app, ipcMain, nativeImage, safeStorage, session } from 'electron';
import type { IpcMainInvokeEvent, MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IntakeError, type BlockInput, type ConnectionState, type DeskSettingsInput } from '../shared/bridge.js';
import { HttpBridge } from '../shared/http-bridge.js';
import { IpcChannel, type IpcResult } from '../shared/ipc-channels.js';
import { RENDERER_CSP_HEADER } from './csp.js';
import { isOwnPage } from './ipc-guard.js';
import { DASHBOARD_VIEWS, type DashboardView, type DesktopNotification, type MenuItemModel, type TrayCommand, type TrayIconState, type TrayPorts } from './ports.js';
import { SettingsStore, applyEnvOverrides, type SecretBox, type TraySettings } from './settings.js';
import { TrayController } from './tray-controller.js';

// Bundled to dist/electron/main/main.js; siblings are ../preload, ../renderer, ../assets.
const ROOT = join(__dirname, '..');
const INDEX_HTML = join(ROOT, 'renderer', 'index.html');
const INDEX_URL = pathToFileURL(INDEX_HTML).href;
const PRELOAD = join(ROOT, 'preload', 'preload.js');

const secretBox: SecretBox = {
  isAvailable: () => safeStorage.isEncryptionAvailable(),
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (cipher) => safeStorage.decryptString(Buffer.from(cipher)),
};

let tray: Tray | null = null;
let win: BrowserWindow | null = null;
let bridge: HttpBridge | null = null;
let controller: TrayController | null = null;
let settings: TraySettings | null = null;
let bridgeUnsubs: Array<() => void> = [];
// A separate profile (settings, keychain entry) for tests and for running two trays side by side.
if (process.env.CARRIER_SCREEN_USER_DATA) app.setPath('userData', process.env.CARRIER_SCREEN_USER_DATA);
const store = new SettingsStore(join(app.getPath('userData'), 'settings.json'), secretBox);

function icon(state: TrayIconState): Electron.NativeImage {
  return nativeImage.createFromPath(join(ROOT, 'assets', `tray-${state}.png`));
}

const ports: TrayPorts = {
  setTrayIcon: (state) => tray?.setImage(icon(state)),
  setTooltip: (text) => tray?.setToolTip(text),
  setMenu: (items) => tray?.setContextMenu(Menu.buildFromTemplate(items.map(toMenuItem))),
  notify: (n) => showNotification(n),
  openWindow: (view) => openWindow(view),
  quit: () => app.quit(),
};

/** Menu and notification commands; before setup there is no controller, only settings and quit. */
function runCommand(command: TrayCommand): void {
  if (controller) return void controller.run(command);
  if (command === 'quit') return ports.quit();
  openWindow('settings');
}

function toMenuItem(item: MenuItemModel): MenuItemConstructorOptions {
  if (item.kind === 'separator') return { type: 'separator' };
  const command = item.command;
  return {
    label: item.label,
    enabled: item.enabled,
    ...(command ? { click: () => runCommand(command) } : {}),
  };
}

function showNotification(n: DesktopNotification): void {
  if (!Notification.isSupported()) return;
  const note = new Notification({ title: n.title, body: n.body, urgency: n.urgency });
  note.on('click', () => runCommand(n.command));
  note.show();
}

function openWindow(view: DashboardView): void {
  if (win && !win.isDestroyed()) {
    win.webContents.send(IpcChannel.navigate, view);
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    return;
  }
  win = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    title: 'Carrier Screen',
    icon: join(ROOT, 'assets', 'app-icon.png'),
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => {
    win = null;
  });
  void win.loadFile(INDEX_HTML, { hash: `/${view}` });
}

/** Send a push to the dashboard, if it is open. */
function push(channel: string, value: unknown): void {
  if (win && !win.isDestroyed()) win.webContents.send(channel, value);
}

function connectionNow(): ConnectionState {
  return bridge ? bridge.connectionState() : 'unauthorized';
}

/** (Re)connect to the worker with the current settings. */
function connect(s: TraySettings): void {
  for (const u of bridgeUnsubs) u();
  bridgeUnsubs = [];
  controller?.stop();
  bridge?.close();
  bridge = null;
  controller = null;
  if (s.token === null) {
    ports.setTrayIcon('trouble');
    ports.setTooltip('Carrier Screen\nAdd the worker token in Settings');
    ports.setMenu([
      { kind: 'item', label: 'Not set up: add the worker URL and token', enabled: false },
      { kind: 'separator' },
      { kind: 'item', label: 'Settings…', enabled: true, command: 'settings' },
      { kind: 'item', label: 'Quit Carrier Screen', enabled: true, command: 'quit' },
    ]);
    push(IpcChannel.connection, 'unauthorized');
    return;
  }
  bridge = new HttpBridge({ baseUrl: s.workerUrl, token: s.token });
  bridgeUnsubs.push(bridge.onEvent((e) => push(IpcChannel.event, e)));
  bridgeUnsubs.push(bridge.onConnectionChange((state) => push(IpcChannel.connection, state)));
  controller = new TrayController({
    bridge,
    ports,
    workerUrl: s.workerUrl,
    onError: (err) => console.error('tray:', err instanceof Error ? err.message : err),
  });
  void controller.start();
}

function result<T>(fn: () => Promise<T>): Promise<IpcResult<T>> {
  // Through then(): a bridge method that throws at once (bad input) still answers as data.
  return Promise.resolve().then(fn).then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => ({
      ok: false as const,
      error:
        err instanceof IntakeError
          ? { message: err.message, status: err.status, code: err.code, ...(err.param ? { param: err.param } : {}) }
          : { message: err instanceof Error ? err.message : String(err), status: 0, code: 'tray_error' },
    }),
  );
}

function requireBridge(): HttpBridge {
  if (!bridge) throw new IntakeError('The tray is not set up: add the worker URL and token in Settings', 0, 'not_configured');
  return bridge;
}

/** Register an IPC handler that answers only our own page. */
function handle(channel: string, fn: (...args: unknown[]) => Promise<unknown>): void {
  ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...args: unknown[]) => {
    if (!isOwnPage(event.senderFrame?.url, INDEX_URL)) throw new Error('refused: IPC from a page that is not the dashboard');
    return fn(...args);
  });
}

function registerIpc(): void {
  handle(IpcChannel.getStatus, () => result(() => requireBridge().getStatus()));
  handle(IpcChannel.listReviews, (state) => result(() => requireBridge().listReviews(state as never)));
  handle(IpcChannel.resolveReview, (id, verdict, decision) =>
    result(() => requireBridge().resolveReview(id as string, verdict as never, decision as never)),
  );
  handle(IpcChannel.listScreenings, (limit) => result(() => requireBridge().listScreenings(limit as number)));
  handle(IpcChannel.getScreening, (id) => result(() => requireBridge().getScreening(id as string)));
  handle(IpcChannel.dailyUsage, () => result(() => requireBridge().dailyUsage()));
  handle(IpcChannel.pauseQueue, () =>
    result(async () => {
      const s = await requireBridge().pauseQueue();
      void controller?.refresh();
      return s;
    }),
  );
  handle(IpcChannel.resumeQueue, () =>
    result(async () => {
      const s = await requireBridge().resumeQueue();
      void controller?.refresh();
      return s;
    }),
  );
  handle(IpcChannel.listChanges, (state) => result(() => requireBridge().listChanges(state as never)));
  handle(IpcChannel.acknowledgeChange, (id, by) =>
    result(async () => {
      const c = await requireBridge().acknowledgeChange(id as string, by as string);
      void controller?.refresh();
      return c;
    }),
  );
  handle(IpcChannel.listBlocks, (state) => result(() => requireBridge().listBlocks(state as never)));
  handle(IpcChannel.blockCarrier, (input) => {
    const i = (input ?? {}) as Partial<Record<keyof BlockInput, unknown>>;
    const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
    const dot = text(i.dot_number);
    const mc = text(i.mc_number);
    return result(() =>
      requireBridge().blockCarrier({ ...(dot !== undefined ? { dot_number: dot } : {}), ...(mc !== undefined ? { mc_number: mc } : {}), by: String(i.by ?? ''), reason: String(i.reason ?? '') }),
    );
  });
  handle(IpcChannel.liftBlock, (carrier, by) => result(() => requireBridge().liftBlock(carrier as string, by as string)));
  handle(IpcChannel.listDecisions, (state) => result(() => requireBridge().listDecisions(state as never)));
  handle(IpcChannel.revokeDecision, (id, by, note) => result(() => requireBridge().revokeDecision(id as string, by as string, note as string)));
  handle(IpcChannel.recheckCarrier, (input) => {
    const i = (input ?? {}) as Partial<Record<'dot_number' | 'mc_number', unknown>>;
    const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
    const dot = text(i.dot_number);
    const mc = text(i.mc_number);
    return result(() => requireBridge().recheckCarrier({ ...(dot !== undefined ? { dot_number: dot } : {}), ...(mc !== undefined ? { mc_number: mc } : {}) }));
  });
  handle(IpcChannel.auditCsv, (from, to) => result(() => requireBridge().auditCsv(from as string, to as string)));
  handle(IpcChannel.connectionState, async () => connectionNow());
  handle(IpcChannel.settingsGet, () => result(async () => store.view()));
  handle(IpcChannel.settingsSave, (input) =>
    result(async () => {
      const i = (input ?? {}) as Partial<DeskSettingsInput>;
      settings = await store.save({ workerUrl: String(i.workerUrl ?? ''), ...(typeof i.token === 'string' ? { token: i.token } : {}) });
      connect(settings);
      return store.view();
    }),
  );
}

function harden(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP_HEADER] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => openWindow('desk'));
  // A tray app lives on with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', () => {
    controller?.stop();
    bridge?.close();
  });
  void app.whenReady().then(async () => {
    harden();
    registerIpc();
    tray = new Tray(icon('trouble'));
    tray.setToolTip('Carrier Screen');
    tray.on('click', () => runCommand('open-desk'));
    try {
      settings = applyEnvOverrides(await store.load(), process.env);
    } catch (err) {
      console.error('tray settings:', err instanceof Error ? err.message : err);
      settings = applyEnvOverrides({ workerUrl: 'http://127.0.0.1:8787', token: null }, process.env);
    }
    connect(settings);
    // `--open=desk|queue|quota|changes|decisions|settings` shows the dashboard at start (autostart entries, tests).
    const open = process.argv.find((a) => a.startsWith('--open='))?.slice('--open='.length);
    if (settings.token === null) openWindow('settings');
    else if (open && (DASHBOARD_VIEWS as readonly string[]).includes(open)) openWindow(open as DashboardView);
  });
}
