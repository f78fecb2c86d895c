import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signingReport } from '../../electron/signing.mjs';

const root = resolve(import.meta.dirname, '../..');

describe('installer signing from the environment', () => {
  it('without the variables every system is said to be unsigned, naming what to set', () => {
    expect(signingReport({})).toEqual([
      'macOS: UNSIGNED (set CSC_LINK, CSC_KEY_PASSWORD)',
      'macOS: NOT notarized (set APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID)',
      'Windows: UNSIGNED (set WIN_CSC_LINK and WIN_CSC_KEY_PASSWORD)',
      'Linux: .deb and .rpm are not signed by electron-builder (sign the repository instead)',
    ]);
  });

  it('with them, signed and notarized; WIN_CSC_LINK before CSC_LINK for Windows', () => {
    const env = {
      CSC_LINK: 'mac.p12',
      CSC_KEY_PASSWORD: 'x',
      APPLE_ID: 'a@b.c',
      APPLE_APP_SPECIFIC_PASSWORD: 'y',
      APPLE_TEAM_ID: 'T1',
      WIN_CSC_LINK: 'win.pfx',
      WIN_CSC_KEY_PASSWORD: 'z',
    };
    expect(signingReport(env).slice(0, 3)).toEqual([
      'macOS: signed with CSC_LINK',
      'macOS: notarized (APPLE_ID, team APPLE_TEAM_ID)',
      'Windows: signed with WIN_CSC_LINK',
    ]);
    expect(signingReport({ ...env, WIN_CSC_LINK: '' })[2]).toBe('Windows: signed with CSC_LINK');
    expect(signingReport({ ...env, APPLE_TEAM_ID: ' ' })[1]).toBe('macOS: NOT notarized (set APPLE_TEAM_ID)');
  });

  it('electron-builder.yml holds no signing material, only the switches, and npm run dist reports first', () => {
    const yml = readFileSync(resolve(root, 'electron-builder.yml'), 'utf8');
    const config = yml
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('#'))
      .join('\n');
    expect(config).not.toMatch(/CSC_LINK|PASSWORD|APPLE_ID|certificateFile|certificatePassword/);
    expect(config).toMatch(/notarize: true/);
    expect(config).toMatch(/hardenedRuntime: true/);
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.dist).toMatch(/node electron\/signing\.mjs && npx --yes electron-builder/);
  });
});
