import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DeskSettingsInput, DeskSettingsView } from '../shared/bridge.js';
import { normalizeBaseUrl } from '../shared/http-bridge.js';

/**
 * The tray's settings: the worker's intake URL and the intake token. The token is only
 * ever written encrypted, through a SecretBox (Electron's safeStorage in the real main).
 * Where the OS offers no encryption, the token is kept for this run only, never on disk.
 */

export interface SecretBox {
  isAvailable(): boolean;
  encrypt(plain: string): Uint8Array;
  decrypt(cipher: Uint8Array): string;
}

export interface TraySettings {
  workerUrl: string;
  token: string | null;
  /** Start the tray when the user logs in (the OS login items). */
  openAtLogin: boolean;
}

export const DEFAULT_WORKER_URL = 'http://127.0.0.1:8787';

interface SettingsFile {
  version: 1;
  workerUrl: string;
  /** base64 of the SecretBox ciphertext. */
  tokenCiphertext: string | null;
  openAtLogin?: boolean;
}

/**
 * Whether Electron's safeStorage really encrypts: on Linux without a secret service it falls
 * back to a hard-coded key (backend "basic_text"), which is obfuscation, not encryption.
 */
export function encryptionUsable(available: boolean, platform: string, backend: string | undefined): boolean {
  return available && !(platform === 'linux' && (backend === 'basic_text' || backend === 'unknown'));
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

export function validateToken(token: string, param = 'token'): string {
  const t = token.trim();
  if (t === '') throw new SettingsError(`${param} must not be empty`, param);
  if (/\s/.test(t)) throw new SettingsError(`${param} must not contain spaces or line breaks`, param);
  if (t.length > 4096) throw new SettingsError(`${param} is too long (at most 4096 characters)`, param);
  return t;
}

export function validateWorkerUrl(url: string, param = 'workerUrl'): string {
  let normal: string;
  try {
    normal = normalizeBaseUrl(url, param);
  } catch (err) {
    throw new SettingsError((err as Error).message, param);
  }
  const u = new URL(normal);
  // The token rides in every request: over plain http it may only go to this machine.
  if (u.protocol === 'http:' && !LOOPBACK.has(u.hostname))
    throw new SettingsError(
      `${param}: use https:// for a worker on another machine (over http the token would travel in clear); http is fine for 127.0.0.1 and localhost`,
      param,
    );
  return normal;
}

export class SettingsStore {
  private current: TraySettings | undefined;
  /** Set when the token could not be encrypted: lives in memory for this run only. */
  private sessionOnlyToken: string | null = null;
  /** A saved token that could not be read back (keychain unavailable or changed). */
  private unreadable = false;

  constructor(
    private readonly file: string,
    private readonly box: SecretBox,
  ) {}

  async load(): Promise<TraySettings> {
    let raw: string;
    try {
      raw = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.current = { workerUrl: DEFAULT_WORKER_URL, token: this.sessionOnlyToken, openAtLogin: false };
      return this.current;
    }
    let parsed: Partial<SettingsFile>;
    try {
      parsed = JSON.parse(raw) as Partial<SettingsFile>;
    } catch {
      throw new SettingsError(`settings file ${this.file} is not valid JSON; fix or delete it`, 'file');
    }
    const workerUrl = validateWorkerUrl(typeof parsed.workerUrl === 'string' ? parsed.workerUrl : DEFAULT_WORKER_URL);
    let token = this.sessionOnlyToken;
    this.unreadable = false;
    if (token === null && typeof parsed.tokenCiphertext === 'string' && parsed.tokenCiphertext !== '') {
      try {
        if (!this.box.isAvailable()) throw new Error('OS encryption is not available');
        token = this.box.decrypt(Buffer.from(parsed.tokenCiphertext, 'base64'));
      } catch {
        // No keychain this session, or a changed one: ask for the token again rather than fail to
        // start — and a later save simply replaces what cannot be read.
        token = null;
        this.unreadable = true;
      }
    }
    this.current = { workerUrl, token, openAtLogin: parsed.openAtLogin === true };
    return this.current;
  }

  async save(input: DeskSettingsInput): Promise<TraySettings> {
    const prev = this.current ?? (await this.load());
    const workerUrl = validateWorkerUrl(input.workerUrl);
    const newToken = input.token !== undefined && input.token.trim() !== '' ? validateToken(input.token) : null;
    // The saved token belongs to the worker it was entered for: never send it somewhere else unasked.
    if (newToken === null && prev.token !== null && new URL(workerUrl).origin !== new URL(prev.workerUrl).origin)
      throw new SettingsError(
        'the worker address changed: enter the token for the new worker (the saved one is not sent to another address)',
        'token',
      );
    const token = newToken ?? prev.token;
    const openAtLogin = input.openAtLogin ?? prev.openAtLogin;
    let tokenCiphertext: string | null = null;
    if (token !== null && this.box.isAvailable()) {
      tokenCiphertext = Buffer.from(this.box.encrypt(token)).toString('base64');
      this.sessionOnlyToken = null;
    } else {
      this.sessionOnlyToken = token;
    }
    const body: SettingsFile = { version: 1, workerUrl, tokenCiphertext, openAtLogin };
    await mkdir(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, this.file);
    this.current = { workerUrl, token, openAtLogin };
    if (token !== null) this.unreadable = false;
    return this.current;
  }

  view(): DeskSettingsView {
    const s = this.current ?? { workerUrl: DEFAULT_WORKER_URL, token: null, openAtLogin: false };
    return {
      workerUrl: s.workerUrl,
      hasToken: s.token !== null,
      canEncrypt: this.box.isAvailable(),
      openAtLogin: s.openAtLogin,
      notice: this.unreadable ? 'The saved token could not be read (no keychain this session, or it changed): enter it again.' : null,
    };
  }
}

/**
 * Developer convenience: INTAKE_URL / INTAKE_TOKEN in the environment (e.g. `npm run tray`
 * beside a local worker) take precedence over the saved settings, without being saved.
 */
export function applyEnvOverrides(s: TraySettings, env: Record<string, string | undefined>): TraySettings {
  return {
    ...s,
    workerUrl: env.INTAKE_URL ? validateWorkerUrl(env.INTAKE_URL, 'INTAKE_URL') : s.workerUrl,
    token: env.INTAKE_TOKEN ? validateToken(env.INTAKE_TOKEN, 'INTAKE_TOKEN') : s.token,
  };
}
