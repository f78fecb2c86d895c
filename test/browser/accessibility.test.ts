import { describe, expect, it } from 'vitest';
import type { Screening } from '../../shared/screening.js';
import { seriousViolations } from '../helpers/axe.js';
import { hasChromium, withBrowserStack } from '../helpers/browser-stack.js';

/**
 * axe-core over every view of the dashboard, in real headless Chromium against the real stack,
 * with something in each list (a held carrier, a standing decision, a block) and with the
 * decision panel open: no serious or critical violation anywhere.
 */

const rig = withBrowserStack({ mode: 'sandbox' });
const api = rig.api;

const VIEWS = [
  ['1', 'desk'],
  ['2', 'queue'],
  ['3', 'quota'],
  ['4', 'changes'],
  ['5', 'decisions'],
  ['6', 'blocks'],
  ['8', 'carrier'],
] as const;

describe.skipIf(!hasChromium)('accessibility (axe-core) of every view', () => {
  it('has no serious or critical violation in any view, with content in the lists', async () => {
    // Something to show: a held carrier (desk), a standing decision, a do-not-use block.
    const held = await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: '1000003', tender_id: 'A11Y-1' } });
    expect(held.action).toBe('hold');
    const approved = await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: '1000004', tender_id: 'A11Y-2' } });
    if (approved.review)
      await api(`/reviews/${approved.review.id}/approve`, { method: 'POST', body: { by: 'Dana', note: 'checked by phone' } });
    await api('/blocks', { method: 'POST', body: { dot_number: '1000002', by: 'Dana', reason: 'double brokering' } });
    // A carrier change (Changes: its loads' status, findings added, links to the carrier).
    await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: '1000001', tender_id: 'A11Y-3' } });
    const changed = await api<{ screening: Screening }>('/sandbox/carriers/1000001/change', {
      method: 'POST',
      body: { change: 'authority_revoked' },
    });
    await rig.stack.screener.waitFor(changed.screening.id, 30_000);
    await expect.poll(async () => (await api<{ data: unknown[] }>('/changes?state=new')).data.length).toBe(1);

    const { page, errors } = await rig.open();
    const found: Record<string, string[]> = {};
    for (const [key, view] of VIEWS) {
      await page.keyboard.press(key);
      await page.locator(`#tab-${view}[aria-selected="true"]`).waitFor();
      // Read (no skeleton left): the live event stream keeps the network busy, so wait on the page.
      await page.waitForFunction((v) => !document.querySelector(`#panel-${v} [aria-busy="true"]`), view);
      found[view] = await seriousViolations(page);
    }
    // A carrier's page (a blocked carrier: its block and the lift form open).
    await page.keyboard.press('/');
    await page.locator('#carrier-q').fill('1000002');
    await page.keyboard.press('Enter');
    await page.locator('#carrier-lift-start').click();
    await page.locator('#carrier-lift-note').waitFor();
    found['carrier (page, lifting)'] = await seriousViolations(page);
    await page.keyboard.press('Escape');
    // Changes with a change shown and the acknowledge panel open, its note field ready.
    await page.keyboard.press('4');
    await page.locator('.ch-findings-added').waitFor();
    await page.locator('.ch-carrier-link').waitFor();
    found['changes (story)'] = await seriousViolations(page);
    await page.keyboard.press('a');
    await page.locator('.ack-panel.mode-ack').waitFor();
    found['changes (acknowledging, note)'] = await seriousViolations(page);
    await page.keyboard.press('Escape');
    // The desk with the decision panel open (approve), the state a dispatcher spends most time in.
    await page.keyboard.press('1');
    await page.locator('.rv-item').first().waitFor();
    await page.keyboard.press('a');
    await page.locator('.decision-panel').waitFor();
    found['desk (deciding)'] = await seriousViolations(page);

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
    // The check can fail: a button with no name is a critical violation, and is seen.
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('button'), { id: 'a11y-probe' })));
    expect((await seriousViolations(page)).some((v) => v.startsWith('button-name') && v.includes('#a11y-probe'))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
