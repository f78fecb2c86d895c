import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';

/** `carrier-screen tray`: build the tray bundles and run them under Electron, when it is installed. */
export async function runTray(): Promise<number> {
  const require = createRequire(import.meta.url);
  let electronBin: string;
  try {
    electronBin = require('electron') as unknown as string;
  } catch {
    electronBin = '';
  }
  if (!electronBin || !existsSync(electronBin)) {
    process.stderr.write(
      'carrier-screen: the Electron binary is not installed (npm ci ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1?).\n' +
        '  Install it with: npm ci   (without ELECTRON_SKIP_BINARY_DOWNLOAD), or install the packaged tray app.\n',
    );
    return 2;
  }
  const build = spawnSync(process.execPath, ['electron/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) return build.status ?? 1;
  const run = spawnSync(electronBin, ['dist/electron'], { stdio: 'inherit' });
  return run.status ?? 0;
}
