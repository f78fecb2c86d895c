import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTray } from '../../electron/build.mjs';
import type { Review, Screening } from '../../shared/screening.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { REPO_ROOT } from '../helpers/processes.js';
import { installedElectron } from '../../worker/tray-launcher.js';

/**
 * The real tray app in Electron, driven by Playwright, against the real stack. It runs where
 * the Electron binary exists. npm ci does not fetch it (package.json allowScripts denies
 * electron's download, which our build machines cannot reach): there it says so and skips.
 */

function electronBinary(): string | null {
  const p = installedElectron(REPO_ROOT);
  return p && statSync(p).mode & 0o111 ? p : null;
}

const binary = electronBinary();
const display = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
if (!binary) console.log('SKIPPED: Electron binary not installed (node node_modules/electron/install.js fetches it)');
else if (!display) console.log('SKIPPED: no display for Electron (run under xvfb-run)');

describe('tray app in Electron', () => {
  let stack: Stack | undefined;
  let app: ElectronApplication | undefined;
  let out: string | undefined;
  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await stack?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it.skipIf(!binary || !display)('opens the desk through the preload bridge; the token stays in main', async () => {
    out = await mkdtemp(join(tmpdir(), 'tray-e2e-'));
    await buildTray({ outDir: join(out, 'app') });
    stack = await startStack({ mode: 'sandbox' });
    app = await _electron.launch({
      executablePath: binary!,
      args: [join(out, 'app'), '--open=desk', ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
      env: { ...process.env, INTAKE_URL: stack.intakeUrl, INTAKE_TOKEN: stack.token, CARRIER_SCREEN_USER_DATA: join(out, 'user') },
    });
    const win = await app.firstWindow();
    await win.locator('#connection', { hasText: /^Live$/ }).waitFor();

    // Isolation: no Node in the page, only the named bridge, and no token anywhere in it.
    expect(await win.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
    expect(await win.evaluate(() => Object.keys((window as unknown as { desk: object }).desk).sort())).toContain('resolveReview');
    const token = stack.token;
    expect(
      await win.evaluate(
        (t) =>
          document.documentElement.outerHTML.includes(t) ||
          JSON.stringify(sessionStorage).includes(t) ||
          JSON.stringify(localStorage).includes(t),
        token,
      ),
    ).toBe(false);

    const res = await fetch(`${stack.intakeUrl}/screenings?wait=10`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dot_number: '1000003', tender_id: 'T-ELECTRON' }),
    });
    const screened = (await res.json()) as Screening;
    await win.locator('.rv-item', { hasText: 'DOT 1000003' }).waitFor();
    await win.keyboard.press('a');
    await win.keyboard.type('Eli Electron');
    await win.keyboard.press('Enter');
    await win.keyboard.type('checked in the tray app');
    await win.keyboard.press('Enter');
    await win.locator('.toast', { hasText: 'Approved' }).waitFor();
    const approved = (await (
      await fetch(`${stack.intakeUrl}/reviews?state=approved`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { data: Review[] };
    expect(approved.data.find((r) => r.screening_id === screened.id)).toMatchObject({ decided_by: 'Eli Electron' });

    // Navigation away from the app's page is refused.
    await win.evaluate(() => {
      location.href = 'https://example.invalid/';
    });
    await win.locator('#connection').waitFor();
    expect(win.url()).toMatch(/^file:.*renderer\/index\.html/);
  });
});
