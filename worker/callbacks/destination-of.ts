/** Where the outbox's destinations are computed; the function lives with the store that keys its rows on it. */
export { destinationOf, normalizedUrl } from '../store/destination-of.js';
