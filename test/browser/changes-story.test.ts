import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CarrierChange, Screening } from '../../shared/screening.js';
import { artifacts, hasChromium, SIZES, shootBothSizes, withBrowserStack } from '../helpers/browser-stack.js';

/**
 * Changes that tell the story (issue 30), in real headless Chromium against the real stack
 * (sandbox): a carrier whose loads went out under a standing approval loses its authority. The
 * change lists each load's status (went out, settled by a standing decision, blocked), the
 * findings added and removed, links to the carrier page and to its open card on the desk, and a
 * dispatcher acknowledges it with a note. Then: a burst of live events is read once, not once
 * per event.
 */

/** Sandbox fixture: decision review (a hold a dispatcher decides), no knockout. */
const HELD = '1000003';
/** Sandbox fixture: approved, no review. */
const CLEAN = '1000001';

const rig = withBrowserStack({ mode: 'sandbox' });
const api = rig.api;
const tender = (dot: string, tenderId: string) =>
  api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: dot, tender_id: tenderId } });

async function sandboxChange(dot: string, change: string): Promise<CarrierChange> {
  const before = new Set((await api<{ data: CarrierChange[] }>(`/changes?dot_number=${dot}`)).data.map((c) => c.id));
  const out = await api<{ screening: Screening }>(`/sandbox/carriers/${dot}/change`, { method: 'POST', body: { change } });
  await rig.stack.screener.waitFor(out.screening.id, 30_000);
  let found: CarrierChange | undefined;
  await expect
    .poll(async () => {
      found = (await api<{ data: CarrierChange[] }>(`/changes?dot_number=${dot}`)).data.find((c) => !before.has(c.id));
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

async function selectChange(page: Page, id: string): Promise<void> {
  const item = page.locator(`.ch-list .ch-item[data-change-id="${id}"]`);
  await item.waitFor();
  await item.click();
  await expect.poll(() => page.locator('.ch-list .ch-item.selected').getAttribute('data-change-id')).toBe(id);
}

const shoot = (page: Page, name: string) => shootBothSizes(page, join(artifacts, `i30-changes-${name}`), SIZES[0]);

describe.skipIf(!hasChromium)('Changes tell the story, in Chromium against the real stack (sandbox)', () => {
  it("shows each load's status (a standing approval's tender went out), the findings added and removed, the carrier links, and takes a note on acknowledge", async () => {
    // A dispatcher approves the first load; the second goes out on that standing decision.
    const s1 = await tender(HELD, 'LOAD-S1');
    expect(s1.action).toBe('hold');
    await api(`/reviews/${s1.review!.id}/approve`, { method: 'POST', body: { by: 'Dana', note: 'insurance checked by phone' } });
    const s2 = await tender(HELD, 'LOAD-S2');
    expect(s2).toMatchObject({ action: 'tender', settled_by: 'standing_decision' });

    // Its authority is revoked: a knockout, block.
    const revoked = await sandboxChange(HELD, 'authority_revoked');
    expect(revoked.before.action).toBe('hold'); // what the score alone said: the old "was hold"
    expect(revoked.after.action).toBe('block');
    expect(revoked.tenders.map((t) => [t.tender_id, t.action, t.settled_by])).toEqual([
      ['LOAD-S1', 'tender', 'review'],
      ['LOAD-S2', 'tender', 'standing_decision'],
    ]);
    expect(revoked.findings?.added.map((f) => `${f.kind}:${f.code}`)).toContain('knockout:AUTHORITY_INACTIVE');

    // A third load meets the block; then the authority is back (reset): the knockout is removed,
    // the carrier holds again and its card opens on the desk.
    expect((await tender(HELD, 'LOAD-S3')).action).toBe('block');
    const back = await sandboxChange(HELD, 'reset');
    expect(back.findings?.removed.map((f) => `${f.kind}:${f.code}`)).toContain('knockout:AUTHORITY_INACTIVE');
    expect(back.tenders.map((t) => [t.tender_id, t.action])).toEqual([
      ['LOAD-S1', 'tender'],
      ['LOAD-S2', 'tender'],
      ['LOAD-S3', 'block'],
    ]);
    const card = (await api<{ data: Array<{ id: string; screening: Screening }> }>('/reviews?state=pending')).data.find(
      (r) => 'dot_number' in r.screening.query && r.screening.query.dot_number === HELD,
    );
    expect(card).toBeDefined();

    const { page, errors } = await rig.open();
    await page.keyboard.press('4');
    await expect.poll(() => page.locator('.ch-list .ch-item').count()).toBe(2);

    // The revocation: the loads went out, one on the standing decision; never "was hold".
    await selectChange(page, revoked.id);
    const detail = page.locator('.changes-detail');
    await expect.poll(() => page.locator('.ch-was').innerText()).toBe('was tendered (settled by a standing decision)');
    const loads = page.locator('.ch-tenders tbody tr');
    await expect.poll(() => loads.count()).toBe(2);
    await expect
      .poll(() => page.locator('.ch-tenders tr[data-tender-id="LOAD-S1"] .ch-load').innerText())
      .toMatch(/tender\s+went out · decided by a dispatcher/);
    await expect
      .poll(() => page.locator('.ch-tenders tr[data-tender-id="LOAD-S2"] .ch-load').innerText())
      .toMatch(/tender\s+went out · settled by a standing decision/);
    await expect
      .poll(() => page.locator('.ch-compare tr.changed').first().innerText())
      .toContain('loads tendered: settled by a standing decision');
    // Findings added, in words (the knockout by its code); nothing removed.
    await expect
      .poll(() => page.locator('.ch-findings-added [data-code="AUTHORITY_INACTIVE"]').innerText())
      .toMatch(/^knockout\s+AUTHORITY_INACTIVE\s+Operating authority is not active/i);
    await expect.poll(() => detail.innerText()).toMatch(/Findings removed \(0\)/i);
    // The carrier page link.
    await expect.poll(() => page.locator('.ch-carrier-link').getAttribute('href')).toBe(`#/carrier/dot/${HELD}`);
    await shoot(page, 'story-standing');

    // The reset: the knockout removed, and the third load blocked.
    await selectChange(page, back.id);
    await expect.poll(() => page.locator('.ch-findings-removed [data-code="AUTHORITY_INACTIVE"]').count()).toBe(1);
    await expect.poll(() => page.locator('.ch-tenders tr[data-tender-id="LOAD-S3"] .ch-load').innerText()).toMatch(/block\s+blocked/);
    await expect.poll(() => page.locator('.ch-was').innerText()).toBe('was block');
    await shoot(page, 'story-removed');

    // The carrier's open card on the desk, from the change.
    await page.locator('.ch-card-link').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/desk');
    await expect.poll(() => page.locator('.rv-item.selected').getAttribute('data-review-id')).toBe(card!.id);

    // The carrier page, from the change.
    await page.keyboard.press('4');
    await selectChange(page, revoked.id);
    await page.locator('.ch-carrier-link').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/carrier/dot/${HELD}`);
    await expect.poll(() => page.locator('.carrier-body').innerText()).toContain('Great Plains Haulage');

    // Acknowledge with a note, by keyboard: a → name → Enter → note → Enter.
    await page.keyboard.press('4');
    await selectChange(page, revoked.id);
    await page.keyboard.press('a');
    await expect.poll(() => page.locator('.ack-panel').getAttribute('class')).toContain('mode-ack');
    if (await page.locator('#ack-name').isVisible()) {
      await page.locator('#ack-name').fill('Dana Dispatcher');
      await page.locator('#ack-name').press('Enter');
    }
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('ack-note');
    await expect.poll(() => page.locator('#ack-note').getAttribute('maxlength')).toBe('500');
    await page.keyboard.type('Called the TMS: LOAD-S1 and LOAD-S2 moved to another carrier');
    await shoot(page, 'story-ack-note');
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: /^Acknowledged:.*with your note/ }).waitFor();

    const stored = await api<CarrierChange>(`/changes/${revoked.id}`);
    expect(stored).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: 'Dana Dispatcher',
      ack_note: 'Called the TMS: LOAD-S1 and LOAD-S2 moved to another carrier',
    });
    // The history shows it, and its detail reads the note back.
    const done = page.locator(`.ch-history .ch-done[data-change-id="${revoked.id}"]`);
    await expect.poll(() => done.innerText()).toContain('Called the TMS');
    await done.click();
    await expect.poll(() => page.locator('.ch-ack-note').innerText()).toBe('Called the TMS: LOAD-S1 and LOAD-S2 moved to another carrier');
    await shoot(page, 'story-acknowledged');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the API keeps a note of at most 500 characters', async () => {
    const open = (await api<{ data: CarrierChange[] }>('/changes?state=new')).data[0]!;
    const res = await fetch(`${rig.stack.intakeUrl}/changes/${open.id}/acknowledge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rig.stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ by: 'Eli', note: 'x'.repeat(501) }),
    });
    expect(res.status).toBe(400);
    expect((await api<CarrierChange>(`/changes/${open.id}`)).state).toBe('new');
  });

  it('reads each list once per burst of live events, not once per event', async () => {
    await tender(CLEAN, 'BURST-0'); // a saved score: the burst's screenings are answered at once
    const { page, errors } = await rig.open();
    await page.keyboard.press('2');
    await expect.poll(() => page.locator('body').innerText()).toContain('BURST-0');

    const reads = { screenings: 0, status: 0 };
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (r.method() !== 'GET') return;
      if (u.pathname.endsWith('/screenings') && u.searchParams.has('limit')) reads.screenings++;
      if (u.pathname.endsWith('/status')) reads.status++;
    });

    const N = 10;
    const burst = await Promise.all(Array.from({ length: N }, (_, i) => tender(CLEAN, `BURST-${i + 1}`)));
    expect(burst.every((s) => s.action === 'tender')).toBe(true);
    // Every screening reaches the page through its event…
    for (let i = 1; i <= N; i++) await expect.poll(() => page.locator('body').innerText()).toContain(`BURST-${i}`);
    // …and the list is read again after the burst: once or twice, never once per event.
    await expect.poll(() => reads.screenings).toBeGreaterThanOrEqual(1);
    await expect.poll(() => reads.status).toBeGreaterThanOrEqual(1);
    expect(reads.screenings).toBeLessThanOrEqual(3);
    expect(reads.status).toBeLessThanOrEqual(3);
    expect(errors).toEqual([]);
    await page.close();
  });
});
