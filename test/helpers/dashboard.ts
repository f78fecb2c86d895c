import type { Page } from 'playwright-core';
import type { RunningBrowser } from './chromium.js';
import type { Stack } from './stack.js';

/** The intake API of a stack, as the browser tests call it: JSON in and out, a non-2xx throws. */
export function stackApi(stack: () => Stack) {
  return async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const s = stack();
    const res = await fetch(s.intakeUrl + path, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

export interface OpenOptions {
  /** Keep the page's event stream (default); without it the page knows only what it loaded at start. */
  liveEvents?: boolean;
  /** Sign in with this token instead of the stack's (e.g. a named desk token). */
  token?: string;
}

/**
 * The dashboard served by the stack's intake, in a new page, with page errors collected. Without
 * live events the page's event stream is cut: it knows only what it loaded at start.
 */
export async function openDashboard(browser: RunningBrowser, stack: Stack, o: OpenOptions = {}): Promise<{ page: Page; errors: string[] }> {
  const live = o.liveEvents ?? true;
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The stream this helper cuts fails to load by design: those failures are not the page's errors.
  const cut = (m: { location(): { url: string } }): boolean =>
    !live && new URL(m.location().url || 'about:blank').pathname.endsWith('/events');
  page.on('console', (m) => m.type() === 'error' && !cut(m) && errors.push(m.text()));
  if (!live) await page.route('**/events', (route) => route.abort());
  await page.goto(`${stack.intakeUrl}/ui/#token=${encodeURIComponent(o.token ?? stack.token)}`);
  if (live) await page.locator('#connection', { hasText: /^Live$/ }).waitFor();
  return { page, errors };
}
