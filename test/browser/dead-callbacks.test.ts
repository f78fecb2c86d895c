import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTray } from '../../electron/build.mjs';
import type { StatusReport } from '../../shared/screening.js';
import { chromiumInstalled, launchChromium, type RunningBrowser } from '../helpers/chromium.js';
import { until } from '../helpers/processes.js';
import { startStack, type Stack } from '../helpers/stack.js';

/** The dashboard's queue view and banner show dead callbacks (real stack, real Chromium). */

const hasChromium = chromiumInstalled();
if (!hasChromium) console.log('SKIPPED: Chromium not installed at /usr/bin/chromium (apt-get install chromium)');

describe.skipIf(!hasChromium)('dead callbacks in the dashboard', () => {
  let uiOut: string;
  let stack: Stack;
  let browser: RunningBrowser;
  beforeAll(async () => {
    uiOut = await mkdtemp(join(tmpdir(), 'dead-cb-ui-'));
    await buildTray({ outDir: uiOut });
    // Retried for half a second instead of a day, so the test sees one go dead.
    stack = await startStack({ mode: 'sandbox', uiDir: join(uiOut, 'renderer'), callbackBackoffMs: 50, callbackDeadAfterMs: 500 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    if (uiOut) await rm(uiOut, { recursive: true, force: true });
  });

  it('a callback whose receiver never answers shows as dead in the queue view and the banner', async () => {
    const status = async (): Promise<StatusReport> =>
      (await (await fetch(`${stack.intakeUrl}/status`, { headers: { authorization: `Bearer ${stack.token}` } })).json()) as StatusReport;
    // Port 9 on loopback: nothing listens, every attempt is refused.
    await stack.screener.screen({ dot_number: '1000005', callback_url: 'http://127.0.0.1:9/hook' }, { waitMs: 10_000 });
    await until('the callback dead', 60_000, async () => (await status()).callbacks?.dead === 1 || undefined, 100);

    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${stack.intakeUrl}/ui/#token=${encodeURIComponent(stack.token)}`);
    await page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    await page.evaluate(() => {
      location.hash = '#/queue';
    });
    const card = page.locator('.card', { hasText: 'Dead callbacks' });
    await card.waitFor();
    await expect.poll(() => card.locator('.card-value').innerText()).toBe('1');
    await expect.poll(() => card.locator('.card-note').innerText()).toContain('POST /callbacks/:id/retry');
    await page.locator('.banner-item', { hasText: '1 callback to the TMS gave up' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
