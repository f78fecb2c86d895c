import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium); playwright-core never downloads a browser here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export interface RunningBrowser {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium (playwright gives it a fresh temporary profile). The background-networking
 * flags matter: without them Chromium keeps dialling Google's hosts, which this machine's
 * closed network refuses.
 */
export interface ChromiumOptions {
  /** The window (default 1360×900). */
  viewport?: { width: number; height: number };
  /** The page's time zone (default UTC). */
  timezoneId?: string;
}

export async function launchChromium(o: ChromiumOptions = {}): Promise<RunningBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({
    viewport: o.viewport ?? { width: 1360, height: 900 },
    deviceScaleFactor: 1,
    timezoneId: o.timezoneId ?? 'UTC',
    locale: 'en-US',
  });
  return {
    browser,
    context,
    async close() {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
    },
  };
}
