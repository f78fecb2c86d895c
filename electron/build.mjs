// Bundles the tray: main (node, cjs, electron external), preload (cjs, sandboxed), renderer
// (browser iife) into dist/electron/. dist/electron/renderer/ is what the intake serves at /ui/.
// The build fails when any worker code or native module would end up in a bundle.
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, rm, writeFile, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

/** Packages that belong to the worker (or are native) and must never reach the tray. */
export const FORBIDDEN_PACKAGES = [
  'better-sqlite3',
  'bullmq',
  'ioredis',
  'fastify',
  '@fastify',
  'pino',
  'undici',
  'commander',
  'cli-progress',
  'msgpackr',
  'msgpackr-extract',
  'bindings',
  'node-gyp-build',
  'typebox',
];

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Everything wrong with one bundle's inputs and imports, as sentences; [] when clean.
 * `allowExternal(path)` says which external imports this bundle may keep.
 */
export function forbiddenInputs(metafile, allowExternal = () => false) {
  const problems = [];
  for (const input of Object.keys(metafile.inputs)) {
    const p = input.replaceAll('\\', '/');
    if (/(^|\/)(worker|emulator|bench)\//.test(p) && !p.includes('node_modules/')) problems.push(`worker code in the bundle: ${p}`);
    if (p.endsWith('.node')) problems.push(`native module in the bundle: ${p}`);
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p);
    if (m) {
      const pkg = m[1];
      if (FORBIDDEN_PACKAGES.some((f) => pkg === f || pkg.startsWith(`${f}/`)))
        problems.push(`worker dependency in the bundle: ${pkg} (${p})`);
    }
  }
  for (const output of Object.values(metafile.outputs)) {
    for (const imp of output.imports ?? []) {
      if (imp.external && !allowExternal(imp.path)) problems.push(`external import not allowed here: ${imp.path}`);
    }
  }
  return [...new Set(problems)];
}

const common = { bundle: true, metafile: true, sourcemap: true, logLevel: 'warning', legalComments: 'none', target: 'es2022' };

/** Build into `outDir` (default dist/electron). Throws with every problem found. */
export async function buildTray({ outDir = join(root, 'dist', 'electron'), minify = false } = {}) {
  await rm(outDir, { recursive: true, force: true });
  const jobs = [
    {
      name: 'main',
      allow: (p) => p === 'electron' || NODE_BUILTINS.has(p),
      options: {
        entryPoints: [join(here, 'main', 'main.ts')],
        outfile: join(outDir, 'main', 'main.js'),
        platform: 'node',
        format: 'cjs',
        external: ['electron'],
        target: 'node20',
      },
    },
    {
      name: 'preload',
      // A sandboxed preload may require only 'electron' (and a few polyfilled modules).
      allow: (p) => p === 'electron',
      options: {
        entryPoints: [join(here, 'preload', 'preload.ts')],
        outfile: join(outDir, 'preload', 'preload.js'),
        platform: 'node',
        format: 'cjs',
        external: ['electron'],
      },
    },
    {
      name: 'renderer',
      allow: () => false,
      options: {
        entryPoints: [join(here, 'renderer', 'app.ts')],
        outfile: join(outDir, 'renderer', 'app.js'),
        platform: 'browser',
        format: 'iife',
        minify,
      },
    },
  ];
  const problems = [];
  for (const job of jobs) {
    const result = await build({ ...common, ...job.options, absWorkingDir: root });
    for (const p of forbiddenInputs(result.metafile, job.allow)) problems.push(`${job.name}: ${p}`);
    await writeFile(join(outDir, `${job.name}.meta.json`), JSON.stringify(result.metafile));
  }
  if (problems.length > 0) {
    await rm(outDir, { recursive: true, force: true });
    throw new Error(`tray build refused:\n  ${problems.join('\n  ')}`);
  }

  const r = join(outDir, 'renderer');
  await copyFile(join(here, 'renderer', 'index.html'), join(r, 'index.html'));
  await copyFile(join(here, 'renderer', 'app.css'), join(r, 'app.css'));
  await copyFile(join(root, 'node_modules', 'uplot', 'dist', 'uPlot.min.css'), join(r, 'uPlot.min.css'));
  await mkdir(join(outDir, 'assets'), { recursive: true });
  for (const f of await readdir(join(here, 'assets')))
    if (f.endsWith('.png')) await copyFile(join(here, 'assets', f), join(outDir, 'assets', f));

  // The root package is ESM; these bundles are CommonJS. `electron dist/electron` runs this app dir.
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  await writeFile(
    join(outDir, 'package.json'),
    // homepage and the author's email: the .deb and .rpm require them (maintainer, URL fields);
    // desktopName: the window's WM_CLASS, so the dock groups it under the installed launcher.
    `${JSON.stringify(
      {
        name: 'carrier-screen-tray',
        productName: 'Carrier Screen',
        description: 'Carrier screening tray for dispatchers',
        author: { name: 'Carrier Screen', email: 'carrier-screen@localhost' },
        homepage: 'https://localhost/carrier-screen',
        desktopName: 'carrier-screen-tray.desktop',
        version: pkg.version,
        private: true,
        type: 'commonjs',
        main: 'main/main.js',
      },
      null,
      2,
    )}\n`,
  );
  return {
    outDir,
    files: ['main/main.js', 'preload/preload.js', 'renderer/app.js', 'renderer/index.html', 'renderer/app.css', 'renderer/uPlot.min.css'],
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const minify = process.argv.includes('--minify');
  const outArg = process.argv.indexOf('--out');
  const outDir = outArg > 0 ? resolve(process.argv[outArg + 1] ?? '') : undefined;
  buildTray({ outDir, minify }).then(
    (r) => console.log(`tray built into ${relative(process.cwd(), r.outDir) || '.'}`),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
