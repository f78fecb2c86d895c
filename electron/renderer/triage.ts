import type { LoadDetails, Review } from '../../shared/screening.js';
import { loadOf, pickupOf } from './load-facts.js';
import { holdReasonTerm, severityTerm, sortReasons } from './vocabulary.js';

/**
 * Triage of the review desk: what each card says in one line (why it is held, how bad, how many
 * loads wait, the earliest pickup) and the orders a dispatcher can work through. Pure: the desk
 * renders it, the browser test checks the order.
 */

export type DeskSort = 'oldest' | 'loads' | 'worst' | 'pickup';
export const DESK_SORTS: ReadonlyArray<{ value: DeskSort; label: string }> = [
  { value: 'oldest', label: 'Waiting longest' },
  { value: 'loads', label: 'Most loads waiting' },
  { value: 'worst', label: 'Worst finding' },
  { value: 'pickup', label: 'Earliest pickup' },
];

/** How bad the worst finding is: lower is worse. A knockout is worst; a severity we do not know ranks with critical. */
const RANK: Record<string, number> = { knockout: 0, critical: 1, review: 2, medium: 3, low: 4 };
const NO_FINDING = 5;

export interface Triage {
  /** The top finding in words, one line. */
  why: string;
  /** A knockout or a critical finding: marked on the card in words, not only in red. */
  critical: boolean;
  /** "Knockout", "Critical", … : the word for the worst finding. */
  worstLabel: string | null;
  rank: number;
  /** Loads (tenders) waiting on the carrier; a re-check is not a load. */
  loads: number;
  /** The earliest pickup among the waiting loads (their `load.pickup_at`, as sent), or null when none has one. */
  pickup: string | null;
}

/** One load waiting on the carrier's review: its tender and the load details the TMS sent. */
export interface WaitingLoad {
  screening_id: string;
  tender_id: string | null;
  load: LoadDetails | null;
  /** `load.pickup_at` when it is a time (as sent, with its offset); null otherwise. */
  pickup: string | null;
}

/**
 * The loads waiting on a review, earliest pickup first (by the instant, not the text: offsets
 * differ), loads without a pickup after them in the order they came. A tender is a load when it
 * has a tender id or load details; a re-check (neither) is not. An older worker sends no
 * tenders: the review's own screening stands for them.
 */
export function waitingLoads(r: Review): WaitingLoad[] {
  const tenders =
    r.tenders && r.tenders.length > 0
      ? r.tenders
      : [{ screening_id: r.screening.id, tender_id: r.screening.tender_id, load: r.screening.load }];
  const loads = tenders
    .map((t): WaitingLoad => {
      // Read tolerantly: an older worker's tenders have no load.
      const load = loadOf(t.load);
      return { screening_id: t.screening_id, tender_id: t.tender_id, load, pickup: pickupOf(load) };
    })
    .filter((t) => t.tender_id !== null || t.load !== null);
  return loads
    .map((t, i) => ({ t, i }))
    .sort((a, b) => byPickup(a.t.pickup, b.t.pickup) || a.i - b.i)
    .map(({ t }) => t);
}

/** Earlier pickup first by the instant it names; none last. */
function byPickup(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return Date.parse(a) - Date.parse(b);
}

export function triageOf(r: Review): Triage {
  const score = r.latest?.score ?? r.screening.score;
  const waiting = waitingLoads(r);
  const loads = waiting.length;
  // Sorted earliest first: the first with a pickup has the earliest.
  const pickup = waiting[0]?.pickup ?? null;
  if (!score) {
    const held = holdReasonTerm(r.hold_reason);
    return { why: `No score: ${held.hint ?? held.label}`, critical: false, worstLabel: null, rank: NO_FINDING, loads, pickup };
  }
  const ko = score.knockout.triggered ? score.knockout.reasons[0] : undefined;
  if (ko) return { why: `Knockout: ${ko.message}`, critical: true, worstLabel: 'Knockout', rank: RANK.knockout!, loads, pickup };
  const top = sortReasons(score.reasons)[0];
  if (!top)
    return {
      why: score.verdict ?? 'No check found a problem; the scoring service still asks a person to look.',
      critical: false,
      worstLabel: null,
      rank: NO_FINDING,
      loads,
      pickup,
    };
  const sev = severityTerm(top.severity);
  const rank = sev.known ? (RANK[top.severity] ?? NO_FINDING) : RANK.critical!;
  const critical = top.severity === 'critical';
  const more = score.reasons.length > 1 ? ` (+${score.reasons.length - 1} more)` : '';
  return {
    why: `${top.detail}${more}`,
    critical,
    worstLabel: sev.known ? capital(sev.label) : `Unknown severity "${top.severity}"`,
    rank,
    loads,
    pickup,
  };
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The desk's cards in the chosen order; ties by waiting longest, then id (stable across renders). */
export function sortDesk(reviews: readonly Review[], by: DeskSort): Review[] {
  const t = new Map(reviews.map((r) => [r.id, triageOf(r)]));
  const oldest = (a: Review, b: Review): number => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
  const key = (a: Review, b: Review): number => {
    const ta = t.get(a.id)!;
    const tb = t.get(b.id)!;
    switch (by) {
      case 'loads':
        return tb.loads - ta.loads;
      case 'worst':
        return ta.rank - tb.rank;
      case 'pickup':
        // By the instant (pickups carry their own offsets); cards without a pickup go last.
        return byPickup(ta.pickup, tb.pickup);
      default:
        return 0;
    }
  };
  return [...reviews].sort((a, b) => key(a, b) || oldest(a, b));
}

/** Filter values: a hold reason, or "critical" for cards with a knockout or a critical finding. */
export function filterDesk(reviews: readonly Review[], filter: string): Review[] {
  if (filter === '' || filter === 'all') return [...reviews];
  if (filter === 'critical') return reviews.filter((r) => triageOf(r).critical);
  return reviews.filter((r) => r.hold_reason === filter);
}
