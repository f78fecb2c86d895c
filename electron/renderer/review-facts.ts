import type { Review } from '../../shared/screening.js';

/**
 * What differs between the review a dispatcher was shown and the newest one (after a 409
 * `review_stale`), in words: the score, the service's decision, knockouts, the checks that found
 * a problem, the waiting tenders, a local block or an end. Pure; the desk prints it.
 */
export function factsChanged(shown: Review, newest: Review): string[] {
  const out: string[] = [];
  const a = shown.screening.score;
  const b = newest.screening.score;
  if (a && b) {
    if (a.decision !== b.decision) out.push(`decision ${a.decision} → ${b.decision}`);
    if (a.score !== b.score || a.grade !== b.grade) out.push(`score ${a.score} · ${a.grade} → ${b.score} · ${b.grade}`);
    const ka = new Set(a.knockout.reasons.map((k) => k.code));
    const kb = b.knockout.reasons.map((k) => k.code);
    const newKo = kb.filter((k) => !ka.has(k));
    if (newKo.length) out.push(`new knockout ${newKo.join(', ')}`);
    const ra = new Set(a.reasons.map((r) => r.check));
    const rb = new Set(b.reasons.map((r) => r.check));
    const failing = [...rb].filter((c) => !ra.has(c));
    const passing = [...ra].filter((c) => !rb.has(c));
    if (failing.length) out.push(`check now failing: ${failing.join(', ')}`);
    if (passing.length) out.push(`check passing again: ${passing.join(', ')}`);
  } else if (!a && b) out.push(`a score now: ${b.score} · ${b.grade} (${b.decision})`);
  else if (a && !b) out.push('no usable score now');
  if (newest.screening.error?.code === 'local_block' && shown.screening.error?.code !== 'local_block')
    out.push('put on the do-not-use list');
  const ta = shown.tenders?.length ?? 1;
  const tb = newest.tenders?.length ?? 1;
  if (ta !== tb) out.push(`${tb} tenders wait now (was ${ta})`);
  if (newest.state !== 'pending') out.push(`the review was closed (${newest.state}${newest.decided_by ? ` by ${newest.decided_by}` : ''})`);
  return out;
}
