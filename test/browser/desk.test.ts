import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { liveCarrier } from '../../emulator/index.js';
import type { Review, Screening, StatusReport } from '../../shared/screening.js';
import { artifacts, hasChromium, withBrowserStack } from '../helpers/browser-stack.js';
import { stackApi } from '../helpers/dashboard.js';
import type { Stack } from '../helpers/stack.js';

/**
 * The dashboard in real headless Chromium against the real stack (emulator, Redis, SQLite,
 * worker, intake serving the freshly built renderer at /ui/). Screenshots go to
 * test-artifacts/ for a person to look at.
 */

async function api<T>(stack: Stack, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  return stackApi(() => stack)<T>(path, init);
}

async function until<T>(probe: () => Promise<T | undefined | false>, what: () => string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what()}`);
}

const cardValue = (page: Page, id: string) => page.locator(`#${id} .card-value`).innerText();
const fmt = (n: number | null) => (n === null ? '—' : new Intl.NumberFormat('en-US').format(n));

/** The quota view shows what /status says (read again until both agree, as events may still be arriving). */
async function expectQuotaMatchesStatus(page: Page, stack: Stack): Promise<StatusReport> {
  return until(
    async () => {
      const s = await api<StatusReport>(stack, '/status');
      const shown = [
        await cardValue(page, 'quota-used'),
        await cardValue(page, 'quota-remaining'),
        await cardValue(page, 'quota-monthly'),
        await cardValue(page, 'quota-rate'),
      ];
      const want = [
        fmt(s.quota.used),
        fmt(s.quota.remaining),
        fmt(s.quota.monthly_quota),
        s.rate_limit.per_minute === null ? '—' : `${fmt(s.rate_limit.per_minute)}/min`,
      ];
      return JSON.stringify(shown) === JSON.stringify(want) ? s : undefined;
    },
    () => 'the quota view to show the numbers of /status',
  );
}

describe.skipIf(!hasChromium)('review desk in Chromium against the real stack (sandbox)', () => {
  const rig = withBrowserStack({ mode: 'sandbox' });

  it('shows a held carrier live and records a keyboard-only approval', async () => {
    const { page, errors } = await rig.open();
    // The token left the address bar.
    expect(page.url()).not.toContain(rig.stack.token);
    expect(page.url()).not.toContain('token=');
    await page.getByText('Nothing waiting').waitFor();

    const screened = await api<Screening>(rig.stack, '/screenings?wait=10', {
      method: 'POST',
      body: { dot_number: '1000003', tender_id: 'T-BROWSER-1' },
    });
    expect(screened.action).toBe('hold');

    // It arrives through the event stream: the page does not poll.
    const item = page.locator('.rv-item', { hasText: 'DOT 1000003' });
    await item.waitFor();
    const detail = page.locator('.desk-detail');
    await expect.poll(() => detail.innerText()).toContain('T-BROWSER-1');
    const text = await detail.innerText();
    for (const want of [
      '66',
      'grade D',
      'needs a look',
      'Service asks a person',
      'MEDIUM',
      'Safety & Roadside',
      'crs-3.5-sandbox',
      'fresh from the scoring service',
      'MC1000003',
    ]) {
      expect(text, want).toContain(want);
    }
    await page.screenshot({ path: join(artifacts, 'desk-sandbox-held.png'), fullPage: true });

    // A second tender for the same carrier waits on the same card, not a second one.
    await api<Screening>(rig.stack, '/screenings?wait=10', { method: 'POST', body: { dot_number: '1000003', tender_id: 'T-BROWSER-2' } });
    await expect.poll(() => detail.innerText()).toContain('2 loads wait on this carrier');
    await expect.poll(() => detail.innerText()).toContain('T-BROWSER-1, T-BROWSER-2');
    await expect.poll(() => page.locator('.rv-item', { hasText: 'DOT 1000003' }).count()).toBe(1);
    await page.screenshot({ path: join(artifacts, 'desk-sandbox-two-tenders.png'), fullPage: true });

    // Keyboard only: a → name (first time) → Enter → note → Enter.
    await page.keyboard.press('a');
    await expect.poll(() => page.locator('.decision-panel').getAttribute('class')).toContain('mode-approve');
    await page.keyboard.type('Dana Dispatcher');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Called the carrier: roadside findings fixed.');
    await page.screenshot({ path: join(artifacts, 'desk-sandbox-approving.png') });
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: 'Approved' }).waitFor();
    await page.getByText('Nothing waiting').waitFor();

    const approved = await api<{ data: Review[] }>(rig.stack, '/reviews?state=approved');
    const mine = approved.data.find((r) => r.screening_id === screened.id);
    expect(mine).toMatchObject({ state: 'approved', decided_by: 'Dana Dispatcher', note: 'Called the carrier: roadside findings fixed.' });
    await page.locator('.rv-decided', { hasText: 'Dana Dispatcher' }).waitFor();
    await page.screenshot({ path: join(artifacts, 'desk-sandbox-approved.png'), fullPage: true });

    // The name is remembered for next time.
    expect(await page.evaluate(() => localStorage.getItem('carrier-screen.dispatcher'))).toBe('Dana Dispatcher');

    await page.keyboard.press('2');
    await page.locator('.screenings tbody tr', { hasText: 'T-BROWSER-1' }).waitFor();
    await page.screenshot({ path: join(artifacts, 'queue-sandbox.png'), fullPage: true });
    await page.keyboard.press('3');
    await expectQuotaMatchesStatus(page, rig.stack);
    await page.screenshot({ path: join(artifacts, 'quota-sandbox.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('asks for the token when the page has none or a wrong one', async () => {
    const page = await rig.browser.context.newPage();
    await page.goto(`${rig.stack.intakeUrl}/ui/#token=not-the-token`);
    await page.locator('.token-card', { hasText: 'refused this token' }).waitFor();
    await page.locator('#token-input').fill(rig.stack.token);
    await page.keyboard.press('Enter');
    await page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    await page.close();
  });
});

describe.skipIf(!hasChromium)('review desk in Chromium against the real stack (live, a /v1 release with new values)', () => {
  const rig = withBrowserStack({ mode: 'live', emulator: { faults: { unknownFieldsShare: 1 } } });

  it('shows a severity, decision and flag it has never seen by name, and the live quota of /status', async () => {
    // A live carrier without a knockout: with the new values its decision is unknown to us, so it is held.
    let dot = 2_000_000;
    while (liveCarrier(String(dot))?.knockout.triggered !== false) dot++;
    const { page, errors } = await rig.open();
    const screened = await api<Screening>(rig.stack, '/screenings?wait=10', {
      method: 'POST',
      body: { dot_number: String(dot), tender_id: 'T-NEW-VALUES' },
    });
    expect(screened.hold_reason).toBe('unknown_decision');

    await page.locator('.rv-item', { hasText: `DOT ${dot}` }).waitFor();
    const detail = page.locator('.desk-detail');
    await expect.poll(() => detail.innerText()).toContain('T-NEW-VALUES');
    const badge = page.locator('.sev-badge.unknown');
    await expect.poll(() => badge.count()).toBe(1);
    expect((await badge.innerText()).toLowerCase()).toBe('advisory');
    const text = await detail.innerText();
    expect(text).toContain('severity not known to this app');
    expect(text).toContain('conditional_approval');
    expect(text).toContain('hazmat_endorsement_pending');
    expect(text).toContain('Decision not known to this app');
    expect(text).toContain('More from the scoring service');
    // The unknown reason is listed first: how serious it is, we cannot tell.
    await expect.poll(() => page.locator('.reasons .reason').first().getAttribute('class')).toContain('unknown');
    await page.screenshot({ path: join(artifacts, 'desk-live-unknown-values.png'), fullPage: true });

    await page.keyboard.press('3');
    const s = await expectQuotaMatchesStatus(page, rig.stack);
    expect(s.quota.livemode).toBe(true);
    // The lookup counted against the live quota.
    expect(s.quota.monthly_quota).not.toBeNull();
    expect(s.quota.remaining).toBeLessThan(s.quota.monthly_quota ?? 0);
    await page.locator('#usage-chart canvas').waitFor();
    await page.screenshot({ path: join(artifacts, 'quota-live.png'), fullPage: true });

    // Reject with the keyboard; Esc first shows cancelling works.
    await page.keyboard.press('1');
    await page.keyboard.press('r');
    await page.keyboard.type('Dana Dispatcher');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.decision-panel').getAttribute('class')).toContain('mode-idle');
    await page.keyboard.press('r');
    await page.keyboard.type('Unknown decision: not booking until the service explains it.');
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: 'Rejected' }).waitFor();
    const rejected = await api<{ data: Review[] }>(rig.stack, '/reviews?state=rejected');
    expect(rejected.data.find((r) => r.screening_id === screened.id)).toMatchObject({ decided_by: 'Dana Dispatcher' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
