import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveCarrier } from '../../emulator/index.js';
import { applyDatedChange, DATED_CHANGE_KINDS, type DatedChangeKind } from '../../emulator/dated-changes.js';
import type { Decision, Review, Screening } from '../../shared/screening.js';
import { actionForScore } from '../../shared/tender-rules.js';
import type { SvcScore } from '../../shared/svc-contract.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { hasChromium, shootBothSizes, withBrowserStack } from '../helpers/browser-stack.js';

/**
 * Decisions a broker can defend (issue 25), at the desk, in real headless Chromium against the
 * real stack: the desk says who it is signed in as and records the token's name (no typed name);
 * a note and the "also block" box belong to one carrier; ended decisions are drawn as ended; a
 * review_stale answer refreshes the card. Screenshots at 1440x900 and 1024x700 go to
 * /tmp/desk-shots/ for a person to look at.
 */

const shots = process.env.DESK_SHOTS_DIR ?? '/tmp/desk-shots';
/** The page at both sizes a dispatcher uses (a laptop and a small window). */
const shoot = (page: Page, name: string) => shootBothSizes(page, join(shots, name), { width: 1360, height: 900 });

describe.skipIf(!hasChromium)('the desk decides as its token, one carrier at a time (sandbox)', () => {
  const rig = withBrowserStack({ mode: 'sandbox' });
  let deskToken: string;
  let deskTokenId: string;
  beforeAll(async () => {
    const made = await new IntakeTokens(rig.stack.screener.store).create('desk', 'Dana Desk');
    deskToken = made.token;
    deskTokenId = made.record.id;
  });
  const api = rig.api;
  const tender = (dot: string, id: string) =>
    api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: dot, tender_id: id } });

  it("shows who it is signed in as, asks for no name with a named token, and records the token's name", async () => {
    const { page, errors } = await rig.open({ token: deskToken });
    await expect.poll(() => page.locator('#signed-in').innerText()).toBe('Signed in as Dana Desk');
    await expect.poll(() => page.locator('#signed-in').getAttribute('title')).toContain(deskTokenId);
    const held = await tender('1000004', 'LOAD-ME-1');
    expect(held.action).toBe('hold');
    await page.locator('.rv-item', { hasText: 'DOT 1000004' }).waitFor();
    // No free-text name: the panel says whose name is recorded.
    await expect.poll(() => page.locator('#dispatcher-name').isVisible()).toBe(false);
    await expect.poll(() => page.locator('.decision-panel .dp-signed-in-name').innerText()).toBe('Dana Desk');
    await expect.poll(() => page.locator('.decision-panel .dp-signed-in').innerText()).toContain("this desk's token");

    // a → straight to the note (no name step) → Enter.
    await page.keyboard.press('a');
    await expect.poll(() => page.locator('.decision-panel .dp-mode').innerText()).not.toContain('Type your name');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('decision-note');
    await page.keyboard.type('Known carrier, insurance checked');
    await shoot(page, 'desk-signed-in-approving');
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: 'Recorded for Dana Desk' }).waitFor();
    const review = await api<Review>(`/reviews/${held.review!.id}`);
    expect(review).toMatchObject({ state: 'approved', decided_by: 'Dana Desk', note: 'Known carrier, insurance checked' });
    // Nothing was remembered as a typed name on this machine.
    expect(await page.evaluate(() => localStorage.getItem('carrier-screen.dispatcher'))).toBeNull();
    expect(errors).toEqual([]);
    await page.close();

    // The admin token has no name: the desk says so and keeps the typed name.
    const admin = await rig.open();
    await expect.poll(() => admin.page.locator('#signed-in').innerText()).toContain('no name');
    await admin.page.close();
  });

  it('keeps a note and the "also block" box with the carrier they were written for', async () => {
    const { page, errors } = await rig.open();
    const a = await tender('1000003', 'LOAD-NOTE-A');
    const b = await tender('1000006', 'LOAD-NOTE-B');
    expect([a.action, b.action]).toEqual(['hold', 'hold']);
    const itemA = page.locator('.rv-item', { hasText: 'DOT 1000003' });
    const itemB = page.locator('.rv-item', { hasText: 'DOT 1000006' });
    await itemA.waitFor();
    await itemB.waitFor();
    const note = page.locator('#decision-note');
    const block = page.locator('#reject-block');
    const detail = page.locator('.desk-detail');

    // On A: start a reject, write why, tick "also block", then leave it unfinished.
    await itemA.click();
    await expect.poll(() => detail.innerText()).toContain('LOAD-NOTE-A');
    await page.keyboard.press('r');
    await page.keyboard.type('Dana Dispatcher');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Insurer says policy cancelled (A)');
    await block.check();
    await page.keyboard.press('Escape');

    // Moving to B shows B's own, empty draft: A's reason does not ride along.
    await itemB.click();
    await expect.poll(() => detail.innerText()).toContain('LOAD-NOTE-B');
    await expect.poll(() => note.inputValue()).toBe('');
    await expect.poll(() => block.isChecked()).toBe(false);
    await note.fill('Approved by phone (B)');
    await shoot(page, 'desk-draft-per-carrier');

    // Back on A, A's draft is back, box ticked; B's stays with B.
    await itemA.click();
    await expect.poll(() => note.inputValue()).toBe('Insurer says policy cancelled (A)');
    await expect.poll(() => block.isChecked()).toBe(true);
    await itemB.click();
    await expect.poll(() => note.inputValue()).toBe('Approved by phone (B)');

    // A colleague decides B while its note is in the box: the desk moves on to A with A's draft,
    // never with B's note (one r and Enter would otherwise reject A with B's reason).
    await api(`/reviews/${b.review!.id}/approve`, { method: 'POST', body: { by: 'Colleague', note: 'done elsewhere' } });
    await expect.poll(() => page.locator('.rv-item').count()).toBe(1);
    await expect.poll(() => detail.innerText()).toContain('LOAD-NOTE-A');
    await expect.poll(() => note.inputValue()).toBe('Insurer says policy cancelled (A)');
    await page.locator('.toast', { hasText: 'elsewhere' }).waitFor();

    // Deciding A uses A's note and box, then clears them.
    await page.keyboard.press('r');
    await expect.poll(() => page.locator('.decision-panel').getAttribute('class')).toContain('mode-reject');
    await expect.poll(() => block.isChecked()).toBe(true);
    await note.press('Enter');
    await page.locator('.toast', { hasText: 'Rejected' }).waitFor();
    const decided = await api<Review>(`/reviews/${a.review!.id}`);
    expect(decided).toMatchObject({ state: 'rejected', decided_by: 'Dana Dispatcher', note: 'Insurer says policy cancelled (A)' });
    expect(
      (await api<{ data: Array<{ dot_number: string; state: string }> }>('/blocks?state=active')).data.map((x) => x.dot_number),
    ).toContain('1000003');
    await expect.poll(() => note.inputValue()).toBe('');
    await expect.poll(() => block.isChecked()).toBe(false);

    expect(errors).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!hasChromium)('ended decisions are drawn as ended (sandbox, a clock the test moves)', () => {
  let clock = new Date('2026-11-02T09:00:00Z');
  const rig = withBrowserStack({ mode: 'sandbox', now: () => clock });
  const api = rig.api;
  const tender = (id: string) => api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: '1000003', tender_id: id } });

  it('a revoked and a lapsed approval read "revoked by …" and "lapsed: …", never the live green "approved"', async () => {
    // Approve, then revoke (Sam); approve again (Ana), then let it pass its TTL.
    const t1 = await tender('LOAD-END-1');
    await api(`/reviews/${t1.review!.id}/approve`, { method: 'POST', body: { by: 'Ana', note: 'ok' } });
    const [first] = (await api<{ data: Decision[] }>('/decisions?state=standing')).data;
    await api(`/decisions/${first!.id}/revoke`, { method: 'POST', body: { by: 'Sam', note: 'insurer called: policy cancelled' } });
    const t2 = await tender('LOAD-END-2');
    expect(t2.action).toBe('hold');
    await api(`/reviews/${t2.review!.id}/approve`, { method: 'POST', body: { by: 'Ana', note: 'new policy seen' } });
    clock = new Date(clock.getTime() + 31 * 86_400_000);
    const t3 = await tender('LOAD-END-3');
    expect(t3.action).toBe('hold');
    const ended = (await api<{ data: Decision[] }>('/decisions?state=all')).data;
    expect(ended.map((d) => d.state).sort()).toEqual(['lapsed', 'revoked']);

    const { page, errors } = await rig.open();
    // The reopened card: the previous approval is struck through, with a badge in words.
    const detail = page.locator('.desk-detail');
    await expect.poll(() => detail.innerText()).toContain('LOAD-END-3');
    const previous = page.locator('.d-previous');
    await expect.poll(() => previous.locator('.badge-ended').innerText()).toMatch(/lapsed/i);
    await expect.poll(() => previous.locator('s').innerText()).toContain('Approved by Ana');
    await expect.poll(() => previous.innerText()).toContain('lapsed: its time limit passed on 2026-12-02');
    // The earlier approvals under "Recently decided" say they ended, in words.
    await expect
      .poll(() => page.locator('.rv-decided .rv-done-ended .badge-ended').allInnerTexts())
      .toEqual(expect.arrayContaining([expect.stringMatching(/revoked/i), expect.stringMatching(/lapsed/i)]));
    await shoot(page, 'desk-reopened-lapsed');

    await page.keyboard.press('5');
    const history = page.locator('.dc-history .dc-done');
    await expect.poll(() => history.count()).toBe(2);
    for (const [state, label, line] of [
      ['revoked', 'Revoked', 'by Sam'],
      ['lapsed', 'Lapsed', 'its time limit passed on 2026-12-02'],
    ] as const) {
      await page.locator(`.dc-history .dc-${state}`).click();
      const head = page.locator('.decisions-detail .d-score');
      await expect.poll(() => head.getAttribute('class')).toContain(`dc-ended-${state}`);
      // The big word is the state, not "approved"; the approval is struck through.
      expect((await head.locator('.dc-verdict').innerText()).toLowerCase()).toBe(state);
      await expect.poll(() => head.locator('s').innerText()).toBe('approved');
      await expect.poll(() => head.getAttribute('class')).not.toContain('tone-ok');
      await expect.poll(() => page.locator('.decisions-detail .d-held .d-held-label').innerText()).toBe(label);
      await expect.poll(() => page.locator('.decisions-detail .d-held .d-held-hint').innerText()).toMatch(new RegExp(`^${line}`));
      await expect.poll(() => page.locator(`.dc-history .dc-${state} .badge-ended`).innerText()).toMatch(new RegExp(state, 'i'));
      await shoot(page, `decisions-${state}`);
    }
    await page.locator('.dc-history .dc-revoked').click();
    await expect.poll(() => page.locator('.decisions-detail').innerText()).toContain('insurer called: policy cancelled');
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** A live carrier held for a person now, still held (not blocked) after `kind`, with another grade: its facts change under an open review. */
function carrierWhoseFactsChange(): { dot: string; kind: DatedChangeKind } {
  for (let d = 2_000_000; d < 2_100_000; d++) {
    const p = liveCarrier(String(d));
    if (!p || actionForScore(p as unknown as SvcScore).action !== 'hold') continue;
    for (const kind of DATED_CHANGE_KINDS) {
      const after = applyDatedChange(p, kind);
      if (actionForScore(after as unknown as SvcScore).action === 'hold' && after.grade !== p.grade) return { dot: String(d), kind };
    }
  }
  throw new Error('no live carrier whose facts change while it stays held');
}

describe.skipIf(!hasChromium)('a decision on facts that changed (live, dated changes)', () => {
  let clock = new Date('2026-11-02T09:00:00Z');
  const { dot, kind } = carrierWhoseFactsChange();
  const rig = withBrowserStack({
    mode: 'live',
    now: () => clock,
    emulator: { datedChanges: [{ dot, from: '2026-11-03T00:00:00Z', change: kind }], monthlyQuota: 10_000 },
  });
  const api = rig.api;

  it('a review_stale answer puts the newest facts on the card, says they changed, and records nothing', async (ctx) => {
    const held = await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: dot, tender_id: 'LOAD-STALE-1' } });
    expect(held.action).toBe('hold');
    const shown = await api<Review>(`/reviews/${held.review!.id}`);
    // Needs the intake's side of issue 25 (Review.version, review_version, 409 review_stale).
    if (shown.version === undefined) {
      console.log('SKIPPED: this worker has no review versions yet (the server side of issue 25)');
      ctx.skip();
    }
    // A window that misses the live update (its event stream cut) still shows the old facts.
    const { page, errors } = await rig.open({ liveEvents: false });
    const detail = page.locator('.desk-detail');
    await expect.poll(() => detail.innerText()).toContain('LOAD-STALE-1');
    const gradeBefore = held.score!.grade;
    await expect.poll(() => detail.locator('.d-score-grade').innerText()).toBe(`grade ${gradeBefore}`);

    // The carrier's record gets worse; a re-check brings the new score in under the open review.
    clock = new Date('2026-11-04T09:00:00Z');
    const fresh = await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: dot, refresh: true } });
    expect(fresh.score!.grade).not.toBe(gradeBefore);
    const moved = await api<Review>(`/reviews/${held.review!.id}`);
    expect(moved.state).toBe('pending');
    expect(moved.version).toBeGreaterThan(shown.version!);

    // Approve what was shown: refused, the card shows the newest facts and says so plainly.
    await page.keyboard.press('a');
    await page.keyboard.type('Dana Dispatcher');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Looks fine to me');
    await page.keyboard.press('Enter');
    await page.locator('.d-stale', { hasText: 'Facts changed' }).waitFor();
    await expect.poll(() => page.locator('.decision-panel .dp-notice').innerText()).toContain('Nothing was recorded');
    await expect.poll(() => page.locator('.decision-panel .dp-notice').innerText()).toContain('decide again');
    await expect.poll(() => detail.locator('.d-score-grade').innerText()).toBe(`grade ${fresh.score!.grade}`);
    await expect.poll(() => page.locator('#decision-note').inputValue()).toBe('Looks fine to me');
    expect((await api<Review>(`/reviews/${held.review!.id}`)).state).toBe('pending');
    await shoot(page, 'desk-review-stale');

    // Deciding again, on what is shown now, is recorded.
    await page.keyboard.press('r');
    await page.locator('#decision-note').press('Enter');
    await page.locator('.toast', { hasText: 'Rejected' }).waitFor();
    expect(await api<Review>(`/reviews/${held.review!.id}`)).toMatchObject({ state: 'rejected', decided_by: 'Dana Dispatcher' });
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!hasChromium)('background holds that no tender waits on (live, quota down to the reserve)', () => {
  const rig = withBrowserStack({ mode: 'live', emulator: { monthlyQuota: 10 }, env: { SCREEN_QUOTA_RESERVE: '8' } });
  const api = rig.api;

  it('open no desk card, and the Queue lists them with a reason a dispatcher reads', async () => {
    const dots: string[] = [];
    for (let d = 4_000_000; dots.length < 3; d += 7) if (liveCarrier(String(d))) dots.push(String(d));
    const { page, errors } = await rig.open();
    await page.getByText('Nothing waiting').waitFor();
    for (const d of dots.slice(0, 2))
      await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: d, priority: 'background' } });
    // Down to the reserve: a roster screening gets no lookup and no score.
    const roster = await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: dots[2], priority: 'background' } });
    expect([roster.action, roster.hold_reason, roster.review]).toEqual(['hold', 'quota_reserved', null]);
    expect((await api<{ data: Review[] }>('/reviews?state=pending')).data).toEqual([]);

    await page.keyboard.press('2');
    const row = page.locator(`.screenings tbody tr[data-screening-id="${roster.id}"]`);
    await row.waitFor();
    // The hold reason in words (not the code, which the score column shows as the service's error).
    // The row may first show the screening as accepted (from the live feed), then as finished.
    await expect.poll(() => row.locator('td').nth(5).innerText()).toBe('Quota kept for tenders');
    await expect.poll(() => row.innerText()).toContain('no card');
    await shoot(page, 'queue-background-hold');
    await page.keyboard.press('1');
    await expect.poll(() => page.locator('.rv-item').count()).toBe(0);
    await expect.poll(() => page.locator('#desk-count').innerText()).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  });
});
