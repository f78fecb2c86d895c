/**
 * Every IPC handler answers only the app's own page. A frame navigated elsewhere (it
 * should not be able to, but defence in depth) or a subframe gets nothing.
 */

/** The URL without hash and query: the renderer routes by hash, and that is fine. */
function pageOf(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return null;
  }
}

export function isOwnPage(senderUrl: string | null | undefined, appPageUrl: string): boolean {
  if (!senderUrl) return false;
  const page = pageOf(senderUrl);
  const own = pageOf(appPageUrl);
  return page !== null && own !== null && own.startsWith('file:') && page === own;
}
