import { badRequest } from './http-error.js';

/** A TMS's callback_url, checked: absolute http(s), no credentials (they would be echoed in lists and events). */
export function checkCallbackUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw badRequest('callback_url must be an absolute http or https URL', 'callback_url');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '')
    throw badRequest('callback_url must be an absolute http or https URL', 'callback_url');
  // It is echoed in lists, events and callbacks: credentials in it would be too.
  if (u.username !== '' || u.password !== '')
    throw badRequest('callback_url must not contain credentials (user:pass@); verify callbacks by their signature instead', 'callback_url');
  return u.toString();
}
