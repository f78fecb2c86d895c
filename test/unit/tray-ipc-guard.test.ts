import { describe, expect, it } from 'vitest';
import { isOwnPage } from '../../electron/main/ipc-guard.js';

const APP = 'file:///opt/Carrier%20Screen/resources/app.asar/dist/electron/renderer/index.html';

describe('IPC sender check', () => {
  it('answers the app page, whatever view its hash shows', () => {
    expect(isOwnPage(APP, APP)).toBe(true);
    expect(isOwnPage(`${APP}#/quota`, APP)).toBe(true);
    expect(isOwnPage(`${APP}?x=1#/desk`, APP)).toBe(true);
  });

  it('refuses any other page, a missing frame and a non-file app URL', () => {
    expect(isOwnPage('https://example.com/renderer/index.html', APP)).toBe(false);
    expect(isOwnPage('file:///tmp/evil/index.html', APP)).toBe(false);
    expect(isOwnPage('file:///opt/Carrier%20Screen/resources/app.asar/dist/electron/renderer/other.html', APP)).toBe(false);
    expect(isOwnPage(null, APP)).toBe(false);
    expect(isOwnPage(undefined, APP)).toBe(false);
    expect(isOwnPage('not a url', APP)).toBe(false);
    expect(isOwnPage('http://127.0.0.1:8787/ui/', 'http://127.0.0.1:8787/ui/')).toBe(false);
  });
});
