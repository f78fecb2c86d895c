import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Review, Screening } from '../../shared/screening.js';
import { seriousViolations } from '../helpers/axe.js';
import { artifacts, hasChromium, shootBothSizes, withBrowserStack } from '../helpers/browser-stack.js';

/**
 * Issue 30, load context on the desk, in real headless Chromium against the real stack: loads
 * POSTed with their pickup, lane and equipment show on the carrier's card (the pickup in the
 * dispatcher's local time with its zone: the page runs in America/Chicago), the card's
 * earliest pickup is the real earliest of its waiting tenders, "Earliest pickup" orders the
 * cards by the instant (offsets differ, so the text order would be wrong), and the queue row
 * shows pickup and lane.
 */

/** The window as a dispatcher sees it, at both sizes (test-artifacts/i30-load-*.png). */
const shoot = (page: Page, name: string) => shootBothSizes(page, join(artifacts, `i30-load-${name}`), { width: 1360, height: 900 });

// The dispatcher's browser runs in America/Chicago.
const rig = withBrowserStack({ mode: 'sandbox' }, { timezoneId: 'America/Chicago' });
const api = rig.api;

async function cardOrder(page: Page): Promise<string[]> {
  return page.locator('.rv-list .rv-item').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.reviewId ?? ''));
}

describe.skipIf(!hasChromium)('load context on the desk card and the queue (sandbox, America/Chicago)', () => {
  it('shows each waiting load (pickup in local time with zone, lane, equipment) and orders cards by the real earliest pickup', async () => {
    const { page, errors } = await rig.open();
    await page.getByText('Nothing waiting').waitFor();

    // Held in this order: 1000006 (no load details), then 1000004, then 1000003.
    // 1000003's earliest pickup, 09:00+05:00, is 04:00 UTC: before 1000004's 06:00 UTC, though its text sorts after it.
    const post = (body: object) => api<Screening>('/screenings?wait=10', { method: 'POST', body });
    const plain = await post({ dot_number: '1000006', tender_id: 'T-C1' });
    const b1 = await post({
      dot_number: '1000004',
      tender_id: 'T-B1',
      load: { pickup_at: '2026-11-28T06:00:00Z', origin: 'Chicago, IL', destination: 'Denver, CO', equipment: 'Reefer' },
    });
    const a2 = await post({
      dot_number: '1000003',
      tender_id: 'T-A2',
      load: { pickup_at: '2026-11-29T12:00:00Z', origin: 'Austin, TX', destination: 'Tulsa, OK', equipment: 'Flatbed' },
    });
    const a1 = await post({
      dot_number: '1000003',
      tender_id: 'T-A1',
      load: {
        pickup_at: '2026-11-28T09:00:00+05:00',
        origin: 'Dallas, TX',
        destination: 'Memphis, TN',
        equipment: '53 ft dry van',
        customer_ref: 'PO-7781',
      },
    });
    for (const s of [plain, b1, a2, a1]) expect(s.action, s.tender_id ?? '').toBe('hold');

    await expect.poll(() => page.locator('.rv-list .rv-item').count()).toBe(3);
    const reviews = (await api<{ data: Review[] }>('/reviews?state=pending')).data;
    const idOf = (dot: string) => reviews.find((r) => 'dot_number' in r.screening.query && r.screening.query.dot_number === dot)!.id;
    const card = (dot: string) => page.locator(`.rv-item[data-review-id="${idOf(dot)}"]`);

    // 1000003's card: both loads, earliest pickup first, in Chicago time with its zone (04:00 UTC on the 28th = 22:00 CST on the 27th).
    await expect.poll(() => card('1000003').locator('.rv-loads').innerText()).toBe('2 loads waiting');
    await expect.poll(() => card('1000003').locator('.rv-pickup').innerText()).toBe('pickup 2026-11-27 22:00 CST');
    await expect
      .poll(() => card('1000003').locator('.rv-load').allInnerTexts())
      .toEqual([
        'T-A1 · pickup 2026-11-27 22:00 CST · Dallas, TX → Memphis, TN · 53 ft dry van',
        'T-A2 · pickup 2026-11-29 06:00 CST · Austin, TX → Tulsa, OK · Flatbed',
      ]);
    await expect.poll(() => card('1000003').locator('.rv-load-pickup').first().getAttribute('title')).toBe('2026-11-28 04:00 UTC');
    await expect
      .poll(() => card('1000004').locator('.rv-load').allInnerTexts())
      .toEqual(['T-B1 · pickup 2026-11-28 00:00 CST · Chicago, IL → Denver, CO · Reefer']);
    await expect.poll(() => card('1000004').locator('.rv-pickup').innerText()).toBe('pickup 2026-11-28 00:00 CST');
    // No load details: no pickup, no load lines.
    await expect.poll(() => card('1000006').locator('.rv-pickup, .rv-load').count()).toBe(0);

    // Waiting longest, then earliest pickup: by the instant, the card without a pickup last.
    await page.locator('#desk-sort').selectOption('oldest');
    await expect.poll(() => cardOrder(page)).toEqual(['1000006', '1000004', '1000003'].map(idOf));
    await page.locator('#desk-sort').selectOption('pickup');
    await expect.poll(() => cardOrder(page)).toEqual(['1000003', '1000004', '1000006'].map(idOf));

    // The card's detail lists every load with its customer's reference.
    await card('1000003').click();
    await expect
      .poll(() => page.locator('.view-desk .d-loads .d-load').allInnerTexts())
      .toEqual([
        'T-A1 · pickup 2026-11-27 22:00 CST · Dallas, TX → Memphis, TN · 53 ft dry van · customer ref PO-7781',
        'T-A2 · pickup 2026-11-29 06:00 CST · Austin, TX → Tulsa, OK · Flatbed',
      ]);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desk-by-pickup');

    // The queue row shows pickup and lane under the tender.
    await page.locator('#tab-queue').click();
    await page.locator('#tab-queue[aria-selected="true"]').waitFor();
    const row = (s: Screening) => page.locator(`tr[data-screening-id="${s.id}"]`);
    await expect.poll(() => row(b1).locator('.q-load').innerText()).toBe('pickup 2026-11-28 00:00 CST · Chicago, IL → Denver, CO');
    await expect.poll(() => row(a1).locator('.q-load').innerText()).toBe('pickup 2026-11-27 22:00 CST · Dallas, TX → Memphis, TN');
    await expect.poll(() => row(a1).locator('.q-pickup').getAttribute('title')).toBe('2026-11-28 04:00 UTC');
    await expect.poll(() => row(plain).locator('td').nth(2).innerText()).toBe('T-C1');
    await expect.poll(() => row(plain).locator('.q-load').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'queue');

    expect(errors).toEqual([]);
    await page.close();
  });
});
