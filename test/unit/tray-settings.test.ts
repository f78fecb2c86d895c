import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WORKER_URL, SettingsStore, applyEnvOverrides, encryptionUsable, type SecretBox } from '../../electron/main/settings.js';

/** A SecretBox that really transforms the text (XOR), so plaintext on disk would show. */
class FakeBox implements SecretBox {
  constructor(public available = true) {}
  isAvailable(): boolean {
    return this.available;
  }
  encrypt(plain: string): Uint8Array {
    return Uint8Array.from(Buffer.from(`box1:${plain}`, 'utf8'), (b) => b ^ 0x5a);
  }
  decrypt(cipher: Uint8Array): string {
    const text = Buffer.from(Uint8Array.from(cipher, (b) => b ^ 0x5a)).toString('utf8');
    if (!text.startsWith('box1:')) throw new Error('cannot decrypt');
    return text.slice(5);
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tray-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tray settings', () => {
  it('starts from the default worker URL and no token', async () => {
    const s = new SettingsStore(join(dir, 'settings.json'), new FakeBox());
    expect(await s.load()).toEqual({ workerUrl: DEFAULT_WORKER_URL, token: null, openAtLogin: false });
    expect(s.view()).toEqual({ workerUrl: DEFAULT_WORKER_URL, hasToken: false, canEncrypt: true, openAtLogin: false, notice: null });
  });

  it('stores the token only encrypted, readable by a new store, in a file only the user can read', async () => {
    const file = join(dir, 'sub', 'settings.json');
    const a = new SettingsStore(file, new FakeBox());
    await a.save({ workerUrl: 'https://10.0.0.5:8787/', token: '  s3cret-token  ', openAtLogin: true });
    const raw = await readFile(file, 'utf8');
    expect(raw).not.toContain('s3cret-token');
    expect(JSON.parse(raw)).toMatchObject({ version: 1, workerUrl: 'https://10.0.0.5:8787', openAtLogin: true });
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await new SettingsStore(file, new FakeBox()).load()).toEqual({
      workerUrl: 'https://10.0.0.5:8787',
      token: 's3cret-token',
      openAtLogin: true,
    });
  });

  it('keeps the saved token for the same worker, and never sends it to a changed address unasked', async () => {
    const file = join(dir, 'settings.json');
    const a = new SettingsStore(file, new FakeBox());
    await a.save({ workerUrl: 'http://127.0.0.1:8787', token: 'tok-1' });
    expect(await a.save({ workerUrl: 'http://127.0.0.1:8787/', token: '', openAtLogin: true })).toEqual({
      workerUrl: 'http://127.0.0.1:8787',
      token: 'tok-1',
      openAtLogin: true,
    });
    await expect(a.save({ workerUrl: 'https://worker.example:9443', token: '' })).rejects.toMatchObject({
      param: 'token',
      message: expect.stringMatching(/address changed/),
    });
    expect(await a.save({ workerUrl: 'https://worker.example:9443', token: 'tok-2' })).toMatchObject({
      workerUrl: 'https://worker.example:9443',
      token: 'tok-2',
    });
    expect((await new SettingsStore(file, new FakeBox()).load()).token).toBe('tok-2');
  });

  it('refuses plain http to another machine (the token would travel in clear); loopback http is fine', async () => {
    const s = new SettingsStore(join(dir, 'settings.json'), new FakeBox());
    await expect(s.save({ workerUrl: 'http://10.0.0.5:8787', token: 't' })).rejects.toMatchObject({
      param: 'workerUrl',
      message: expect.stringMatching(/https/),
    });
    for (const ok of ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787', 'https://10.0.0.5:8787'])
      expect((await s.save({ workerUrl: ok, token: 't' })).workerUrl).toBe(ok);
  });

  it('a saved token that cannot be read this session (no keychain) is asked for again, and saving works', async () => {
    const file = join(dir, 'settings.json');
    await new SettingsStore(file, new FakeBox()).save({ workerUrl: DEFAULT_WORKER_URL, token: 'tok-old' });
    const noKeychain = new SettingsStore(file, new FakeBox(false));
    expect((await noKeychain.load()).token).toBeNull();
    expect(noKeychain.view().notice).toMatch(/could not be read/);
    // Every later save used to fail here: it must replace what cannot be read.
    expect(await noKeychain.save({ workerUrl: DEFAULT_WORKER_URL, token: 'tok-new' })).toMatchObject({ token: 'tok-new' });
    expect(noKeychain.view()).toMatchObject({ hasToken: true, canEncrypt: false, notice: null });
  });

  it('does not call Linux basic_text (a hard-coded key) encryption', () => {
    expect(encryptionUsable(true, 'linux', 'gnome_libsecret')).toBe(true);
    expect(encryptionUsable(true, 'linux', 'kwallet5')).toBe(true);
    expect(encryptionUsable(true, 'linux', 'basic_text')).toBe(false);
    expect(encryptionUsable(true, 'darwin', undefined)).toBe(true);
    expect(encryptionUsable(true, 'win32', undefined)).toBe(true);
    expect(encryptionUsable(false, 'win32', undefined)).toBe(false);
  });

  it('keeps the token in memory only when the OS cannot encrypt', async () => {
    const file = join(dir, 'settings.json');
    const box = new FakeBox(false);
    const a = new SettingsStore(file, box);
    expect(await a.save({ workerUrl: DEFAULT_WORKER_URL, token: 'tok-mem' })).toEqual({
      workerUrl: DEFAULT_WORKER_URL,
      token: 'tok-mem',
      openAtLogin: false,
    });
    expect(await readFile(file, 'utf8')).not.toContain('tok-mem');
    expect(JSON.parse(await readFile(file, 'utf8')).tokenCiphertext).toBeNull();
    expect(a.view()).toEqual({ workerUrl: DEFAULT_WORKER_URL, hasToken: true, canEncrypt: false, openAtLogin: false, notice: null });
    expect((await a.load()).token).toBe('tok-mem');
    expect((await new SettingsStore(file, box).load()).token).toBeNull();
  });

  it('asks for the token again when the saved ciphertext no longer decrypts', async () => {
    const file = join(dir, 'settings.json');
    await writeFile(
      file,
      JSON.stringify({ version: 1, workerUrl: DEFAULT_WORKER_URL, tokenCiphertext: Buffer.from('garbage').toString('base64') }),
    );
    expect((await new SettingsStore(file, new FakeBox()).load()).token).toBeNull();
  });

  it('rejects bad input with errors that name the parameter', async () => {
    const s = new SettingsStore(join(dir, 'settings.json'), new FakeBox());
    await expect(s.save({ workerUrl: 'not a url', token: 't' })).rejects.toMatchObject({ param: 'workerUrl' });
    await expect(s.save({ workerUrl: 'file:///etc/passwd' })).rejects.toThrow(/workerUrl must use http or https/);
    await expect(s.save({ workerUrl: DEFAULT_WORKER_URL, token: 'two words' })).rejects.toMatchObject({ param: 'token' });
    await writeFile(join(dir, 'broken.json'), '{nope');
    await expect(new SettingsStore(join(dir, 'broken.json'), new FakeBox()).load()).rejects.toThrow(/not valid JSON/);
  });

  it('lets INTAKE_URL / INTAKE_TOKEN override the saved settings', () => {
    const saved = { workerUrl: DEFAULT_WORKER_URL, token: 'saved', openAtLogin: false };
    expect(applyEnvOverrides(saved, {})).toEqual(saved);
    expect(applyEnvOverrides(saved, { INTAKE_URL: 'http://127.0.0.1:9999', INTAKE_TOKEN: 'env-tok' })).toEqual({
      workerUrl: 'http://127.0.0.1:9999',
      token: 'env-tok',
      openAtLogin: false,
    });
    expect(() => applyEnvOverrides(saved, { INTAKE_URL: 'nope' })).toThrow(/INTAKE_URL/);
  });
});
