/**
 * A recording stand-in for the `electron` module, for running the bundled tray main under plain
 * Node where the Electron binary cannot be had. It implements only what main.ts calls and records
 * it in `state`; the driver in test/unit/tray-main-glue.test.ts reads that back. It checks the
 * glue's wiring, not Electron: what Electron itself does is listed as unverified in electron/README.md.
 */
const { EventEmitter } = require('node:events');
const { join } = require('node:path');

const state = {
  paths: {},
  loginItemCalls: [],
  handlers: {},
  permissionRequest: null,
  permissionCheck: null,
  headersHook: null,
  trayMenus: [],
  tooltips: [],
  notifications: [],
  windows: [],
  sent: [],
  dock: [],
  appMenu: undefined,
};

const appEvents = new EventEmitter();
const app = Object.assign(appEvents, {
  isPackaged: true,
  setPath: (k, v) => void (state.paths[k] = v),
  getPath: (k) => state.paths[k] ?? join(state.paths.userData ?? '/tmp', k),
  setAppLogsPath: () => void (state.paths.logs = join(state.paths.userData, 'logs')),
  requestSingleInstanceLock: () => true,
  setAppUserModelId: () => undefined,
  whenReady: () => Promise.resolve(),
  isReady: () => true,
  getVersion: () => '9.8.7',
  quit: () => void (state.quit = (state.quit ?? 0) + 1),
  setLoginItemSettings: (s) => void state.loginItemCalls.push(s),
  dock: { show: async () => void state.dock.push('show'), hide: () => void state.dock.push('hide') },
});

class WebContents extends EventEmitter {
  constructor() {
    super();
    this.mainFrame = { url: 'file:///opt/Carrier%20Screen/resources/app.asar/renderer/index.html#/settings' };
    this.reloads = 0;
  }
  send(channel, value) {
    state.sent.push([channel, value]);
  }
  reload() {
    this.reloads++;
  }
}

class BrowserWindow extends EventEmitter {
  constructor(opts) {
    super();
    this.opts = opts;
    this.webContents = new WebContents();
    this.destroyed = false;
    state.windows.push(this);
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return false;
  }
  loadFile(file, o) {
    this.loaded = [file, o];
    return Promise.resolve();
  }
  show() {}
  focus() {}
  restore() {}
  close() {
    this.destroyed = true;
    this.emit('closed');
  }
  destroy() {
    this.close();
  }
  setProgressBar() {}
}

class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(o) {
    super();
    this.o = o;
  }
  show() {
    state.notifications.push(this.o);
  }
}

class Tray extends EventEmitter {
  setImage() {}
  setToolTip(t) {
    state.tooltips.push(t);
  }
  setContextMenu(m) {
    state.trayMenus.push(m);
  }
}

module.exports = {
  state,
  app,
  BrowserWindow,
  Notification,
  Tray,
  Menu: { buildFromTemplate: (t) => t, setApplicationMenu: (m) => void (state.appMenu = m) },
  nativeImage: { createFromPath: (p) => ({ path: p }) },
  net: { fetch: (input, init) => fetch(input, init) },
  ipcMain: { handle: (channel, fn) => void (state.handlers[channel] = fn) },
  dialog: { showMessageBoxSync: () => 0, showSaveDialog: async () => ({ canceled: true }) },
  shell: { showItemInFolder: () => undefined },
  powerMonitor: new EventEmitter(),
  safeStorage: {
    isEncryptionAvailable: () => false,
    getSelectedStorageBackend: () => 'basic_text',
    encryptString: () => Buffer.alloc(0),
    decryptString: () => '',
  },
  session: {
    defaultSession: {
      webRequest: { onHeadersReceived: (fn) => void (state.headersHook = fn) },
      setPermissionRequestHandler: (fn) => void (state.permissionRequest = fn),
      setPermissionCheckHandler: (fn) => void (state.permissionCheck = fn),
    },
  },
};
