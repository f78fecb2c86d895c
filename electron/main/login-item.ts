/**
 * "Start at login" (a setting): macOS and Windows through app.setLoginItemSettings; Linux, which
 * Electron does not cover, through an XDG autostart entry (~/.config/autostart/*.desktop).
 * No Electron import here: main.ts passes the ports.
 */

export interface LoginItemPorts {
  platform: string;
  /**
   * Whether this is an installed app (app.isPackaged). In development the entry would start a
   * bare Electron with no app: nothing is registered. Absent: packaged.
   */
  packaged?: boolean;
  /** app.setLoginItemSettings({ openAtLogin }) (macOS, Windows). */
  setLoginItem(open: boolean): void;
  /** Linux: where the autostart entry goes. */
  autostartFile: string;
  /** Linux: what the entry starts (the installed executable). */
  exec: string;
  writeFile(path: string, text: string): void;
  removeFile(path: string): void;
}

/** The XDG desktop entry that starts the tray at login. */
export function autostartEntry(exec: string): string {
  // Desktop-entry Exec quoting: a path with spaces goes in double quotes, with \ " ` $ escaped.
  const quoted = /[\s"'\\`$]/.test(exec) ? `"${exec.replace(/[\\"`$]/g, (c) => `\\${c}`)}"` : exec;
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Carrier Screen',
    'Comment=Carrier screening tray for dispatchers',
    `Exec=${quoted}`,
    'X-GNOME-Autostart-enabled=true',
    'Terminal=false',
    '',
  ].join('\n');
}

/**
 * Register (or remove) the login entry. Called only when the user changes the setting: at launch
 * the OS keeps what they last chose, there or here (Windows lets them turn it off in Task Manager;
 * writing it again at every launch would override them). Answers whether anything was written.
 */
export function applyOpenAtLogin(open: boolean, ports: LoginItemPorts): 'set' | 'development' | 'unsupported' {
  if (ports.packaged === false) return 'development';
  if (ports.platform === 'darwin' || ports.platform === 'win32') {
    ports.setLoginItem(open);
    return 'set';
  }
  if (ports.platform === 'linux') {
    if (open) ports.writeFile(ports.autostartFile, autostartEntry(ports.exec));
    else ports.removeFile(ports.autostartFile);
    return 'set';
  }
  return 'unsupported';
}
