import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { liveCarrier } from '../../emulator/index.js';
import type { LocalBlock, Review, Screening, StatusReport } from '../../shared/screening.js';
import { IntakeTokens } from '../../worker/tokens/intake-tokens.js';
import { artifacts, hasChromium, SIZES, shootBothSizes, withBrowserStack } from '../helpers/browser-stack.js';
import { stackApi } from '../helpers/dashboard.js';
import type { Stack } from '../helpers/stack.js';

/**
 * Issue 30, the desk a dispatcher would pick, in real headless Chromium against the real stack:
 * states that never lie (loading, failed, worker down, token refused), triage order, the
 * do-not-use list with lift, an honest re-check with no quota left, and the accessibility
 * wiring (tabs, listbox, live question) over every view. Screenshots of every view at
 * 1440×900 and 1024×700 go to test-artifacts/ for a person to look at.
 */

/** The window as it is, at both sizes (not full page: what a dispatcher sees without scrolling). */
const shoot = (page: Page, name: string) => shootBothSizes(page, join(artifacts, `i30-${name}`), SIZES[0]);

/** Reviews as the test reads them from the API, for expectations the page must meet. */
async function pendingReviews(stack: Stack): Promise<Review[]> {
  return (await stackApi(() => stack)<{ data: Review[] }>('/reviews?state=pending')).data;
}

/** Worst finding, by the test's own reading of the score (knockout 0, then critical…low, none 5). */
function worstRank(r: Review): number {
  const sc = r.latest?.score ?? r.screening.score;
  if (!sc) return 5;
  if (sc.knockout.triggered) return 0;
  const ranks: Record<string, number> = { critical: 1, review: 2, medium: 3, low: 4 };
  return Math.min(5, ...sc.reasons.map((x) => ranks[x.severity] ?? 1));
}

/** Reasons wholly in sight between the top bar and the decision panel. */
async function reasonsInSight(page: Page): Promise<{ seen: number; all: number }> {
  return page.evaluate(() => {
    const panel = document.querySelector('.decision-panel')!.getBoundingClientRect();
    const top = document.querySelector('.topbar')!.getBoundingClientRect().bottom;
    const all = [...document.querySelectorAll('.view-desk .reasons .reason')];
    const seen = all.filter((el) => {
      const b = el.getBoundingClientRect();
      return b.top >= top && b.bottom <= panel.top;
    });
    return { seen: seen.length, all: all.length };
  });
}

/**
 * Text whose contrast with what is behind it is under WCAG AA (4.5:1, 3:1 for large text), in
 * the top bar and the view shown: the check axe-core reports as serious. Disabled controls are
 * exempt, as in axe. A hand-made check (axe-core is not installed here), so it reads plain
 * background colours and opacity only, not images or gradients.
 */
async function lowContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgba = (c: string): [number, number, number, number] => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return [0, 0, 0, 0];
      const p = m[1]!
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0]!, p[1]!, p[2]!, p.length > 3 ? p[3]! : 1];
    };
    const lum = ([r, g, b]: number[]): number => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
    };
    const blend = (top: number[], under: number[], a: number): number[] => [0, 1, 2].map((i) => top[i]! * a + under[i]! * (1 - a));
    const behind = (el: Element): number[] => {
      const layers: Array<[number, number, number, number]> = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let out = [255, 255, 255];
      for (const c of layers.reverse()) out = blend(c, out, c[3]);
      return out;
    };
    const opacity = (el: Element): number => {
      let o = 1;
      for (let e: Element | null = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
      return o;
    };
    const roots = [
      document.querySelector('.topbar'),
      document.querySelector('.banner'),
      ...[...document.querySelectorAll('[role=tabpanel]')].filter((p) => !(p as HTMLElement).hidden),
    ];
    const bad: string[] = [];
    for (const root of roots) {
      if (!root) continue;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const seen = new Set<Element>();
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || seen.has(el) || (n.textContent ?? '').trim() === '') continue;
        seen.add(el);
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || el.closest('[aria-hidden=true], [hidden], :disabled, .sr-only')) continue;
        const st = getComputedStyle(el);
        if (st.visibility === 'hidden') continue;
        const bg = behind(el);
        const fg = blend(rgba(st.color), bg, rgba(st.color)[3] * opacity(el));
        const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
        const ratio = (l1! + 0.05) / (l2! + 0.05);
        const size = parseFloat(st.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(st.fontWeight) >= 700);
        if (ratio < (large ? 3 : 4.5))
          bad.push(`${ratio.toFixed(2)} ${el.tagName.toLowerCase()}.${el.className}: ${(n.textContent ?? '').trim().slice(0, 40)}`);
      }
    }
    return bad;
  });
}

async function cardOrder(page: Page): Promise<string[]> {
  return page.locator('.rv-list .rv-item').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.reviewId ?? ''));
}

describe.skipIf(!hasChromium)('desk states that never lie, triage and the do-not-use list (sandbox)', () => {
  const rig = withBrowserStack({ mode: 'sandbox' });
  const api = rig.api;

  it('shows a skeleton while the list loads and an error with Retry when it fails, never "nothing waiting"', async () => {
    // The browser's own request for the held carriers is held back, then failed by the network.
    const held: Array<() => Promise<void>> = [];
    const page = await rig.browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const isPending = (u: URL) => u.pathname === '/reviews' && u.searchParams.get('state') === 'pending';
    let failNow = false;
    await page.route(isPending, (route) =>
      failNow ? void route.abort('connectionfailed') : void held.push(() => route.abort('connectionfailed')),
    );
    await page.goto(`${rig.stack.intakeUrl}/ui/#token=${encodeURIComponent(rig.stack.token)}`);
    await page.locator('.view-desk .list-state .skeleton-row').first().waitFor();
    await expect.poll(() => page.locator('.view-desk .list-state').getAttribute('aria-busy')).toBe('true');
    await expect.poll(() => page.locator('.view-desk').innerText()).not.toMatch(/Nothing waiting|No carrier on hold/);
    await expect.poll(() => page.locator('.view-desk .side-title .count').innerText()).toBe('…');
    await shoot(page, 'desk-loading');

    await expect.poll(() => held.length).toBeGreaterThan(0);
    failNow = true;
    for (const fail of held.splice(0)) await fail();
    const failed = page.locator('.view-desk .load-failed');
    await failed.waitFor();
    await expect.poll(() => failed.getAttribute('role')).toBe('alert');
    await expect.poll(() => failed.innerText()).toContain('Could not load carriers on hold');
    await expect.poll(() => page.locator('.view-desk').innerText()).not.toMatch(/Nothing waiting|No carrier on hold/);
    await expect.poll(() => page.locator('.view-desk .rv-detail-body').innerText()).toContain('This does not mean there are none');
    await expect.poll(() => page.locator('.view-desk .side-title .count').innerText()).toBe('?');
    await shoot(page, 'desk-failed');
    expect(await lowContrast(page), 'desk-failed').toEqual([]);

    // Retry, with the network back: the real answer (nothing held yet) replaces the error.
    await page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    await expect.poll(() => failed.isVisible()).toBe(true);
    await page.unroute(isPending);
    await page.locator('.view-desk .load-failed .btn-retry').click();
    await page.getByText('Nothing waiting').waitFor();
    await expect.poll(() => page.locator('.view-desk .load-failed').count()).toBe(0);
    await shoot(page, 'desk-empty');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('orders cards by most loads, worst finding or waiting longest, filters, and says in words what colour says', async () => {
    const { page, errors } = await rig.open();
    await page.getByText('Nothing waiting').waitFor();
    // Three held carriers with 1, 3 and 2 loads, held in that order; a re-check is not a load.
    const plan: Array<[string, number]> = [
      ['1000006', 1],
      ['1000003', 3],
      ['1000004', 2],
    ];
    for (const [dot, loads] of plan)
      for (let i = 0; i < loads; i++) {
        const s = await api<Screening>('/screenings?wait=10', {
          method: 'POST',
          body: { dot_number: dot, tender_id: `T-${dot}-${i + 1}` },
        });
        expect(s.action, dot).toBe('hold');
      }
    await expect.poll(() => page.locator('.rv-list .rv-item').count()).toBe(3);
    await expect.poll(() => page.locator('.rv-item', { hasText: 'DOT 1000003' }).locator('.rv-loads').innerText()).toBe('3 loads waiting');
    const reviews = await pendingReviews(rig.stack);
    const idOf = (dot: string) =>
      reviews.find((r) => r.screening.query && 'dot_number' in r.screening.query && r.screening.query.dot_number === dot)!.id;

    // Waiting longest (the default).
    await page.locator('#desk-sort').selectOption('oldest');
    expect(await cardOrder(page)).toEqual(['1000006', '1000003', '1000004'].map(idOf));
    // Most loads.
    await page.locator('#desk-sort').selectOption('loads');
    await expect.poll(() => cardOrder(page)).toEqual(['1000003', '1000004', '1000006'].map(idOf));
    // Worst finding, by the test's own reading of each score; ties keep the waiting order.
    await page.locator('#desk-sort').selectOption('worst');
    const byWorst = [...reviews].sort((a, b) => worstRank(a) - worstRank(b) || a.created_at.localeCompare(b.created_at)).map((r) => r.id);
    await expect.poll(() => cardOrder(page)).toEqual(byWorst);
    await shoot(page, 'desk-triage');
    expect(await lowContrast(page), 'desk-triage').toEqual([]);

    // Every card has its why in words, its loads, and the score's decision in words (not colour only).
    for (const r of reviews) {
      const card = page.locator(`.rv-item[data-review-id="${r.id}"]`);
      const sc = r.screening.score!;
      await expect.poll(() => card.locator('.rv-why').innerText()).not.toBe('');
      await expect.poll(() => card.locator('.score-pill').innerText()).toMatch(new RegExp(`^${sc.score} · ${sc.grade} · \\S`));
    }
    // The confirm question counts loads, not tenders plus re-checks.
    await page.locator(`.rv-item[data-review-id="${idOf('1000003')}"]`).click();
    await page.keyboard.press('a');
    await expect.poll(() => page.locator('#desk-question').innerText()).toContain('for all 3 waiting loads');
    await expect.poll(() => page.locator('#decision-note').getAttribute('aria-describedby')).toBe('desk-question');
    await expect.poll(() => page.locator('#desk-question').getAttribute('aria-live')).toBe('polite');
    await shoot(page, 'desk-deciding');
    // At 1024×700 at least three reasons (or all of them) stay in sight above the panel while deciding.
    await page.setViewportSize(SIZES[1]);
    await page.keyboard.press('Escape');
    await page.locator(`.rv-item[data-review-id="${idOf('1000004')}"]`).click();
    await page.keyboard.press('r');
    const visibleReasons = await reasonsInSight(page);
    expect(visibleReasons.seen).toBeGreaterThanOrEqual(Math.min(3, visibleReasons.all));
    // The "also block" box sits by its words.
    const box = await page.locator('#reject-block').boundingBox();
    expect(box!.width).toBeLessThan(30);
    await page.screenshot({ path: join(artifacts, 'i30-desk-rejecting-1024x700.png') });
    await page.keyboard.press('Escape');
    await page.setViewportSize(SIZES[0]);

    // Filter: critical findings only, then a hold reason; the words say how many are hidden.
    await page.locator('#desk-filter').selectOption('manual_review');
    await expect.poll(() => page.locator('.desk-shown').innerText()).toMatch(/^showing \d+ of 3$/);
    await page.locator('#desk-filter').selectOption('');
    await expect.poll(() => page.locator('.desk-shown').innerText()).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lists the do-not-use list with who, why and when, and lifts a block from it', async () => {
    const block = await api<LocalBlock>('/blocks', {
      method: 'POST',
      body: { dot_number: '1000002', by: 'Sam Safety', reason: 'Double-brokered a load in March; do not use.' },
    });
    const { page, errors } = await rig.open();
    await page.keyboard.press('6');
    const row = page.locator(`.bl-item[data-block-id="${block.id}"]`);
    await row.waitFor();
    await expect.poll(() => row.innerText()).toContain('Double-brokered a load in March');
    await expect.poll(() => page.locator('#blocks-count').innerText()).toBe('1');
    await row.click();
    const detail = page.locator('.blocks-detail');
    await expect.poll(() => detail.innerText()).toContain('Sam Safety');
    await expect.poll(() => detail.innerText()).toMatch(/Blocked\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/); // local time, with its zone
    await shoot(page, 'blocks');
    expect(await lowContrast(page), 'blocks').toEqual([]);

    await page.keyboard.press('l');
    await expect.poll(() => page.locator('#blocks-question').innerText()).toContain('Lift the block on');
    await page.keyboard.type('Dana Dispatcher');
    await page.keyboard.press('Enter');
    // The lift asks why: the note is kept with it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('lift-note');
    await page.keyboard.type('Settled with the broker');
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: 'Block lifted' }).waitFor();
    const lifted = (await api<{ data: LocalBlock[] }>('/blocks?state=lifted')).data.find((b) => b.id === block.id);
    expect(lifted).toMatchObject({ state: 'lifted', lifted_by: 'Dana Dispatcher', lift_note: 'Settled with the broker' });
    await page.locator('.bl-history .bl-done', { hasText: 'Dana Dispatcher' }).waitFor();
    await expect.poll(() => page.locator('.bl-list .bl-item').count()).toBe(0);
    await shoot(page, 'blocks-lifted');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('while the worker is down: marks every count stale, turns decisions off, one indicator says so; back when it returns', async () => {
    await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: '1000003', tender_id: 'T-DOWN-1' } });
    const { page } = await rig.open();
    await page.locator('.rv-list .rv-item').first().waitFor();
    const approve = page.locator('.decision-panel .btn-approve');
    await expect.poll(() => approve.isDisabled()).toBe(false);
    await expect.poll(() => page.locator('#desk-count').innerText()).toMatch(/^\d+$/);

    await rig.stack.stopIntake();
    try {
      await expect.poll(() => page.locator('#connection').innerText(), { timeout: 20_000 }).toMatch(/^Not live/);
      await expect.poll(() => approve.isDisabled()).toBe(true);
      await expect.poll(() => page.locator('.decision-panel .dp-mode').innerText()).toContain('The worker cannot be reached');
      await expect.poll(() => page.locator('#desk-count').innerText()).toMatch(/^\d+\?$/);
      await expect.poll(() => page.locator('#desk-count').getAttribute('class')).toContain('stale');
      await expect.poll(() => page.locator('.view-desk .stale-mark').textContent()).toMatch(/^not live since \d{2}:\d{2} UTC$/);
      // One connection indicator: no second "Live" anywhere in the header.
      expect((await page.locator('.topbar').innerText()).match(/\bLive\b/g)).toBeNull();
      // The key does nothing but say why.
      await page.keyboard.press('a');
      await expect.poll(() => page.locator('.decision-panel').getAttribute('class')).toContain('mode-idle');
      await shoot(page, 'desk-worker-down');
      expect(await lowContrast(page), 'desk-worker-down').toEqual([]);
      // The one indicator stays in the window at 1024 px, and the banner says what to do without a browser error.
      // Whatever the counts: the widest the tab badges get (four digits, stale) must not push it out.
      await page.setViewportSize(SIZES[1]);
      const rightEdges = () =>
        page.evaluate(() => {
          for (const id of ['desk-count', 'changes-count', 'blocks-count']) document.getElementById(id)!.textContent = '9999?';
          const edge = (sel: string) => document.querySelector(sel)!.getBoundingClientRect().right;
          return { conn: edge('#connection'), tabs: edge('.tabs'), brand: edge('.brand') };
        });
      const edges = await rightEdges();
      expect(edges.conn).toBeLessThanOrEqual(SIZES[1].width);
      // Nothing overlaps it either: the tabs end before it starts.
      expect(edges.tabs).toBeLessThanOrEqual((await page.locator('#connection').boundingBox())!.x);
      await expect.poll(() => page.locator('.banner').innerText()).not.toMatch(/Failed to fetch|\/v1/);
      await page.setViewportSize(SIZES[0]);
    } finally {
      await rig.stack.startIntakeAgain();
    }
    await page.locator('#connection', { hasText: /^Live$/ }).waitFor({ timeout: 30_000 });
    await expect.poll(() => approve.isDisabled()).toBe(false);
    await expect.poll(() => page.locator('#desk-count').innerText()).toMatch(/^\d+$/);
    expect(await page.locator('.view-desk .stale-mark').isHidden()).toBe(true);
    await page.close();
  });

  it('a desk token sees no admin action; when it is revoked the desk says what to do', async () => {
    const tokens = new IntakeTokens(rig.stack.screener.store);
    const desk = await tokens.create('desk', 'Dana Desk');
    const { page } = await rig.open({ token: desk.token });
    await page.locator('#signed-in', { hasText: 'Dana Desk' }).waitFor();
    await page.keyboard.press('2');
    await page.locator('.view-queue .stat-card, .view-queue .card').first().waitFor();
    expect(await page.locator('#pause-toggle').isHidden()).toBe(true);
    await shoot(page, 'queue-desk-token');

    await tokens.revoke(desk.record.id);
    const card = page.locator('.token-card');
    await card.waitFor({ timeout: 30_000 });
    const text = await card.innerText();
    expect(text).toContain('refused this token');
    expect(text).toContain('Ask your admin');
    expect(text).not.toMatch(/bearer|header|intake token/i);
    await shoot(page, 'token-refused');
    await page.close();
  });

  it('every view: one h1, real tabs, a listbox that names the selected carrier; screenshots at both sizes', async () => {
    await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: '1000004', tender_id: 'T-A11Y-1' } });
    const { page, errors } = await rig.open();
    await page.locator('.rv-list .rv-item').first().waitFor();
    await expect.poll(() => page.locator('h1').count()).toBe(1);
    const tabs = page.locator('[role=tab]');
    for (let i = 0; i < (await tabs.count()); i++) {
      const t = tabs.nth(i);
      const panel = await t.getAttribute('aria-controls');
      expect(panel).toMatch(/^panel-/);
      await expect.poll(() => page.locator(`#${panel}`).getAttribute('role')).toBe('tabpanel');
    }
    // Arrow keys move between tabs; one tab is in the tab order.
    await page.locator('#tab-desk').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('tab-queue');
    await expect.poll(() => page.locator('#tab-queue').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.locator('[role=tab][tabindex="0"]').count()).toBe(1);
    await page.keyboard.press('ArrowLeft');

    // The listbox is one tab stop and names the selected option.
    const list = page.locator('.rv-list[role=listbox]');
    await expect.poll(() => list.getAttribute('tabindex')).toBe('0');
    const active = await list.getAttribute('aria-activedescendant');
    expect(active).not.toBeNull();
    await expect.poll(() => page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true');
    // Every control has a name a screen reader can say.
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('button, input, select, textarea')]
        .filter((el) => !(el as HTMLElement).hidden && (el as HTMLElement).offsetParent !== null)
        .filter((el) => {
          const named =
            (el.getAttribute('aria-label') ?? '').trim() || (el.textContent ?? '').trim() || (el as HTMLInputElement).labels?.length;
          return !named;
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);

    for (const [key, name] of [
      ['1', 'desk'],
      ['2', 'queue'],
      ['3', 'quota'],
      ['4', 'changes'],
      ['5', 'decisions'],
      ['6', 'blocks'],
    ] as const) {
      await page.keyboard.press(key);
      await expect.poll(() => page.locator(`#panel-${name}`).isVisible()).toBe(true);
      await shoot(page, `view-${name}`);
      expect(await lowContrast(page), name).toEqual([]);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!hasChromium)('an honest re-check with no lookups left (live, a quota of 1)', () => {
  const rig = withBrowserStack({ mode: 'live', emulator: { monthlyQuota: 1 }, env: { SCREEN_QUOTA_RESERVE: '0' } });
  const api = rig.api;

  it('turns re-check off and says when it resets, once the only lookup is spent', async () => {
    let dot = 3_000_000;
    for (;;) {
      const p = liveCarrier(String(dot));
      // Held for a person, with at least four findings: the panel must leave three in sight.
      if (p && p.decision === 'review' && !p.knockout.triggered && p.reasons.length >= 4) break;
      dot++;
    }
    const { page, errors } = await rig.open();
    const held = await api<Screening>('/screenings?wait=10', { method: 'POST', body: { dot_number: String(dot), tender_id: 'T-QUOTA-1' } });
    expect(held.action).toBe('hold');
    const status = await api<StatusReport>('/status');
    expect(status.quota.remaining).toBe(0);
    await page.locator('.rv-item', { hasText: `DOT ${dot}` }).waitFor();
    const recheck = page.locator('#recheck');
    await expect.poll(() => recheck.isDisabled()).toBe(true);
    const resets = new Date(status.quota.resets_at).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    await expect.poll(() => recheck.innerText()).toBe(`No lookups left · resets ${resets}`);
    await expect.poll(() => recheck.getAttribute('title')).toContain(`resets ${resets}`);
    await shoot(page, 'desk-no-quota');
    expect(await lowContrast(page), 'desk-no-quota').toEqual([]);

    // Deciding at 1024×700: at least three of its reasons stay in sight above the panel.
    await page.setViewportSize(SIZES[1]);
    await page.keyboard.press('a');
    await expect.poll(() => page.locator('.decision-panel').getAttribute('class')).toContain('mode-approve');
    const inSight = await reasonsInSight(page);
    expect(inSight.all).toBeGreaterThanOrEqual(4);
    expect(inSight.seen).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: join(artifacts, 'i30-desk-approving-many-reasons-1024x700.png') });
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
    await page.close();
  });
});
