/**
 * What the dashboard page may use of the browser's permissions: nothing. Notifications are shown
 * by main, the clipboard is reached through the Edit menu's roles, and the page has no camera,
 * location or sensors to ask for. Both the request handler (prompts) and the check handler
 * (navigator.permissions.query, and Chromium's own checks) answer from here.
 */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set<string>();

export function permissionAllowed(permission: string): boolean {
  return ALLOWED_PERMISSIONS.has(permission);
}
