import type { CarrierChange, CarrierSnapshot, ChangeFindings, ChangeReason, ChangeTender, WatchEntry } from '../../shared/screening.js';
import type { KeysetList } from './keyset.js';
import { StoreArgumentError } from './store-error.js';

/**
 * The watch list's row mapping and key check, backend-free: watch-store.ts (SQLite) and
 * pg/watch-store.ts (PostgreSQL) both map their rows here, so the two answer the same JSON.
 */

/** A change as stored: the public record plus where each tender's callback goes. */
export interface StoredChange extends CarrierChange {
  carrier_key: string;
  tender_callbacks: Array<ChangeTender & { callback_url: string | null }>;
}

/** The watch_entries columns toEntry reads (each backend's row may carry more). */
export interface WatchEntryRow {
  dot_number: string | null;
  mc_number: string | null;
  note: string | null;
  manual: number;
  added_at: string;
  /** The latest tender: of the carrier's screenings, or (before migration 13) as stored. */
  last_tender_at: string | null;
  last_checked_at: string | null;
  next_check_at: string;
  last_state: string | null;
}

export interface ChangeRow {
  id: string;
  carrier_key: string;
  dot_number: string | null;
  mc_number: string | null;
  legal_name: string | null;
  screening_id: string;
  reasons: string;
  before_state: string;
  after_state: string;
  tenders: string;
  state: 'new' | 'acknowledged';
  acknowledged_by: string | null;
  acknowledged_at: string | null;
  detected_at: string;
  /** Migration 29: JSON ChangeFindings; null on older rows. */
  findings?: string | null;
  ack_note?: string | null;
}

export function toEntry(r: WatchEntryRow, watchMs: number): WatchEntry {
  return {
    object: 'watch_entry',
    dot_number: r.dot_number,
    mc_number: r.mc_number,
    note: r.note,
    manual: r.manual === 1,
    added_at: r.added_at,
    last_tender_at: r.last_tender_at,
    watch_until: r.last_tender_at === null ? null : new Date(Date.parse(r.last_tender_at) + watchMs).toISOString(),
    last_checked_at: r.last_checked_at,
    next_check_at: r.next_check_at,
    last: r.last_state === null ? null : (JSON.parse(r.last_state) as CarrierSnapshot),
    updated_at: latest(r.added_at, r.last_tender_at, r.last_checked_at),
  };
}

export function toChange(r: ChangeRow): StoredChange {
  const tenders = JSON.parse(r.tenders) as StoredChange['tender_callbacks'];
  return {
    object: 'carrier_change',
    id: r.id,
    dot_number: r.dot_number,
    mc_number: r.mc_number,
    legal_name: r.legal_name,
    reasons: JSON.parse(r.reasons) as ChangeReason[],
    before: JSON.parse(r.before_state) as CarrierSnapshot,
    after: JSON.parse(r.after_state) as CarrierSnapshot,
    screening_id: r.screening_id,
    // Changes found before the tenders' actions were recorded have none: absent, not null (unknown, not "not answered").
    tenders: tenders.map((t) =>
      t.action === undefined
        ? { tender_id: t.tender_id, screening_id: t.screening_id, screened_at: t.screened_at }
        : {
            tender_id: t.tender_id,
            screening_id: t.screening_id,
            screened_at: t.screened_at,
            action: t.action,
            hold_reason: t.hold_reason ?? null,
            settled_by: t.settled_by ?? null,
          },
    ),
    findings: r.findings ? (JSON.parse(r.findings) as ChangeFindings) : null,
    state: r.state,
    acknowledged_by: r.acknowledged_by,
    acknowledged_at: r.acknowledged_at,
    ack_note: r.ack_note ?? null,
    detected_at: r.detected_at,
    updated_at: latest(r.detected_at, r.acknowledged_at),
    carrier_key: r.carrier_key,
    tender_callbacks: tenders,
  };
}

/** The latest of some ISO timestamps (when a record last changed). */
export function latest(first: string, ...more: Array<string | null>): string {
  return more.reduce<string>((a, b) => (b !== null && b > a ? b : a), first);
}

export function checkKeys(keys: unknown): string[] {
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > 2 || !keys.every((k) => typeof k === 'string' && /^(dot|mc):\S+$/.test(k)))
    throw new StoreArgumentError('keys must be one or two carrier keys ("dot:<n>", "mc:MC<n>")', 'keys');
  return keys as string[];
}

/** settleKeys' merge of a carrier's MC entry into its DOT entry (`key`): what the DOT row takes. */
export function mergedEntry(key: string, byMc: WatchEntryRow) {
  return {
    key,
    manual: byMc.manual,
    note: byMc.note,
    added_at: byMc.added_at,
    last_tender_at: byMc.last_tender_at,
    next_check_at: byMc.next_check_at,
  };
}

/** The MC entry's last state is of a later fetch than the DOT entry's (the merged entry keeps it). */
export function mcStateIsNewer<R extends Pick<WatchEntryRow, 'last_state'>>(
  byMc: R,
  byDot: Pick<WatchEntryRow, 'last_state'>,
): byMc is R & { last_state: string } {
  return (
    !!byMc.last_state &&
    (!byDot.last_state ||
      (JSON.parse(byMc.last_state) as CarrierSnapshot).fetched_at > (JSON.parse(byDot.last_state) as CarrierSnapshot).fetched_at)
  );
}

/**
 * GET /changes as a keyset list, one definition for both backends: newest detected first, by
 * state, by updated_since and by DOT. A backend gives its select, its tie-break (rowid, seq) and
 * its spelling of "the later of two" (SQLite's scalar MAX, PostgreSQL's GREATEST; neither
 * argument is NULL here, so they agree).
 */
export function changesListOf(
  state: 'new' | 'acknowledged' | undefined,
  filter: { since?: string; dot?: string },
  d: { select: string; tie: string; later: 'MAX' | 'GREATEST' },
): KeysetList {
  if (state !== undefined && state !== 'new' && state !== 'acknowledged')
    throw new StoreArgumentError(`state must be "new" or "acknowledged", got ${JSON.stringify(state)}`, 'state');
  const where = state === undefined ? [] : ['state = @state'];
  const params: Record<string, string> = state === undefined ? {} : { state };
  // updated_at is the later of detected_at and acknowledged_at (ISO text compares in time order).
  if (filter.since !== undefined) {
    where.push(`${d.later}(detected_at, COALESCE(acknowledged_at, detected_at)) >= @since`);
    params.since = filter.since;
  }
  if (filter.dot !== undefined) {
    where.push('dot_number = @dot');
    params.dot = filter.dot;
  }
  return { select: d.select, where, params, key: 'detected_at', tie: d.tie, direction: 'DESC', cursor: 'id = @cursor_id' };
}
