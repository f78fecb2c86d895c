import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, request } from 'undici';
import { normalizeAddress, type DestinationPolicy } from './destination-policy.js';

/**
 * The HTTP POST of a callback, through the destination policy: an IP literal is checked before
 * anything is sent, and a name is resolved by the connection's own lookup, which checks every
 * address it returns, so the socket goes to a checked address (DNS rebinding between a check
 * and the connect cannot happen: there is no second lookup). Redirects are not followed.
 */

/** What a delivery attempt needs from HTTP: POST and report the status code. */
export type CallbackTransport = (
  url: string,
  init: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<number>;

/** How a failed attempt is shown to callers: a category, never the raw network error (docs/callbacks.md). */
export const DELIVERY_FAILURES = ['unreachable', 'timeout', 'http_status', 'refused_by_policy'] as const;
export type DeliveryFailure = (typeof DELIVERY_FAILURES)[number];

const POLICY_CODE = 'ERR_CALLBACK_REFUSED_BY_POLICY';

/** The destination policy refused an address; sending to it again cannot succeed. */
export class CallbackPolicyError extends Error {
  override readonly name = 'CallbackPolicyError';
  readonly code = POLICY_CODE;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** The category of an attempt's error (undici and Node may wrap the cause). */
export function failureOf(e: unknown): Exclude<DeliveryFailure, 'http_status'> {
  for (let x: unknown = e, depth = 0; x && typeof x === 'object' && depth < 5; x = (x as { cause?: unknown }).cause, depth++) {
    const { code, name } = x as { code?: string; name?: string };
    if (code === POLICY_CODE) return 'refused_by_policy';
    if (name === 'TimeoutError' || (code !== undefined && TIMEOUT_CODES.has(code))) return 'timeout';
  }
  return 'unreachable';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A net.connect `lookup` that resolves every address and refuses the connection unless all are allowed. */
export function policyLookup(policy: DestinationPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      for (const a of addresses) {
        const why = policy.refusal(hostname, a.address);
        if (why) return callback(new CallbackPolicyError(`${hostname} resolves to ${a.address}: ${why}`), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** The sender's transport: one connection pool per origin, `perDestination` connections each. */
export function policyTransport(
  policy: DestinationPolicy,
  o: { perDestination: number },
): { send: CallbackTransport; close(): Promise<void> } {
  const agent = new Agent({ connections: o.perDestination, keepAliveTimeout: 4_000, connect: { lookup: policyLookup(policy) } });
  const send: CallbackTransport = async (url, init) => {
    const host = new URL(url).hostname;
    // An IP literal never reaches the lookup: check it here.
    if (normalizeAddress(host)) {
      const why = policy.refusal(host, host);
      if (why) throw new CallbackPolicyError(`${host}: ${why}`);
    }
    const res = await request(url, {
      dispatcher: agent,
      method: 'POST',
      headers: init.headers,
      body: init.body,
      headersTimeout: init.timeoutMs,
      bodyTimeout: init.timeoutMs,
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    // Read and drop the answer so the socket goes back to the pool.
    await res.body.dump().catch(() => {});
    return res.statusCode;
  };
  return { send, close: () => agent.destroy() };
}
