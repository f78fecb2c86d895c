/**
 * Preloaded into every test process (`execArgv` in vitest.config.ts and vitest.faults.config.ts):
 * lets a worker thread run the worker's TypeScript sources. Vitest transforms what the tests
 * import, but a `worker_threads` thread (the reader pool's, worker/store/reader-pool.ts) loads its
 * modules with Node's own loader, which knows nothing of the sources' spelling. The pool passes a
 * process's preloads on to its threads, so each thread runs this file too, and then:
 * - `./x.js` that is not there but `./x.ts` is (the sources import each other as the build emits
 *   them), the thread's entry included, resolves to `./x.ts`;
 * - a `.ts` outside node_modules loads with its types stripped (Node's stripTypeScriptTypes, in
 *   transform mode: enums and parameter properties too).
 * Built code (dist/) never meets either: its `.js` files are there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks, stripTypeScriptTypes } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

// In a thread, stripTypeScriptTypes' ExperimentalWarning would be printed once per thread started.
if (!isMainThread) process.removeAllListeners('warning');

/** The file URL a `.js` specifier names, if it is a file (relative, absolute or file:). */
function fileUrlOf(specifier, parentURL) {
  if (!specifier.endsWith('.js')) return undefined;
  if (specifier.startsWith('file:')) return new URL(specifier);
  if (specifier.startsWith('/')) return pathToFileURL(specifier);
  if (specifier.startsWith('.') && parentURL) return new URL(specifier, parentURL);
  return undefined;
}

registerHooks({
  resolve(specifier, context, next) {
    const url = fileUrlOf(specifier, context.parentURL);
    if (url && !existsSync(fileURLToPath(url))) {
      const ts = new URL(url.href.replace(/\.js$/, '.ts'));
      if (existsSync(fileURLToPath(ts))) return next(ts.href, context);
    }
    return next(specifier, context);
  },
  load(url, context, next) {
    if (url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/')) {
      const source = stripTypeScriptTypes(readFileSync(fileURLToPath(url), 'utf8'), { mode: 'transform' });
      return { format: 'module', shortCircuit: true, source };
    }
    return next(url, context);
  },
});
