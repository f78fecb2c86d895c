import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronEnv, packageRoot } from '../../worker/tray-launcher.js';

describe('carrier-screen tray launcher', () => {
  it('gives Electron the desktop environment it needs and never the /v1 key or other worker secrets', () => {
    const env = electronEnv({
      PATH: '/usr/bin',
      HOME: '/home/dana',
      DISPLAY: ':0',
      XDG_RUNTIME_DIR: '/run/user/1000',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
      LANG: 'en_US.UTF-8',
      INTAKE_URL: 'http://127.0.0.1:8787',
      CARRIER_SCREEN_CA_FILE: '/etc/carrier-screen/tls/company-ca.pem',
      SVC_API_KEY: 'sk_live_secret',
      SVC_BASE_URL: 'https://svc.example',
      CALLBACK_SECRET: 'whsec_x',
      REDIS_URL: 'redis://:pw@host',
      NODE_OPTIONS: '--require /tmp/evil.js',
    });
    expect(Object.keys(env).sort()).toEqual([
      'CARRIER_SCREEN_CA_FILE',
      'DBUS_SESSION_BUS_ADDRESS',
      'DISPLAY',
      'HOME',
      'INTAKE_URL',
      'LANG',
      'PATH',
      'XDG_RUNTIME_DIR',
    ]);
  });

  it('finds the package root from its own file, wherever it is run from', () => {
    const root = join(import.meta.dirname, '..', '..');
    expect(packageRoot(join(root, 'dist', 'worker', 'tray-launcher.js'))).toBe(root);
    expect(packageRoot(join(root, 'worker', 'tray-launcher.ts'))).toBe(root);
  });
});
