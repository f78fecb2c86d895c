import type { Review } from '../../shared/screening.js';
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
  /** The earliest pickup among the waiting loads, when the screening carries one (ISO). */
  pickup: string | null;
}

export function triageOf(r: Review): Triage {
  const score = r.latest?.score ?? r.screening.score;
  const loads = r.tenders && r.tenders.length > 0 ? r.tenders.filter((t) => t.tender_id !== null).length : r.screening.tender_id !== null ? 1 : 0;
  const pickup = pickupOf(r);
  if (!score) {
    const held = holdReasonTerm(r.hold_reason);
    return { why: `No score: ${held.hint ?? held.label}`, critical: false, worstLabel: null, rank: NO_FINDING, loads, pickup };
  }
  const ko = score.knockout.triggered ? score.knockout.reasons[0] : undefined;
  if (ko) return { why: `Knockout: ${ko.message}`, critical: true, worstLabel: 'Knockout', rank: RANK.knockout!, loads, pickup };
  const top = sortReasons(score.reasons)[0];
  if (!top) return { why: score.verdict ?? 'No check found a problem; the scoring service still asks a person to look.', critical: false, worstLabel: null, rank: NO_FINDING, loads, pickup };
  const sev = severityTerm(top.severity);
  const rank = sev.known ? (RANK[top.severity] ?? NO_FINDING) : RANK.critical!;
  const critical = top.severity === 'critical';
  const more = score.reasons.length > 1 ? ` (+${score.reasons.length - 1} more)` : '';
  return { why: `${top.detail}${more}`, critical, worstLabel: sev.known ? capital(sev.label) : `Unknown severity "${top.severity}"`, rank, loads, pickup };
}

/** A screening's load pickup time, read tolerantly: older workers send no load. */
function pickupOf(r: Review): string | null {
  const load = (r.screening as { load?: { pickup_at?: unknown } | null }).load;
  return typeof load?.pickup_at === 'string' ? load.pickup_at : null;
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
        // Cards without a pickup go last.
        return (ta.pickup ?? '\uffff').localeCompare(tb.pickup ?? '\uffff');
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
