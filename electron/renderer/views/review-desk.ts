import type { Review, Screening } from '../../../shared/screening.js';
import type { SvcScore } from '../../../shared/svc-contract.js';
import { IntakeError } from '../../shared/bridge.js';
import { carrierNames, idLine } from '../carrier-facts.js';
import { previousEndedText } from '../decision-end.js';
import { factsChanged } from '../review-facts.js';
import type { DeskModel } from '../desk-model.js';
import { h, type Child } from '../dom.js';
import { chip } from '../chip.js';
import { fmtAge, fmtLocal, fmtLocalDay, fmtPercent, fmtUtc } from '../format.js';
import { friendlyError, ListView } from '../list-view.js';
import { listStates } from '../list-states.js';
import { customerRefOf, equipmentOf, laneOf } from '../load-facts.js';
import { DESK_SORTS, filterDesk, sortDesk, triageOf, waitingLoads, type DeskSort, type WaitingLoad } from '../triage.js';
import { quotaExhausted } from '../../shared/status-problems.js';
import type { Toaster } from '../toaster.js';
import { decisionTerm, flagTerm, holdReasonTerm, severityTerm, sortReasons, sourceTerm } from '../vocabulary.js';

/**
 * The review desk: one card per carrier held for a person, with every tender waiting on it and
 * what a dispatcher needs to decide; approve or reject settles them all (docs/decisions.md).
 * "Re-check now" asks /v1 for a fresh score (one lookup).
 */

/** A card shows this many waiting loads' details; the rest are counted (the detail lists them all). */
const CARD_LOADS = 3;

/** The waiting loads with details (pickup, lane, equipment), earliest pickup first; null when none has any. */
function loadList(r: Review): HTMLElement | null {
  const withDetails = waitingLoads(r).filter(
    (t) => t.load !== null && (t.pickup !== null || laneOf(t.load) !== null || equipmentOf(t.load) !== null),
  );
  if (withDetails.length === 0) return null;
  const more = withDetails.length - CARD_LOADS;
  // Plain lines, not a list: the card is an option of the desk's listbox, read as one text.
  return h(
    'div',
    { class: 'rv-loadlist' },
    ...withDetails
      .slice(0, CARD_LOADS)
      .map((t) => h('div', { class: 'rv-load', dataset: { screeningId: t.screening_id } }, ...loadParts(t))),
    more > 0 ? h('div', { class: 'rv-load-more muted' }, `+${more} more ${more === 1 ? 'load' : 'loads'}`) : null,
  );
}

/** A waiting load in words: its tender, pickup (local time with zone, UTC on hover), lane and equipment. */
function loadParts(t: WaitingLoad): Child[] {
  const lane = laneOf(t.load);
  const equipment = equipmentOf(t.load);
  const parts: Child[] = [];
  if (t.tender_id !== null) parts.push(h('span', { class: 'rv-load-tender' }, t.tender_id));
  if (t.pickup !== null)
    parts.push(h('span', { class: 'rv-load-pickup', attrs: { title: fmtUtc(t.pickup) } }, `pickup ${fmtLocal(t.pickup)}`));
  if (lane !== null) parts.push(h('span', { class: 'rv-load-lane' }, lane));
  if (equipment !== null) parts.push(h('span', { class: 'rv-load-equipment' }, equipment));
  return parts.flatMap((p, i) => (i === 0 ? [p] : [' · ', p]));
}

function customerRef(t: WaitingLoad): Child[] {
  const ref = customerRefOf(t.load);
  return ref === null ? [] : [h('span', { class: 'muted d-load-ref' }, ` · customer ref ${ref}`)];
}

/** Fields of the score object this view shows; any other field is listed under "Other fields". */
const KNOWN_SCORE_FIELDS = new Set([
  'object',
  'livemode',
  'carrier',
  'score',
  'grade',
  'decision',
  'verdict',
  'needs_manual_review',
  'knockout',
  'reasons',
  'checks',
  'flags',
  'data_confidence',
  'model_version',
  'calculated_at',
]);

/** `openDecision`: a recently decided row opens the decision it made (its note, and the revoke). */
export function reviewDeskView(model: DeskModel, toast: Toaster, openDecision?: (r: Review) => void): ListView<Review> {
  const blockBox = h('input', { attrs: { type: 'checkbox', id: 'reject-block' } });
  const blockLine = h(
    'label',
    { class: 'dp-extra', dataset: { mode: 'reject' } },
    blockBox,
    ' Also put the carrier on the do-not-use list (every later screening is blocked until someone lifts it)',
  );
  const rechecking = new Set<string>();
  // Triage: the order and the filter the dispatcher chose (kept on this machine).
  let sortBy: DeskSort = DESK_SORTS.find((x) => x.value === localStorage.getItem('carrier-screen.desk-sort'))?.value ?? 'oldest';
  let filterBy = '';
  const sortSelect = h(
    'select',
    {
      attrs: { id: 'desk-sort' },
      on: {
        change: () => {
          sortBy = sortSelect.value as DeskSort;
          localStorage.setItem('carrier-screen.desk-sort', sortBy);
          view.render();
        },
      },
    },
    ...DESK_SORTS.map((o) => h('option', { attrs: { value: o.value, selected: o.value === sortBy } }, o.label)),
  );
  const filterSelect = h('select', {
    attrs: { id: 'desk-filter' },
    on: {
      change: () => {
        filterBy = filterSelect.value;
        view.render();
      },
    },
  });
  const shownNote = h('span', { class: 'desk-shown muted', attrs: { 'aria-live': 'polite' } });
  const tools = h(
    'div',
    { class: 'desk-tools' },
    h('label', null, 'Sort ', sortSelect),
    h('label', null, 'Show ', filterSelect),
    shownNote,
  );
  /** The filter offers the reasons on the cards now (and the one chosen, even when none is left). */
  function renderFilter(): void {
    const reasons = [...new Set(model.pending.map((r) => r.hold_reason))];
    if (filterBy !== '' && filterBy !== 'critical' && !reasons.includes(filterBy as Review['hold_reason']))
      reasons.push(filterBy as Review['hold_reason']);
    const options: Array<[string, string]> = [
      ['', 'All carriers'],
      ['critical', 'Critical findings only'],
      ...reasons.map((x): [string, string] => [x, `Held: ${holdReasonTerm(x).label}`]),
    ];
    const want = JSON.stringify(options);
    if (filterSelect.dataset.options !== want) {
      filterSelect.replaceChildren(...options.map(([v, label]) => h('option', { attrs: { value: v } }, label)));
      filterSelect.dataset.options = want;
    }
    filterSelect.value = filterBy;
  }
  function shownCards(): Review[] {
    renderFilter();
    const shown = sortDesk(filterDesk(model.pending, filterBy), sortBy);
    shownNote.textContent = filterBy !== '' ? `showing ${shown.length} of ${model.pending.length}` : '';
    return shown;
  }
  /** Reviews whose facts changed under a decision (409 review_stale): what the card says until decided. */
  const staleNotes = new Map<string, string>();

  async function recheck(r: Review): Promise<void> {
    const s = r.screening;
    const n = carrierNames(s);
    const carrier = n.dot ? { dot_number: n.dot } : n.mc ? { mc_number: n.mc } : null;
    if (!carrier || rechecking.has(r.id)) return;
    const off = recheckOff();
    if (off !== null) {
      toast.show(off, 'bad');
      return;
    }
    rechecking.add(r.id);
    view.render();
    toast.show(`Re-checking ${n.name}: asking the scoring service (one lookup)…`, 'info');
    try {
      const fresh = await model.recheck(carrier);
      const sc = fresh.score;
      if (!sc) {
        // No score is not good news: never green, and say what the card still shows.
        const why = fresh.error ? fresh.error.message : 'the scoring service has not answered yet';
        toast.show(`${n.name}: no fresh score (${why}). The card still shows the earlier score; decide on it or try again later.`, 'bad');
      } else {
        const same = s.score && sc.score === s.score.score && sc.grade === s.score.grade && sc.decision === s.score.decision;
        const what = `${sc.score} · grade ${sc.grade} · ${decisionTerm(sc.decision).label}`;
        toast.show(
          `${n.name} re-checked: ${what}${same ? ' (unchanged)' : ` (was ${s.score ? `${s.score.score} · ${s.score.grade}` : 'no score'})`}.`,
          'info',
        );
      }
    } catch (err) {
      toast.show(`Re-check failed: ${friendlyError(err instanceof Error ? err.message : String(err))}`, 'bad');
    } finally {
      rechecking.delete(r.id);
      view.render();
    }
  }

  /** Why a re-check cannot be asked now (no lookups left, worker unreachable); null when it can. */
  function recheckOff(): string | null {
    const st = model.status;
    if (st && quotaExhausted(st))
      return `No lookups left this month: re-check resets ${fmtLocalDay(st.quota.resets_at)}. Decide on the score shown.`;
    return model.actionsOff();
  }

  function recheckLabel(): string {
    const st = model.status;
    return st && quotaExhausted(st) ? `No lookups left · resets ${fmtLocalDay(st.quota.resets_at)}` : 'Re-check now (uses 1 lookup)';
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
      ...(openDecision
        ? {
            historyOpen: {
              label: (r: Review) => `Open the decision on ${carrierNames(r.screening).name}: its note, and revoke if it was a mistake`,
              open: openDecision,
            },
          }
        : {}),
      panel: { class: 'decision-panel', label: 'Decision', nameId: 'dispatcher-name' },
      note: { id: 'decision-note', placeholder: 'Note for the record (why you approve or reject)' },
      actions: [
        {
          mode: 'approve',
          label: 'Approve',
          key: 'a',
          buttonClass: 'btn-approve',
          question: (r) => `Approve ${carrierNames(r.screening).name} (${idLine(r.screening)})${tendersText(r)}?`,
        },
        {
          mode: 'reject',
          label: 'Reject',
          key: 'r',
          buttonClass: 'btn-reject',
          question: (r) => `Reject ${carrierNames(r.screening).name} (${idLine(r.screening)})${tendersText(r)}?`,
        },
      ],
      modeExtras: [blockLine],
      // Deciding: the reasons move up under the top bar, so the panel does not hide them.
      onStart: () => view.root.querySelector('.d-reasons-title')?.scrollIntoView({ block: 'start' }),
      draftFields: [blockBox],
      signedInAs: () => model.signedInName(),
      ...listStates(model, ['pending'], 'carriers on hold', ['decided']),
      listTools: tools,
      items: () => shownCards(),
      history: () => model.decided,
      row: (r) => {
        const s = r.screening;
        const t = triageOf(r);
        const n = carrierNames(s);
        return {
          class: `rv-item${t.critical ? ' rv-critical' : ''}`,
          dataset: { reviewId: r.id, loads: String(t.loads), rank: String(t.rank) },
          children: [
            h(
              'div',
              { class: 'rv-line1' },
              h('span', { class: 'rv-name', attrs: { title: n.name } }, n.name),
              scorePill(r.latest?.score ?? s.score),
            ),
            h('div', { class: 'rv-line2' }, [n.dot ? `DOT ${n.dot}` : null, n.mc].filter((x) => x !== null).join(' · ') || '—'),
            h(
              'div',
              { class: 'rv-why', attrs: { title: t.why } },
              t.critical ? h('strong', { class: 'crit-mark' }, `${t.worstLabel === 'Knockout' ? 'KNOCKOUT' : 'CRITICAL'}`) : null,
              t.critical ? ' ' : null,
              t.why,
            ),
            h(
              'div',
              { class: 'rv-line3' },
              h(
                'span',
                { class: `chip ${t.loads > 1 ? 'tone-warn' : 'tone-muted'} rv-loads` },
                t.loads === 0 ? 'no load waiting' : t.loads === 1 ? '1 load waiting' : `${t.loads} loads waiting`,
              ),
              t.pickup
                ? h('span', { class: 'chip tone-muted rv-pickup', attrs: { title: fmtUtc(t.pickup) } }, `pickup ${fmtLocal(t.pickup)}`)
                : null,
              r.hold_reason !== 'manual_review' ? chip(holdReasonTerm(r.hold_reason)) : null,
              r.previous_decision
                ? h('span', { class: 'chip tone-muted', attrs: { title: 'decided before; the score changed since' } }, 'reopened')
                : null,
              h('span', { class: 'rv-age', attrs: { title: fmtUtc(r.created_at) } }, `waiting ${fmtAge(r.created_at).replace(' ago', '')}`),
            ),
            loadList(r),
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
              ? h(
                  'span',
                  { class: `badge badge-ended badge-${ended.state}`, attrs: { title: `${r.state}, then ${ended.state}` } },
                  ended.state,
                )
              : h('span', { class: `badge tone-${r.state === 'approved' ? 'ok' : 'bad'}` }, r.state),
            h(
              'span',
              { class: 'rv-done-name' },
              carrierNames(r.screening).name,
              ended ? h('span', null, ' · ', h('s', null, r.state)) : null,
            ),
            h('span', { class: 'rv-done-by', attrs: { title: fmtUtc(r.decided_at) } }, `${r.decided_by ?? '?'} · ${fmtAge(r.decided_at)}`),
          ],
        };
      },
      emptyList: () =>
        model.pending.length > 0
          ? `No carrier matches "${filterSelect.selectedOptions[0]?.textContent ?? filterBy}". Choose "All carriers" to see the ${model.pending.length} waiting.`
          : 'Nothing waiting. New holds appear here as they happen.',
      emptyHistory: () => 'No decisions yet.',
      emptyDetail: () => [
        h(
          'div',
          { class: 'rv-none' },
          h('p', { class: 'big-empty' }, 'No carrier on hold.'),
          h('p', null, 'Screenings that need a person land here, live.'),
        ),
      ],
      detail: (r) =>
        screeningDetail(r, r.screening, {
          recheck: () => void recheck(r),
          rechecking: rechecking.has(r.id),
          recheckOff: recheckOff(),
          recheckLabel: recheckLabel(),
          stale: staleNotes.get(r.id) ?? null,
        }),
      idleLine: (r) =>
        r
          ? 'Decide: Approve books the carrier, Reject blocks it. The decision stands for later tenders while the score does not change.'
          : 'Nothing to decide.',
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
        model
          .takeResolvedElsewhere()
          .map(
            (gone) => `${carrierNames(gone.screening).name} was ${gone.state}${gone.decided_by ? ` by ${gone.decided_by}` : ''} elsewhere`,
          ),
    },
    toast,
  );
  return view;
}

function tendersText(r: Review): string {
  const n = triageOf(r).loads;
  return n > 1 ? ` for all ${n} waiting loads` : '';
}

// ---- pieces ----

/** The score with the service's decision in words: the colour never says it alone. */
function scorePill(score: SvcScore | null): HTMLElement {
  if (!score) return h('span', { class: 'score-pill tone-muted' }, 'no score');
  const d = decisionTerm(score.decision);
  return h(
    'span',
    { class: `score-pill tone-${d.tone}`, attrs: { title: `the scoring service says: ${d.label}` } },
    `${score.score} · ${score.grade} · ${d.label}`,
  );
}

/** "1 finding(s)" as a person writes it. */
function plainVerdict(v: string | null | undefined): string | null {
  if (!v) return null;
  return v
    .replace(/\b1 finding\(s\) needs?\b/g, '1 finding needs')
    .replace(/\b1 finding\(s\)/g, '1 finding')
    .replace(/finding\(s\)/g, 'findings');
}

function field(label: string, ...value: Child[]): HTMLElement[] {
  return [h('dt', null, label), h('dd', null, ...value)];
}

/** Everything about one held screening, most important first. */
export function screeningDetail(
  r: Review,
  s: Screening,
  actions: { recheck?: () => void; rechecking?: boolean; recheckOff?: string | null; recheckLabel?: string; stale?: string | null } = {},
): HTMLElement[] {
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
        : h(
            'div',
            { class: 'd-score tone-muted' },
            h('div', { class: 'd-score-num' }, '—'),
            h('div', { class: 'd-score-grade' }, 'no score'),
          ),
    ),
  );

  // A decision was refused because the facts moved on: say so above them, until decided again.
  if (actions.stale)
    out.push(
      h(
        'div',
        { class: 'd-stale', attrs: { role: 'status' } },
        h('strong', { class: 'd-stale-title' }, 'Facts changed — decide again'),
        h('span', null, actions.stale),
      ),
    );

  // A dispatcher decides the carrier: every tender waiting on this review (docs/decisions.md).
  // A re-check is not a load: it is listed apart and not counted.
  const loads = waitingLoads(r);
  const rechecks = (r.tenders ?? []).length - loads.length;
  const details = loads.some((t) => t.load !== null);
  if (loads.length > 1 || rechecks > 0 || details)
    out.push(
      h(
        'div',
        { class: 'd-tenders' },
        h('span', { class: 'd-k' }, loads.length === 1 ? '1 load waits on this carrier' : `${loads.length} loads wait on this carrier`),
        details
          ? h(
              'ul',
              { class: 'd-loads' },
              ...loads.map((t) =>
                h(
                  'li',
                  { class: 'd-load', dataset: { screeningId: t.screening_id } },
                  ...(t.load === null ? [t.tender_id ?? '—', h('span', { class: 'muted' }, ' · no load details')] : loadParts(t)),
                  ...customerRef(t),
                ),
              ),
            )
          : h('span', { class: 'd-tenders-list' }, loads.map((t) => t.tender_id ?? '—').join(', ')),
        rechecks > 0
          ? h('span', { class: 'muted d-rechecks' }, ` (and ${rechecks === 1 ? 'a re-check' : `${rechecks} re-checks`}, not loads)`)
          : null,
        loads.length > 1
          ? h('span', { class: 'muted' }, ' — your decision settles them all and stands for later ones while the score does not change.')
          : null,
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
        h(
          's',
          { class: 'd-previous-was', attrs: { title: 'no longer stands' } },
          `${prev.decision === 'approved' ? 'Approved' : 'Rejected'} by ${prev.decided_by} on ${fmtLocal(prev.decided_at)}`,
        ),
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
      h('span', { class: 'd-held-label' }, 'On hold because'),
      chip(held),
      held.known
        ? h('span', { class: 'd-held-hint' }, held.hint ?? '')
        : h('span', { class: 'd-held-hint' }, `hold reason "${r.hold_reason}" is new to this app`),
    ),
  );

  if (score) {
    const d = decisionTerm(score.decision);
    out.push(
      h(
        'div',
        { class: 'd-verdict' },
        h('span', { class: 'd-k' }, 'The scoring service says'),
        chip(d),
        // Said once: the "held because" line already says the service asks a person.
        score.needs_manual_review && r.hold_reason !== 'manual_review'
          ? h('span', { class: 'chip tone-warn' }, 'service asks a person to look')
          : null,
        h('span', { class: 'd-verdict-text' }, plainVerdict(score.verdict) ?? 'no verdict line'),
      ),
    );
    if (score.knockout.triggered || score.knockout.reasons.length > 0) {
      out.push(
        h(
          'div',
          { class: 'd-knockout' },
          h('h3', null, score.knockout.triggered ? 'Knockout triggered' : 'Knockout reasons'),
          h('ul', null, ...score.knockout.reasons.map((k) => h('li', null, h('code', { class: 'ko-code' }, k.code), ' ', k.message))),
        ),
      );
    }
    const checks = score.checks;
    out.push(
      h(
        'h3',
        { class: 'd-sub d-reasons-title' },
        `Reasons (${score.reasons.length})`,
        checks
          ? h(
              'span',
              { class: 'd-sub-note' },
              ` · ${checks.triggered} of ${checks.total} checks triggered, ${checks.passed} passed, ${checks.not_checked} not checked`,
            )
          : null,
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
                h(
                  'span',
                  { class: `sev-badge ${sev.tone}${sev.known ? '' : ' unknown'}`, attrs: { title: sev.hint ?? `severity ${sev.label}` } },
                  sev.label,
                ),
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
        h('p', null, s.error.message),
        s.error.request_id ? h('p', { class: 'muted' }, `request id ${s.error.request_id} (quote it to support)`) : null,
      ),
    );
  }

  const meta: HTMLElement[] = [];
  if (score) {
    const flags = score.flags ?? [];
    meta.push(...field('Flags', ...(flags.length ? flags.map((f) => chip(flagTerm(f))) : ['none'])));
    meta.push(...field('Data confidence', score.data_confidence === null ? 'not given' : fmtPercent(score.data_confidence)));
    meta.push(...field('Scoring model', score.model_version));
    meta.push(
      ...field(
        'Calculated',
        h('span', { attrs: { title: fmtUtc(score.calculated_at) } }, `${fmtLocal(score.calculated_at)} (${fmtAge(score.calculated_at)})`),
      ),
    );
  }
  const src = sourceTerm(s.source);
  meta.push(
    ...field(
      'Score source',
      chip(src),
      s.score_fetched_at
        ? h(
            'span',
            { class: 'd-age', attrs: { title: fmtUtc(s.score_fetched_at) } },
            ` fetched ${fmtAge(s.score_fetched_at)} (${fmtLocal(s.score_fetched_at)})`,
          )
        : null,
      actions.recheck
        ? h(
            'button',
            {
              class: 'btn btn-small btn-recheck',
              attrs: {
                type: 'button',
                id: 'recheck',
                disabled: actions.rechecking === true || (actions.recheckOff ?? null) !== null,
                title: actions.recheckOff ?? 'Ask the scoring service for a fresh score now, skipping the saved one',
              },
              on: { click: actions.recheck },
            },
            actions.rechecking ? 'Re-checking…' : (actions.recheckLabel ?? 'Re-check now (uses 1 lookup)'),
          )
        : null,
    ),
  );
  meta.push(
    ...field(
      'Asked',
      h('span', { attrs: { title: fmtUtc(s.created_at) } }, `${fmtLocal(s.created_at)} (${fmtAge(s.created_at)})`),
      s.priority === 'tender' ? '' : ` · ${s.priority} check, not a load`,
    ),
  );
  meta.push(...field('Held since', h('span', { attrs: { title: fmtUtc(r.created_at) } }, fmtLocal(r.created_at))));
  out.push(h('h3', { class: 'd-sub' }, 'About this score'), h('dl', { class: 'd-meta' }, ...meta));

  if (score) {
    const extra = Object.keys(score).filter((k) => !KNOWN_SCORE_FIELDS.has(k));
    if (extra.length > 0)
      out.push(
        h(
          'details',
          { class: 'd-extra' },
          h('summary', null, `More from the scoring service (${extra.length})`),
          h('dl', null, ...extra.flatMap((k) => [h('dt', null, k), h('dd', null, h('code', null, JSON.stringify(score[k])))])),
        ),
      );
  }
  return out;
}
