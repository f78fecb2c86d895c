import { describe, expect, it } from 'vitest';
import { applyOpenAtLogin, autostartEntry, type LoginItemPorts } from '../../electron/main/login-item.js';

function ports(platform: string) {
  const calls: string[] = [];
  const p: LoginItemPorts = {
    platform,
    setLoginItem: (open) => void calls.push(`login-item ${open}`),
    autostartFile: '/home/dana/.config/autostart/carrier-screen-tray.desktop',
    exec: '/home/dana/Apps/Carrier Screen-0.1.0.AppImage',
    writeFile: (path, text) => void calls.push(`write ${path}\n${text}`),
    removeFile: (path) => void calls.push(`remove ${path}`),
  };
  return { p, calls };
}

describe('start at login', () => {
  it('macOS and Windows: the OS login item, on and off', () => {
    for (const platform of ['darwin', 'win32']) {
      const { p, calls } = ports(platform);
      applyOpenAtLogin(true, p);
      applyOpenAtLogin(false, p);
      expect(calls).toEqual(['login-item true', 'login-item false']);
    }
  });

  it('Linux: an XDG autostart entry that starts the AppImage (a path with spaces, quoted), removed when off', () => {
    const { p, calls } = ports('linux');
    applyOpenAtLogin(true, p);
    expect(calls[0]).toContain('write /home/dana/.config/autostart/carrier-screen-tray.desktop');
    expect(calls[0]).toContain('Exec="/home/dana/Apps/Carrier Screen-0.1.0.AppImage"');
    expect(calls[0]).toContain('[Desktop Entry]\nType=Application');
    applyOpenAtLogin(false, p);
    expect(calls[1]).toBe('remove /home/dana/.config/autostart/carrier-screen-tray.desktop');
  });

  it('quotes what the desktop-entry spec says must be escaped', () => {
    expect(autostartEntry('/opt/cs/tray')).toContain('Exec=/opt/cs/tray\n');
    expect(autostartEntry('/opt/a "b" $c')).toContain('Exec="/opt/a \\"b\\" \\$c"');
  });
});

describe('start at login: development', () => {
  it('registers nothing when not packaged: the entry would start a bare Electron', () => {
    for (const platform of ['darwin', 'win32', 'linux']) {
      const { p, calls } = ports(platform);
      expect(applyOpenAtLogin(true, { ...p, packaged: false })).toBe('development');
      expect(calls).toEqual([]);
      expect(applyOpenAtLogin(true, { ...p, packaged: true })).toBe('set');
      expect(calls).toHaveLength(1);
    }
  });
});
