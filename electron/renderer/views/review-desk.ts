import type { Review, Screening } from '../../../shared/screening.js';
import type { SvcScore } from '../../../shared/svc-contract.js';
import { IntakeError } from '../../shared/bridge.js';
import { carrierNames, idLine } from '../carrier-facts.js';
import { previousEndedText } from '../decision-end.js';
import { factsChanged } from '../review-facts.js';
import type { DeskModel } from '../desk-model.js';
import { h, type Child } from '../dom.js';
import { chip } from '../chip.js';
import { fmtAge, fmtLocal, fmtPercent, fmtUtc } from '../format.js';
import { ListView } from '../list-view.js';
import type { Toaster } from '../toaster.js';
import { decisionTerm, flagTerm, holdReasonTerm, severityTerm, sortReasons, sourceTerm } from '../vocabulary.js';

/**
 * The review desk: one card per carrier held for a person, with every tender waiting on it and
 * what a dispatcher needs to decide; approve or reject settles them all (docs/decisions.md).
 * "Re-check now" asks /v1 for a fresh score (one lookup).
 */

/** Fields of the score object this view shows; any other field is listed under "Other fields". */
const KNOWN_SCORE_FIELDS = new Set([
  'object', 'livemode', 'carrier', 'score', 'grade', 'decision', 'verdict', 'needs_manual_review', 'knockout',
  'reasons', 'checks', 'flags', 'data_confidence', 'model_version', 'calculated_at',
]);

export function reviewDeskView(model: DeskModel, toast: Toaster): ListView<Review> {
  const blockBox = h('input', { attrs: { type: 'checkbox', id: 'reject-block' } });
  const blockLine = h(
    'label',
    { class: 'dp-extra', dataset: { mode: 'reject' } },
    blockBox,
    ' Also put the carrier on the do-not-use list (every later screening is blocked until someone lifts it)',
  );
  const rechecking = new Set<string>();
  /** Reviews whose facts changed under a decision (409 review_stale): what the card says until decided. */
  const staleNotes = new Map<string, string>();

  async function recheck(r: Review): Promise<void> {
    const s = r.screening;
    const n = carrierNames(s);
    const carrier = n.dot ? { dot_number: n.dot } : n.mc ? { mc_number: n.mc } : null;
    if (!carrier || rechecking.has(r.id)) return;
    rechecking.add(r.id);
    view.render();
    toast.show(`Re-checking ${n.name}: asking the scoring service (one lookup)…`, 'info');
    try {
      const fresh = await model.recheck(carrier);
      const sc = fresh.score;
      const what = sc ? `${sc.score} · grade ${sc.grade} · ${sc.decision}` : fresh.error ? `no score (${fresh.error.code})` : 'still queued';
      const same = sc && s.score && sc.score === s.score.score && sc.grade === s.score.grade && sc.decision === s.score.decision;
      toast.show(`${n.name} re-checked: ${what}${sc ? (same ? ' (unchanged)' : ` (was ${s.score ? `${s.score.score} · ${s.score.grade}` : 'no score'})`) : ''}.`, same ? 'info' : 'ok');
    } catch (err) {
      toast.show(`Re-check failed: ${err instanceof Error ? err.message : String(err)}`, 'bad');
    } finally {
      rechecking.delete(r.id);
      view.render();
    }
  }

  const view: ListView<Review> = new ListView<Review>(
    {
      view: 'desk',
      label: 'Review desk',
      title: 'Waiting for review',
      list: { class: 'rv-list', label: 'Carriers waiting for review' },
      historyTitle: 'Recently decided',
      historyClass: 'rv-decided',
      historySelectable: false,
      panel: { class: 'decision-panel', label: 'Decision', nameId: 'dispatcher-name' },
      note: { id: 'decision-note', placeholder: 'Note for the record (why you approve or reject)' },
      actions: [
        { mode: 'approve', label: 'Approve', key: 'a', buttonClass: 'btn-approve', question: (r) => `Approve ${carrierNames(r.screening).name} (${idLine(r.screening)})${tendersText(r)}?` },
        { mode: 'reject', label: 'Reject', key: 'r', buttonClass: 'btn-reject', question: (r) => `Reject ${carrierNames(r.screening).name} (${idLine(r.screening)})${tendersText(r)}?` },
      ],
      modeExtras: [blockLine],
      draftFields: [blockBox],
      signedInAs: () => model.signedInName(),
      items: () => model.pending,
      history: () => model.decided,
      row: (r) => {
        const s = r.screening;
        const waiting = r.tenders?.length ?? 1;
        return {
          class: 'rv-item',
          dataset: { reviewId: r.id },
          children: [
            h('div', { class: 'rv-line1' }, h('span', { class: 'rv-name' }, carrierNames(s).name), scorePill(s.score)),
            h('div', { class: 'rv-line2' }, idLine(s) || '—'),
            h(
              'div',
              { class: 'rv-line3' },
              chip(holdReasonTerm(r.hold_reason)),
              waiting > 1 ? h('span', { class: 'chip tone-warn rv-tenders' }, `${waiting} tenders`) : null,
              r.previous_decision ? h('span', { class: 'chip tone-muted', attrs: { title: 'decided before; the score changed since' } }, 'reopened') : null,
              h('span', { class: 'rv-age', attrs: { title: fmtUtc(r.created_at) } }, `waiting ${fmtAge(r.created_at).replace(' ago', '')}`),
            ),
          ],
        };
      },
      historyRow: (r) => {
        // A decision that has since ended is not drawn as a live approval.
        const ended = model.decisionHistory.find((d) => d.review_id === r.id);
        return {
          class: `rv-done rv-done-${r.state}${ended ? ` rv-done-ended` : ''}`,
          dataset: { reviewId: r.id },
          children: [
            ended
              ? h('span', { class: `badge badge-ended badge-${ended.state}`, attrs: { title: `${r.state}, then ${ended.state}` } }, ended.state)
              : h('span', { class: `badge tone-${r.state === 'approved' ? 'ok' : 'bad'}` }, r.state),
            h('span', { class: 'rv-done-name' }, carrierNames(r.screening).name, ended ? h('span', null, ' · ', h('s', null, r.state)) : null),
            h('span', { class: 'rv-done-by', attrs: { title: fmtUtc(r.decided_at) } }, `${r.decided_by ?? '?'} · ${fmtAge(r.decided_at)}`),
          ],
        };
      },
      emptyList: () => {
        const err = model.errors.get('pending');
        return err ? `Could not load reviews: ${err}` : 'Nothing waiting. New holds appear here as they happen.';
      },
      emptyHistory: () => 'No decisions yet.',
      emptyDetail: () => [h('div', { class: 'rv-none' }, h('p', { class: 'big-empty' }, 'No carrier on hold.'), h('p', null, 'Screenings that need a person land here, live.'))],
      detail: (r) => screeningDetail(r, r.screening, { recheck: () => void recheck(r), rechecking: rechecking.has(r.id), stale: staleNotes.get(r.id) ?? null }),
      idleLine: (r) => (r ? 'Decide: Approve books the carrier, Reject blocks it. The decision stands for later tenders while the score does not change.' : 'Nothing to decide.'),
      nothingToAct: 'Nothing to decide: no carrier is on hold.',
      alreadyDone: (r) => `${carrierNames(r.screening).name} is already decided.`,
      recordName: 'the decision',
      perform: async (mode, r, who, note) => {
        const verdict = mode === 'approve' ? 'approve' : 'reject';
        const block = verdict === 'reject' && blockBox.checked;
        // On the facts this card shows: its version goes with the decision.
        await model.decide(r, verdict, who.typed ? who.name : null, note, block);
        staleNotes.delete(r.id);
        const n = carrierNames(r.screening).name;
        return `${verdict === 'approve' ? 'Approved' : 'Rejected'}: ${n}${block ? ' (on the do-not-use list)' : ''}. Recorded for ${who.name}.`;
      },
      conflict: async (err, r) => {
        if (!(err instanceof IntakeError)) return null;
        const n = carrierNames(r.screening).name;
        if (err.code === 'review_stale') {
          // Nothing was decided. The card now shows the newest facts (the model put them in place).
          const newest = err.review;
          const what = newest ? factsChanged(r, newest) : [];
          const text = `The facts about ${n} changed since this card was shown${what.length ? `: ${what.join('; ')}` : ''}. Nothing was recorded. Read the card again and decide again.`;
          staleNotes.set(r.id, text);
          return newest && newest.state !== 'pending' ? text : { notice: text };
        }
        if (err.code !== 'review_conflict') return null;
        void model.load('pending');
        void model.load('decided');
        return `${n} was already decided by someone else.`;
      },
      doneElsewhere: () =>
        model.takeResolvedElsewhere().map((gone) => `${carrierNames(gone.screening).name} was ${gone.state}${gone.decided_by ? ` by ${gone.decided_by}` : ''} elsewhere`),
    },
    toast,
  );
  return view;
}

function tendersText(r: Review): string {
  const n = r.tenders?.length ?? 1;
  return n > 1 ? ` for all ${n} waiting tenders` : '';
}

// ---- pieces ----


function scorePill(score: SvcScore | null): HTMLElement {
  if (!score) return h('span', { class: 'score-pill tone-muted' }, 'no score');
  const d = decisionTerm(score.decision);
  return h('span', { class: `score-pill tone-${d.tone}`, attrs: { title: `decision: ${score.decision}` } }, `${score.score} · ${score.grade}`);
}

function field(label: string, ...value: Child[]): HTMLElement[] {
  return [h('dt', null, label), h('dd', null, ...value)];
}

/** Everything about one held screening, most important first. */
export function screeningDetail(r: Review, s: Screening, actions: { recheck?: () => void; rechecking?: boolean; stale?: string | null } = {}): HTMLElement[] {
  const n = carrierNames(s);
  // The newest facts the review shows (a newer score than the one it opened on), else its own.
  const score = r.latest?.score ?? s.score;
  const held = holdReasonTerm(r.hold_reason);
  const out: HTMLElement[] = [];

  out.push(
    h(
      'header',
      { class: 'd-head' },
      h(
        'div',
        { class: 'd-names' },
        h('h2', { class: 'd-legal' }, n.name),
        n.dba ? h('div', { class: 'd-dba' }, `doing business as ${n.dba}`) : h('div', { class: 'd-dba muted' }, 'no DBA name registered'),
        h(
          'div',
          { class: 'd-ids' },
          h('span', { class: 'id' }, 'DOT ', h('strong', null, n.dot ?? '—')),
          h('span', { class: 'id' }, 'MC ', h('strong', null, n.mc ?? '—')),
          h('span', { class: 'id' }, 'Tender ', h('strong', null, s.tender_id ?? '—')),
        ),
      ),
      score
        ? h(
            'div',
            { class: `d-score tone-${decisionTerm(score.decision).tone}` },
            h('div', { class: 'd-score-num' }, String(score.score)),
            h('div', { class: 'd-score-grade' }, `grade ${score.grade}`),
          )
        : h('div', { class: 'd-score tone-muted' }, h('div', { class: 'd-score-num' }, '—'), h('div', { class: 'd-score-grade' }, 'no score')),
    ),
  );

  // A decision was refused because the facts moved on: say so above them, until decided again.
  if (actions.stale)
    out.push(h('div', { class: 'd-stale', attrs: { role: 'status' } }, h('strong', { class: 'd-stale-title' }, 'Facts changed — decide again'), h('span', null, actions.stale)));

  // A dispatcher decides the carrier: every tender waiting on this review (docs/decisions.md).
  const tenders = r.tenders ?? [];
  if (tenders.length > 1)
    out.push(
      h(
        'div',
        { class: 'd-tenders' },
        h('span', { class: 'd-k' }, `${tenders.length} tenders wait on this carrier`),
        h('span', { class: 'd-tenders-list' }, tenders.map((t) => t.tender_id ?? 're-check (no tender)').join(', ')),
        h('span', { class: 'muted' }, ' — your decision settles them all and stands for later ones while the score does not change.'),
      ),
    );
  const prev = r.previous_decision;
  if (prev) {
    // An ended decision, drawn as ended: its badge says so in words, never the live green.
    const ended = previousEndedText(prev);
    out.push(
      h(
        'div',
        { class: `d-previous d-previous-${ended.state}` },
        h('span', { class: 'd-k' }, 'Decided before'),
        h('span', { class: `badge badge-ended badge-${ended.state}` }, ended.state === 'revoked' ? 'revoked' : 'lapsed'),
        ' ',
        h('s', { class: 'd-previous-was', attrs: { title: 'no longer stands' } }, `${prev.decision === 'approved' ? 'Approved' : 'Rejected'} by ${prev.decided_by} on ${prev.decided_at.slice(0, 10)}`),
        ' — ',
        h('strong', { class: 'd-previous-end' }, ended.line),
        ended.note ? h('span', null, `: ${ended.note}`) : null,
      ),
    );
  }

  out.push(
    h(
      'div',
      { class: `d-held tone-${held.tone}` },
      h('span', { class: 'd-held-label' }, 'Held because'),
      chip(held),
      held.known ? h('span', { class: 'd-held-hint' }, held.hint ?? '') : h('span', { class: 'd-held-hint' }, `hold reason "${r.hold_reason}" is new to this app`),
    ),
  );

  if (score) {
    const d = decisionTerm(score.decision);
    out.push(
      h(
        'div',
        { class: 'd-verdict' },
        h('span', { class: 'd-k' }, 'Decision'),
        chip(d),
        score.needs_manual_review ? h('span', { class: 'chip tone-warn' }, 'needs manual review') : null,
        h('span', { class: 'd-verdict-text' }, score.verdict ?? 'no verdict line'),
      ),
    );
    if (score.knockout.triggered || score.knockout.reasons.length > 0) {
      out.push(
        h(
          'div',
          { class: 'd-knockout' },
          h('h3', null, score.knockout.triggered ? 'Knockout triggered' : 'Knockout reasons'),
          h(
            'ul',
            null,
            ...score.knockout.reasons.map((k) => h('li', null, h('code', { class: 'ko-code' }, k.code), ' ', k.message)),
          ),
        ),
      );
    }
    const checks = score.checks;
    out.push(
      h(
        'h3',
        { class: 'd-sub' },
        `Reasons (${score.reasons.length})`,
        checks ? h('span', { class: 'd-sub-note' }, ` · ${checks.triggered} of ${checks.total} checks triggered, ${checks.passed} passed, ${checks.not_checked} not checked`) : null,
      ),
    );
    if (score.reasons.length === 0) out.push(h('p', { class: 'muted' }, 'No check found a problem.'));
    else
      out.push(
        h(
          'ol',
          { class: 'reasons' },
          ...sortReasons(score.reasons).map((reason) => {
            const sev = severityTerm(reason.severity);
            return h(
              'li',
              { class: `reason ${sev.tone}${sev.known ? '' : ' unknown'}` },
              h(
                'div',
                { class: 'reason-head' },
                h('span', { class: `sev-badge ${sev.tone}${sev.known ? '' : ' unknown'}`, attrs: { title: sev.hint ?? `severity ${sev.label}` } }, sev.label),
                h('span', { class: 'reason-check' }, reason.check),
                h('span', { class: 'reason-area' }, reason.area),
                sev.known ? null : h('span', { class: 'unknown-note' }, 'severity not known to this app: judge from the detail'),
              ),
              h('p', { class: 'reason-detail' }, reason.detail),
              reason.facts.length > 0
                ? h('dl', { class: 'facts' }, ...reason.facts.flatMap((f) => [h('dt', null, f.label), h('dd', null, String(f.value))]))
                : null,
            );
          }),
        ),
      );
  }

  if (s.error) {
    out.push(
      h(
        'div',
        { class: 'd-error' },
        h('h3', null, 'What the scoring service answered'),
        h('p', null, h('code', null, s.error.code), ' ', s.error.message),
        s.error.request_id ? h('p', { class: 'muted' }, `request id ${s.error.request_id} (quote it to support)`) : null,
      ),
    );
  }

  const meta: HTMLElement[] = [];
  if (score) {
    const flags = score.flags ?? [];
    meta.push(...field('Flags', ...(flags.length ? flags.map((f) => chip(flagTerm(f))) : ['none'])));
    meta.push(...field('Data confidence', score.data_confidence === null ? 'not given' : fmtPercent(score.data_confidence)));
    meta.push(...field('Model version', h('code', null, score.model_version)));
    meta.push(...field('Calculated', h('span', { attrs: { title: fmtUtc(score.calculated_at) } }, `${fmtLocal(score.calculated_at)} (${fmtAge(score.calculated_at)})`)));
  }
  const src = sourceTerm(s.source);
  meta.push(
    ...field(
      'Score source',
      chip(src),
      s.score_fetched_at
        ? h('span', { class: 'd-age', attrs: { title: fmtUtc(s.score_fetched_at) } }, ` fetched ${fmtAge(s.score_fetched_at)} (${fmtLocal(s.score_fetched_at)})`)
        : null,
      actions.recheck
        ? h(
            'button',
            {
              class: 'btn btn-small btn-recheck',
              attrs: { type: 'button', id: 'recheck', disabled: actions.rechecking === true, title: 'Ask the scoring service for a fresh score now, skipping the cache' },
              on: { click: actions.recheck },
            },
            actions.rechecking ? 'Re-checking…' : 'Re-check now (uses 1 lookup)',
          )
        : null,
    ),
  );
  meta.push(...field('Environment', score ? (score.livemode ? 'live' : 'sandbox') : '—'));
  meta.push(...field('Screening', h('code', null, s.id), ` · ${s.priority} priority · asked ${fmtAge(s.created_at)}`));
  meta.push(...field('Held since', h('span', { attrs: { title: fmtUtc(r.created_at) } }, fmtLocal(r.created_at))));
  out.push(h('h3', { class: 'd-sub' }, 'About this score'), h('dl', { class: 'd-meta' }, ...meta));

  if (score) {
    const extra = Object.keys(score).filter((k) => !KNOWN_SCORE_FIELDS.has(k));
    if (extra.length > 0)
      out.push(
        h(
          'details',
          { class: 'd-extra' },
          h('summary', null, `Other fields from the service (${extra.length})`),
          h('dl', null, ...extra.flatMap((k) => [h('dt', null, k), h('dd', null, h('code', null, JSON.stringify(score[k])))])),
        ),
      );
  }
  return out;
}
