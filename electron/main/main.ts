/**
 * The Electron main process: glue only. Logic lives in tray-controller, tray-state, notifier,
 * notification-gate, tray-session, settings, login-item, lifecycle, notification-retention,
 * audit-export, update-check and rotating-log (tested without Electron); this file wires them to
 * Tray, Menu, Notification, BrowserWindow, dialog, safeStorage and IPC. The intake token lives
 * here and nowhere else: the renderer asks through IPC and main calls the intake over HTTP.
 */
import {
  BrowserWindow,
  Menu,
  Notification,
  Tray,
  app,
  dialog,
  ipcMain,
  nativeImage,
  net,
  powerMonitor,
  safeStorage,
  session,
  shell,
} from 'electron';
import type { IpcMainInvokeEvent, MenuItemConstructorOptions } from 'electron';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IntakeError, type AuditSaved, type ConnectionState } from '../shared/bridge.js';
import { HttpBridge } from '../shared/http-bridge.js';
import { externalLinkAllowed } from '../shared/fmcsa-links.js';
import { IpcChannel } from '../shared/ipc-channels.js';
import { RENDERER_CSP_HEADER } from './csp.js';
import { applicationMenuTemplate } from './app-menu.js';
import { defaultAuditFileName, defaultAuditRange, exportAuditCsv } from './audit-export.js';
import { formatBytes } from '../shared/byte-size.js';
import { wireBridge } from './bridge-wiring.js';
import { ipcHandlers } from './ipc-handlers.js';
import { isOwnFrame } from './ipc-guard.js';
import { CrashRecovery, QUIT_QUESTION, dockWanted, firstRunHint, firstTime, onQuitRequest } from './lifecycle.js';
import { applyOpenAtLogin, type LoginItemPorts } from './login-item.js';
import { NotificationRetention } from './notification-retention.js';
import { permissionAllowed } from './permissions.js';
import {
  DASHBOARD_VIEWS,
  type DashboardView,
  type DesktopNotification,
  type MenuItemModel,
  type TrayCommand,
  type TrayIconState,
  type TrayPorts,
} from './ports.js';
import { RotatingLog } from './rotating-log.js';
import { SettingsStore, applyEnvOverrides, encryptionUsable, type SecretBox, type TraySettings } from './settings.js';
import { TrayController } from './tray-controller.js';
import { TraySession } from './tray-session.js';
import { checkForUpdates, updateFeedUrl, type UpdaterPort } from './update-check.js';
import { CA_FILE_ENV, workerFetch, type FetchLike } from './worker-fetch.js';
import electronUpdater from 'electron-updater';

// Bundled to dist/electron/main/main.js; siblings are ../preload, ../renderer, ../assets.
const ROOT = join(__dirname, '..');
const INDEX_HTML = join(ROOT, 'renderer', 'index.html');
const PRELOAD = join(ROOT, 'preload', 'preload.js');
/** The installer's appId: Windows drops toasts of an app whose id does not match its shortcut. */
const APP_ID = 'com.carrierscreen.tray';

const secretBox: SecretBox = {
  // Linux without a secret service "encrypts" with a hard-coded key: not encryption.
  isAvailable: () =>
    encryptionUsable(
      safeStorage.isEncryptionAvailable(),
      process.platform,
      process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined,
    ),
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (cipher) => safeStorage.decryptString(Buffer.from(cipher)),
};

/** The connection to one worker: its bridge, the tray controller on it, and the dashboard's subscriptions. */
interface Live {
  bridge: HttpBridge;
  controller: TrayController;
  close(): void;
}

let tray: Tray | null = null;
let win: BrowserWindow | null = null;
/** Set by the tray's own Quit: then nothing asks. */
let quittingFromTray = false;
/** The OS is shutting down or logging out: nothing asks either. */
let systemShutdown = false;
let exporting: AbortController | null = null;
// A separate profile (settings, keychain entry) for tests and for running two trays side by side.
if (process.env.CARRIER_SCREEN_USER_DATA) app.setPath('userData', process.env.CARRIER_SCREEN_USER_DATA);
const store = new SettingsStore(join(app.getPath('userData'), 'settings.json'), secretBox);
// The platform's logs folder (~/Library/Logs/Carrier Screen, %APPDATA%\Carrier Screen\logs, ~/.config/Carrier Screen/logs).
const log = new RotatingLog(join(logsFolder(), 'tray.log'));
const retention = new NotificationRetention(process.platform);
const crashes = new CrashRecovery();

function logsFolder(): string {
  try {
    app.setAppLogsPath();
    return app.getPath('logs');
  } catch {
    return join(app.getPath('userData'), 'logs');
  }
}

function icon(state: TrayIconState): Electron.NativeImage {
  return nativeImage.createFromPath(join(ROOT, 'assets', `tray-${state}.png`));
}

const ports: TrayPorts = {
  setTrayIcon: (state) => tray?.setImage(icon(state)),
  setTooltip: (text) => tray?.setToolTip(text),
  setMenu: (items) => tray?.setContextMenu(Menu.buildFromTemplate(items.map(toMenuItem))),
  notify: (n) => showNotification(n),
  openWindow: (view) => openWindow(view),
  exportAudit: () => void exportAudit().catch(() => undefined), // the failure was told as a notification
  quit: () => {
    quittingFromTray = true;
    app.quit();
  },
};

function live(): Live | null {
  return traySession.current().connection;
}

const traySession = new TraySession<Live>({
  open: (workerUrl, token) => {
    // net.fetch: the system proxy and the OS trust store, as the user's browser would use; with
    // CARRIER_SCREEN_CA_FILE (a broker's own CA), Node's TLS trusting that CA (worker-fetch.ts).
    let fetchWorker: FetchLike;
    try {
      fetchWorker = workerFetch({ caFile: process.env[CA_FILE_ENV], fallback: (input, init) => net.fetch(input, init) });
    } catch (err) {
      log.error('tray CA file', err);
      // Every call fails saying why, so the tray shows it instead of a bare certificate error.
      fetchWorker = () => Promise.reject(err);
    }
    const bridge = new HttpBridge({ baseUrl: workerUrl, token, fetch: fetchWorker });
    const unsubs = wireBridge(bridge, {
      connection: (state) => push(IpcChannel.connection, state),
      event: (e) => push(IpcChannel.event, e),
    });
    unsubs.push(bridge.onConnectionChange((state) => log.info(`worker ${workerUrl}: ${state}`)));
    const controller = new TrayController({
      bridge,
      ports,
      workerUrl,
      appVersion: app.getVersion(),
      onError: (err) => log.error('tray', err),
    });
    void controller.start();
    return {
      bridge,
      controller,
      close: () => {
        for (const u of unsubs) u();
        controller.stop();
        bridge.close();
      },
    };
  },
  showUnconfigured: () => {
    ports.setTrayIcon('trouble');
    ports.setTooltip('Carrier Screen\nAdd the worker token in Settings');
    ports.setMenu([
      { kind: 'item', label: 'Not set up: add the worker URL and token', enabled: false },
      { kind: 'separator' },
      { kind: 'item', label: 'Settings…', enabled: true, command: 'settings' },
      { kind: 'item', label: `Carrier Screen ${app.getVersion()}`, enabled: false },
      { kind: 'item', label: 'Quit Carrier Screen', enabled: true, command: 'quit' },
    ]);
    push(IpcChannel.connection, 'unconfigured');
  },
  // A reload drops every list the dashboard holds of the old worker (and its "done elsewhere" notices).
  // After this turn: the Save invoke's answer goes out first (it is sent when the handler resolves).
  resetDashboard: () =>
    void setTimeout(() => {
      if (win && !win.isDestroyed()) win.webContents.reload();
    }, 0),
  setOpenAtLogin: (open) => log.info(`start at login ${open}: ${applyOpenAtLogin(open, loginItemPorts)}`),
  save: (input) => store.save(input),
});

/** Menu and notification commands; before setup there is no controller, only settings and quit. */
function runCommand(command: TrayCommand): void {
  const controller = live()?.controller;
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
  packaged: app.isPackaged,
  setLoginItem: (open) => app.setLoginItemSettings({ openAtLogin: open }),
  autostartFile: join(process.env.XDG_CONFIG_HOME ?? join(app.getPath('home'), '.config'), 'autostart', 'carrier-screen-tray.desktop'),
  exec: process.execPath,
  writeFile: (path, text) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  },
  removeFile: (path) => rmSync(path, { force: true }),
};

function showNotification(n: DesktopNotification): void {
  toast(n.title, n.body, n.urgency, () => runCommand(n.command));
}

/** A notification, held (NotificationRetention) so that its click still works after a time-out. */
function toast(title: string, body: string, urgency: 'normal' | 'critical', onClick: () => void): void {
  if (!Notification.isSupported()) return void log.info(`notification (not supported here): ${title}: ${body}`);
  const note = new Notification({ title, body, urgency });
  retention.show(note as unknown as Parameters<NotificationRetention['show']>[0], onClick);
}

/**
 * Export audit CSV… (the tray menu: the last 31 days; the dashboard: its range): a save dialog, then
 * streamed into that file with progress in the tray and the dashboard. null: cancelled.
 */
async function exportAudit(asked?: { from: string; to: string }): Promise<AuditSaved | null> {
  const current = live();
  if (!current) throw new IntakeError('The tray is not set up: add the worker URL and token in Settings', 0, 'not_configured');
  if (exporting) throw new IntakeError('An audit export is already running', 0, 'export_running');
  const range = asked ?? defaultAuditRange(new Date());
  const options = {
    title: `Export audit CSV (${range.from} to ${range.to})`,
    defaultPath: join(app.getPath('documents'), defaultAuditFileName(range)),
    filters: [{ name: 'CSV', extensions: ['csv'] }],
  };
  const pick = win && !win.isDestroyed() && asked ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
  if (pick.canceled || !pick.filePath) return null;
  const file = pick.filePath;
  exporting = new AbortController();
  let shownAt = 0;
  current.controller.setActivity('Exporting audit CSV…');
  try {
    const bytes = await exportAuditCsv({
      bridge: current.bridge,
      ...range,
      file,
      signal: exporting.signal,
      onProgress: (b) => {
        // Once a second: a rebuilt menu flickers while open.
        const now = Date.now();
        if (now - shownAt < 1000) return;
        shownAt = now;
        current.controller.setActivity(`Exporting audit CSV: ${formatBytes(b)}…`);
        push(IpcChannel.auditProgress, b);
        if (win && !win.isDestroyed()) win.setProgressBar(2); // indeterminate: the total is not known
      },
    });
    log.info(`audit export ${range.from}..${range.to}: ${bytes} bytes to ${file}`);
    toast('Audit CSV saved', `${formatBytes(bytes)} in ${file}. Click to show it.`, 'normal', () => shell.showItemInFolder(file));
    return { file, bytes };
  } catch (err) {
    log.error('audit export', err);
    if (!asked) toast('Audit export failed', err instanceof Error ? err.message : String(err), 'normal', () => undefined);
    throw err;
  } finally {
    exporting = null;
    current.controller.setActivity(null);
    if (win && !win.isDestroyed()) win.setProgressBar(-1);
  }
}

/** macOS: a Dock icon and Cmd-Tab entry while the dashboard is open (LSUIElement hides them otherwise). */
function syncDock(): void {
  const want = dockWanted(process.platform, win !== null && !win.isDestroyed());
  if (want === 'show') void app.dock?.show();
  else if (want === 'hide') app.dock?.hide();
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
    syncDock();
  });
  win.webContents.on('render-process-gone', (_e, details) => {
    const what = crashes.onGone(details.reason);
    if (what.action === 'none') return;
    log.error(`renderer gone: ${details.reason} (exit code ${details.exitCode}); ${what.action}`);
    toast('Carrier Screen dashboard', what.message, 'normal', () => openWindow('desk'));
    if (what.action === 'reload' && win && !win.isDestroyed()) win.webContents.reload();
    else if (what.action === 'close') win?.destroy();
  });
  syncDock();
  void win.loadFile(INDEX_HTML, { hash: `/${view}` });
}

/** Send a push to the dashboard, if it is open. */
function push(channel: string, value: unknown): void {
  if (win && !win.isDestroyed()) win.webContents.send(channel, value);
}

function connectionNow(): ConnectionState {
  return live()?.bridge.connectionState() ?? 'unconfigured';
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
  const handlers = ipcHandlers({
    bridge: () => live()?.bridge,
    controller: () => live()?.controller,
    connectionState: connectionNow,
    exportAudit,
    settingsView: () => store.view(),
    saveSettings: (input) => traySession.save(input),
  });
  for (const [channel, fn] of Object.entries(handlers)) handle(channel, fn);
}

function harden(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP_HEADER] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionAllowed(permission)));
  session.defaultSession.setPermissionCheckHandler((_wc, permission) => permissionAllowed(permission));
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    // The carrier page's FMCSA links (SAFER, L&I) open in the system browser; nothing else opens.
    contents.setWindowOpenHandler(({ url }) => {
      if (externalLinkAllowed(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
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
  app.on('before-quit', (event) => {
    const decision = onQuitRequest({
      platform: process.platform,
      fromTray: quittingFromTray,
      systemShutdown,
      ask: () =>
        dialog.showMessageBoxSync({
          type: 'question',
          message: QUIT_QUESTION.message,
          detail: QUIT_QUESTION.detail,
          buttons: [...QUIT_QUESTION.buttons],
          defaultId: 0,
          cancelId: 0,
        }) === 1
          ? 'quit'
          : 'keep',
    });
    if (decision === 'hide') {
      event.preventDefault();
      win?.close();
      return;
    }
    exporting?.abort();
    traySession.stop();
    log.info('quit');
  });
  void app.whenReady().then(async () => {
    log.info(`start ${app.getVersion()} (Electron ${process.versions.electron}, ${process.platform} ${process.arch})`);
    powerMonitor.on('shutdown', () => {
      systemShutdown = true;
    });
    harden();
    registerIpc();
    const menu = applicationMenuTemplate(process.platform);
    Menu.setApplicationMenu(menu ? Menu.buildFromTemplate(menu) : null);
    tray = new Tray(icon('trouble'));
    tray.setToolTip('Carrier Screen');
    // macOS shows the context menu on a click: opening the window under it too would be two things at once.
    if (process.platform !== 'darwin') tray.on('click', () => runCommand('open-desk'));
    let settings: TraySettings;
    try {
      settings = applyEnvOverrides(await store.load(), process.env);
    } catch (err) {
      log.error('tray settings', err);
      settings = applyEnvOverrides({ workerUrl: 'http://127.0.0.1:8787', token: null, openAtLogin: false }, process.env);
    }
    // Start at login is not applied here: the OS keeps the user's last choice (tray-session.ts).
    traySession.start(settings);
    // The icon may be hidden (Windows 11 overflow, GNOME without AppIndicator): say once where it is.
    if (
      firstTime(join(app.getPath('userData'), `first-run-${process.platform}`), { exists: existsSync, write: (p) => writeFileSync(p, '') })
    ) {
      const hint = firstRunHint(process.platform);
      toast(hint.title, hint.body, 'normal', () => openWindow('desk'));
    }
    void updateCheck();
    // `--open=desk|queue|quota|changes|decisions|settings` shows the dashboard at start (autostart entries, tests).
    const open = process.argv.find((a) => a.startsWith('--open='))?.slice('--open='.length);
    if (settings.token === null) openWindow('settings');
    else if (open && (DASHBOARD_VIEWS as readonly string[]).includes(open)) openWindow(open as DashboardView);
  });
}

/** electron-updater picks the updater of the installed package type (deb, rpm, NSIS, dmg) when first read. */
const loadUpdater = (): UpdaterPort => electronUpdater.autoUpdater;

async function updateCheck(): Promise<void> {
  let url: string | null;
  try {
    url = updateFeedUrl(process.env);
  } catch (err) {
    return log.error('update check', err);
  }
  const outcome = await checkForUpdates({ url, packaged: app.isPackaged, loadUpdater, log: (line) => log.info(line) });
  if (outcome !== 'off') log.info(`update check: ${outcome}`);
}
