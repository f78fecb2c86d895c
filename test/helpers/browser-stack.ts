import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildTray } from '../../electron/build.mjs';
import { chromiumInstalled, launchChromium, type ChromiumOptions, type RunningBrowser } from './chromium.js';
import { openDashboard, stackApi, type OpenOptions } from './dashboard.js';
import { startStack, type Stack, type StackOptions } from './stack.js';

/**
 * The one setup of the browser tests (test/browser/): the renderer freshly built, the real stack
 * serving it at /ui/ (emulator, Redis, SQLite, worker, intake), and headless Chromium. A suite
 * that calls `withBrowserStack` gets them in its beforeAll (the stack first, then the browser)
 * and loses them in its afterAll in the reverse order: the browser first, as its pages' open
 * event streams would keep the intake from closing, then the stack, then the built renderer.
 * Cleanup runs whatever failed (vitest runs afterAll after a failed beforeAll), so no Chromium,
 * server or temp dir outlives the file.
 */

/** Whether Debian's Chromium is there; a browser suite is `describe.skipIf(!hasChromium)`. */
export const hasChromium = chromiumInstalled();
if (!hasChromium) console.log('SKIPPED: Chromium not installed at /usr/bin/chromium (apt-get install chromium)');

/** Where screenshots go for a person to look at (withBrowserStack makes it). */
export const artifacts = join(resolve(import.meta.dirname, '../..'), 'test-artifacts');

export interface BrowserStack {
  /** The running stack (after the suite's beforeAll). */
  readonly stack: Stack;
  /** The running Chromium and its context (after the suite's beforeAll). */
  readonly browser: RunningBrowser;
  /** The stack's intake API: JSON in and out, a non-2xx throws (stackApi). */
  readonly api: ReturnType<typeof stackApi>;
  /** The dashboard in a new page of the browser's context, signed in (openDashboard). */
  open(o?: OpenOptions): Promise<{ page: Page; errors: string[] }>;
}

/**
 * Registers the suite's (or the file's) beforeAll and afterAll for a stack started with `opts`
 * (its `uiDir` is the renderer built here) and a Chromium launched with `chromium`. Call it
 * once per describe whose tests need their own stack, or at the top of a file for one stack.
 */
export function withBrowserStack(opts: Omit<StackOptions, 'uiDir'> = {}, chromium: ChromiumOptions = {}): BrowserStack {
  let uiOut: string | undefined;
  let stack: Stack | undefined;
  let browser: RunningBrowser | undefined;
  beforeAll(async () => {
    if (!hasChromium) return;
    await mkdir(artifacts, { recursive: true });
    uiOut = await mkdtemp(join(tmpdir(), 'browser-ui-'));
    await buildTray({ outDir: uiOut });
    stack = await startStack({ ...opts, uiDir: join(uiOut, 'renderer') });
    browser = await launchChromium(chromium);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    try {
      await stack?.close();
    } finally {
      if (uiOut) await rm(uiOut, { recursive: true, force: true });
    }
  });
  const theStack = (): Stack => {
    if (!stack) throw new Error('the stack is not running (used outside its suite, or its beforeAll failed)');
    return stack;
  };
  const theBrowser = (): RunningBrowser => {
    if (!browser) throw new Error('the browser is not running (used outside its suite, or its beforeAll failed)');
    return browser;
  };
  return {
    get stack() {
      return theStack();
    },
    get browser() {
      return theBrowser();
    },
    api: stackApi(theStack),
    open: (o) => openDashboard(theBrowser(), theStack(), o),
  };
}

/** The two window sizes a dispatcher uses: a laptop and a small window. */
export const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

/**
 * The window as it is (not full page: what a dispatcher sees without scrolling), at both
 * sizes, to `<prefix>-<width>x<height>.png`; then the window is set to `after`.
 */
export async function shootBothSizes(page: Page, prefix: string, after: { width: number; height: number }): Promise<void> {
  await mkdir(dirname(prefix), { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${prefix}-${size.width}x${size.height}.png` });
  }
  await page.setViewportSize(after);
}
