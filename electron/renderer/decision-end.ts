import type { Decision, PreviousDecision } from '../../shared/screening.js';

/**
 * How an ended decision reads: "revoked by Sam", "lapsed: grade B → D", "lapsed: expired". Pure;
 * the Decisions view and the review desk's "Decided before" both print it, next to a badge, so an
 * ended approval never looks like a standing one (text, not only colour).
 */

/** Workers before issue 25 wrote a reason appearing as "reason added: <check>": read it the way it went. */
const LEGACY: ReadonlyArray<[RegExp, string]> = [
  [/^reason added: /, 'check now failing: '],
  [/^reason gone: /, 'check passing again: '],
  [/^knockout added: /, 'new knockout: '],
  [/^knockout gone: /, 'knockout cleared: '],
];

/** The TTL's end as the worker writes it: "expired <ISO> (SCREEN_DECISION_TTL)". */
const EXPIRED = /^expired (\d{4}-\d{2}-\d{2})T[\d:.]+Z \(SCREEN_DECISION_TTL\)$/;

/** One basis change, in the words of the current worker (and a TTL end as a day). */
export function readableChange(change: string): string {
  const ttl = EXPIRED.exec(change);
  if (ttl) return `its time limit passed on ${ttl[1]}`;
  for (const [re, now] of LEGACY) if (re.test(change)) return change.replace(re, now);
  return change;
}

/** The basis changes of a lapse ("grade B → D; reason added: X"), each readable. */
export function lapseChanges(endReason: string | null | undefined): string[] {
  return (endReason ?? '').split('; ').filter(Boolean).map(readableChange);
}

export interface EndedText {
  /** `revoked` or `lapsed`: the badge. */
  state: 'revoked' | 'lapsed';
  /** "revoked by Sam" / "lapsed: grade B → D". */
  line: string;
  /** A revoke's note, when it had one. */
  note: string | null;
}

/** A decision of the Decisions list (state and end_reason) that no longer stands; null while it stands. */
export function endedText(d: Pick<Decision, 'state' | 'ended_by' | 'end_reason'>): EndedText | null {
  if (d.state === 'standing') return null;
  if (d.state === 'revoked') {
    const note = d.end_reason && d.end_reason !== 'revoked' ? d.end_reason : null;
    return { state: 'revoked', line: `revoked by ${d.ended_by ?? 'someone'}`, note };
  }
  const changes = lapseChanges(d.end_reason);
  return { state: 'lapsed', line: `lapsed: ${changes.length ? changes.join('; ') : 'the score changed'}`, note: null };
}

/** The previous decision a reopened review shows. */
export function previousEndedText(p: PreviousDecision): EndedText {
  if (p.state === 'revoked')
    return { state: 'revoked', line: `revoked by ${p.ended_by ?? 'someone'}`, note: p.note && p.note !== 'revoked' ? p.note : null };
  const changes = p.changes.map(readableChange);
  return { state: 'lapsed', line: `lapsed: ${changes.length ? changes.join('; ') : 'it expired'}`, note: null };
}
