/**
 * Update checks with electron-updater's generic provider: a plain HTTPS folder holding
 * latest.yml / latest-mac.yml / latest-linux.yml and the installers (what `npm run dist` makes).
 * Off unless CARRIER_SCREEN_UPDATE_URL names that folder.
 * main.ts hands in electron-updater's autoUpdater (bundled into main.js, a devDependency like
 * Electron itself, since the tray ships as a bundle).
 */

/** The part of electron-updater's AppUpdater this uses. */
export interface UpdaterPort {
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdatesAndNotify(): Promise<unknown>;
}

export type UpdateOutcome = 'off' | 'not-installed' | 'development' | 'checked' | 'failed';

/** The feed from configuration: https only (an update over plain http could be swapped). */
export function updateFeedUrl(env: Record<string, string | undefined>): string | null {
  const raw = env.CARRIER_SCREEN_UPDATE_URL?.trim();
  if (!raw) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new TypeError(`CARRIER_SCREEN_UPDATE_URL must be an absolute https URL, got ${JSON.stringify(raw)}`);
  }
  if (u.protocol !== 'https:') throw new TypeError(`CARRIER_SCREEN_UPDATE_URL must use https, got ${u.protocol}`);
  return u.href;
}

export async function checkForUpdates(o: {
  url: string | null;
  packaged: boolean;
  loadUpdater: () => UpdaterPort | null;
  log: (line: string) => void;
}): Promise<UpdateOutcome> {
  if (o.url === null) return 'off';
  // A development run has no installer to replace.
  if (!o.packaged) return 'development';
  const updater = o.loadUpdater();
  if (updater === null) {
    o.log(`update check: CARRIER_SCREEN_UPDATE_URL is set (${o.url}) but electron-updater is not part of this build`);
    return 'not-installed';
  }
  try {
    updater.setFeedURL({ provider: 'generic', url: o.url });
    await updater.checkForUpdatesAndNotify();
    return 'checked';
  } catch (err) {
    o.log(`update check at ${o.url} failed: ${err instanceof Error ? err.message : String(err)}`);
    return 'failed';
  }
}
