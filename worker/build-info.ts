import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What is running: this package's version (package.json) and Node's. Printed by `--version`,
 * logged at start, and exported as carrier_screen_build_info.
 */
function packageVersion(): string {
  // dist/worker/build-info.js → ../../package.json; worker/build-info.ts (tests, tsx) → ../package.json.
  for (const rel of ['../../package.json', '../package.json']) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (!existsSync(path)) continue;
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'carrier-screen' && typeof pkg.version === 'string') return pkg.version;
  }
  return 'unknown';
}

export const BUILD_INFO: { readonly version: string; readonly node: string } = Object.freeze({
  version: packageVersion(),
  node: process.version,
});
