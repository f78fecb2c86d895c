import type { CarrierChange, CHANGE_REASONS, ChangeReason, ChangeTender } from '../../shared/screening.js';

/**
 * Words for a carrier change (docs/watchlist.md), shared by the tray's notification and the
 * dashboard's Changes view so both say the same thing. Pure; no DOM, no Electron.
 */

/** What each reason means to a dispatcher. A reason not listed here is shown by its own name. */
export const CHANGE_REASON_TEXT: Readonly<Record<string, string>> = {
  action_changed: 'tender action changed',
  decision_changed: 'decision changed',
  new_knockout: 'new knockout',
  grade_drop: 'grade dropped',
  model_version_changed: 'scoring model changed',
} satisfies Record<(typeof CHANGE_REASONS)[number], string>;

export function changeReasonText(reason: ChangeReason): string {
  return CHANGE_REASON_TEXT[reason] ?? reason;
}

/** The carrier's name, or its numbers when the score named none. */
export function changeCarrierName(c: Pick<CarrierChange, 'legal_name' | 'dot_number' | 'mc_number'>): string {
  const name = c.legal_name?.trim();
  if (name) return name;
  if (c.dot_number) return `DOT ${c.dot_number}`;
  return c.mc_number ?? 'Unknown carrier';
}

/** "DOT 3100007 · MC123456" (what is known). */
export function changeCarrierIds(c: Pick<CarrierChange, 'dot_number' | 'mc_number'>): string {
  return [c.dot_number ? `DOT ${c.dot_number}` : null, c.mc_number].filter((p) => p).join(' · ');
}

/** The one transition that says most: decision, else action, else grade, else the new knockout, else the score. */
export function changeSummary(c: Pick<CarrierChange, 'before' | 'after'>): string {
  const { before: b, after: a } = c;
  if (b.decision !== a.decision) return `${b.decision} → ${a.decision}`;
  if (b.action !== a.action) return `${b.action} → ${a.action}`;
  if (b.grade !== a.grade) return `grade ${b.grade ?? '—'} → ${a.grade ?? '—'}`;
  const added = a.knockout_codes.filter((k) => !b.knockout_codes.includes(k));
  if (added.length > 0) return `new knockout ${added.join(', ')}`;
  return `score ${b.score ?? '—'} → ${a.score ?? '—'}`;
}

/** Knockout codes present after and not before. */
export function newKnockouts(c: Pick<CarrierChange, 'before' | 'after'>): string[] {
  return c.after.knockout_codes.filter((k) => !c.before.knockout_codes.includes(k));
}

/** "T-1, T-2 and 3 more". */
export function tenderList(c: Pick<CarrierChange, 'tenders'>, shown = 3): string {
  const ids = [...new Set(c.tenders.map((t) => t.tender_id))];
  if (ids.length <= shown) return ids.join(', ');
  return `${ids.slice(0, shown).join(', ')} and ${ids.length - shown} more`;
}

/** The structural check both sides use on an event payload before trusting it. */
export function isCarrierChange(v: unknown): v is CarrierChange {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Partial<CarrierChange>;
  return (
    o.object === 'carrier_change' &&
    typeof o.id === 'string' &&
    Array.isArray(o.reasons) &&
    Array.isArray(o.tenders) &&
    typeof o.before === 'object' &&
    o.before !== null &&
    typeof o.after === 'object' &&
    o.after !== null &&
    Array.isArray(o.before.knockout_codes) &&
    Array.isArray(o.after.knockout_codes)
  );
}

/**
 * What the carrier's loads got before the change, in words. The snapshot's action is what the
 * score alone leads to: a `review` carrier's is hold even when a standing approval sent its
 * loads out. Those loads were tendered, and are said so.
 */
export function beforeInWords(c: Pick<CarrierChange, 'before' | 'tenders'>): string {
  if (c.before.action === 'hold' && c.tenders.some((t) => t.action === 'tender' && t.settled_by === 'standing_decision'))
    return 'tendered (settled by a standing decision)';
  return c.before.action;
}

/** A load's status when the change was found: went out, waits, blocked, and what settled it. */
export function loadStatusText(t: ChangeTender): string {
  if (t.action === undefined) return 'not recorded';
  const by =
    t.settled_by === 'standing_decision'
      ? ' · settled by a standing decision'
      : t.settled_by === 'review'
        ? ' · decided by a dispatcher'
        : t.settled_by === 'rescreen'
          ? ' · settled by a re-screen'
          : '';
  switch (t.action) {
    case null:
      return 'not answered yet';
    case 'tender':
      return `went out${by}`;
    case 'hold':
      return 'waits for a dispatcher';
    case 'block':
      return `blocked${by}`;
    default:
      return String(t.action);
  }
}
