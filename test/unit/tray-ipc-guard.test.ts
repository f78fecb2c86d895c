import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isOwnFrame } from '../../electron/main/ipc-guard.js';

/** Frames as Electron hands them over: objects, one per frame, with the URL they show. */
const frame = (url: string) => ({ url });

describe('IPC sender check', () => {
  it('answers the dashboard main frame wherever it is installed, whatever view its hash shows', () => {
    for (const dir of [
      '/opt/Carrier Screen/resources/app.asar',
      'C:\\Program Files\\Carrier Screen [x64]\\resources\\app.asar',
      '/home/dana/Apps/[beta] Carrier Screen',
    ]) {
      const main = frame(`${pathToFileURL(`${dir}/renderer/index.html`).href}#/desk`);
      expect(isOwnFrame(main, main), dir).toBe(true);
    }
    // A lower-case drive letter, as loadFile may write it: still the same frame object.
    const lower = frame('file:///c:/Program%20Files/Carrier%20Screen/resources/app.asar/renderer/index.html#/quota');
    expect(isOwnFrame(lower, lower)).toBe(true);
  });

  it('refuses another frame (even showing the same URL), a missing frame, and a frame not on the bundled page', () => {
    const url = 'file:///opt/app/renderer/index.html';
    const main = frame(url);
    expect(isOwnFrame(frame(url), main)).toBe(false);
    expect(isOwnFrame(null, main)).toBe(false);
    expect(isOwnFrame(undefined, main)).toBe(false);
    expect(isOwnFrame(main, null)).toBe(false);
    const navigated = frame('https://example.com/');
    expect(isOwnFrame(navigated, navigated)).toBe(false);
  });
});
