import { describe, expect, it } from 'vitest';
import type { StatusReport } from '../../shared/screening.js';
import { hasChromium, withBrowserStack } from '../helpers/browser-stack.js';
import { until } from '../helpers/processes.js';

/** The dashboard's queue view and banner show dead callbacks (real stack, real Chromium). */

describe.skipIf(!hasChromium)('dead callbacks in the dashboard', () => {
  // Retried for half a second instead of a day, so the test sees one go dead.
  const rig = withBrowserStack({ mode: 'sandbox', callbackBackoffMs: 50, callbackDeadAfterMs: 500 });

  it('a callback whose receiver never answers shows as dead in the queue view and the banner', async () => {
    const status = () => rig.api<StatusReport>('/status');
    // Port 9 on loopback: nothing listens, every attempt is refused.
    await rig.stack.screener.screen({ dot_number: '1000005', callback_url: 'http://127.0.0.1:9/hook' }, { waitMs: 10_000 });
    await until('the callback dead', 60_000, async () => (await status()).callbacks?.dead === 1 || undefined, 100);

    const { page, errors } = await rig.open();
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
