import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Decision, LocalBlock, Review, Screening } from '../../shared/screening.js';
import { artifacts, hasChromium, SIZES, shootBothSizes, withBrowserStack } from '../helpers/browser-stack.js';

/**
 * Issue 30, "a carrier page" and "read-back and undo", in real headless Chromium against the real
 * stack (sandbox): search by DOT, MC, load id and name; one page per carrier with every reason,
 * its tenders, decisions with notes and the FMCSA links; a blocked tender in the Queue opens it;
 * a block lifted there keeps its note; a recently decided row opens its decision with its note,
 * and a revoke from there keeps both in the record. Screenshots at 1440×900 and 1024×700 go to
 * test-artifacts/i30-carrier-*.png.
 */

const rig = withBrowserStack({ mode: 'sandbox' });
const api = rig.api;
const tender = (dot: string, tenderId: string) =>
  api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: dot, tender_id: tenderId } });

/** The window as a dispatcher sees it, at both sizes. */
const shoot = (page: Page, name: string) => shootBothSizes(page, join(artifacts, `i30-carrier-${name}`), SIZES[0]);

async function search(page: Page, text: string): Promise<void> {
  await page.keyboard.press('/');
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('carrier-q');
  await page.locator('#carrier-q').fill(text);
  await page.keyboard.press('Enter');
}

describe.skipIf(!hasChromium)('the carrier page in Chromium against the real stack (sandbox)', () => {
  it('finds a carrier by DOT, MC, load id and name, and shows its score, tenders, decisions with notes and the FMCSA links', async () => {
    const held = await tender('1000003', 'LOAD-C1');
    expect(held.action).toBe('hold');
    await api(`/reviews/${held.review!.id}/approve`, {
      method: 'POST',
      body: { by: 'Dana', note: 'Called the carrier: insurance renewed' },
    });
    const again = await tender('1000003', 'LOAD-C2');
    expect(again).toMatchObject({ action: 'tender', settled_by: 'standing_decision' });

    const { page, errors } = await rig.open();
    await page.setViewportSize(SIZES[0]);
    await search(page, '1000003');
    const body = page.locator('.carrier-body');
    await expect.poll(() => page.locator('#carrier-name').textContent()).toBe('Great Plains Haulage Co');
    const text = await body.innerText();
    // Every reason of the latest score, in dispatcher words (the service's "review" is "needs a look").
    const reasons = again.score!.reasons;
    expect(reasons.length).toBeGreaterThan(0);
    await expect.poll(() => body.locator('.carrier-reasons .reason').count()).toBe(reasons.length);
    for (const r of reasons) expect(text).toContain(r.detail);
    expect(text).toContain('needs a look');
    expect(text).not.toMatch(/finding\(s\)/);
    // Its tenders and what each got; the decision with its note.
    const rows = body.locator('.carrier-tenders tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const c1 = await body.locator('.carrier-tenders tr', { hasText: 'LOAD-C1' }).innerText();
    const c2 = await body.locator('.carrier-tenders tr', { hasText: 'LOAD-C2' }).innerText();
    expect(c1).toContain('approved by Dana');
    expect(c2).toContain('by a standing decision');
    await expect.poll(() => body.locator('.carrier-decisions').innerText()).toContain('Called the carrier: insurance renewed');
    await expect.poll(() => body.locator('.carrier-decisions').innerText()).toContain('Approved → tender by Dana');

    // Links out: SAFER's carrier snapshot and the L&I authority record, by this DOT, opened outside.
    const safer = page.locator('#carrier-safer');
    await expect
      .poll(() => safer.getAttribute('href'))
      .toBe('https://safer.fmcsa.dot.gov/query.asp?searchtype=ANY&query_type=queryCarrierSnapshot&query_param=USDOT&query_string=1000003');
    await expect.poll(() => safer.getAttribute('target')).toBe('_blank');
    await expect.poll(() => safer.getAttribute('rel')).toContain('noopener');
    await expect
      .poll(() => page.locator('#carrier-authority').getAttribute('href'))
      .toBe('https://li-public.fmcsa.dot.gov/LIVIEW/pkg_carrquery.prc_carrlist?n_dotno=1000003');
    expect(new URL(page.url()).hash).toBe('#/carrier/dot/1000003');
    await shoot(page, 'page');

    // The same carrier by MC number, by load id and by name.
    for (const [q, via] of [
      ['MC-1000003', null],
      ['LOAD-C1', 'Found by load LOAD-C1.'],
      ['great plains', null],
    ] as const) {
      await page.keyboard.press('1'); // away and back: the page is drawn afresh each time
      await search(page, q);
      await expect.poll(() => page.locator('#carrier-name').textContent(), { message: q }).toBe('Great Plains Haulage Co');
      expect(await page.locator('.carrier-body .d-ids').innerText(), q).toContain('1000003');
      if (via) await expect.poll(() => page.locator('.carrier-via').innerText()).toBe(via);
    }
    // Nothing known: said so, with what a name search can and cannot find.
    await search(page, 'No Such Trucking');
    await expect.poll(() => body.innerText()).toContain('No carrier or load found for "No Such Trucking"');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a blocked tender’s carrier from the Queue, and lifts the block there with a note the record keeps', async () => {
    // Booked before (a score on file), then put on the do-not-use list.
    expect((await tender('1000001', 'LOAD-B0')).action).toBe('tender');
    const block = await api<LocalBlock>('/blocks', {
      method: 'POST',
      body: { dot_number: '1000001', by: 'Sam Safety', reason: 'Double-brokered a load in March' },
    });
    const blocked = await tender('1000001', 'LOAD-B1');
    expect(blocked.action).toBe('block');

    const { page, errors } = await rig.open();
    // The carrier page reads its carrier's blocks by DOT, never the whole do-not-use list (issue 30).
    const blockReads: URL[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/blocks' && u.searchParams.get('state') === 'all') blockReads.push(u);
    });
    await page.setViewportSize(SIZES[0]);
    await page.keyboard.press('2');
    const row = page.locator(`#panel-queue tr[data-screening-id="${blocked.id}"]`);
    // The live feed redraws the table: poll the row until it is drawn as openable.
    await expect.poll(() => row.getAttribute('class')).toContain('clickable');
    await row.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#carrier-name').textContent()).toBe('Blue Ridge Freight Lines LLC');
    await expect.poll(() => page.locator('#tab-carrier').getAttribute('aria-selected')).toBe('true');
    const box = page.locator('#carrier-block');
    await expect.poll(() => box.innerText()).toContain('Double-brokered a load in March');
    await expect.poll(() => box.innerText()).toContain('Sam Safety');
    await expect.poll(() => page.locator('.carrier-tenders tr', { hasText: 'LOAD-B1' }).innerText()).toContain('on the do-not-use list');
    await expect.poll(() => page.locator('#carrier-safer').getAttribute('href')).toContain('query_string=1000001');
    expect(blockReads.length).toBeGreaterThanOrEqual(1);
    for (const u of blockReads) expect(u.searchParams.get('dot_number')).toBe('1000001');

    // The same from a click, for a mouse user.
    await page.keyboard.press('2');
    await expect.poll(() => row.getAttribute('class')).toContain('clickable');
    await row.click();
    await expect.poll(() => page.locator('#carrier-name').textContent()).toBe('Blue Ridge Freight Lines LLC');
    await shoot(page, 'blocked');

    // Lift: asks why; the note is kept with the lift.
    await page.locator('#carrier-lift-start').click();
    await expect.poll(() => page.locator('#carrier-lift-question').innerText()).toContain('Lift the block on Blue Ridge Freight Lines LLC');
    if (await page.locator('#carrier-lift-name').isVisible()) await page.locator('#carrier-lift-name').fill('Dana Dispatcher');
    await page.locator('#carrier-lift-note').fill('Broker confirmed it was a mix-up');
    await shoot(page, 'lifting');
    await page.locator('#carrier-lift-confirm').click();
    await page.locator('.toast', { hasText: 'Block lifted' }).waitFor();
    const lifted = (await api<{ data: LocalBlock[] }>('/blocks?state=lifted')).data.find((b) => b.id === block.id);
    expect(lifted).toMatchObject({
      state: 'lifted',
      lifted_by: 'Dana Dispatcher',
      lift_note: 'Broker confirmed it was a mix-up',
      reason: 'Double-brokered a load in March',
    });
    await expect.poll(() => page.locator('.carrier-blocks').innerText()).toContain('Why lifted: Broker confirmed it was a mix-up');
    await expect.poll(() => page.locator('#carrier-block').count()).toBe(0);
    // The next tender is screened on its score again (the sandbox approves this carrier).
    expect((await tender('1000001', 'LOAD-B2')).action).toBe('tender');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a recently decided row as its decision with the note, and revokes it from there; the record keeps both', async () => {
    const held = await tender('1000004', 'LOAD-U1');
    expect(held.action).toBe('hold');
    const { page, errors } = await rig.open();
    await page.setViewportSize(SIZES[0]);
    // Approved by mistake, from the desk.
    const card = page.locator(`.rv-item[data-review-id="${held.review!.id}"]`);
    await card.click();
    await page.keyboard.press('a');
    if (await page.locator('#dispatcher-name').isVisible()) await page.locator('#dispatcher-name').fill('Dana Dispatcher');
    await page.locator('#decision-note').fill('Looked fine on the phone');
    await page.locator('#decision-note').press('Enter');
    await page.locator('.toast', { hasText: 'Approved' }).waitFor();

    // Read-back: the recently decided row opens the decision, with its note.
    const done = page.locator(`.rv-decided [data-review-id="${held.review!.id}"] .rv-done-open`);
    await done.waitFor();
    await done.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#tab-decisions').getAttribute('aria-selected')).toBe('true');
    const detail = page.locator('.decisions-detail');
    await expect.poll(() => page.locator('#decision-note-read').innerText()).toContain('Looked fine on the phone');
    await expect.poll(() => detail.innerText()).toContain('Lone Star Intrastate Trucking LLC');
    await shoot(page, 'readback');

    // Undo: revoke with a note.
    await page.keyboard.press('v');
    await expect
      .poll(() => page.locator('#decisions-question').innerText())
      .toContain('Revoke the approval of Lone Star Intrastate Trucking LLC');
    if (await page.locator('#revoke-name').isVisible()) await page.locator('#revoke-name').fill('Dana Dispatcher');
    await page.locator('#revoke-note').fill('Approved the wrong carrier');
    await page.locator('#revoke-note').press('Enter');
    await page.locator('.toast', { hasText: 'Revoked' }).waitFor();

    // The record keeps both: the approval with its note, and the revoke with its own.
    const [decision] = (await api<{ data: Decision[] }>('/decisions?dot_number=1000004')).data;
    expect(decision).toMatchObject({
      review_id: held.review!.id,
      decision: 'approved',
      decided_by: 'Dana Dispatcher',
      state: 'revoked',
      ended_by: 'Dana Dispatcher',
      end_reason: 'Approved the wrong carrier',
    });
    const review = await api<Review>(`/reviews/${held.review!.id}`);
    expect(review).toMatchObject({ state: 'approved', decided_by: 'Dana Dispatcher', note: 'Looked fine on the phone' });
    // And the page shows both (the revoked decision is read from the Ended list).
    await page.locator(`.dc-history [data-decision-id="${decision!.id}"]`).click();
    await expect.poll(() => detail.innerText()).toContain('Approved the wrong carrier');
    await expect.poll(() => page.locator('#decision-note-read').innerText()).toContain('Looked fine on the phone');
    await shoot(page, 'revoked');
    // The carrier's next tender goes back to the desk.
    expect((await tender('1000004', 'LOAD-U2')).action).toBe('hold');
    expect(errors).toEqual([]);
    await page.close();
  });
});
