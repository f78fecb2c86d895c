/**
 * The origin a callback URL's deliveries go to (scheme, host, port, as the URL parser writes
 * them: default ports dropped, 0x7f000001 as 127.0.0.1): one queue, concurrency and circuit
 * breaker each. Its own module in the store so the outbox's schema step (schema/outbox-schema.ts)
 * and the outbox (through callbacks/destination-of.ts) compute the same key.
 */
export function destinationOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid url)';
  }
}

/** A URL as the intake stores a callback_url (`new URL(raw).toString()`); unparsable: as it is. */
export function normalizedUrl(url: string): string {
  try {
    return new URL(url).toString();
  } catch {
    return url;
  }
}
