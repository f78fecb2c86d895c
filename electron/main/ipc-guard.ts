/**
 * Every IPC handler answers only the dashboard window's own main frame: a subframe, another
 * window or a page navigated elsewhere (it cannot be: navigation is blocked, but defence in
 * depth) gets nothing. Frames are compared as objects, as Electron's security guide advises:
 * comparing URLs built two ways (pathToFileURL vs loadFile) refused every call from an install
 * path with "[ ]" or a lower-case drive letter.
 */

export interface FrameLike {
  readonly url: string;
}

export function isOwnFrame(sender: FrameLike | null | undefined, mainFrame: FrameLike | null | undefined): boolean {
  if (!sender || !mainFrame || sender !== mainFrame) return false;
  // Still the bundled page (file:), not something it was made to load.
  return sender.url.startsWith('file:');
}
