import type { DestinationPolicy } from '../callbacks/destination-policy.js';
import { badRequest } from './http-error.js';

/**
 * A TMS's callback_url, checked: absolute http(s), no credentials (they would be echoed in lists
 * and events), and a destination the callback policy allows (CALLBACK_ALLOW; docs/callbacks.md).
 * The sender checks again, on every address, when it sends.
 */
export async function checkCallbackUrl(raw: string, policy: DestinationPolicy): Promise<string> {
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
  const refused = await policy.checkUrl(u);
  if (refused) throw badRequest(`callback_url is not an allowed callback destination: ${refused}; the operator lists destinations in CALLBACK_ALLOW`, 'callback_url');
  return u.toString();
}
