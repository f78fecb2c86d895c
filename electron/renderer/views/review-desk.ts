import type { Review, Screening } from '../../../shared/screening.js';
import type { SvcScore } from '../../../shared/svc-contract.js';
import { IntakeError, type ReviewVerdict } from '../../shared/bridge.js';
import { carrierNames, idLine } from '../carrier-facts.js';
import type { DeskModel } from '../desk-model.js';
import { loadDispatcherName, saveDispatcherName } from '../dispatcher-name.js';
import { h, replaceChildren, type Child } from '../dom.js';
import { fmtAge, fmtLocal, fmtPercent, fmtUtc } from '../format.js';
import { stepSelection } from '../list-navigation.js';
import type { Toaster } from '../toaster.js';
import { decisionTerm, flagTerm, holdReasonTerm, severityTerm, sortReasons, sourceTerm, type Term } from '../vocabulary.js';

/**
 * The review desk: every held screening with what a dispatcher needs to decide, and the
 * decision itself. Keyboard first: j/k move, a/r start approve/reject (the note field takes
 * focus), Enter confirms, Esc cancels. The note and name fields survive live updates.
 */

/** Fields of the score object this view shows; any other field is listed under "Other fields". */
const KNOWN_SCORE_FIELDS = new Set([
  'object', 'livemode', 'carrier', 'score', 'grade', 'decision', 'verdict', 'needs_manual_review', 'knockout',
  'reasons', 'checks', 'flags', 'data_confidence', 'model_version', 'calculated_at',
]);

type Mode = 'idle' | ReviewVerdict;

export class ReviewDeskView {
  readonly root: HTMLElement;
  private readonly listEl = h('ol', { class: 'rv-list', attrs: { role: 'listbox', 'aria-label': 'Carriers waiting for review' } });
  private readonly decidedEl = h('ol', { class: 'rv-decided' });
  private readonly detailEl = h('div', { class: 'rv-detail-body' });
  private readonly countEl = h('span', { class: 'count' });
  private readonly nameInput: HTMLInputElement;
  private readonly noteInput: HTMLTextAreaElement;
  private readonly panel: HTMLElement;
  private readonly modeLine = h('div', { class: 'dp-mode' });
  private readonly formError = h('div', { class: 'dp-error', attrs: { role: 'alert' } });
  private readonly approveBtn: HTMLButtonElement;
  private readonly rejectBtn: HTMLButtonElement;
  private readonly confirmBtn: HTMLButtonElement;
  private readonly cancelBtn: HTMLButtonElement;

  private selectedId: string | null = null;
  private mode: Mode = 'idle';
  private busy = false;

  constructor(
    private readonly model: DeskModel,
    private readonly toast: Toaster,
  ) {
    this.nameInput = h('input', {
      class: 'dp-name',
      attrs: { id: 'dispatcher-name', type: 'text', autocomplete: 'name', placeholder: 'Your name', maxlength: 80 },
      on: { change: () => this.saveName() },
    });
    this.nameInput.value = loadDispatcherName();
    this.noteInput = h('textarea', {
      class: 'dp-note',
      attrs: { id: 'decision-note', rows: 2, placeholder: 'Note for the record (why you approve or reject)', maxlength: 2000 },
    });
    this.approveBtn = h('button', { class: 'btn btn-approve', attrs: { type: 'button' }, on: { click: () => this.start('approve') } }, 'Approve', h('kbd', null, 'A'));
    this.rejectBtn = h('button', { class: 'btn btn-reject', attrs: { type: 'button' }, on: { click: () => this.start('reject') } }, 'Reject', h('kbd', null, 'R'));
    this.confirmBtn = h('button', { class: 'btn btn-confirm', attrs: { type: 'button' }, on: { click: () => void this.confirm() } }, 'Confirm', h('kbd', null, 'Enter'));
    this.cancelBtn = h('button', { class: 'btn btn-cancel', attrs: { type: 'button' }, on: { click: () => this.cancel() } }, 'Cancel', h('kbd', null, 'Esc'));

    this.panel = h(
      'form',
      { class: 'decision-panel', attrs: { 'aria-label': 'Decision' }, on: { submit: (e) => e.preventDefault() } },
      this.modeLine,
      h(
        'div',
        { class: 'dp-fields' },
        h('label', { class: 'dp-label' }, 'Dispatcher', this.nameInput),
        h('label', { class: 'dp-label dp-label-note' }, 'Note', this.noteInput),
      ),
      this.formError,
      h('div', { class: 'dp-buttons' }, this.approveBtn, this.rejectBtn, this.confirmBtn, this.cancelBtn),
    );

    this.root = h(
      'section',
      { class: 'view view-desk', attrs: { 'aria-label': 'Review desk' } },
      h(
        'aside',
        { class: 'rv-side' },
        h('h2', { class: 'side-title' }, 'Waiting for review ', this.countEl),
        this.listEl,
        h('h3', { class: 'side-sub' }, 'Recently decided'),
        this.decidedEl,
        h('p', { class: 'keys-hint' }, h('kbd', null, 'j'), h('kbd', null, 'k'), ' move · ', h('kbd', null, 'a'), ' approve · ', h('kbd', null, 'r'), ' reject · ', h('kbd', null, 'Enter'), ' confirm · ', h('kbd', null, 'Esc'), ' cancel'),
      ),
      h('div', { class: 'rv-detail' }, this.detailEl, this.panel),
    );
    this.render();
  }

  /** The review on screen, if any. */
  selected(): Review | null {
    return this.model.pending.find((r) => r.id === this.selectedId) ?? null;
  }

  select(id: string): void {
    if (this.selectedId === id) return;
    if (this.mode !== 'idle') this.cancel();
    this.selectedId = id;
    this.render();
  }

  render(): void {
    for (const gone of this.model.takeResolvedElsewhere()) {
      const who = gone.decided_by ? ` by ${gone.decided_by}` : '';
      this.toast.show(`${carrierNames(gone.screening).name} was ${gone.state}${who} elsewhere`, 'info');
    }
    const pending = this.model.pending;
    if (!pending.some((r) => r.id === this.selectedId)) {
      if (this.mode !== 'idle') this.cancel();
      // Keep the place in the list: take the one that moved into the old position.
      this.selectedId = pending[Math.min(this.lastIndex, pending.length - 1)]?.id ?? null;
    }
    this.lastIndex = Math.max(0, pending.findIndex((r) => r.id === this.selectedId));
    this.countEl.textContent = String(pending.length);
    this.renderList();
    this.renderDecided();
    this.renderDetail();
    this.renderPanel();
  }
  private lastIndex = 0;

  private renderList(): void {
    const pending = this.model.pending;
    if (pending.length === 0) {
      const err = this.model.errors.get('pending');
      replaceChildren(this.listEl, h('li', { class: 'rv-empty' }, err ? `Could not load reviews: ${err}` : 'Nothing waiting. New holds appear here as they happen.'));
      return;
    }
    replaceChildren(
      this.listEl,
      ...pending.map((r) => {
        const s = r.screening;
        const n = carrierNames(s);
        const held = holdReasonTerm(r.hold_reason);
        const selected = r.id === this.selectedId;
        return h(
          'li',
          {
            class: `rv-item${selected ? ' selected' : ''}`,
            attrs: { role: 'option', 'aria-selected': selected ? 'true' : 'false', tabindex: -1 },
            dataset: { reviewId: r.id },
            on: { click: () => this.select(r.id) },
          },
          h('div', { class: 'rv-line1' }, h('span', { class: 'rv-name' }, n.name), scorePill(s.score)),
          h('div', { class: 'rv-line2' }, idLine(s) || '—'),
          h('div', { class: 'rv-line3' }, chip(held), h('span', { class: 'rv-age', attrs: { title: fmtUtc(r.created_at) } }, `waiting ${fmtAge(r.created_at).replace(' ago', '')}`)),
        );
      }),
    );
    this.listEl.querySelector('.selected')?.scrollIntoView({ block: 'nearest' });
  }

  private renderDecided(): void {
    const decided = this.model.decided;
    if (decided.length === 0) {
      replaceChildren(this.decidedEl, h('li', { class: 'rv-empty' }, 'No decisions yet.'));
      return;
    }
    replaceChildren(
      this.decidedEl,
      ...decided.map((r) =>
        h(
          'li',
          { class: `rv-done rv-done-${r.state}`, dataset: { reviewId: r.id } },
          h('span', { class: `badge tone-${r.state === 'approved' ? 'ok' : 'bad'}` }, r.state),
          h('span', { class: 'rv-done-name' }, carrierNames(r.screening).name),
          h('span', { class: 'rv-done-by', attrs: { title: fmtUtc(r.decided_at) } }, `${r.decided_by ?? '?'} · ${fmtAge(r.decided_at)}`),
        ),
      ),
    );
  }

  private renderDetail(): void {
    const r = this.selected();
    if (!r) {
      replaceChildren(this.detailEl, h('div', { class: 'rv-none' }, h('p', { class: 'big-empty' }, 'No carrier on hold.'), h('p', null, 'Screenings that need a person land here, live.')));
      return;
    }
    replaceChildren(this.detailEl, ...screeningDetail(r, r.screening));
  }

  private renderPanel(): void {
    const r = this.selected();
    const has = r !== null;
    this.panel.className = `decision-panel mode-${this.mode}${has ? '' : ' disabled'}`;
    this.approveBtn.hidden = this.mode !== 'idle';
    this.rejectBtn.hidden = this.mode !== 'idle';
    this.confirmBtn.hidden = this.mode === 'idle';
    this.cancelBtn.hidden = this.mode === 'idle';
    this.approveBtn.disabled = !has || this.busy;
    this.rejectBtn.disabled = !has || this.busy;
    this.confirmBtn.disabled = this.busy;
    this.noteInput.disabled = !has;
    if (this.mode === 'idle') {
      this.modeLine.textContent = has ? 'Decide: Approve books the carrier, Reject blocks it.' : 'Nothing to decide.';
    } else if (r) {
      const verb = this.mode === 'approve' ? 'Approve' : 'Reject';
      const step = this.nameInput.value.trim() === '' ? 'Type your name, Enter, then a note; Enter confirms, Esc cancels.' : 'Add a note; Enter confirms, Esc cancels.';
      this.modeLine.textContent = `${verb} ${carrierNames(r.screening).name} (${idLine(r.screening)})? ${step}`;
    }
  }

  // ---- keyboard and decisions ----

  /** Keys for this view; true when handled. */
  handleKey(e: KeyboardEvent): boolean {
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const t = e.target as HTMLElement | null;
    const inField = t !== null && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA');
    if (e.key === 'Escape') {
      if (this.mode !== 'idle') this.cancel();
      else if (inField) t.blur();
      else return false;
      return true;
    }
    if (inField) {
      if (e.key === 'Enter' && !e.shiftKey && t === this.nameInput) {
        // Name first, then the note: Enter moves on (and blurs when no decision is started).
        if (this.nameInput.value.trim() === '') {
          if (this.mode !== 'idle') this.formError.textContent = 'Enter your name first: it is recorded with the decision.';
          return true;
        }
        this.saveName();
        this.formError.textContent = '';
        if (this.mode === 'idle') t.blur();
        else this.noteInput.focus();
        return true;
      }
      if (e.key === 'Enter' && !e.shiftKey && t === this.noteInput) {
        if (this.mode === 'idle') return false; // a newline in the note while no decision is started
        void this.confirm();
        return true;
      }
      return false;
    }
    switch (e.key) {
      case 'j':
      case 'ArrowDown':
        this.move(1);
        return true;
      case 'k':
      case 'ArrowUp':
        this.move(-1);
        return true;
      case 'a':
        this.start('approve');
        return true;
      case 'r':
        this.start('reject');
        return true;
      default:
        return false;
    }
  }

  private move(step: number): void {
    const next = stepSelection(this.model.pending, this.selectedId, step);
    if (next) this.select(next.id);
  }

  start(mode: ReviewVerdict): void {
    if (!this.selected()) {
      this.toast.show('Nothing to decide: no carrier is on hold.', 'info');
      return;
    }
    this.mode = mode;
    this.formError.textContent = '';
    this.renderPanel();
    (this.nameInput.value.trim() === '' ? this.nameInput : this.noteInput).focus();
  }

  cancel(): void {
    this.mode = 'idle';
    this.formError.textContent = '';
    this.renderPanel();
    (document.activeElement as HTMLElement | null)?.blur();
  }

  private saveName(): void {
    saveDispatcherName(this.nameInput.value);
  }

  /** The view is shown: take up a name typed in another view meanwhile. */
  onShow(): void {
    if (document.activeElement !== this.nameInput) this.nameInput.value = loadDispatcherName() || this.nameInput.value;
  }

  private async confirm(): Promise<void> {
    const r = this.selected();
    if (!r || this.mode === 'idle' || this.busy) return;
    const by = this.nameInput.value.trim();
    if (by === '') {
      this.formError.textContent = 'Enter your name first: it is recorded with the decision.';
      this.nameInput.focus();
      return;
    }
    this.saveName();
    const verdict = this.mode;
    this.busy = true;
    this.renderPanel();
    try {
      await this.model.decide(r.id, verdict, by, this.noteInput.value.trim());
      this.noteInput.value = '';
      this.mode = 'idle';
      this.toast.show(`${verdict === 'approve' ? 'Approved' : 'Rejected'}: ${carrierNames(r.screening).name}. Recorded for ${by}.`, 'ok');
      (document.activeElement as HTMLElement | null)?.blur();
    } catch (err) {
      if (err instanceof IntakeError && err.code === 'review_conflict') {
        this.mode = 'idle';
        this.toast.show(`${carrierNames(r.screening).name} was already decided by someone else.`, 'info');
        void this.model.load('pending');
        void this.model.load('decided');
      } else {
        this.formError.textContent = `Not recorded: ${err instanceof Error ? err.message : String(err)}`;
      }
    } finally {
      this.busy = false;
      this.render();
    }
  }
}

// ---- pieces ----

function chip(t: Term, extraClass = ''): HTMLElement {
  return h('span', { class: `chip tone-${t.tone}${t.known ? '' : ' unknown'}${extraClass}`, attrs: { title: t.hint ?? null } }, t.label);
}

function scorePill(score: SvcScore | null): HTMLElement {
  if (!score) return h('span', { class: 'score-pill tone-muted' }, 'no score');
  const d = decisionTerm(score.decision);
  return h('span', { class: `score-pill tone-${d.tone}`, attrs: { title: `decision: ${score.decision}` } }, `${score.score} · ${score.grade}`);
}

function field(label: string, ...value: Child[]): HTMLElement[] {
  return [h('dt', null, label), h('dd', null, ...value)];
}

/** Everything about one held screening, most important first. */
export function screeningDetail(r: Review, s: Screening): HTMLElement[] {
  const n = carrierNames(s);
  const score = s.score;
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

  // A dispatcher decides the carrier: every tender waiting on this review (docs/decisions.md).
  const tenders = r.tenders ?? [];
  if (tenders.length > 1)
    out.push(
      h(
        'div',
        { class: 'd-tenders' },
        h('span', { class: 'd-k' }, `${tenders.length} tenders wait on this carrier`),
        h('span', { class: 'd-tenders-list' }, tenders.map((t) => t.tender_id ?? '(no tender id)').join(', ')),
        h('span', { class: 'muted' }, ' — your decision settles them all and stands for later ones while the score does not change.'),
      ),
    );
  const prev = r.previous_decision;
  if (prev)
    out.push(
      h(
        'div',
        { class: 'd-previous' },
        h('span', { class: 'd-k' }, 'Decided before'),
        `${prev.decision === 'approved' ? 'Approved' : 'Rejected'} by ${prev.decided_by} on ${prev.decided_at.slice(0, 10)}; since then: `,
        h('strong', null, prev.changes.length ? prev.changes.join('; ') : 'revoked'),
      ),
    );

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
                ? h('dl', { class: 'facts' }, ...reason.facts.flatMap((f) => [h('dt', null, f.label), h('dd', null, f.value)]))
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
