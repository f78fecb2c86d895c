import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTray, forbiddenInputs } from '../../electron/build.mjs';
import { RENDERER_CSP } from '../../electron/main/csp.js';

const root = resolve(import.meta.dirname, '../..');
let out: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'tray-build-'));
  await buildTray({ outDir: out });
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe('tray build', () => {
  it('writes main, preload and the renderer the intake serves at /ui/', async () => {
    const html = await readFile(join(out, 'renderer', 'index.html'), 'utf8');
    expect(html).toContain('<script src="app.js"></script>');
    for (const f of [
      'renderer/app.js',
      'renderer/app.css',
      'renderer/uPlot.min.css',
      'main/main.js',
      'preload/preload.js',
      'assets/tray-ok.png',
      'assets/tray-trouble@2x.png',
    ]) {
      expect((await readFile(join(out, f))).length, f).toBeGreaterThan(0);
    }
    const pkg = JSON.parse(await readFile(join(out, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ type: 'commonjs', main: 'main/main.js' });
    const main = await readFile(join(out, 'main', 'main.js'), 'utf8');
    expect(main).toContain('require("electron")');
  });

  it('keeps worker code and native modules out of every bundle', async () => {
    for (const name of ['main', 'preload', 'renderer']) {
      const meta = JSON.parse(await readFile(join(out, `${name}.meta.json`), 'utf8'));
      const inputs = Object.keys(meta.inputs);
      expect(
        inputs.some((p) => p.startsWith('electron/')),
        name,
      ).toBe(true);
      expect(
        inputs.filter((p) => /^(worker|emulator)\/|better-sqlite3|bullmq|ioredis|\.node$/.test(p)),
        name,
      ).toEqual([]);
    }
    const renderer = JSON.parse(await readFile(join(out, 'renderer.meta.json'), 'utf8'));
    expect(Object.keys(renderer.inputs).some((p) => p.includes('node_modules/uplot/'))).toBe(true);
    // The update check is part of the build: electron-updater and its generic provider are bundled.
    const main = Object.keys(JSON.parse(await readFile(join(out, 'main.meta.json'), 'utf8')).inputs);
    expect(
      main.filter((p) => /node_modules\/electron-updater\/out\/(providers\/GenericProvider|AppUpdater|DebUpdater)\.js$/.test(p)).length,
    ).toBe(3);
  });

  it('refuses a bundle that pulls in worker code or its dependencies', async () => {
    const r = await build({
      stdin: { contents: "import './worker/queue/month.ts'; import 'ioredis';", resolveDir: root, loader: 'ts' },
      absWorkingDir: root,
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'silent',
    });
    const problems = forbiddenInputs(r.metafile);
    expect(problems).toContain('worker code in the bundle: worker/queue/month.ts');
    expect(problems.some((p) => p.startsWith('worker dependency in the bundle: ioredis'))).toBe(true);
    expect(forbiddenInputs({ inputs: {}, outputs: { 'x.js': { imports: [{ path: 'fs', external: true }] } } })).toEqual([
      'external import not allowed here: fs',
    ]);
  });

  it('has one CSP: the meta tag in index.html says what main sends', async () => {
    const html = await readFile(join(root, 'electron', 'renderer', 'index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(RENDERER_CSP);
    expect(RENDERER_CSP).toContain("script-src 'self'");
    expect(RENDERER_CSP).not.toContain('unsafe');
  });
});
