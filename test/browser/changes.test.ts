import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { applyDatedChange, type DatedChange } from '../../emulator/dated-changes.js';
import { liveCarrier } from '../../emulator/index.js';
import type { CarrierChange, Screening } from '../../shared/screening.js';
import { artifacts, hasChromium, withBrowserStack } from '../helpers/browser-stack.js';
import { manualClock } from '../helpers/emulator.js';

/**
 * The Changes view in real headless Chromium against the real stack: live emulator with
 * dated changes, an injected clock, Redis, SQLite, the worker's watch list and the intake
 * serving the freshly built renderer. Tenders put two carriers on the watch list; the clock
 * moves past their dated changes and a watch tick re-screens them; the changes reach the page
 * through the event stream and a dispatcher acknowledges with the keyboard.
 */

const DAY = 86_400_000;
// The tenders three days ago, the changes found "now": relative ages on the page read as they would at a desk.
const T0 = new Date(Math.floor((Date.now() - 3 * DAY) / 60_000) * 60_000);
const clock = manualClock(T0.toISOString());

const cleanApproved = (dot: string): boolean => {
  const c = liveCarrier(dot);
  return c !== undefined && c.decision === 'approved' && !c.needs_manual_review && !c.knockout.triggered;
};
function findCarrier(from: number, pred: (dot: string) => boolean, skip: ReadonlySet<string>): string {
  for (let d = from; ; d++) if (!skip.has(String(d)) && pred(String(d))) return String(d);
}
/** Approved at its tenders; its authority is revoked a day later (knockout: block). */
const REVOKED = findCarrier(3_200_000, cleanApproved, new Set());
/** Approved at its tender; a safety downgrade a day later makes it `review` (hold). */
const DOWNGRADED = findCarrier(
  3_200_000,
  (d) => cleanApproved(d) && applyDatedChange(liveCarrier(d)!, 'safety_downgrade').decision === 'review',
  new Set([REVOKED]),
);
const FROM = new Date(T0.getTime() + DAY).toISOString();
const DATED: DatedChange[] = [
  { dot: REVOKED, from: FROM, change: 'authority_revoked' },
  { dot: DOWNGRADED, from: FROM, change: 'safety_downgrade' },
];

const rig = withBrowserStack({
  mode: 'live',
  now: clock.now,
  emulator: { datedChanges: DATED, monthlyQuota: 10_000 },
  env: { SCREEN_WATCH_DAYS: '14' },
});
const api = rig.api;

const tender = (dot: string, tenderId: string) =>
  api<Screening>('/screenings?wait=20', { method: 'POST', body: { dot_number: dot, tender_id: tenderId } });

const selectedText = (page: Page) => page.locator('.ch-list .ch-item.selected').innerText();

describe.skipIf(!hasChromium)('Changes view in Chromium against the real stack (live, dated changes)', () => {
  it('shows a watched carrier that changed live, and a dispatcher acknowledges it with the keyboard', async () => {
    const t1 = await tender(REVOKED, 'T-4471');
    const t2 = await tender(REVOKED, 'T-4472');
    const t3 = await tender(DOWNGRADED, 'T-4480');
    expect([t1.action, t2.action, t3.action]).toEqual(['tender', 'tender', 'tender']);

    const { page, errors } = await rig.open();
    await page.keyboard.press('4');
    await page.getByText('No changes to acknowledge').waitFor();
    await expect.poll(() => page.locator('#changes-count').innerText()).toBe('');

    // Three days on: the daily re-screen sees both dated changes.
    clock.set(new Date().toISOString());
    const tick = await rig.stack.screener.watch.tick();
    const rescreens = await Promise.all(tick.screenings.map((id) => rig.stack.screener.waitFor(id, 30_000)));
    expect(rescreens).toHaveLength(2);
    const changes = (await api<{ data: CarrierChange[] }>('/changes?state=new')).data;
    expect(changes.map((c) => c.dot_number).sort()).toEqual([REVOKED, DOWNGRADED].sort());
    const revoked = changes.find((c) => c.dot_number === REVOKED)!;

    // They arrive through the event stream (the page does not poll), with the badge.
    await expect.poll(() => page.locator('.ch-list .ch-item').count()).toBe(2);
    await expect.poll(() => page.locator('#changes-count').innerText()).toBe('2');

    // j/k to the revoked carrier.
    const order = await page.locator('.ch-list .ch-item').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.changeId));
    const at = order.indexOf(revoked.id);
    expect(at).toBeGreaterThanOrEqual(0);
    if (at === 0) {
      await page.keyboard.press('j');
      await page.keyboard.press('k');
    } else for (let i = 0; i < at; i++) await page.keyboard.press('j');
    await expect.poll(() => selectedText(page)).toContain(`DOT ${REVOKED}`);

    const detail = page.locator('.changes-detail');
    await expect.poll(() => detail.innerText()).toContain('T-4472');
    const text = await detail.innerText();
    for (const want of [
      revoked.legal_name ?? `DOT ${REVOKED}`,
      `DOT ${REVOKED}`,
      // why
      'tender action changed',
      'decision changed',
      'new knockout',
      'grade dropped',
      // before → after
      'approved → rejected',
      'AUTHORITY_INACTIVE',
      String(revoked.before.score),
      String(revoked.after.score),
      `was tender`,
      // the loads at risk
      'Tenders that used this carrier (2)',
      'T-4471',
      t1.id,
      t2.id,
      revoked.screening_id,
    ]) {
      // Headings are upper-cased by the stylesheet.
      expect(text.toLowerCase(), want).toContain(want.toLowerCase());
    }
    expect((await page.locator('.ch-now-action').innerText()).toLowerCase()).toBe('block');
    // The rows that changed are marked; the new knockout code stands out.
    expect(await page.locator('.ch-compare tr.changed th').allInnerTexts()).toEqual(['Action', 'Decision', 'Grade', 'Score', 'Knockouts']);
    expect(await page.locator('.ko-code.ko-new').allInnerTexts()).toEqual(['AUTHORITY_INACTIVE']);
    await page.screenshot({ path: join(artifacts, 'changes-live-new.png'), fullPage: true });

    // Keyboard only: a → name (first time) → Enter → (the optional note, left empty) → Enter.
    await page.keyboard.press('a');
    await expect.poll(() => page.locator('.ack-panel').getAttribute('class')).toContain('mode-ack');
    await page.keyboard.type('Dana Dispatcher');
    await expect.poll(() => page.locator('.ack-panel .dp-mode').innerText()).toContain('as Dana Dispatcher?');
    await page.screenshot({ path: join(artifacts, 'changes-live-acknowledging.png') });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('ack-note');
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: /^Acknowledged:/ }).waitFor();
    await page.locator('.ch-history .ch-done', { hasText: 'Dana Dispatcher' }).waitFor();
    await expect.poll(() => page.locator('#changes-count').innerText()).toBe('1');

    const acknowledged = (await api<{ data: CarrierChange[] }>('/changes?state=acknowledged')).data;
    expect(acknowledged.find((c) => c.id === revoked.id)).toMatchObject({ state: 'acknowledged', acknowledged_by: 'Dana Dispatcher' });
    // The same remembered name as the review desk.
    expect(await page.evaluate(() => localStorage.getItem('carrier-screen.dispatcher'))).toBe('Dana Dispatcher');
    // The next change is on screen, ready for the next `a`.
    await expect.poll(() => selectedText(page)).toContain(`DOT ${DOWNGRADED}`);
    await page.screenshot({ path: join(artifacts, 'changes-live-acknowledged.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('moves a change acknowledged elsewhere live; a window that missed it gets 409, says who, and refreshes', async () => {
    const { page, errors } = await rig.open();
    await page.keyboard.press('4');
    await expect.poll(() => page.locator('.ch-list .ch-item').count()).toBe(1);
    const [left] = (await api<{ data: CarrierChange[] }>('/changes?state=new')).data;
    expect(left?.dot_number).toBe(DOWNGRADED);

    // A second window whose event stream is cut: it still lists the change.
    const stale = await rig.open({ liveEvents: false });
    await stale.page.keyboard.press('4');
    await expect.poll(() => stale.page.locator('.ch-list .ch-item').count()).toBe(1);

    // Someone acknowledges it from another desk.
    await api(`/changes/${left!.id}/acknowledge`, { method: 'POST', body: { by: 'Eli Elsewhere' } });
    await page.locator('.toast', { hasText: 'acknowledged by Eli Elsewhere elsewhere' }).waitFor();
    await page.getByText('No changes to acknowledge').waitFor();
    await page.locator('.ch-history .ch-done', { hasText: 'Eli Elsewhere' }).waitFor();
    await expect.poll(() => page.locator('#changes-count').innerText()).toBe('');

    // The cut-off window tries: the name is remembered, so a → Enter.
    await stale.page.keyboard.press('a');
    await stale.page.keyboard.press('Enter');
    await stale.page.locator('.toast', { hasText: 'someone else acknowledged this change already (Eli Elsewhere)' }).waitFor();
    await stale.page.getByText('No changes to acknowledge').waitFor();
    await stale.page.locator('.ch-history .ch-done', { hasText: 'Eli Elsewhere' }).waitFor();
    await stale.page.screenshot({ path: join(artifacts, 'changes-conflict.png'), fullPage: true });

    const acknowledged = (await api<{ data: CarrierChange[] }>('/changes?state=acknowledged')).data;
    expect(acknowledged.find((c) => c.id === left!.id)?.acknowledged_by).toBe('Eli Elsewhere');
    expect(errors).toEqual([]);
    await stale.page.close();
    await page.close();
  });
});
