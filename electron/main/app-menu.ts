/**
 * The application menu. Windows and Linux get none (Electron's default has Toggle DevTools and
 * links to electronjs.org). macOS keeps App, Edit and Window: without the Edit menu, Cmd+V does
 * not paste, and the token could not be pasted into Settings.
 */
export type AppMenuTemplate = Array<{ role: 'appMenu' | 'editMenu' | 'windowMenu' }>;

export function applicationMenuTemplate(platform: string): AppMenuTemplate | null {
  return platform === 'darwin' ? [{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }] : null;
}
