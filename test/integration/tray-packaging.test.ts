/**
 * What goes inside the tray installer, checked by its contents: the tray bundle is packed with
 * the real electron-builder 26.17.0 (through npx, as `npm run dist` does) and a stub Electron
 * distribution (the real binary cannot be downloaded here), then read back: the packed app.asar
 * holds the tray bundle alone — no node_modules, no native module, no unpacked folder, small —
 * and the binary's fuse wire is flipped as electron-builder.yml says. The stub carries a fuse
 * wire laid out as Electron's own (sentinel, version, length, one byte a fuse) with Electron's
 * defaults, so electron-builder's @electron/fuses finds and flips it as it would the real one.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTray } from '../../electron/build.mjs';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
let packages: { code: number | null; output: string };
let run: { code: number | null; output: string };
let offline = false;

/** Electron's fuse wire: this sentinel, then the wire version (1), its length, a byte a fuse. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
] as const;
/** Electron 45's defaults, '1' on and '0' off, in wire order. */
const ELECTRON_DEFAULT_WIRE = '10110001';

function fuseWire(file: string): Record<string, boolean> {
  const buf = readFileSync(file);
  const at = buf.indexOf(FUSE_SENTINEL);
  if (at < 0) throw new Error(`no fuse wire in ${file}`);
  const pos = at + FUSE_SENTINEL.length;
  expect(buf[pos]).toBe(1);
  const length = buf[pos + 1]!;
  return Object.fromEntries(FUSES.slice(0, length).map((name, i) => [name, buf[pos + 2 + i] === 0x31]));
}

/** The version electron-builder says it packed ("packaging platform=linux arch=x64 electron=45.5.0"). */
function packedElectronVersion(output: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- electron-builder colours its key=value pairs
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  return /packaging\s+platform=linux.*?electron=(\S+)/.exec(plain)?.[1];
}

/** The file list of an asar archive: its header is a JSON tree after 16 bytes of sizes. */
function asarFiles(file: string): Array<{ path: string; size: number; unpacked: boolean }> {
  const buf = readFileSync(file);
  const jsonLength = buf.readUInt32LE(12);
  const header = JSON.parse(buf.subarray(16, 16 + jsonLength).toString('utf8')) as Node;
  interface Node {
    files?: Record<string, Node>;
    size?: number;
    unpacked?: boolean;
  }
  const out: Array<{ path: string; size: number; unpacked: boolean }> = [];
  const walk = (n: Node, prefix: string): void => {
    for (const [name, child] of Object.entries(n.files ?? {})) {
      const p = prefix ? `${prefix}/${name}` : name;
      if (child.files) walk(child, p);
      else out.push({ path: p, size: child.size ?? 0, unpacked: child.unpacked === true });
    }
  };
  walk(header, '');
  return out;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tray-pack-'));
  const app = join(dir, 'app');
  await buildTray({ outDir: app, minify: true });
  // A stub Electron distribution: what electron-builder copies and renames (the binary, a licence).
  const stub = join(dir, 'electron-stub');
  mkdirSync(join(stub, 'resources'), { recursive: true });
  writeFileSync(
    join(stub, 'electron'),
    Buffer.concat([
      Buffer.from('#!/bin/sh\necho "stub electron: the real binary cannot be downloaded here"\nexit 0\n# '),
      Buffer.from(FUSE_SENTINEL),
      Buffer.from([1, FUSES.length]),
      Buffer.from(ELECTRON_DEFAULT_WIRE),
      Buffer.from('\n'),
    ]),
  );
  chmodSync(join(stub, 'electron'), 0o755);
  writeFileSync(join(stub, 'LICENSE'), 'stub');
  const pack = (targets: string[], out: string): Promise<{ code: number | null; output: string }> =>
    new Promise((done) => {
      const args = [
        '--yes',
        'electron-builder@26.17.0',
        '--linux',
        ...targets,
        '--config',
        'electron-builder.yml',
        `-c.directories.app=${app}`,
        `-c.directories.output=${out}`,
        `-c.electronDist=${stub}`,
      ];
      // Without VITEST in its environment: electron-builder keeps quiet under vitest, and its log
      // is what names the Electron version it packed.
      const { VITEST: _vitest, ...env } = process.env;
      const p = spawn('npx', args, { cwd: root, env: { ...env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' } });
      let output = '';
      p.stdout.on('data', (c: Buffer) => (output += c.toString()));
      p.stderr.on('data', (c: Buffer) => (output += c.toString()));
      p.on('close', (code) => done({ code, output }));
    });
  run = await pack(['dir'], join(dir, 'out'));
  // The supported installers. electron-builder makes both with fpm, which it fetches from GitHub:
  // where it cannot, the run must get as far as that fetch (our metadata passed its checks).
  packages = await pack(['deb', 'rpm'], join(dir, 'pkg'));
  // Only a machine without the npm registry may skip (CI has it): say why, in one line.
  offline = run.code !== 0 && /E(NOTFOUND|AI_AGAIN|CONNREFUSED).*registry\.npmjs\.org|npm error network/i.test(run.output);
  if (offline) console.log('SKIPPED: electron-builder 26.17.0 could not be fetched from the npm registry (offline)');
}, 240_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed tray app (electron-builder 26.17.0, stub Electron)', () => {
  it('packs without error', (ctx) => {
    if (offline) return ctx.skip();
    expect(run.code, run.output.slice(-3000)).toBe(0);
  });

  it('packs the Electron that package.json names, a supported major (45, 44 or 43)', (ctx) => {
    if (offline) return ctx.skip();
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const packed = packedElectronVersion(run.output);
    expect(packed, run.output.slice(-2000)).toBe(pkg.devDependencies.electron);
    expect([43, 44, 45]).toContain(Number(packed!.split('.')[0]));
  });

  it('flips the fuses: no run-as-node, NODE_OPTIONS or --inspect; the app only from its asar, integrity-checked; no extra file:// privileges', (ctx) => {
    if (offline) return ctx.skip();
    const before = fuseWire(join(dir, 'electron-stub', 'electron'));
    expect(before.runAsNode).toBe(true); // the stub starts as Electron ships
    const binary = join(dir, 'out', 'linux-unpacked', 'carrier-screen-tray');
    const packedBinary = existsSync(binary)
      ? binary
      : join(
          dir,
          'out',
          'linux-unpacked',
          readdirSync(join(dir, 'out', 'linux-unpacked')).find((f) => !f.includes('.') && f !== 'resources' && f !== 'locales')!,
        );
    expect(fuseWire(packedBinary)).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('builds the .deb and .rpm, or gets to fetching fpm where GitHub is out of reach', (ctx) => {
    if (offline) return ctx.skip();
    const out = packages.output;
    expect(out, out.slice(-3000)).toMatch(/building\s+target=deb/);
    // The package metadata that a .deb or .rpm requires was accepted: no "Please specify …".
    expect(out).not.toMatch(/Please specify/);
    if (packages.code === 0) {
      const deb = readdirSync(join(dir, 'pkg')).find((f) => f.endsWith('.deb'));
      expect(deb).toBeDefined();
      const fields = execFileSync('dpkg-deb', ['-f', join(dir, 'pkg', deb!), 'Package', 'Maintainer', 'Homepage'], { encoding: 'utf8' });
      expect(fields).toContain('Package: carrier-screen-tray');
      expect(readdirSync(join(dir, 'pkg')).some((f) => f.endsWith('.rpm'))).toBe(true);
    } else {
      expect(out.slice(-4000)).toMatch(/github\.com|fpm/i);
      console.log('CHECKED UP TO fpm: electron-builder could not fetch fpm from GitHub, so no .deb/.rpm was written');
    }
  });

  it('holds the tray bundle alone: no node_modules, no native module, no unpacked folder, a small asar', (ctx) => {
    if (offline) return ctx.skip();
    const resources = join(dir, 'out', 'linux-unpacked', 'resources');
    expect(readdirSync(resources)).toEqual(['app.asar']);
    expect(existsSync(join(resources, 'app.asar.unpacked'))).toBe(false);
    const asar = join(resources, 'app.asar');
    expect(statSync(asar).size).toBeLessThan(2 * 1024 * 1024);
    const files = asarFiles(asar);
    const paths = files.map((f) => f.path);
    expect(paths).toContain('package.json');
    expect(paths).toContain('main/main.js');
    expect(paths).toContain('preload/preload.js');
    expect(paths).toContain('renderer/index.html');
    expect(paths.filter((p) => !/^(package\.json|main\/|preload\/|renderer\/|assets\/)/.test(p))).toEqual([]);
    expect(paths.filter((p) => p.includes('node_modules') || p.endsWith('.node') || p.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.unpacked)).toEqual([]);
    // Its package.json names no dependency: nothing for electron-builder to collect.
    const pkg = JSON.parse(readFileSync(join(dir, 'app', 'package.json'), 'utf8')) as { dependencies?: object; main: string };
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.main).toBe('main/main.js');
  });
});
