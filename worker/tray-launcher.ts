import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `carrier-screen tray`: build the tray bundles and run them under Electron, when its binary is
 * installed. Paths are the package's own (not the current directory's), and Electron gets an
 * allow-listed environment: the /v1 API key and other worker secrets never reach it.
 */

/** This package's root: dist/worker/tray-launcher.js → ../.. (worker/ under tsx → ..). */
export function packageRoot(from = fileURLToPath(import.meta.url)): string {
  const here = dirname(from);
  return existsSync(join(here, '..', 'package.json')) ? resolve(here, '..') : resolve(here, '..', '..');
}

/**
 * The installed Electron binary, or null. Read from the electron package's path.txt, which its
 * install script writes: `require('electron')` would instead try to download a missing binary
 * (Electron 45), from a network the machine may not reach.
 */
export function installedElectron(root: string): string | null {
  let dir: string;
  try {
    dir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
  } catch {
    return null;
  }
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

/** What Electron needs from the environment to draw a window on this desktop, and nothing else. */
const PASS =
  /^(PATH|HOME|USER|LOGNAME|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|TEMP|TMP|DISPLAY|WAYLAND_DISPLAY|XAUTHORITY|XDG_[A-Z_]+|DBUS_SESSION_BUS_ADDRESS|DESKTOP_SESSION|GNOME_[A-Z_]+|KDE_[A-Z_]+|APPDATA|LOCALAPPDATA|USERPROFILE|SYSTEMROOT|SystemRoot|WINDIR|COMSPEC|PATHEXT|PROGRAMFILES|ProgramFiles|HTTPS?_PROXY|https?_proxy|NO_PROXY|no_proxy|INTAKE_URL|INTAKE_TOKEN|CARRIER_SCREEN_USER_DATA|CARRIER_SCREEN_CA_FILE|ELECTRON_[A-Z_]+)$/;

export function electronEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => PASS.test(k)));
}

export async function runTray(o: { args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  const root = packageRoot();
  const electronBin = installedElectron(root);
  if (!electronBin) {
    process.stderr.write(
      'carrier-screen tray: the Electron binary is not installed (npm ci leaves it out): run `node node_modules/electron/install.js` once, or install the packaged tray app\n',
    );
    return 2;
  }
  const build = spawnSync(process.execPath, [join(root, 'electron', 'build.mjs')], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) return build.status ?? 1;
  const run = spawnSync(electronBin, [join(root, 'dist', 'electron'), ...(o.args ?? [])], {
    stdio: 'inherit',
    env: electronEnv(o.env ?? process.env),
  });
  return run.status ?? 0;
}
