import type { LoadDetails } from '../../shared/screening.js';

/**
 * A tender's load details (POST /screenings `load`, as the TMS sent them) in the words the desk
 * and the queue show. Read tolerantly: an older worker sends no load, and every field is optional.
 */

/** The load object, or null when there is none (or it is not an object). */
export function loadOf(v: unknown): LoadDetails | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as LoadDetails) : null;
}

/** `pickup_at` when it names an instant (as sent, with its offset); null otherwise. */
export function pickupOf(load: LoadDetails | null): string | null {
  const p = load?.pickup_at;
  return typeof p === 'string' && !Number.isNaN(Date.parse(p)) ? p : null;
}

/** "Dallas, TX → Memphis, TN" (a side not sent is "?"); null when neither was sent. */
export function laneOf(load: LoadDetails | null): string | null {
  const o = text(load?.origin);
  const d = text(load?.destination);
  return o === null && d === null ? null : `${o ?? '?'} → ${d ?? '?'}`;
}

/** The equipment as sent, or null when none (or only blanks) was. */
export function equipmentOf(load: LoadDetails | null): string | null {
  return text(load?.equipment);
}

/** The customer's reference as sent, or null. */
export function customerRefOf(load: LoadDetails | null): string | null {
  return text(load?.customer_ref);
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}
