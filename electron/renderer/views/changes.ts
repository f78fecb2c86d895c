import type { CarrierChange, CarrierSnapshot } from '../../../shared/screening.js';
import { IntakeError } from '../../shared/bridge.js';
import { changeCarrierIds, changeCarrierName, changeSummary, newKnockouts } from '../../shared/change-text.js';
import type { DeskModel } from '../desk-model.js';
import { loadDispatcherName, saveDispatcherName } from '../dispatcher-name.js';
import { h, replaceChildren, type Child } from '../dom.js';
import { fmtAge, fmtLocal, fmtUtc } from '../format.js';
import { stepSelection } from '../list-navigation.js';
import type { Toaster } from '../toaster.js';
import { actionTerm, changeReasonTerm, decisionTerm, holdReasonTerm, type Term } from '../vocabulary.js';

/**
 * Carrier changes (docs/watchlist.md): a carrier tendered in the last days that now screens
 * differently. Each shows who, why, before → after and the loads that used it; a dispatcher
 * acknowledges it under their name. Keyboard first like the review desk: j/k move, a starts
 * acknowledging (the name field takes focus when empty), Enter confirms, Esc cancels.
 */

type Mode = 'idle' | 'ack';

export class ChangesView {
  readonly root: HTMLElement;
  private readonly listEl = h('ol', { class: 'ch-list', attrs: { role: 'listbox', 'aria-label': 'Carrier changes to acknowledge' } });
  private readonly historyEl = h('ol', { class: 'ch-history' });
  private readonly detailEl = h('div', { class: 'ch-detail' });
  private readonly countEl = h('span', { class: 'count' });
  private readonly nameInput: HTMLInputElement;
  private readonly panel: HTMLElement;
  private readonly modeLine = h('div', { class: 'dp-mode' });
  private readonly formError = h('div', { class: 'dp-error', attrs: { role: 'alert' } });
  private readonly ackBtn: HTMLButtonElement;
  private readonly confirmBtn: HTMLButtonElement;
  private readonly cancelBtn: HTMLButtonElement;

  private selectedId: string | null = null;
  /** The selection was picked from the history on purpose: keep it there. */
  private fromHistory = false;
  private lastIndex = 0;
  private mode: Mode = 'idle';
  private busy = false;

  constructor(
    private readonly model: DeskModel,
    private readonly toast: Toaster,
  ) {
    this.nameInput = h('input', {
      class: 'dp-name',
      attrs: { id: 'ack-name', type: 'text', autocomplete: 'name', placeholder: 'Your name', maxlength: 80 },
      on: {
        change: () => saveDispatcherName(this.nameInput.value),
        // The question names who is acknowledging: keep it in step with the typing.
        input: () => this.mode === 'ack' && this.renderPanel(),
      },
    });
    this.nameInput.value = loadDispatcherName();
    this.ackBtn = h('button', { class: 'btn btn-ack', attrs: { type: 'button', id: 'ack-start' }, on: { click: () => this.start() } }, 'Acknowledge', h('kbd', null, 'A'));
    this.confirmBtn = h('button', { class: 'btn btn-confirm', attrs: { type: 'button' }, on: { click: () => void this.confirm() } }, 'Confirm', h('kbd', null, 'Enter'));
    this.cancelBtn = h('button', { class: 'btn btn-cancel', attrs: { type: 'button' }, on: { click: () => this.cancel() } }, 'Cancel', h('kbd', null, 'Esc'));
    this.panel = h(
      'form',
      { class: 'ack-panel', attrs: { 'aria-label': 'Acknowledge' }, on: { submit: (e) => e.preventDefault() } },
      this.modeLine,
      h('div', { class: 'ack-fields' }, h('label', { class: 'dp-label' }, 'Dispatcher', this.nameInput)),
      this.formError,
      h('div', { class: 'dp-buttons' }, this.ackBtn, this.confirmBtn, this.cancelBtn),
    );
    this.root = h(
      'section',
      { class: 'view view-changes', attrs: { 'aria-label': 'Carrier changes' } },
      h(
        'aside',
        { class: 'rv-side' },
        h('h2', { class: 'side-title' }, 'Carrier changes ', this.countEl),
        h('p', { class: 'side-note' }, 'Carriers tendered in the last days that screen differently now.'),
        this.listEl,
        h('h3', { class: 'side-sub' }, 'Acknowledged'),
        this.historyEl,
        h('p', { class: 'keys-hint' }, h('kbd', null, 'j'), h('kbd', null, 'k'), ' move · ', h('kbd', null, 'a'), ' acknowledge · ', h('kbd', null, 'Enter'), ' confirm · ', h('kbd', null, 'Esc'), ' cancel'),
      ),
      h('div', { class: 'rv-detail' }, this.detailEl, this.panel),
    );
    this.render();
  }

  /** The change on screen: a new one, or one from the history (read only). */
  selected(): CarrierChange | null {
    return this.model.changes.find((c) => c.id === this.selectedId) ?? this.model.changeHistory.find((c) => c.id === this.selectedId) ?? null;
  }

  select(id: string): void {
    if (this.selectedId === id) return;
    if (this.mode !== 'idle') this.cancel();
    this.selectedId = id;
    this.fromHistory = !this.model.changes.some((c) => c.id === id);
    this.render();
  }

  /** The view is shown: take up a name typed in another view meanwhile. */
  onShow(): void {
    if (document.activeElement !== this.nameInput) this.nameInput.value = loadDispatcherName() || this.nameInput.value;
    this.render();
  }

  render(): void {
    for (const gone of this.model.takeAcknowledgedElsewhere()) {
      const ack = this.model.changeHistory.find((c) => c.id === gone.id) ?? gone;
      const who = ack.acknowledged_by ? ` by ${ack.acknowledged_by}` : '';
      this.toast.show(`${changeCarrierName(gone)} (${changeSummary(gone)}) was acknowledged${who} elsewhere`, 'info');
    }
    const list = this.model.changes;
    const inList = list.some((c) => c.id === this.selectedId);
    if (!inList && !(this.fromHistory && this.selected())) {
      if (this.mode !== 'idle') this.cancel(); // acknowledged (here or elsewhere) while on screen
      // Keep the place in the list: take the one that moved into the old position. When the
      // list is empty keep the id: the one just acknowledged shows once the history has it.
      const next = list[Math.min(this.lastIndex, list.length - 1)];
      if (next) {
        this.selectedId = next.id;
        this.fromHistory = false;
      }
    }
    const i = list.findIndex((c) => c.id === this.selectedId);
    if (i !== -1) this.lastIndex = i;
    this.countEl.textContent = String(list.length);
    this.renderList();
    this.renderHistory();
    this.renderDetail();
    this.renderPanel();
  }

  private renderList(): void {
    const list = this.model.changes;
    if (list.length === 0) {
      const err = this.model.errors.get('changes');
      replaceChildren(
        this.listEl,
        h('li', { class: 'rv-empty' }, err ? `Could not load changes: ${err}` : 'No changes to acknowledge. A watched carrier that changes appears here, live.'),
      );
      return;
    }
    replaceChildren(
      this.listEl,
      ...list.map((c) => {
        const selected = c.id === this.selectedId;
        const after = actionTerm(c.after.action);
        return h(
          'li',
          {
            class: `ch-item ch-to-${after.tone}${selected ? ' selected' : ''}`,
            attrs: { role: 'option', 'aria-selected': selected ? 'true' : 'false', tabindex: -1 },
            dataset: { changeId: c.id },
            on: { click: () => this.select(c.id) },
          },
          h('div', { class: 'rv-line1' }, h('span', { class: 'rv-name' }, changeCarrierName(c)), chip(after)),
          h('div', { class: 'rv-line2' }, changeCarrierIds(c) || '—'),
          h(
            'div',
            { class: 'rv-line3' },
            h('span', { class: 'ch-summary' }, changeSummary(c)),
            h('span', { class: 'rv-age', attrs: { title: fmtUtc(c.detected_at) } }, fmtAge(c.detected_at)),
          ),
          c.tenders.length > 0 ? h('div', { class: 'ch-loads' }, `${c.tenders.length} ${c.tenders.length === 1 ? 'tender' : 'tenders'} used it`) : null,
        );
      }),
    );
    this.listEl.querySelector('.selected')?.scrollIntoView({ block: 'nearest' });
  }

  private renderHistory(): void {
    const done = this.model.changeHistory;
    if (done.length === 0) {
      const err = this.model.errors.get('changeHistory');
      replaceChildren(this.historyEl, h('li', { class: 'rv-empty' }, err ? `Could not load the history: ${err}` : 'Nothing acknowledged yet.'));
      return;
    }
    replaceChildren(
      this.historyEl,
      ...done.map((c) =>
        h(
          'li',
          {
            class: `rv-done ch-done${c.id === this.selectedId ? ' selected' : ''}`,
            dataset: { changeId: c.id },
            on: { click: () => this.select(c.id) },
          },
          chip(actionTerm(c.after.action)),
          h('span', { class: 'rv-done-name' }, `${changeCarrierName(c)} · ${changeSummary(c)}`),
          h('span', { class: 'rv-done-by', attrs: { title: fmtUtc(c.acknowledged_at) } }, `${c.acknowledged_by ?? '?'} · ${fmtAge(c.acknowledged_at)}`),
        ),
      ),
    );
  }

  private renderDetail(): void {
    const c = this.selected();
    if (!c) {
      replaceChildren(
        this.detailEl,
        h('div', { class: 'rv-none' }, h('p', { class: 'big-empty' }, 'No carrier changes.'), h('p', null, 'Tendered carriers are re-screened daily; a change in decision, action, knockouts or grade lands here.')),
      );
      return;
    }
    replaceChildren(this.detailEl, ...changeDetail(c));
  }

  private renderPanel(): void {
    const c = this.selected();
    const open = c !== null && c.state === 'new' && this.model.changes.some((x) => x.id === c.id);
    this.panel.className = `ack-panel mode-${this.mode}${open ? '' : ' disabled'}`;
    this.ackBtn.hidden = this.mode !== 'idle';
    this.confirmBtn.hidden = this.mode === 'idle';
    this.cancelBtn.hidden = this.mode === 'idle';
    this.ackBtn.disabled = !open || this.busy;
    this.confirmBtn.disabled = this.busy;
    if (this.mode === 'ack' && c) {
      const step = this.nameInput.value.trim() === '' ? 'Type your name; Enter confirms, Esc cancels.' : 'Enter confirms, Esc cancels.';
      this.modeLine.textContent = `Acknowledge ${changeCarrierName(c)} (${changeSummary(c)}) as ${this.nameInput.value.trim() || '…'}? ${step}`;
    } else if (c && !open) {
      this.modeLine.textContent = c.acknowledged_by
        ? `Acknowledged by ${c.acknowledged_by} ${fmtAge(c.acknowledged_at)} (${fmtLocal(c.acknowledged_at)}).`
        : 'Acknowledged.';
    } else {
      this.modeLine.textContent = c
        ? 'Seen it and dealt with the loads? Acknowledge records your name and moves it to the history.'
        : 'Nothing to acknowledge.';
    }
  }

  // ---- keyboard and acknowledging ----

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
    if (e.key === 'Enter' && !e.shiftKey) {
      if (inField && t !== this.nameInput) return false;
      if (inField) saveDispatcherName(this.nameInput.value);
      if (this.mode === 'ack') void this.confirm();
      else if (inField) t.blur();
      else return false;
      return true;
    }
    if (inField) return false;
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
        this.start();
        return true;
      default:
        return false;
    }
  }

  private move(step: number): void {
    const next = stepSelection(this.model.changes, this.selectedId, step);
    if (next) this.select(next.id);
  }

  start(): void {
    const c = this.selected();
    if (!c) {
      this.toast.show('Nothing to acknowledge: no carrier changes.', 'info');
      return;
    }
    if (!this.model.changes.some((x) => x.id === c.id)) {
      this.toast.show(`Already acknowledged${c.acknowledged_by ? ` by ${c.acknowledged_by}` : ''}.`, 'info');
      return;
    }
    this.mode = 'ack';
    this.formError.textContent = '';
    this.renderPanel();
    if (this.nameInput.value.trim() === '') this.nameInput.focus();
    else (document.activeElement as HTMLElement | null)?.blur();
  }

  cancel(): void {
    this.mode = 'idle';
    this.formError.textContent = '';
    this.renderPanel();
    (document.activeElement as HTMLElement | null)?.blur();
  }

  private async confirm(): Promise<void> {
    const c = this.selected();
    if (!c || this.mode === 'idle' || this.busy) return;
    const by = this.nameInput.value.trim();
    if (by === '') {
      this.formError.textContent = 'Enter your name first: it is recorded with the acknowledgement.';
      this.nameInput.focus();
      return;
    }
    saveDispatcherName(by);
    this.busy = true;
    this.renderPanel();
    try {
      await this.model.acknowledge(c.id, by);
      this.mode = 'idle';
      this.toast.show(`Acknowledged: ${changeCarrierName(c)} (${changeSummary(c)}). Recorded for ${by}.`, 'ok');
      (document.activeElement as HTMLElement | null)?.blur();
    } catch (err) {
      if (err instanceof IntakeError && err.code === 'change_conflict') {
        this.mode = 'idle';
        await Promise.all([this.model.load('changes'), this.model.load('changeHistory')]);
        const who = this.model.changeHistory.find((x) => x.id === c.id)?.acknowledged_by;
        this.toast.show(`${changeCarrierName(c)}: someone else acknowledged this change already${who ? ` (${who})` : ''}. The list is refreshed.`, 'info');
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

function codes(list: readonly string[], fresh: readonly string[] = []): Child {
  if (list.length === 0) return h('span', { class: 'muted' }, 'none');
  return h('span', { class: 'ko-codes' }, ...list.map((k) => h('code', { class: `ko-code${fresh.includes(k) ? ' ko-new' : ''}`, attrs: { title: fresh.includes(k) ? 'new' : null } }, k)));
}

interface Row {
  label: string;
  before: Child;
  after: Child;
  changed: boolean;
}

function snapshotRows(b: CarrierSnapshot, a: CarrierSnapshot, fresh: readonly string[]): Row[] {
  const num = (n: number | null): string => (n === null ? '—' : String(n));
  const rows: Row[] = [
    { label: 'Action', before: chip(actionTerm(b.action)), after: chip(actionTerm(a.action)), changed: b.action !== a.action },
    { label: 'Decision', before: chip(decisionTerm(b.decision)), after: chip(decisionTerm(a.decision)), changed: b.decision !== a.decision },
    { label: 'Grade', before: b.grade ?? '—', after: a.grade ?? '—', changed: b.grade !== a.grade },
    { label: 'Score', before: num(b.score), after: num(a.score), changed: b.score !== a.score },
    {
      label: 'Knockouts',
      before: codes(b.knockout_codes),
      after: codes(a.knockout_codes, fresh),
      changed: b.knockout_codes.join() !== a.knockout_codes.join(),
    },
  ];
  if (b.hold_reason !== null || a.hold_reason !== null)
    rows.push({
      label: 'Held because',
      before: b.hold_reason ? chip(holdReasonTerm(b.hold_reason)) : '—',
      after: a.hold_reason ? chip(holdReasonTerm(a.hold_reason)) : '—',
      changed: b.hold_reason !== a.hold_reason,
    });
  rows.push(
    { label: 'Model', before: h('code', null, b.model_version), after: h('code', null, a.model_version), changed: b.model_version !== a.model_version },
    {
      label: 'Scored',
      before: h('span', { attrs: { title: fmtUtc(b.fetched_at) } }, fmtLocal(b.fetched_at)),
      after: h('span', { attrs: { title: fmtUtc(a.fetched_at) } }, fmtLocal(a.fetched_at)),
      changed: false,
    },
    { label: 'Screening', before: h('code', null, b.screening_id), after: h('code', null, a.screening_id), changed: false },
  );
  return rows;
}

/** Everything about one change, most important first. */
export function changeDetail(c: CarrierChange): HTMLElement[] {
  const after = actionTerm(c.after.action);
  const fresh = newKnockouts(c);
  const out: HTMLElement[] = [];

  out.push(
    h(
      'header',
      { class: 'd-head' },
      h(
        'div',
        { class: 'd-names' },
        h('h2', { class: 'd-legal' }, changeCarrierName(c)),
        h(
          'div',
          { class: 'd-ids' },
          h('span', { class: 'id' }, 'DOT ', h('strong', null, c.dot_number ?? '—')),
          // MC numbers name themselves ("MC123456"); the label only for the odd one that does not.
          h('span', { class: 'id' }, c.mc_number?.toUpperCase().startsWith('MC') ? null : 'MC ', h('strong', null, c.mc_number ?? '—')),
          h('span', { class: 'id ch-when', attrs: { title: fmtUtc(c.detected_at) } }, 'Changed ', h('strong', null, `${fmtLocal(c.detected_at)} (${fmtAge(c.detected_at)})`)),
        ),
      ),
      h(
        'div',
        { class: `d-score ch-now tone-${after.tone}` },
        h('div', { class: 'ch-now-label' }, 'now'),
        h('div', { class: 'd-score-num ch-now-action' }, after.label),
        h('div', { class: 'd-score-grade' }, `was ${actionTerm(c.before.action).label}`),
      ),
    ),
  );

  out.push(
    h(
      'div',
      { class: 'ch-why' },
      h('span', { class: 'd-held-label' }, 'Why'),
      ...(c.reasons.length > 0 ? c.reasons.map((r) => chip(changeReasonTerm(r))) : [h('span', { class: 'muted' }, 'no reason given')]),
      h('span', { class: 'ch-summary-big' }, changeSummary(c)),
    ),
  );

  const rows = snapshotRows(c.before, c.after, fresh);
  out.push(
    h('h3', { class: 'd-sub' }, 'Before → after'),
    h(
      'table',
      { class: 'ch-compare' },
      h('thead', null, h('tr', null, h('th', null, ''), h('th', null, 'Before'), h('th', { class: 'ch-arrow' }, ''), h('th', null, 'After'))),
      h(
        'tbody',
        null,
        ...rows.map((r) =>
          h(
            'tr',
            { class: r.changed ? 'changed' : '' },
            h('th', { attrs: { scope: 'row' } }, r.label),
            h('td', null, r.before),
            h('td', { class: 'ch-arrow' }, r.changed ? '→' : ''),
            h('td', null, r.after),
          ),
        ),
      ),
    ),
  );

  out.push(h('h3', { class: 'd-sub' }, `Tenders that used this carrier (${c.tenders.length})`));
  if (c.tenders.length === 0) out.push(h('p', { class: 'muted' }, 'No tender in the watch window used this carrier.'));
  else
    out.push(
      h(
        'table',
        { class: 'ch-tenders screenings' },
        h('thead', null, h('tr', null, h('th', null, 'Tender'), h('th', null, 'Screening'), h('th', null, 'Screened'))),
        h(
          'tbody',
          null,
          ...c.tenders.map((t) =>
            h(
              'tr',
              null,
              h('td', { class: 'cell-name' }, t.tender_id),
              h('td', null, h('code', null, t.screening_id)),
              h('td', { attrs: { title: fmtUtc(t.screened_at) } }, `${fmtLocal(t.screened_at)} (${fmtAge(t.screened_at)})`),
            ),
          ),
        ),
      ),
    );

  const meta: HTMLElement[] = [
    h('dt', null, 'Seen by screening'),
    h('dd', null, h('code', null, c.screening_id)),
    h('dt', null, 'Change'),
    h('dd', null, h('code', null, c.id)),
  ];
  if (c.state === 'acknowledged')
    meta.push(h('dt', null, 'Acknowledged'), h('dd', { attrs: { title: fmtUtc(c.acknowledged_at) } }, `by ${c.acknowledged_by ?? '?'}, ${fmtLocal(c.acknowledged_at)} (${fmtAge(c.acknowledged_at)})`));
  out.push(h('h3', { class: 'd-sub' }, 'About this change'), h('dl', { class: 'd-meta' }, ...meta));
  return out;
}
