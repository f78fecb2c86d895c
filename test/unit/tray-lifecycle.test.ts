import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CrashRecovery, dockWanted, firstRunHint, firstTime, onQuitRequest } from '../../electron/main/lifecycle.js';
import { NotificationRetention, type NoteHandle } from '../../electron/main/notification-retention.js';
import { permissionAllowed } from '../../electron/main/permissions.js';
import { RotatingLog } from '../../electron/main/rotating-log.js';
import { checkForUpdates, updateFeedUrl, type UpdaterPort } from '../../electron/main/update-check.js';

/** A notification as Electron's: handlers by event, and the OS firing them. */
class FakeNote implements NoteHandle {
  private readonly handlers = new Map<string, Array<() => void>>();
  shown = 0;
  on(event: string, fn: () => void): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
  }
  show(): void {
    this.shown++;
  }
  fire(event: string): void {
    for (const fn of this.handlers.get(event) ?? []) fn();
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tray-life-'));
  dirs.push(d);
  return d;
}

describe('notifications retained until clicked on Windows', () => {
  it('Windows: a toast that timed out (close) is still held, and its click opens the desk', () => {
    const r = new NotificationRetention('win32');
    const note = new FakeNote();
    const clicks: string[] = [];
    r.show(note, () => clicks.push('open-desk'));
    expect(note.shown).toBe(1);
    note.fire('close'); // the toast timed out into the Action Center
    expect(r.has(note)).toBe(true);
    note.fire('click');
    expect(clicks).toEqual(['open-desk']);
    expect(r.has(note)).toBe(false);
  });

  it('macOS and Linux let go on close; everywhere a failed one is let go; Windows holds a bounded number', () => {
    for (const platform of ['darwin', 'linux']) {
      const r = new NotificationRetention(platform);
      const note = new FakeNote();
      r.show(note, () => undefined);
      note.fire('close');
      expect(r.has(note)).toBe(false);
    }
    const w = new NotificationRetention('win32', 3);
    const notes = Array.from({ length: 5 }, () => new FakeNote());
    for (const n of notes) w.show(n, () => undefined);
    expect(w.size()).toBe(3);
    expect(w.has(notes[0]!)).toBe(false);
    expect(w.has(notes[4]!)).toBe(true);
    notes[4]!.fire('failed');
    expect(w.size()).toBe(2);
  });
});

describe('macOS Dock and quitting', () => {
  it('Dock and Cmd-Tab while a window is open, on macOS only', () => {
    expect(dockWanted('darwin', true)).toBe('show');
    expect(dockWanted('darwin', false)).toBe('hide');
    expect(dockWanted('win32', true)).toBeNull();
  });

  it('Cmd-Q asks on macOS; "keep running" hides; the tray\'s Quit and a shutdown quit without asking', () => {
    const asked: string[] = [];
    const ask = (a: 'quit' | 'keep') => () => (asked.push(a), a);
    expect(onQuitRequest({ platform: 'darwin', fromTray: false, systemShutdown: false, ask: ask('keep') })).toBe('hide');
    expect(onQuitRequest({ platform: 'darwin', fromTray: false, systemShutdown: false, ask: ask('quit') })).toBe('quit');
    expect(asked).toEqual(['keep', 'quit']);
    expect(onQuitRequest({ platform: 'darwin', fromTray: true, systemShutdown: false, ask: ask('keep') })).toBe('quit');
    expect(onQuitRequest({ platform: 'darwin', fromTray: false, systemShutdown: true, ask: ask('keep') })).toBe('quit');
    expect(onQuitRequest({ platform: 'win32', fromTray: false, systemShutdown: false, ask: ask('keep') })).toBe('quit');
    expect(asked).toHaveLength(2);
  });
});

describe('renderer crash', () => {
  it('reloads and says so; a clean exit is not a crash; a crash loop closes the window', () => {
    let t = 0;
    const c = new CrashRecovery({ now: () => t, maxPerWindow: 3, windowMs: 60_000 });
    expect(c.onGone('clean-exit').action).toBe('none');
    const first = c.onGone('crashed');
    expect(first.action).toBe('reload');
    expect(first.message).toContain('reloaded');
    c.onGone('oom');
    c.onGone('crashed');
    expect(c.onGone('crashed').action).toBe('close');
    t += 61_000;
    expect(c.onGone('crashed').action).toBe('reload');
  });
});

describe('first-run hint', () => {
  it('once per profile: the marker file says it was shown; each platform says where the icon is', () => {
    const marker = join(tempDir(), 'first-run-linux');
    const ports = { exists: existsSync, write: (p: string) => writeFileSync(p, '') };
    expect(firstTime(marker, ports)).toBe(true);
    expect(firstTime(marker, ports)).toBe(false);
    expect(firstRunHint('darwin').body).toContain('menu bar');
    expect(firstRunHint('win32').body).toContain('^');
    expect(firstRunHint('linux').body).toContain('AppIndicator');
  });
});

describe('permissions', () => {
  it('the dashboard is granted none', () => {
    for (const p of ['notifications', 'media', 'geolocation', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen'])
      expect(permissionAllowed(p)).toBe(false);
  });
});

describe('rotating log file', () => {
  it('appends lines and rotates by size, keeping `keep` old files', () => {
    const file = join(tempDir(), 'logs', 'tray.log');
    const log = new RotatingLog(file, { maxBytes: 200, keep: 2, now: () => new Date('2026-01-02T03:04:05.000Z') });
    for (let i = 0; i < 20; i++) log.info(`line ${i} ${'x'.repeat(40)}`);
    log.error('boom', 'bad thing');
    const current = readFileSync(file, 'utf8');
    expect(current).toContain('2026-01-02T03:04:05.000Z error boom: bad thing\n');
    expect(current.length).toBeLessThanOrEqual(200);
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    expect(readFileSync(`${file}.1`, 'utf8')).toMatch(/info line 1\d x+/);
    // A new logger on the same file continues its size (the next rotation comes on time).
    const again = new RotatingLog(file, { maxBytes: 200, keep: 2 });
    again.info('y'.repeat(150));
    expect(readFileSync(file, 'utf8')).not.toContain('boom');
  });
});

describe('update check', () => {
  it('is off without CARRIER_SCREEN_UPDATE_URL, https only, generic provider at that URL when on', async () => {
    expect(updateFeedUrl({})).toBeNull();
    expect(() => updateFeedUrl({ CARRIER_SCREEN_UPDATE_URL: 'http://updates.example/tray/' })).toThrow(/https/);
    const url = updateFeedUrl({ CARRIER_SCREEN_UPDATE_URL: 'https://updates.example/tray/' });
    const calls: string[] = [];
    const updater: UpdaterPort = {
      setFeedURL: (o) => void calls.push(`feed ${o.provider} ${o.url}`),
      checkForUpdatesAndNotify: async () => void calls.push('check'),
    };
    const log = (l: string) => void calls.push(l);
    expect(await checkForUpdates({ url: null, packaged: true, loadUpdater: () => updater, log })).toBe('off');
    expect(await checkForUpdates({ url, packaged: false, loadUpdater: () => updater, log })).toBe('development');
    expect(calls).toEqual([]);
    expect(await checkForUpdates({ url, packaged: true, loadUpdater: () => updater, log })).toBe('checked');
    expect(calls).toEqual(['feed generic https://updates.example/tray/', 'check']);
    expect(await checkForUpdates({ url, packaged: true, loadUpdater: () => null, log })).toBe('not-installed');
    expect(calls[2]).toContain('electron-updater is not part of this build');
  });
});
