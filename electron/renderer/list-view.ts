import { loadDispatcherName, saveDispatcherName } from './dispatcher-name.js';
import { h, replaceChildren, type Child } from './dom.js';
import { Drafts, fillFields, readFields } from './drafts.js';
import { stepSelection } from './list-navigation.js';
import type { Toaster } from './toaster.js';
import type { LoadState } from './desk-model.js';

/**
 * The skeleton the desk's list views share (review desk, carrier changes, decisions): a list of
 * open items, a history under it, the selected item's detail, and a panel where a person starts
 * an action, types their name (remembered; only when the token has none) and maybe a note, and
 * confirms. Keyboard first: j/k move, an action's key starts it, Enter moves from the name to the
 * note and then confirms, Esc cancels. The note and a view's draft fields belong to the selected
 * item: kept per item across moves and live updates, cleared when it is decided. A view supplies
 * only what differs.
 */

/** Who acts: the signed-in token's name, or a name typed on this machine (the token has none). */
export interface Who {
  name: string;
  typed: boolean;
}

/** What a refused action leaves: a toast (the item is done elsewhere), or a notice on the panel (decide again). */
export type ConflictOutcome = string | { notice: string } | null;

export interface ListRow {
  class: string;
  dataset: Record<string, string>;
  children: Child[];
}

export interface ListAction<T> {
  /** Also the panel's `mode-<mode>` class while it is being confirmed. */
  mode: string;
  label: string;
  /** The key that starts it (one letter). */
  key: string;
  buttonClass: string;
  buttonId?: string;
  /** The question while confirming; `by` is the name typed so far. */
  question(item: T, by: string): string;
}

export interface ListViewSpec<T extends { id: string }> {
  /** `view-<view>` on the section. */
  view: string;
  label: string;
  title: string;
  sideNote?: string;
  list: { class: string; label: string };
  historyTitle: string;
  historyClass: string;
  /** A history item can be selected to read it (read only). */
  historySelectable: boolean;
  /** Instead: a history item opens elsewhere (e.g. a decided review opens its decision); its row is a button. */
  historyOpen?: { label(item: T): string; open(item: T): void };
  panel: { class: string; label: string; nameId: string };
  /** A note field, when the actions take one. */
  note?: { id: string; placeholder: string; maxLength?: number };
  actions: readonly ListAction<T>[];
  /** Panel controls shown only while confirming the action named by their `data-mode`. */
  modeExtras?: readonly HTMLElement[];
  /** Fields kept per item with the note (e.g. the "also block" box). */
  draftFields?: readonly HTMLInputElement[];
  /** The signed-in token's name (GET /me); null: the token has none, a name is typed. */
  signedInAs(): string | null;
  /** Put under the lists (e.g. an export form). */
  sideExtras?: Child;
  /** Put above the list (e.g. sort and filter controls). */
  listTools?: Child;
  /** Whether the open items were read: loading shows a skeleton, failed an error with Retry, never "nothing here". */
  loadState?(): LoadState;
  /** The failure in words, while failed. */
  loadError?(): string | null;
  /** The same for the history under the list: "loading" or "could not load", never "none yet". */
  historyLoadState?(): LoadState;
  /**
   * The history is one page: a "Show older" button reads the next from its cursor and appends it
   * (how many it added is announced). `what` names the items ("ended decisions").
   */
  historyMore?: { more(): boolean; load(): Promise<number>; what: string };
  /** Read the lists again (the Retry button). */
  retry?(): void;
  /** The lists are what was last read, not live (the worker is unreachable): counts are marked. */
  stale?(): string | null;
  /** Why no action may start now (worker unreachable, token refused), in words that say what to do. */
  actionsOff?(): string | null;
  /** An action was started: e.g. bring what it is decided on into sight above the panel. */
  onStart?(mode: string): void;
  /** What the open items are, for "Loading …" and "Could not load …" ("carriers on hold"). */
  what: string;
  items(): readonly T[];
  history(): readonly T[];
  row(item: T): ListRow;
  historyRow(item: T): ListRow;
  emptyList(): string;
  emptyHistory(): string;
  emptyDetail(): Child[];
  detail(item: T): Child[];
  /** The panel's line while no action is being confirmed. */
  idleLine(item: T | null, actionable: boolean): string;
  /** Toast text when there is nothing to act on. */
  nothingToAct: string;
  /** Toast text when the selected item is history. */
  alreadyDone(item: T): string;
  /** Do it; resolves to the toast text. */
  perform(mode: string, item: T, who: Who, note: string): Promise<string>;
  /**
   * Refused for a reason the view knows: someone else was first (refresh, and the toast text), or
   * the facts changed (refresh, and a notice: decide again); null when `err` is not one of those.
   */
  conflict(err: unknown, item: T): Promise<ConflictOutcome>;
  /** Things done elsewhere since the last render, to tell as toasts. */
  doneElsewhere(): string[];
  /** Whose name is asked, for the error when it is missing ("the decision"). */
  recordName: string;
}

export class ListView<T extends { id: string }> {
  readonly root: HTMLElement;
  private readonly listEl: HTMLElement;
  private readonly historyEl: HTMLElement;
  private readonly detailEl: HTMLElement;
  private readonly countEl = h('span', { class: 'count' });
  private readonly staleEl = h('span', { class: 'stale-mark' });
  /** Loading skeleton or the failure with Retry: in place of the list, never an empty list. */
  private readonly stateEl = h('div', { class: 'list-state' });
  private readonly nameInput: HTMLInputElement;
  /** "Show older" under the history, and where what it added is announced. */
  private readonly olderBtn: HTMLButtonElement | null;
  private readonly olderStatus = h('p', { class: 'sr-only history-more-status', attrs: { role: 'status', 'aria-live': 'polite' } });
  private olderBusy = false;
  private readonly noteInput: HTMLTextAreaElement | null;
  private readonly panel: HTMLElement;
  private readonly modeLine: HTMLElement;
  private readonly formError = h('div', { class: 'dp-error', attrs: { role: 'alert' } });
  /** Why nothing was recorded and what to do (the facts changed): stays until the next action or move. */
  private readonly noticeEl = h('div', { class: 'dp-notice', attrs: { role: 'alert' } });
  private readonly nameLabel: HTMLElement;
  private readonly signedInName = h('strong', { class: 'dp-signed-in-name' });
  private readonly signedInEl = h(
    'div',
    { class: 'dp-label dp-signed-in' },
    'Dispatcher',
    this.signedInName,
    h('span', { class: 'dp-signed-in-hint' }, "this desk's token: recorded with what you decide"),
  );
  private readonly drafts = new Drafts();
  private readonly draftFields: ReadonlyArray<HTMLInputElement | HTMLTextAreaElement>;
  private readonly startButtons: HTMLButtonElement[];
  private readonly confirmBtn: HTMLButtonElement;
  private readonly cancelBtn: HTMLButtonElement;

  private selectedId: string | null = null;
  /** The selection was picked from the history on purpose: keep it there. */
  private fromHistory = false;
  private lastIndex = 0;
  private mode: string | null = null;
  private busy = false;

  constructor(
    private readonly spec: ListViewSpec<T>,
    private readonly toast: Toaster,
  ) {
    this.detailEl = h('div', { class: `rv-detail-body ${spec.view}-detail` });
    // The question is announced when it appears and describes the note it asks for.
    this.modeLine = h('div', { class: 'dp-mode', attrs: { id: `${spec.view}-question`, 'aria-live': 'polite' } });
    // One tab stop; the selected option is announced through aria-activedescendant.
    this.listEl = h('ol', {
      class: spec.list.class,
      attrs: { role: 'listbox', 'aria-label': spec.list.label, tabindex: 0 },
    });
    this.historyEl = h('ol', { class: spec.historyClass });
    this.olderBtn = spec.historyMore
      ? h(
          'button',
          { class: 'btn btn-older', attrs: { type: 'button', id: `${spec.view}-show-older` }, on: { click: () => void this.showOlder() } },
          'Show older',
        )
      : null;
    this.nameInput = h('input', {
      class: 'dp-name',
      attrs: { id: spec.panel.nameId, type: 'text', autocomplete: 'name', placeholder: 'Your name', maxlength: 80 },
      on: {
        change: () => saveDispatcherName(this.nameInput.value),
        // The question names who is acting: keep it in step with the typing.
        input: () => this.mode !== null && this.renderPanel(),
      },
    });
    this.nameInput.value = loadDispatcherName();
    this.noteInput = spec.note
      ? h('textarea', {
          class: 'dp-note',
          attrs: {
            id: spec.note.id,
            rows: 2,
            placeholder: spec.note.placeholder,
            maxlength: spec.note.maxLength ?? 2000,
            'aria-describedby': `${spec.view}-question`,
          },
        })
      : null;
    this.draftFields = [...(this.noteInput ? [this.noteInput] : []), ...(spec.draftFields ?? [])];
    this.nameLabel = h('label', { class: 'dp-label' }, 'Dispatcher', this.nameInput);
    this.startButtons = spec.actions.map((a) =>
      h(
        'button',
        { class: `btn ${a.buttonClass}`, attrs: { type: 'button', id: a.buttonId ?? null }, on: { click: () => this.start(a.mode) } },
        a.label,
        h('kbd', null, a.key.toUpperCase()),
      ),
    );
    this.confirmBtn = h(
      'button',
      { class: 'btn btn-confirm', attrs: { type: 'button' }, on: { click: () => void this.confirm() } },
      'Confirm',
      h('kbd', null, 'Enter'),
    );
    this.cancelBtn = h(
      'button',
      { class: 'btn btn-cancel', attrs: { type: 'button' }, on: { click: () => this.cancel() } },
      'Cancel',
      h('kbd', null, 'Esc'),
    );

    this.panel = h(
      'form',
      { class: spec.panel.class, attrs: { 'aria-label': spec.panel.label }, on: { submit: (e) => e.preventDefault() } },
      this.modeLine,
      this.noticeEl,
      h(
        'div',
        { class: 'dp-fields' },
        this.nameLabel,
        this.signedInEl,
        this.noteInput ? h('label', { class: 'dp-label dp-label-note' }, 'Note', this.noteInput) : null,
      ),
      ...(spec.modeExtras ?? []),
      this.formError,
      h('div', { class: 'dp-buttons' }, ...this.startButtons, this.confirmBtn, this.cancelBtn),
    );

    const keys: Child[] = [h('kbd', null, 'j'), h('kbd', null, 'k'), ' move'];
    for (const a of spec.actions) keys.push(' · ', h('kbd', null, a.key), ` ${a.label.toLowerCase()}`);
    keys.push(' · ', h('kbd', null, 'Enter'), ' confirm · ', h('kbd', null, 'Esc'), ' cancel');
    this.root = h(
      'section',
      { class: `view view-${spec.view}`, attrs: { 'aria-label': spec.label } },
      h(
        'aside',
        { class: 'rv-side' },
        h('h2', { class: 'side-title' }, `${spec.title} `, this.countEl, this.staleEl),
        spec.sideNote ? h('p', { class: 'side-note' }, spec.sideNote) : null,
        spec.listTools ?? null,
        this.stateEl,
        this.listEl,
        h('h3', { class: 'side-sub' }, spec.historyTitle),
        this.historyEl,
        this.olderBtn,
        this.olderBtn ? this.olderStatus : null,
        h('p', { class: 'keys-hint' }, ...keys),
        spec.sideExtras ?? null,
      ),
      h('div', { class: 'rv-detail' }, this.detailEl, this.panel),
    );
    this.render();
  }

  /** The item on screen: an open one, or (where allowed) one from the history. */
  selected(): T | null {
    const id = this.selectedId;
    return (
      this.spec.items().find((x) => x.id === id) ??
      (this.spec.historySelectable ? this.spec.history().find((x) => x.id === id) : undefined) ??
      null
    );
  }

  private actionable(item: T | null): boolean {
    return item !== null && this.spec.items().some((x) => x.id === item.id);
  }

  select(id: string): void {
    if (this.selectedId === id) return;
    if (this.mode !== null) this.cancel();
    this.moveTo(id);
    this.fromHistory = !this.spec.items().some((x) => x.id === id);
    this.render();
  }

  /**
   * The selection moves: what was typed about the old item is put away under it (while it is
   * still open) and the new item's own draft comes back, so a note never rides on to another one.
   */
  private moveTo(id: string | null): void {
    if (id === this.selectedId) return;
    const old = this.selectedId;
    if (old !== null && this.spec.items().some((x) => x.id === old)) this.drafts.put(old, readFields(this.draftFields));
    else if (old !== null) this.drafts.drop(old);
    this.selectedId = id;
    fillFields(this.draftFields, id === null ? undefined : this.drafts.get(id));
    this.noticeEl.textContent = '';
  }

  /** The token's name when it has one, else the typed name. */
  private who(): Who {
    const signed = this.spec.signedInAs();
    return signed !== null ? { name: signed, typed: false } : { name: this.nameInput.value.trim(), typed: true };
  }

  /** The view is shown: take up a name typed in another view meanwhile. */
  onShow(): void {
    if (this.mode === null) this.noticeEl.textContent = '';
    if (document.activeElement !== this.nameInput) this.nameInput.value = loadDispatcherName() || this.nameInput.value;
    this.render();
  }

  render(): void {
    for (const text of this.spec.doneElsewhere()) this.toast.show(text, 'info');
    const list = this.spec.items();
    this.drafts.keepOnly(list.map((x) => x.id));
    if (!list.some((x) => x.id === this.selectedId) && !(this.fromHistory && this.selected())) {
      if (this.mode !== null) this.cancel(); // done (here or elsewhere) while on screen
      // What was typed was about the item that is gone: never let it ride on to the next one.
      fillFields(this.draftFields, undefined);
      // Keep the place in the list: take the one that moved into the old position. When the
      // list is empty keep the id: the one just done shows once the history has it.
      const next = list[Math.min(this.lastIndex, list.length - 1)];
      if (next) {
        this.moveTo(next.id);
        this.fromHistory = false;
      }
    }
    const i = list.findIndex((x) => x.id === this.selectedId);
    if (i !== -1) this.lastIndex = i;
    const state = this.spec.loadState?.() ?? 'ready';
    this.countEl.textContent = state === 'loading' ? '…' : state === 'failed' && list.length === 0 ? '?' : String(list.length);
    this.countEl.title = state === 'loading' ? `loading ${this.spec.what}` : state === 'failed' ? `could not load ${this.spec.what}` : '';
    const stale = this.spec.stale?.() ?? null;
    this.staleEl.textContent = stale ?? '';
    this.staleEl.hidden = stale === null;
    this.renderState(state);
    this.renderList();
    this.renderHistory();
    const item = this.selected();
    replaceChildren(
      this.detailEl,
      ...(item ? this.spec.detail(item) : state === 'ready' ? this.spec.emptyDetail() : this.stateDetail(state)),
    );
    this.renderPanel();
  }

  /** Loading: skeleton rows. Failed: what failed and a Retry, in place of "nothing here". */
  private renderState(state: LoadState): void {
    const empty = this.spec.items().length === 0;
    if (state === 'loading') {
      replaceChildren(
        this.stateEl,
        h('p', { class: 'sr-only', attrs: { role: 'status' } }, `Loading ${this.spec.what}…`),
        ...[0, 1, 2].map(() =>
          h(
            'div',
            { class: 'skeleton-row', attrs: { 'aria-hidden': 'true' } },
            h('span', { class: 'sk-line sk-wide' }),
            h('span', { class: 'sk-line' }),
          ),
        ),
      );
      this.stateEl.setAttribute('aria-busy', 'true');
    } else if (state === 'failed') {
      const err = this.spec.loadError?.() ?? 'no answer';
      replaceChildren(
        this.stateEl,
        h(
          'div',
          { class: 'load-failed', attrs: { role: 'alert' } },
          h(
            'strong',
            null,
            empty ? `Could not load ${this.spec.what}.` : `Could not refresh ${this.spec.what}: this list may be out of date.`,
          ),
          h('span', { class: 'load-failed-why' }, ` ${friendlyError(err)}`),
          h('button', { class: 'btn btn-small btn-retry', attrs: { type: 'button' }, on: { click: () => this.spec.retry?.() } }, 'Retry'),
        ),
      );
      this.stateEl.removeAttribute('aria-busy');
    } else {
      replaceChildren(this.stateEl);
      this.stateEl.removeAttribute('aria-busy');
    }
    this.stateEl.hidden = state === 'ready';
    this.listEl.hidden = state === 'loading' || (state === 'failed' && empty);
  }

  /** The detail while the list is not known: never "nothing here". */
  private stateDetail(state: LoadState): Child[] {
    if (state === 'loading')
      return [
        h(
          'div',
          { class: 'rv-none', attrs: { 'aria-busy': 'true' } },
          h('p', { class: 'big-empty' }, `Loading ${this.spec.what}…`),
          h('div', { class: 'skeleton-block', attrs: { 'aria-hidden': 'true' } }),
        ),
      ];
    return [
      h(
        'div',
        { class: 'rv-none rv-failed' },
        h('p', { class: 'big-empty' }, `Could not load ${this.spec.what}.`),
        h('p', null, 'This does not mean there are none. Retry; if it keeps failing, the worker may be down: tell whoever runs it.'),
        h('button', { class: 'btn btn-retry', attrs: { type: 'button' }, on: { click: () => this.spec.retry?.() } }, 'Retry'),
      ),
    ];
  }

  private optionId(id: string): string {
    return `${this.spec.view}-opt-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  }

  private renderList(): void {
    const list = this.spec.items();
    this.listEl.removeAttribute('aria-activedescendant');
    if (list.length === 0) {
      replaceChildren(
        this.listEl,
        h('li', { class: 'rv-empty', attrs: { role: 'option', 'aria-disabled': 'true', 'aria-selected': 'false' } }, this.spec.emptyList()),
      );
      return;
    }
    replaceChildren(
      this.listEl,
      ...list.map((item) => {
        const row = this.spec.row(item);
        const selected = item.id === this.selectedId;
        return h(
          'li',
          {
            class: `${row.class}${selected ? ' selected' : ''}`,
            attrs: { role: 'option', id: this.optionId(item.id), 'aria-selected': selected ? 'true' : 'false' },
            dataset: row.dataset,
            on: { click: () => this.select(item.id) },
          },
          ...row.children,
        );
      }),
    );
    if (list.some((x) => x.id === this.selectedId) && this.selectedId !== null)
      this.listEl.setAttribute('aria-activedescendant', this.optionId(this.selectedId));
    this.listEl.querySelector('.selected')?.scrollIntoView({ block: 'nearest' });
  }

  /** The next page of the history, appended; what it added is said in the live region. */
  private async showOlder(): Promise<void> {
    const more = this.spec.historyMore;
    if (!more || this.olderBusy || !more.more()) return;
    this.olderBusy = true;
    this.renderOlder();
    try {
      const added = await more.load();
      this.olderStatus.textContent =
        added === 0 ? `No older ${more.what}.` : `${added} older ${more.what} shown${more.more() ? '' : ', all of them now'}.`;
    } catch (err) {
      this.olderStatus.textContent = `Could not load older ${more.what}. ${friendlyError(err instanceof Error ? err.message : String(err))}`;
    } finally {
      this.olderBusy = false;
      this.render();
    }
  }

  /** Shown while older items exist; kept (saying so) while it has the focus, so the focus is not lost. */
  private renderOlder(): void {
    const btn = this.olderBtn;
    const more = this.spec.historyMore;
    if (!btn || !more) return;
    const has = more.more();
    const focused = document.activeElement === btn;
    btn.hidden = !has && !focused;
    btn.textContent = this.olderBusy ? 'Loading older…' : has ? 'Show older' : `No older ${more.what}`;
    btn.setAttribute('aria-disabled', this.olderBusy || !has ? 'true' : 'false');
  }

  private renderHistory(): void {
    this.renderOlder();
    const done = this.spec.history();
    if (done.length === 0) {
      const state = this.spec.historyLoadState?.() ?? 'ready';
      const text =
        state === 'loading'
          ? 'Loading…'
          : state === 'failed'
            ? 'Could not load this list. It is read again when the worker answers.'
            : this.spec.emptyHistory();
      replaceChildren(this.historyEl, h('li', { class: `rv-empty${state === 'failed' ? ' rv-empty-failed' : ''}` }, text));
      return;
    }
    const selectable = this.spec.historySelectable;
    const opens = selectable ? undefined : this.spec.historyOpen;
    replaceChildren(
      this.historyEl,
      ...done.map((item) => {
        const row = this.spec.historyRow(item);
        return h(
          'li',
          {
            class: `${row.class}${selectable && item.id === this.selectedId ? ' selected' : ''}${opens ? ' rv-done-opens' : ''}`,
            dataset: row.dataset,
            on: selectable ? { click: () => this.select(item.id) } : {},
          },
          // A row that opens elsewhere is a real button: a click, Enter or Space opens it.
          ...(opens
            ? [
                h(
                  'button',
                  { class: 'rv-done-open', attrs: { type: 'button', title: opens.label(item) }, on: { click: () => opens.open(item) } },
                  ...row.children,
                ),
              ]
            : row.children),
        );
      }),
    );
  }

  private renderPanel(): void {
    const item = this.selected();
    const open = this.actionable(item);
    const confirming = this.mode !== null;
    const off = this.spec.actionsOff?.() ?? null;
    this.panel.className = `${this.spec.panel.class} mode-${this.mode ?? 'idle'}${open && off === null ? '' : ' disabled'}${off !== null ? ' offline' : ''}`;
    for (const b of this.startButtons) {
      b.hidden = confirming;
      b.disabled = !open || this.busy || off !== null;
    }
    this.confirmBtn.hidden = !confirming;
    this.cancelBtn.hidden = !confirming;
    this.confirmBtn.disabled = this.busy || off !== null;
    if (this.noteInput) this.noteInput.disabled = !open;
    for (const el of this.spec.modeExtras ?? []) el.hidden = el.dataset.mode !== this.mode;
    const signed = this.spec.signedInAs();
    this.nameLabel.hidden = signed !== null;
    this.signedInEl.hidden = signed === null;
    this.signedInName.textContent = signed ?? '';
    const action = this.spec.actions.find((a) => a.mode === this.mode);
    if (off !== null && item) {
      this.modeLine.textContent = off;
    } else if (action && item) {
      const by = this.who().name;
      const step = by === '' ? 'Type your name, Enter' : this.noteInput ? 'Add a note' : '';
      const rest = `${step ? `${step}; ` : ''}Enter confirms, Esc cancels.`;
      this.modeLine.textContent = `${action.question(item, by || '…')} ${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
    } else {
      this.modeLine.textContent = this.spec.idleLine(item, open);
    }
  }

  // ---- keyboard and actions ----

  /** Keys for this view; true when handled. */
  handleKey(e: KeyboardEvent): boolean {
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const t = e.target as HTMLElement | null;
    const inField = t !== null && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');
    if (e.key === 'Escape') {
      if (this.mode !== null) this.cancel();
      else if (inField) t.blur();
      else return false;
      return true;
    }
    if (inField) {
      if (e.key !== 'Enter' || e.shiftKey) return false;
      if (t === this.nameInput) {
        // Name first, then the note: Enter moves on (or confirms when there is no note).
        if (this.nameInput.value.trim() === '') {
          if (this.mode !== null) this.formError.textContent = `Enter your name first: it is recorded with ${this.spec.recordName}.`;
          return true;
        }
        saveDispatcherName(this.nameInput.value);
        this.formError.textContent = '';
        if (this.mode === null) t.blur();
        else if (this.noteInput) this.noteInput.focus();
        else void this.confirm();
        return true;
      }
      if (t === this.noteInput && this.mode !== null) {
        void this.confirm();
        return true;
      }
      return false; // a newline in the note while nothing is started; other fields keep their keys
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
      case 'Enter':
        if (this.mode === null) return false;
        void this.confirm();
        return true;
      default: {
        const action = this.spec.actions.find((a) => a.key === e.key);
        if (!action) return false;
        this.start(action.mode);
        return true;
      }
    }
  }

  private move(step: number): void {
    const next = stepSelection(this.spec.items(), this.selectedId, step);
    if (next) this.select(next.id);
  }

  start(mode: string): void {
    const item = this.selected();
    if (!item) {
      this.toast.show(this.spec.nothingToAct, 'info');
      return;
    }
    if (!this.actionable(item)) {
      this.toast.show(this.spec.alreadyDone(item), 'info');
      return;
    }
    const off = this.spec.actionsOff?.() ?? null;
    if (off !== null) {
      this.toast.show(off, 'bad');
      return;
    }
    this.mode = mode;
    this.formError.textContent = '';
    this.noticeEl.textContent = '';
    this.renderPanel();
    this.spec.onStart?.(mode);
    if (this.who().name === '') this.nameInput.focus();
    else if (this.noteInput) this.noteInput.focus();
    else (document.activeElement as HTMLElement | null)?.blur();
  }

  cancel(): void {
    this.mode = null;
    this.formError.textContent = '';
    this.renderPanel();
    (document.activeElement as HTMLElement | null)?.blur();
  }

  private async confirm(): Promise<void> {
    const item = this.selected();
    const mode = this.mode;
    if (!item || mode === null || this.busy) return;
    const off = this.spec.actionsOff?.() ?? null;
    if (off !== null) {
      this.formError.textContent = off;
      return;
    }
    const who = this.who();
    if (who.name === '') {
      this.formError.textContent = `Enter your name first: it is recorded with ${this.spec.recordName}.`;
      this.nameInput.focus();
      return;
    }
    if (who.typed) saveDispatcherName(who.name);
    this.busy = true;
    this.renderPanel();
    try {
      const done = await this.spec.perform(mode, item, who, this.noteInput?.value.trim() ?? '');
      // Decided: its draft is spent (the fields show the next item's once the selection moves).
      this.drafts.drop(item.id);
      if (this.selectedId === item.id) fillFields(this.draftFields, undefined);
      this.mode = null;
      this.toast.show(done, 'ok');
      (document.activeElement as HTMLElement | null)?.blur();
    } catch (err) {
      const conflict = await this.spec.conflict(err, item);
      if (typeof conflict === 'string') {
        this.mode = null;
        this.toast.show(conflict, 'info');
      } else if (conflict !== null) {
        // Nothing was recorded; the draft stays for the same item, to decide again on what is shown now.
        this.mode = null;
        this.noticeEl.textContent = conflict.notice;
        (document.activeElement as HTMLElement | null)?.blur();
      } else {
        // What happened and what to do, not the HTTP details.
        this.formError.textContent = `Not recorded. ${friendlyError(err instanceof Error ? err.message : String(err))}`;
      }
    } finally {
      this.busy = false;
      this.render();
    }
  }
}

/** A failure as a dispatcher reads it: what happened and what to do, without HTTP or API words. */
export function friendlyError(message: string): string {
  if (/unreachable|failed to fetch|network|timed? ?out|abort/i.test(message)) return 'The worker did not answer. Retry in a moment.';
  if (/401|unauthori[sz]ed|refused/i.test(message)) return 'The worker refused this sign-in. Ask your admin for a new desk token.';
  if (/403|forbidden/i.test(message)) return 'This desk token may not do that. Ask your admin.';
  return `The worker answered with an error (${message}). Retry; if it keeps failing, tell whoever runs it.`;
}
