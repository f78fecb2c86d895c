import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../store/private-files.js';

/**
 * Secrets kept in the data dir, SCREEN_DATA_DIR (beside the SQLite database by default): the
 * intake token, the callback HMAC key. Generated on first start, mode 0600, reused after.
 * Callers use the environment value instead when set (INTAKE_TOKEN / CALLBACK_SECRET).
 */

/** The secret files of the data dir; a backup copies them and a restore puts them back. */
export const SECRET_FILES = ['intake-token', 'callback-secret'] as const;
export type SecretFile = (typeof SECRET_FILES)[number];

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function secretPath(dir: string, name: string): string {
  if (!NAME.test(name)) throw new RangeError(`secret file name "${name}" must be lower-case letters, digits, ".", "_" or "-"`);
  return join(dir, name);
}

/** The saved secret, or undefined when there is none (or it is empty). Tightens a loose mode. */
export function readSecret(dir: string, name: string): string | undefined {
  const path = secretPath(dir, name);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`, { cause: e });
  }
  const value = text.trim();
  if (value === '') return undefined;
  // A copy restored from a backup may have lost its mode: others must not read it.
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return value;
}

/** The saved secret; on first use a new one (256 random bits, base64url) written with mode 0600. */
export function ensureSecret(dir: string, name: string): string {
  const existing = readSecret(dir, name);
  if (existing !== undefined) return existing;
  const path = secretPath(dir, name);
  ensurePrivateDir(dir);
  const value = randomBytes(32).toString('base64url');
  try {
    // 'wx': when another process created it a moment ago, theirs wins and we read it.
    // No trailing newline: the key is the file's text, byte for byte (docs/callbacks.md).
    writeFileSync(path, value, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new Error(`cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`, { cause: e });
    const theirs = readSecret(dir, name);
    if (theirs !== undefined) return theirs;
    // An empty file left behind by a crash: replace it.
    writeFileSync(path, value, { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return value;
}

/**
 * Copy a secret file byte for byte to `to` with mode 0600 (replacing it), synced to disk.
 * False when there is no `from`.
 */
export function copySecretFile(from: string, to: string): boolean {
  let bytes: Buffer;
  try {
    bytes = readFileSync(from);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new Error(`cannot read ${from}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`, { cause: e });
  }
  // Mode at creation, and again for a file that was there before with a looser one.
  writeFileSync(to, bytes, { mode: 0o600 });
  chmodSync(to, 0o600);
  const fd = openSync(to, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}
