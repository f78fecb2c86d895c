import { createHash } from 'node:crypto';
import { MAX_LIMIT } from '../store/arg-checks.js';

/**
 * When each watched carrier is re-screened. Every carrier has a fixed slot in the UTC day
 * (a hash of its key), so a large watch list is spread evenly over 24 hours instead of
 * landing on the rate limit at once; the scheduler tick picks up the slice that is due.
 */

export const DAY_MS = 86_400_000;
/** A first re-screen is at least this long after the carrier was added (its tender just screened it). */
export const MIN_FIRST_GAP_MS = 12 * 3_600_000;
/** At most this share of the rate limit over one tick goes to watch re-screens. */
export const RATE_SHARE = 0.25;

/** Slots already worked out: every tender asks for its carrier's, and a hash per tender adds up. */
const slots = new Map<string, number>();
const MAX_SLOTS_KEPT = 50_000;

/** The carrier's offset into the UTC day, in ms. */
export function slotOf(carrierKey: string): number {
  let slot = slots.get(carrierKey);
  if (slot === undefined) {
    slot = createHash('sha256').update(`watch-slot:${carrierKey}`).digest().readUInt32BE(0) % DAY_MS;
    if (slots.size >= MAX_SLOTS_KEPT) slots.clear();
    slots.set(carrierKey, slot);
  }
  return slot;
}

/** The first slot time at or after `after` + `gapMs`, as an ISO string. */
export function nextCheckAt(carrierKey: string, after: Date, gapMs = MIN_FIRST_GAP_MS): string {
  const t = after.getTime() + gapMs;
  const day = Math.floor(t / DAY_MS) * DAY_MS;
  let at = day + slotOf(carrierKey);
  if (at < t) at += DAY_MS;
  return new Date(at).toISOString();
}

/**
 * How many re-screens one tick may start: a share of what the rate limit allows over the tick, and
 * never more than one claim may take (a very high limit, e.g. a sandbox's, failed every tick).
 */
export function maxPerTick(ratePerMinute: number, tickMs: number): number {
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(ratePerMinute * (tickMs / 60_000) * RATE_SHARE)));
}
