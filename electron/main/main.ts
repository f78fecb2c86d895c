/**
 * The Electron main process: glue only. Logic lives in tray-controller, tray-state,
 * notifier and settings (tested without Electron); this file wires them to Tray, Menu,
 * Notification, BrowserWindow, safeStorage and IPC. The intake token lives here and
 * nowhere else: the renderer asks through IPC and main calls the intake over HTTP.
 */
import { BrowserWindow, Menu, Notification, Tray, app, ipcMain, nativeImage, net, safeStorage, session } from 'electron';
import type { IpcMainInvokeEvent, MenuItemConstructorOptions } from 'electron';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IntakeError, type BlockInput, type ConnectionState, type DeskSettingsInput } from '../shared/bridge.js';
import { HttpBridge } from '../shared/http-bridge.js';
import { IpcChannel, type IpcResult } from '../shared/ipc-channels.js';
import { RENDERER_CSP_HEADER } from './csp.js';
import { applicationMenuTemplate } from './app-menu.js';
import { wireBridge } from './bridge-wiring.js';
import { isOwnFrame } from './ipc-guard.js';
import { applyOpenAtLogin, type LoginItemPorts } from './login-item.js';
import { DASHBOARD_VIEWS, type DashboardView, type DesktopNotification, type MenuItemModel, type TrayCommand, type TrayIconState, type TrayPorts } from './ports.js';
import { SettingsStore, applyEnvOverrides, encryptionUsable, type SecretBox, type TraySettings } from './settings.js';
import { TrayController } from './tray-controller.js';

// Bundled to dist/electron/main/main.js; siblings are ../preload, ../renderer, ../assets.
const ROOT = join(__dirname, '..');
const INDEX_HTML = join(ROOT, 'renderer', 'index.html');
const PRELOAD = join(ROOT, 'preload', 'preload.js');
/** The installer's appId: Windows drops toasts of an app whose id does not match its shortcut. */
const APP_ID = 'com.carrierscreen.tray';

const secretBox: SecretBox = {
  // Linux without a secret service "encrypts" with a hard-coded key: not encryption.
  isAvailable: () =>
    encryptionUsable(safeStorage.isEncryptionAvailable(), process.platform, process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined),
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

const loginItemPorts: LoginItemPorts = {
  platform: process.platform,
  setLoginItem: (open) => app.setLoginItemSettings({ openAtLogin: open }),
  autostartFile: join(process.env.XDG_CONFIG_HOME ?? join(app.getPath('home'), '.config'), 'autostart', 'carrier-screen-tray.desktop'),
  exec: process.env.APPIMAGE ?? process.execPath,
  writeFile: (path, text) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  },
  removeFile: (path) => rmSync(path, { force: true }),
};

/** Shown notifications, held until they close: Electron holds them weakly, and a collected one loses its click handler. */
const shown = new Set<Notification>();

function showNotification(n: DesktopNotification): void {
  if (!Notification.isSupported()) return;
  const note = new Notification({ title: n.title, body: n.body, urgency: n.urgency });
  shown.add(note);
  const forget = (): void => void shown.delete(note);
  note.on('click', () => {
    forget();
    runCommand(n.command);
  });
  note.on('close', forget);
  note.on('failed', forget);
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
  return bridge ? bridge.connectionState() : 'unconfigured';
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
    push(IpcChannel.connection, 'unconfigured');
    return;
  }
  // net.fetch: the system proxy and the OS trust store, as the user's browser would use.
  bridge = new HttpBridge({ baseUrl: s.workerUrl, token: s.token, fetch: (input, init) => net.fetch(input, init) });
  bridgeUnsubs = wireBridge(bridge, { connection: (state) => push(IpcChannel.connection, state), event: (e) => push(IpcChannel.event, e) });
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
          ? { message: err.message, status: err.status, code: err.code, ...(err.param ? { param: err.param } : {}), ...(err.review ? { review: err.review } : {}) }
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
    const main = win && !win.isDestroyed() ? win.webContents.mainFrame : null;
    if (!isOwnFrame(event.senderFrame, main)) throw new Error('refused: IPC from a frame that is not the dashboard');
    return fn(...args);
  });
}

function registerIpc(): void {
  handle(IpcChannel.getStatus, () => result(() => requireBridge().getStatus()));
  handle(IpcChannel.whoAmI, () => result(() => requireBridge().whoAmI()));
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
      const c = await requireBridge().acknowledgeChange(id as string, by as string | null);
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
  handle(IpcChannel.revokeDecision, (id, by, note) => result(() => requireBridge().revokeDecision(id as string, by as string | null, note as string)));
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
      const before = settings;
      settings = await store.save({
        workerUrl: String(i.workerUrl ?? ''),
        ...(typeof i.token === 'string' ? { token: i.token } : {}),
        ...(typeof i.openAtLogin === 'boolean' ? { openAtLogin: i.openAtLogin } : {}),
      });
      applyOpenAtLogin(settings.openAtLogin, loginItemPorts);
      if (before?.workerUrl !== settings.workerUrl || before?.token !== settings.token) connect(settings);
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
  // Windows: toasts show only for an app whose id matches its Start-menu shortcut (the installer's appId).
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  app.on('second-instance', () => openWindow('desk'));
  // macOS: launching the app again (Finder, Spotlight) while it runs opens the dashboard.
  // No window before ready: BrowserWindow would throw.
  app.on('activate', () => {
    if (app.isReady()) openWindow('desk');
  });
  // A tray app lives on with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', () => {
    controller?.stop();
    bridge?.close();
  });
  void app.whenReady().then(async () => {
    harden();
    registerIpc();
    const menu = applicationMenuTemplate(process.platform);
    Menu.setApplicationMenu(menu ? Menu.buildFromTemplate(menu) : null);
    tray = new Tray(icon('trouble'));
    tray.setToolTip('Carrier Screen');
    // macOS shows the context menu on a click: opening the window under it too would be two things at once.
    if (process.platform !== 'darwin') tray.on('click', () => runCommand('open-desk'));
    try {
      settings = applyEnvOverrides(await store.load(), process.env);
    } catch (err) {
      console.error('tray settings:', err instanceof Error ? err.message : err);
      settings = applyEnvOverrides({ workerUrl: 'http://127.0.0.1:8787', token: null, openAtLogin: false }, process.env);
    }
    applyOpenAtLogin(settings.openAtLogin, loginItemPorts);
    connect(settings);
    // `--open=desk|queue|quota|changes|decisions|settings` shows the dashboard at start (autostart entries, tests).
    const open = process.argv.find((a) => a.startsWith('--open='))?.slice('--open='.length);
    if (settings.token === null) openWindow('settings');
    else if (open && (DASHBOARD_VIEWS as readonly string[]).includes(open)) openWindow(open as DashboardView);
  });
}
