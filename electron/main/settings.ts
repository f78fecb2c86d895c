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
}

export const DEFAULT_WORKER_URL = 'http://127.0.0.1:8787';

interface SettingsFile {
  version: 1;
  workerUrl: string;
  /** base64 of the SecretBox ciphertext. */
  tokenCiphertext: string | null;
}

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
  try {
    return normalizeBaseUrl(url, param);
  } catch (err) {
    throw new SettingsError((err as Error).message, param);
  }
}

export class SettingsStore {
  private current: TraySettings | undefined;
  /** Set when the token could not be encrypted: lives in memory for this run only. */
  private sessionOnlyToken: string | null = null;

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
      this.current = { workerUrl: DEFAULT_WORKER_URL, token: this.sessionOnlyToken };
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
    if (typeof parsed.tokenCiphertext === 'string' && parsed.tokenCiphertext !== '') {
      if (!this.box.isAvailable()) throw new SettingsError('the saved token cannot be decrypted: OS encryption is not available', 'token');
      try {
        token = this.box.decrypt(Buffer.from(parsed.tokenCiphertext, 'base64'));
      } catch {
        // A keychain change makes old ciphertext useless: ask for the token again rather than fail to start.
        token = null;
      }
    }
    this.current = { workerUrl, token };
    return this.current;
  }

  async save(input: DeskSettingsInput): Promise<TraySettings> {
    const prev = this.current ?? (await this.load());
    const workerUrl = validateWorkerUrl(input.workerUrl);
    const newToken = input.token !== undefined && input.token.trim() !== '' ? validateToken(input.token) : null;
    const token = newToken ?? prev.token;
    let tokenCiphertext: string | null = null;
    if (token !== null && this.box.isAvailable()) {
      tokenCiphertext = Buffer.from(this.box.encrypt(token)).toString('base64');
      this.sessionOnlyToken = null;
    } else {
      this.sessionOnlyToken = token;
    }
    const body: SettingsFile = { version: 1, workerUrl, tokenCiphertext };
    await mkdir(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, this.file);
    this.current = { workerUrl, token };
    return this.current;
  }

  view(): DeskSettingsView {
    const s = this.current ?? { workerUrl: DEFAULT_WORKER_URL, token: null };
    return { workerUrl: s.workerUrl, hasToken: s.token !== null, canEncrypt: this.box.isAvailable() };
  }
}

/**
 * Developer convenience: INTAKE_URL / INTAKE_TOKEN in the environment (e.g. `npm run tray`
 * beside a local worker) take precedence over the saved settings, without being saved.
 */
export function applyEnvOverrides(s: TraySettings, env: Record<string, string | undefined>): TraySettings {
  return {
    workerUrl: env.INTAKE_URL ? validateWorkerUrl(env.INTAKE_URL, 'INTAKE_URL') : s.workerUrl,
    token: env.INTAKE_TOKEN ? validateToken(env.INTAKE_TOKEN, 'INTAKE_TOKEN') : s.token,
  };
}
