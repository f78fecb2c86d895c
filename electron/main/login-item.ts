/**
 * "Start at login" (a setting): macOS and Windows through app.setLoginItemSettings; Linux, which
 * Electron does not cover, through an XDG autostart entry (~/.config/autostart/*.desktop).
 * No Electron import here: main.ts passes the ports.
 */

export interface LoginItemPorts {
  platform: string;
  /** app.setLoginItemSettings({ openAtLogin }) (macOS, Windows). */
  setLoginItem(open: boolean): void;
  /** Linux: where the autostart entry goes. */
  autostartFile: string;
  /** Linux: what the entry starts (the AppImage when run from one, else the executable). */
  exec: string;
  writeFile(path: string, text: string): void;
  removeFile(path: string): void;
}

/** The XDG desktop entry that starts the tray at login. */
export function autostartEntry(exec: string): string {
  // Desktop-entry Exec quoting: a path with spaces goes in double quotes, with \ " ` $ escaped.
  const quoted = /[\s"'\\`$]/.test(exec) ? `"${exec.replace(/[\\"`$]/g, (c) => `\\${c}`)}"` : exec;
  return ['[Desktop Entry]', 'Type=Application', 'Name=Carrier Screen', 'Comment=Carrier screening tray for dispatchers', `Exec=${quoted}`, 'X-GNOME-Autostart-enabled=true', 'Terminal=false', ''].join('\n');
}

export function applyOpenAtLogin(open: boolean, ports: LoginItemPorts): void {
  if (ports.platform === 'darwin' || ports.platform === 'win32') return ports.setLoginItem(open);
  if (ports.platform === 'linux') {
    if (open) ports.writeFile(ports.autostartFile, autostartEntry(ports.exec));
    else ports.removeFile(ports.autostartFile);
  }
}
