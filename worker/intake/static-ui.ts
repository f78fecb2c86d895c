import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The tray dashboard's static files under /ui/. They hold no data (the UI fetches it with the
 * token), so they are served without auth, with a strict Content-Security-Policy.
 */

export const UI_CSP =
  "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface UiFile {
  body: Buffer;
  contentType: string;
}

const MAX_FILE = 20 * 1024 * 1024;

/**
 * The file for `rel` (the part after /ui/, already percent-decoded) inside `root`, or undefined.
 * Refuses anything that resolves outside root, through `..`, an absolute path or a symlink.
 */
export async function readUiFile(root: string, rel: string): Promise<UiFile | undefined> {
  if (rel.includes('\0') || rel.includes('\\') || rel.length > 1024) return undefined;
  let base: string;
  try {
    base = await realpath(resolve(root));
  } catch {
    return undefined; // no UI built
  }
  const wanted = resolve(base, `.${sep}${rel}`);
  if (!inside(base, wanted)) return undefined;
  try {
    let real = await realpath(wanted);
    if (!inside(base, real)) return undefined;
    let st = await stat(real);
    if (st.isDirectory()) {
      real = await realpath(resolve(real, 'index.html'));
      if (!inside(base, real)) return undefined;
      st = await stat(real);
    }
    if (!st.isFile() || st.size > MAX_FILE) return undefined;
    return { body: await readFile(real), contentType: TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}

function inside(base: string, p: string): boolean {
  const r = relative(base, p);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}
