/**
 * What goes inside the tray installer, checked by its contents: the tray bundle is packed with
 * the real electron-builder 26.17.0 (through npx, as `npm run dist` does) and a stub Electron
 * distribution (the real binary cannot be downloaded here), then the packed app.asar is read
 * back: the tray bundle alone — no node_modules, no native module, no unpacked folder, small.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTray } from '../../electron/build.mjs';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
let run: { code: number | null; output: string };
let offline = false;

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
  writeFileSync(join(stub, 'electron'), '#!/bin/sh\necho "stub electron: the real binary cannot be downloaded here"\n');
  chmodSync(join(stub, 'electron'), 0o755);
  writeFileSync(join(stub, 'LICENSE'), 'stub');
  run = await new Promise((done) => {
    const args = ['--yes', 'electron-builder@26.17.0', '--linux', 'dir', '--config', 'electron-builder.yml', `-c.directories.app=${app}`, `-c.directories.output=${join(dir, 'out')}`, `-c.electronDist=${stub}`];
    const p = spawn('npx', args, { cwd: root, env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', CSC_IDENTITY_AUTO_DISCOVERY: 'false' } });
    let output = '';
    p.stdout.on('data', (c: Buffer) => (output += c.toString()));
    p.stderr.on('data', (c: Buffer) => (output += c.toString()));
    p.on('close', (code) => done({ code, output }));
  });
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
