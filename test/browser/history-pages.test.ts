import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Decision, LocalBlock, Screening } from '../../shared/screening.js';
import { seriousViolations } from '../helpers/axe.js';
import { hasChromium, withBrowserStack } from '../helpers/browser-stack.js';

/**
 * Read only what is shown (issue 30), in headless Chromium against the real stack: the Decisions
 * view's ended history and the Do-not-use view's lifted blocks ask for one page (25) when the
 * desk opens, never every page; "Show older" asks for the next page from the cursor of the last
 * item shown and appends it, with nothing shown twice; a decision ended while the page is open
 * is at the top at once.
 */

const PAGE = 25;
const MADE = PAGE + 4;

const rig = withBrowserStack({ mode: 'sandbox' });
const api = rig.api;

/** One carrier approved and revoked `n` times: `n` ended decisions, oldest first. */
async function endDecisions(n: number, from: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + n; i++) {
    const held = await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: '1000003', tender_id: `LOAD-H${i}` } });
    expect(held.action).toBe('hold');
    await api(`/reviews/${held.review!.id}/approve`, { method: 'POST', body: { by: 'Ana', note: `ok ${i}` } });
    const [standing] = (await api<{ data: Decision[] }>('/decisions?state=standing')).data;
    await api(`/decisions/${standing!.id}/revoke`, { method: 'POST', body: { by: 'Sam', note: `revoked ${i}` } });
    ids.push(standing!.id);
  }
  return ids;
}

/** One carrier blocked and lifted `n` times: `n` lifted blocks, oldest first. */
async function liftBlocks(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const b = await api<LocalBlock>('/blocks', { method: 'POST', body: { dot_number: '1000002', by: 'Sam Safety', reason: `Block ${i}` } });
    await api('/blocks/1000002/lift', { method: 'POST', body: { by: 'Sam Safety', note: `lifted ${i}` } });
    ids.push(b.id);
  }
  return ids;
}

/** The list requests the page makes for a path and state, as URLs. */
function listReads(log: Request[], path: string, state: string): URL[] {
  return log.map((r) => new URL(r.url())).filter((u) => u.pathname === path && u.searchParams.get('state') === state);
}

describe.skipIf(!hasChromium)('history pages in Chromium against the real stack (sandbox)', () => {
  it('ended decisions and lifted blocks: one page on opening, the next on "Show older", nothing twice', async () => {
    const decisions = await endDecisions(MADE, 0);
    const blocks = await liftBlocks(MADE);
    // Latest end first: the newest made is on top.
    const decisionOrder = [...decisions].reverse();
    const blockOrder = [...blocks].reverse();

    const log: Request[] = [];
    const { page, errors } = await rig.open();
    page.on('request', (r) => log.push(r));
    // Requests made before the listener: read them from the page's own record.
    const early = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    const earlyReads = (path: string, state: string) =>
      early.map((u) => new URL(u)).filter((u) => u.pathname === path && u.searchParams.get('state') === state);

    // ---- Decisions ----
    await page.keyboard.press('5');
    const ended = page.locator('.dc-history .dc-done');
    await expect.poll(() => ended.count()).toBe(PAGE);
    await expect
      .poll(() => ended.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.decisionId)))
      .toEqual(decisionOrder.slice(0, PAGE));
    // Every read of the ended history so far was one first page of 25: no cursor, no other state.
    const firstReads = [...earlyReads('/decisions', 'ended'), ...listReads(log, '/decisions', 'ended')];
    expect(firstReads.length).toBeGreaterThanOrEqual(1);
    for (const u of firstReads) {
      expect(u.searchParams.get('limit')).toBe(String(PAGE));
      expect(u.searchParams.has('starting_after')).toBe(false);
    }
    expect([
      ...earlyReads('/decisions', 'lapsed'),
      ...earlyReads('/decisions', 'revoked'),
      ...listReads(log, '/decisions', 'lapsed'),
      ...listReads(log, '/decisions', 'revoked'),
    ]).toEqual([]);

    const older = page.locator('#decisions-show-older');
    await expect.poll(() => older.isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    const before = log.length;
    // Keyboard: focus the button and press Enter.
    await older.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => ended.count()).toBe(MADE);
    const next = listReads(log.slice(before), '/decisions', 'ended');
    expect(next).toHaveLength(1);
    expect(next[0]!.searchParams.get('starting_after')).toBe(decisionOrder[PAGE - 1]);
    expect(next[0]!.searchParams.get('limit')).toBe(String(PAGE));
    const shown = await ended.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.decisionId));
    expect(shown).toEqual(decisionOrder);
    expect(new Set(shown).size).toBe(shown.length);
    await expect
      .poll(() => page.locator('.view-decisions .history-more-status').innerText())
      .toBe(`${MADE - PAGE} older ended decisions shown, all of them now.`);
    // The focus stays on the button, which now says there is nothing older.
    await expect.poll(() => older.innerText()).toBe('No older ended decisions');
    expect(await older.evaluate((b) => b === document.activeElement && b.getAttribute('aria-disabled'))).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);

    // A decision ended while the page is open is on top at once; the older ones stay, once each.
    const [late] = await endDecisions(1, MADE);
    await expect
      .poll(() => ended.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.decisionId)))
      .toEqual([late, ...decisionOrder]);

    // ---- Do-not-use list: lifted blocks ----
    await page.keyboard.press('Escape');
    await page.locator('body').focus();
    await page.keyboard.press('6');
    const lifted = page.locator('.bl-history .bl-done');
    await expect.poll(() => lifted.count()).toBe(PAGE);
    await expect
      .poll(() => lifted.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.blockId)))
      .toEqual(blockOrder.slice(0, PAGE));
    const blockFirst = [...earlyReads('/blocks', 'lifted'), ...listReads(log, '/blocks', 'lifted')];
    expect(blockFirst.length).toBeGreaterThanOrEqual(1);
    for (const u of blockFirst) {
      expect(u.searchParams.get('limit')).toBe(String(PAGE));
      expect(u.searchParams.has('starting_after')).toBe(false);
    }
    const blockBefore = log.length;
    await page.locator('#blocks-show-older').click();
    await expect.poll(() => lifted.count()).toBe(MADE);
    const blockNext = listReads(log.slice(blockBefore), '/blocks', 'lifted');
    expect(blockNext).toHaveLength(1);
    expect(blockNext[0]!.searchParams.get('starting_after')).toBe(blockOrder[PAGE - 1]);
    const blockShown = await lifted.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.blockId));
    expect(blockShown).toEqual(blockOrder);
    expect(new Set(blockShown).size).toBe(blockShown.length);
    await expect
      .poll(() => page.locator('.view-blocks .history-more-status').innerText())
      .toBe(`${MADE - PAGE} older lifted blocks shown, all of them now.`);
    expect(errors).toEqual([]);
  });
});
