import type { FastifyBaseLogger } from 'fastify';
import type { DestinationPolicy } from '../callbacks/destination-policy.js';
import { badRequest } from './http-error.js';

/**
 * A TMS's callback_url, checked in two steps so that a request is refused cheaply first:
 * `parseCallbackUrl` (syntax, no I/O) runs with the other checks of the body; only a request
 * that passed them all spends a DNS lookup in `checkCallbackDestination` (the policy,
 * CALLBACK_ALLOW; docs/callbacks.md). The sender checks again, on every address, when it sends.
 */

/** Absolute http(s), no credentials (they would be echoed in lists, events and callbacks). */
export function parseCallbackUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw badRequest('callback_url must be an absolute http or https URL', 'callback_url');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '')
    throw badRequest('callback_url must be an absolute http or https URL', 'callback_url');
  if (u.username !== '' || u.password !== '')
    throw badRequest('callback_url must not contain credentials (user:pass@); verify callbacks by their signature instead', 'callback_url');
  return u;
}

/**
 * The destination policy on a parsed callback_url: 400 naming callback_url when refused. The
 * answer says why in general terms only (a loopback, private, link-local… address): neither the
 * address a name resolved to nor the allow list, which would map the broker's network for
 * whoever holds a token. The operator's log has both.
 */
export async function checkCallbackDestination(u: URL, policy: DestinationPolicy, log?: FastifyBaseLogger): Promise<string> {
  const refused = await policy.checkUrl(u);
  if (refused) {
    log?.info(
      { host: u.hostname, address: refused.address, why: refused.refusal, policy: policy.summary },
      'callback_url refused by the callback destination policy',
    );
    const what = refused.literal ? 'its host is' : 'its host resolves to';
    throw badRequest(
      `callback_url is not an allowed callback destination: ${what} ${refused.refusal}; the operator lists allowed destinations in CALLBACK_ALLOW`,
      'callback_url',
    );
  }
  return u.toString();
}
