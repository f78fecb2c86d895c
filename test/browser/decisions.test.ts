import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Decision, Review, Screening } from '../../shared/screening.js';
import { artifacts, hasChromium, withBrowserStack } from '../helpers/browser-stack.js';

/**
 * Standing decisions in the dashboard (docs/decisions.md), in real headless Chromium against the
 * real stack: one card per carrier with its tenders, a decision that settles later tenders, the
 * Decisions view with revoke, a reopened card that shows the revoked decision, Re-check now, and
 * the audit CSV export read back by a CSV parser. Screenshots go to test-artifacts/.
 */

const rig = withBrowserStack({ mode: 'sandbox' });
const api = rig.api;
const tender = (dot: string, tenderId: string) =>
  api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: dot, tender_id: tenderId } });

describe.skipIf(!hasChromium)('standing decisions in Chromium against the real stack (sandbox)', () => {
  it('decides a carrier once for all its tenders, lists and revokes the decision, and a reopened card shows it', async () => {
    const { page, errors } = await rig.open();
    await page.getByText('Nothing waiting').waitFor();
    const t1 = await tender('1000003', 'LOAD-D1');
    const t2 = await tender('1000003', 'LOAD-D2');
    expect([t1.action, t2.action]).toEqual(['hold', 'hold']);

    // One card for the carrier, both tenders on it.
    const desk = page.locator('.desk-detail');
    await expect.poll(() => desk.innerText()).toContain('2 loads wait on this carrier');
    await expect.poll(() => page.locator('.rv-item').count()).toBe(1);
    await expect.poll(() => page.locator('.rv-item .rv-loads').innerText()).toBe('2 loads waiting');

    // Approve from the keyboard: both tenders are settled.
    await page.keyboard.press('a');
    await expect.poll(() => page.locator('.decision-panel .dp-mode').innerText()).toContain('for all 2 waiting loads');
    await page.keyboard.type('Dana Dispatcher');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Checked insurance by phone');
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: 'Approved' }).waitFor();
    for (const s of [t1, t2]) expect((await api<Screening>(`/screenings/${s.id}`)).action).toBe('tender');

    // A third tender is settled by the standing decision: no card.
    const t3 = await tender('1000003', 'LOAD-D3');
    expect(t3).toMatchObject({ action: 'tender', settled_by: 'standing_decision' });
    await expect.poll(() => page.locator('.rv-item').count()).toBe(0);

    // The Decisions view lists it with who, until when and on what basis.
    await page.keyboard.press('5');
    const item = page.locator('.dc-list .dc-item', { hasText: 'DOT 1000003' });
    await item.waitFor();
    await expect.poll(() => item.innerText()).toContain('approved → tender');
    const detail = page.locator('.decisions-detail');
    const text = (await detail.innerText()).toLowerCase();
    for (const want of [
      'dana dispatcher',
      'stands until',
      'later tenders of this carrier are tendered at once',
      'crs-3.5-sandbox',
      'grade',
      'service asks a person to look',
    ])
      expect(text, want).toContain(want);
    await page.screenshot({ path: join(artifacts, 'decisions-standing.png'), fullPage: true });

    // Revoke with the keyboard: v → note → Enter.
    await page.keyboard.press('v');
    await expect.poll(() => page.locator('.revoke-panel .dp-mode').innerText()).toContain('Revoke the approval of');
    await page.keyboard.type('Insurance lapsed per the broker');
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: 'Revoked' }).waitFor();
    await page.getByText('No standing decisions').waitFor();
    await page.locator('.dc-history .dc-done', { hasText: 'revoked' }).waitFor();
    const [revoked] = (await api<{ data: Decision[] }>('/decisions?state=revoked')).data;
    expect(revoked).toMatchObject({
      state: 'revoked',
      ended_by: 'Dana Dispatcher',
      end_reason: 'Insurance lapsed per the broker',
      legal_name: expect.any(String),
    });
    await page.screenshot({ path: join(artifacts, 'decisions-revoked.png'), fullPage: true });

    // The next tender goes back to the desk, and the card says what was decided before.
    const t4 = await tender('1000003', 'LOAD-D4');
    expect(t4.action).toBe('hold');
    await page.keyboard.press('1');
    await expect.poll(() => desk.innerText()).toContain('Decided before');
    await expect.poll(() => desk.innerText()).toContain('revoked by Dana Dispatcher: Insurance lapsed per the broker');
    await page.screenshot({ path: join(artifacts, 'desk-reopened-after-revoke.png'), fullPage: true });

    // Reject with "also block": the carrier goes on the do-not-use list in the same step.
    await page.keyboard.press('r');
    await page.locator('#reject-block').check();
    await page.locator('#decision-note').fill('Not booking again');
    await page.locator('#decision-note').press('Enter');
    await page.locator('.toast', { hasText: 'on the do-not-use list' }).waitFor();
    const blocks = await api<{ data: Array<{ dot_number: string | null; state: string }> }>('/blocks?state=active');
    expect(blocks.data.some((b) => b.dot_number === '1000003')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('re-checks a held carrier on request (one lookup) and says what came back', async () => {
    const { page, errors } = await rig.open();
    const held = await tender('1000004', 'LOAD-R1');
    expect(held.action).toBe('hold');
    const before = (await api<{ data: Screening[] }>('/screenings?limit=100')).data.filter((s) => s.source === 'service').length;
    await page.locator('.rv-item', { hasText: 'DOT 1000004' }).click();
    const button = page.locator('#recheck');
    await expect.poll(() => button.innerText()).toContain('uses 1 lookup');
    await button.click();
    await page.locator('.toast', { hasText: 're-checked' }).waitFor();
    const after = (await api<{ data: Screening[] }>('/screenings?limit=100')).data.filter((s) => s.source === 'service').length;
    expect(after).toBe(before + 1);
    // The fresh screening waits on the same card (same carrier, still held).
    const [review] = (await api<{ data: Review[] }>('/reviews?state=pending')).data.filter(
      (r) => r.screening.score?.carrier.dot_number === '1000004',
    );
    expect(review!.tenders.map((t) => t.tender_id)).toEqual(['LOAD-R1', null]);
    // A re-check is not a load: listed apart, not counted.
    await expect.poll(() => page.locator('.desk-detail').innerText()).toContain('(and a re-check, not loads)');
    await expect.poll(() => page.locator('.rv-item', { hasText: 'DOT 1000004' }).locator('.rv-loads').innerText()).toBe('1 load waiting');
    await page.screenshot({ path: join(artifacts, 'desk-rechecked.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('exports the audit CSV of a date range from the Decisions view', async () => {
    const { page, errors } = await rig.open();
    await page.keyboard.press('5');
    const today = new Date().toISOString().slice(0, 10);
    await page.locator('#audit-from').fill(today);
    await page.locator('#audit-to').fill(today);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#audit-export').click()]);
    expect(download.suggestedFilename()).toBe(`carrier-screen-audit-${today}-to-${today}.csv`);
    const rows = parse(await readFile((await download.path())!, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    const tenders = rows
      .map((r) => r.tender_id)
      .filter(Boolean)
      .sort();
    expect(tenders).toEqual(['LOAD-D1', 'LOAD-D2', 'LOAD-D3', 'LOAD-D4', 'LOAD-R1']);
    const d3 = rows.find((r) => r.tender_id === 'LOAD-D3')!;
    expect(d3).toMatchObject({ action: 'tender', dot_number: '1000003', grade: 'D' });
    expect(d3.standing_decision_id).toMatch(/^dec_/);
    const bytes = (await readFile((await download.path())!)).length;
    // Streamed: the toast names the file and its size; the progress line is gone when it is done.
    const toast = await page.locator('.toast', { hasText: 'Audit CSV saved' }).innerText();
    expect(toast).toContain(
      `carrier-screen-audit-${today}-to-${today}.csv (${bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} kB`}`,
    );
    await expect.poll(() => page.locator('#audit-progress').innerText()).toBe('');
    // A range that ends before it starts is refused in the form, not sent.
    await page.locator('#audit-from').fill('2026-02-02');
    await page.locator('#audit-to').fill('2026-02-01');
    await page.locator('#audit-export').click();
    await page.getByText('Pick a start day on or before the end day.').waitFor();
    await page.screenshot({ path: join(artifacts, 'decisions-export.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
