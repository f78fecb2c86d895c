import type { CarrierChange, Decision, LocalBlock, Review, ReviewSummary, Screening } from '../../../shared/screening.js';
import type { SvcScore } from '../../../shared/svc-contract.js';
import { authorityRecordUrl, saferSnapshotUrl } from '../../shared/fmcsa-links.js';
import { carrierNames } from '../carrier-facts.js';
import type { DeskModel } from '../desk-model.js';
import { loadDispatcherName, saveDispatcherName } from '../dispatcher-name.js';
import { h, replaceChildren, type Child } from '../dom.js';
import { chip } from '../chip.js';
import { fmtAge, fmtLocal, fmtUtc } from '../format.js';
import { friendlyError } from '../list-view.js';
import type { Toaster } from '../toaster.js';
import { actionTerm, changeReasonTerm, decisionTerm, holdReasonTerm, severityTerm, sortReasons } from '../vocabulary.js';

/**
 * The carrier page (issue 30): look a carrier up by DOT, MC, load id or name, then everything
 * the desk knows about it on one page: the latest score with every reason, its tenders and what
 * each got, its reviews and decisions with their notes, its watch-list changes and its local
 * blocks (an active one can be lifted here, with a note). Links out to FMCSA SAFER and L&I.
 *
 * Name search: the intake has no name filter, so a name is matched only against the carriers
 * this page has already loaded (the desk, the Queue's latest screenings, decisions, blocks).
 */

/** Which carrier: its DOT number, else its MC number. */
export interface CarrierRef {
  dot: string | null;
  mc: string | null;
}

/** What a search box's text asks for. */
export type CarrierQuery = { kind: 'dot'; dot: string } | { kind: 'mc'; mc: string } | { kind: 'text'; text: string };

/** "1000002", "DOT 1000002", "USDOT#1000002" → DOT; "MC-123", "mc 123" → MC; anything else → a load id or a name. */
export function parseCarrierQuery(input: string): CarrierQuery | null {
  const t = input.trim();
  if (t === '') return null;
  const dot = /^(?:us)?(?:dot)?\s*#?\s*(\d{1,8})$/i.exec(t);
  if (dot) return { kind: 'dot', dot: String(Number(dot[1])) };
  const mc = /^mc[-\s#]*(\d{1,8})$/i.exec(t);
  if (mc) return { kind: 'mc', mc: `MC${String(Number(mc[1]))}` };
  return { kind: 'text', text: t };
}

const SCREENINGS_SHOWN = 50;

interface CarrierPage {
  ref: CarrierRef;
  /** What was searched for, when it was not the carrier's own number (a load id). */
  via: string | null;
  screenings: Screening[];
  decisions: Decision[];
  changes: CarrierChange[];
  blocks: LocalBlock[];
  /** The reads that failed, in words (the page shows what came back). */
  failed: string[];
}

type State =
  | { kind: 'idle' }
  | { kind: 'searching'; text: string }
  | { kind: 'choose'; text: string; matches: Array<{ name: string; ref: CarrierRef }> }
  | { kind: 'none'; text: string }
  | { kind: 'failed'; text: string; error: string }
  | { kind: 'page'; page: CarrierPage };

export class CarrierView {
  readonly root: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly body = h('div', { class: 'carrier-body' });
  /** Said to a screen reader when a search finishes. */
  private readonly status = h('p', { class: 'sr-only', attrs: { role: 'status', id: 'carrier-status' } });
  private state: State = { kind: 'idle' };
  /** The lift form is open (with its note) for this block. */
  private lifting: string | null = null;
  private liftBusy = false;
  private readonly liftNote: HTMLTextAreaElement;
  private readonly liftName: HTMLInputElement;
  private readonly liftError = h('div', { class: 'dp-error', attrs: { role: 'alert' } });
  private seq = 0;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly model: DeskModel,
    private readonly toast: Toaster,
    /** A carrier's page was drawn (the address follows it). */
    private readonly onOpened: (ref: CarrierRef) => void = () => undefined,
  ) {
    this.input = h('input', {
      attrs: {
        id: 'carrier-q',
        type: 'search',
        autocomplete: 'off',
        placeholder: 'DOT 1234567, MC-123456, a load id or a name',
        maxlength: 128,
      },
    });
    this.liftNote = h('textarea', {
      class: 'dp-note',
      attrs: { id: 'carrier-lift-note', rows: 2, maxlength: 500, placeholder: 'Why the block is lifted (kept with the lift)' },
    });
    this.liftName = h('input', {
      class: 'dp-name',
      attrs: { id: 'carrier-lift-name', type: 'text', autocomplete: 'name', maxlength: 80, placeholder: 'Your name' },
    });
    const form = h(
      'form',
      {
        class: 'carrier-search',
        attrs: { role: 'search', 'aria-label': 'Find a carrier' },
        on: {
          submit: (e) => {
            e.preventDefault();
            void this.search(this.input.value);
          },
        },
      },
      h('label', { class: 'carrier-search-label', attrs: { for: 'carrier-q' } }, 'DOT, MC, load id or name'),
      this.input,
      h('button', { class: 'btn', attrs: { type: 'submit', id: 'carrier-find' } }, 'Find'),
    );
    this.root = h(
      'section',
      { class: 'view view-carrier', attrs: { 'aria-label': 'Carrier' } },
      h('div', { class: 'view-head' }, h('h2', null, 'Find a carrier')),
      form,
      this.status,
      this.body,
    );
    this.render();
  }

  /** Put the cursor in the search box (key /). */
  focusSearch(): void {
    this.input.focus();
    this.input.select();
  }

  /** The carrier shown now, if any (for the address bar). */
  current(): CarrierRef | null {
    return this.state.kind === 'page' ? this.state.page.ref : null;
  }

  /** Look up what was typed: a DOT or MC number, else a load id, else a name among the carriers loaded. */
  async search(text: string): Promise<void> {
    const q = parseCarrierQuery(text);
    if (!q) {
      this.input.focus();
      return;
    }
    this.input.value = text.trim();
    if (q.kind === 'dot') {
      // Digits may also be a load id: a DOT with no screening that is a load's id opens that load's carrier.
      const seq = ++this.seq;
      this.set({ kind: 'searching', text: q.dot });
      const [byDot, byLoad] = await Promise.allSettled([
        this.model.bridge.searchScreenings({ dot_number: q.dot }, 1),
        this.model.bridge.searchScreenings({ tender_id: q.dot }, 1),
      ]);
      if (seq !== this.seq) return;
      const load = byLoad.status === 'fulfilled' ? byLoad.value[0] : undefined;
      if (byDot.status === 'fulfilled' && byDot.value.length === 0 && load) return this.open(refOf(load), `load ${q.dot}`);
      return this.open({ dot: q.dot, mc: null });
    }
    if (q.kind === 'mc') return this.open({ dot: null, mc: q.mc });
    const seq = ++this.seq;
    this.set({ kind: 'searching', text: q.text });
    let load: Screening | undefined;
    try {
      [load] = await this.model.bridge.searchScreenings({ tender_id: q.text }, 1);
    } catch (err) {
      if (seq !== this.seq) return;
      this.set({ kind: 'failed', text: q.text, error: err instanceof Error ? err.message : String(err) });
      return;
    }
    if (seq !== this.seq) return;
    if (load) return this.open(refOf(load), `load ${q.text}`);
    const matches = this.namesLike(q.text);
    if (matches.length === 1) return this.open(matches[0]!.ref);
    this.set(matches.length === 0 ? { kind: 'none', text: q.text } : { kind: 'choose', text: q.text, matches });
  }

  /** Open one carrier's page: every list read again for it. */
  async open(ref: CarrierRef, via: string | null = null): Promise<void> {
    const seq = ++this.seq;
    if (this.state.kind !== 'page' || !sameCarrier(this.state.page.ref, ref)) {
      this.lifting = null;
      this.set({ kind: 'searching', text: ref.dot ? `DOT ${ref.dot}` : (ref.mc ?? '') });
    }
    const page = await this.load(ref, via);
    if (seq !== this.seq) return;
    this.set({ kind: 'page', page });
    this.onOpened(page.ref);
    const n = this.nameOf(page);
    this.status.textContent = `${n}: ${page.screenings.length} screening${page.screenings.length === 1 ? '' : 's'} found.`;
  }

  /** Read the open carrier again (something about it changed), a little after the news: one read per burst. */
  refreshSoon(): void {
    if (this.state.kind !== 'page' || this.root.hidden) return;
    if (this.refreshTimer !== undefined) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (this.state.kind === 'page') void this.open(this.state.page.ref, this.state.page.via);
    }, 400);
  }

  private async load(ref: CarrierRef, via: string | null): Promise<CarrierPage> {
    const b = this.model.bridge;
    const failed: string[] = [];
    const got = <T>(r: PromiseSettledResult<T>, what: string, empty: T): T => {
      if (r.status === 'fulfilled') return r.value;
      failed.push(`${what}: ${friendlyError(r.reason instanceof Error ? r.reason.message : String(r.reason))}`);
      return empty;
    };
    const first = await Promise.allSettled([
      b.searchScreenings(ref.dot ? { dot_number: ref.dot } : { mc_number: ref.mc ?? '' }, SCREENINGS_SHOWN),
    ]);
    const screenings = got(first[0], 'Could not read its screenings', [] as Screening[]);
    // Fill in the number we did not search by from what the scores say.
    const full: CarrierRef = { ...ref };
    for (const s of screenings) {
      const n = carrierNames(s);
      full.dot ??= n.dot;
      full.mc ??= n.mc;
    }
    const [decisions, changes, blocks] = await Promise.allSettled([
      full.dot
        ? b.listDecisions('all', { dot_number: full.dot })
        : Promise.resolve([...this.model.decisions, ...this.model.decisionHistory].filter((d) => d.mc_number === full.mc)),
      full.dot ? b.listChanges('all', { dot_number: full.dot }) : Promise.resolve([] as CarrierChange[]),
      // Its own blocks (by DOT, on an index), never every block of every carrier; an MC-only carrier: the lists the desk has.
      full.dot ? b.listBlocks('all', { dot_number: full.dot }) : Promise.resolve([...this.model.blocks, ...this.model.blockHistory]),
    ]);
    return {
      ref: full,
      via,
      screenings,
      decisions: got(decisions, 'Could not read its decisions', [] as Decision[]),
      changes: got(changes, 'Could not read its watch-list changes', [] as CarrierChange[]),
      blocks: got(blocks, 'Could not read the do-not-use list', [] as LocalBlock[]).filter((x) => matches(full, x.dot_number, x.mc_number)),
      failed,
    };
  }

  /** Carriers already loaded whose legal or DBA name contains the text. */
  private namesLike(text: string): Array<{ name: string; ref: CarrierRef }> {
    const want = text.toLowerCase();
    const found = new Map<string, { name: string; ref: CarrierRef }>();
    const add = (name: string | null | undefined, dba: string | null | undefined, ref: CarrierRef): void => {
      if (!ref.dot && !ref.mc) return;
      if (!(name?.toLowerCase().includes(want) || dba?.toLowerCase().includes(want))) return;
      const key = ref.dot ?? ref.mc!;
      if (!found.has(key)) found.set(key, { name: name ?? dba ?? key, ref });
    };
    const m = this.model;
    for (const s of [...m.pending.map((r) => r.screening), ...m.decided.map((r) => r.screening), ...m.screenings]) {
      const n = carrierNames(s);
      add(s.score?.carrier?.legal_name, n.dba, { dot: n.dot, mc: n.mc });
    }
    for (const d of [...m.decisions, ...m.decisionHistory]) add(d.legal_name, null, { dot: d.dot_number, mc: d.mc_number });
    for (const c of [...m.changes, ...m.changeHistory]) add(c.legal_name, null, { dot: c.dot_number, mc: c.mc_number });
    return [...found.values()].slice(0, 20);
  }

  private set(s: State): void {
    this.state = s;
    if (s.kind !== 'page')
      this.status.textContent =
        s.kind === 'searching'
          ? `Looking up ${s.text}…`
          : s.kind === 'none'
            ? `Nothing found for ${s.text}.`
            : s.kind === 'choose'
              ? `${s.matches.length} carriers match.`
              : '';
    this.render();
  }

  render(): void {
    const s = this.state;
    switch (s.kind) {
      case 'idle':
        replaceChildren(
          this.body,
          h(
            'div',
            { class: 'rv-none' },
            h('p', { class: 'big-empty' }, 'Look a carrier up.'),
            h(
              'p',
              null,
              'Type its DOT number, its MC number, a load id from the TMS, or part of its name, then Enter. Press / from any view to search.',
            ),
          ),
        );
        return;
      case 'searching':
        replaceChildren(
          this.body,
          h('div', { class: 'rv-none', attrs: { 'aria-busy': 'true' } }, h('p', { class: 'big-empty' }, `Looking up ${s.text}…`)),
        );
        return;
      case 'failed':
        replaceChildren(
          this.body,
          h(
            'div',
            { class: 'rv-none rv-failed' },
            h('p', { class: 'big-empty' }, `Could not look up ${s.text}.`),
            h('p', null, friendlyError(s.error)),
          ),
        );
        return;
      case 'none':
        replaceChildren(
          this.body,
          h(
            'div',
            { class: 'rv-none' },
            h('p', { class: 'big-empty' }, `No carrier or load found for "${s.text}".`),
            h(
              'p',
              null,
              'A name is matched only against carriers this page has loaded (the worker has no name search). Try the DOT or MC number, or the load id.',
            ),
          ),
        );
        return;
      case 'choose':
        replaceChildren(
          this.body,
          h('h3', { class: 'd-sub' }, `Carriers whose name contains "${s.text}"`),
          h(
            'ul',
            { class: 'carrier-matches' },
            ...s.matches.map((m) =>
              h(
                'li',
                null,
                h(
                  'button',
                  { class: 'btn carrier-match', attrs: { type: 'button' }, on: { click: () => void this.open(m.ref) } },
                  m.name,
                  h('span', { class: 'muted' }, ` · ${idsText(m.ref)}`),
                ),
              ),
            ),
          ),
        );
        return;
      case 'page':
        replaceChildren(this.body, ...this.pageView(s.page));
        return;
    }
  }

  private nameOf(p: CarrierPage): string {
    const s = p.screenings.find((x) => x.score?.carrier?.legal_name);
    return (
      s?.score?.carrier?.legal_name ??
      p.decisions.find((d) => d.legal_name)?.legal_name ??
      p.changes.find((c) => c.legal_name)?.legal_name ??
      idsText(p.ref)
    );
  }

  private pageView(p: CarrierPage): Child[] {
    const name = this.nameOf(p);
    const latest = p.screenings.find((x) => x.score !== null) ?? null;
    const score = latest?.score ?? null;
    const dba = latest?.score?.carrier?.dba_name ?? null;
    const active = p.blocks.find((b) => b.state === 'active') ?? null;
    const out: Child[] = [];
    out.push(
      h(
        'header',
        { class: 'd-head' },
        h(
          'div',
          { class: 'd-names' },
          h('h2', { class: 'd-legal', attrs: { id: 'carrier-name' } }, name),
          dba ? h('div', { class: 'd-dba' }, `doing business as ${dba}`) : null,
          h(
            'div',
            { class: 'd-ids' },
            h('span', { class: 'id' }, 'DOT ', h('strong', null, p.ref.dot ?? '—')),
            h('span', { class: 'id' }, 'MC ', h('strong', null, p.ref.mc ?? '—')),
          ),
          p.via ? h('div', { class: 'muted carrier-via' }, `Found by ${p.via}.`) : null,
          linksOut(p.ref.dot),
        ),
        scoreBox(score, active),
      ),
    );
    if (p.failed.length) out.push(h('div', { class: 'load-failed', attrs: { role: 'alert' } }, ...p.failed.map((f) => h('div', null, f))));
    if (active) out.push(this.blockBox(active, name));

    // The latest score with every reason.
    out.push(
      h(
        'h3',
        { class: 'd-sub' },
        'Latest score',
        latest?.score_fetched_at
          ? h(
              'span',
              { class: 'd-sub-note', attrs: { title: fmtUtc(latest.score_fetched_at) } },
              ` · fetched ${fmtAge(latest.score_fetched_at)} (${fmtLocal(latest.score_fetched_at)})`,
            )
          : null,
      ),
    );
    out.push(
      ...(score
        ? scoreDetail(score)
        : [
            h(
              'p',
              { class: 'muted' },
              p.screenings.length
                ? 'No screening of this carrier has a score (the scoring service could not be asked).'
                : 'This carrier was never screened here.',
            ),
          ]),
    );

    // Its tenders and what each got.
    const tenders = p.screenings;
    out.push(
      h('h3', { class: 'd-sub' }, `Tenders and checks (${tenders.length}${tenders.length === SCREENINGS_SHOWN ? ', the latest' : ''})`),
    );
    out.push(
      tenders.length === 0
        ? h('p', { class: 'muted' }, 'None.')
        : h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              { class: 'screenings carrier-tenders' },
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  ...['Asked', 'Load', 'Action', 'Why held', 'Score', 'Dispatcher'].map((c) => h('th', { attrs: { scope: 'col' } }, c)),
                ),
              ),
              h('tbody', null, ...tenders.map((s) => tenderRow(s))),
            ),
          ),
    );

    // Reviews and decisions, with their notes.
    const reviews = uniqueReviews(p.screenings);
    out.push(h('h3', { class: 'd-sub' }, 'Decisions and notes'));
    const decisionItems = p.decisions.map((d) => decisionItem(d, reviews.get(d.review_id) ?? this.reviewOf(d.review_id)));
    const undecided = [...reviews.values()].filter((r) => !p.decisions.some((d) => d.review_id === r.id)).map((r) => reviewItem(r));
    out.push(
      decisionItems.length + undecided.length === 0
        ? h('p', { class: 'muted' }, 'No dispatcher has decided this carrier.')
        : h('ul', { class: 'carrier-decisions' }, ...decisionItems, ...undecided),
    );

    // Watch-list changes.
    out.push(h('h3', { class: 'd-sub' }, 'Watch-list changes'));
    out.push(
      p.ref.dot === null
        ? h('p', { class: 'muted' }, 'Changes are looked up by DOT number, and this carrier has none known.')
        : p.changes.length === 0
          ? h('p', { class: 'muted' }, 'No change seen on the daily re-check.')
          : h('ul', { class: 'carrier-changes' }, ...p.changes.map((c) => changeItem(c))),
    );

    // Local blocks, lifted ones too.
    out.push(h('h3', { class: 'd-sub' }, 'Do-not-use list'));
    out.push(
      p.blocks.length === 0
        ? h('p', { class: 'muted' }, 'Never blocked here.')
        : h('ul', { class: 'carrier-blocks' }, ...p.blocks.map((b) => blockItem(b))),
    );
    return out;
  }

  /** A decided review the desk already holds (its note), when the carrier's screenings did not bring it. */
  private reviewOf(id: string): ReviewSummary | undefined {
    const r: Review | undefined = this.model.decided.find((x) => x.id === id);
    return r ? { id: r.id, state: r.state, decided_by: r.decided_by, decided_at: r.decided_at, note: r.note } : undefined;
  }

  /** The active block, and its lift: a note says why (kept with the lift), the name only when the token has none. */
  private blockBox(b: LocalBlock, name: string): HTMLElement {
    const off =
      this.model.actionsOff() ??
      (this.model.me?.role === 'tms' ? 'This sign-in may only read. To lift a block, sign in with a desk token.' : null);
    const signed = this.model.signedInName();
    const open = this.lifting === b.id;
    if (open && this.liftName.value === '') this.liftName.value = loadDispatcherName();
    return h(
      'div',
      { class: 'carrier-block d-held tone-bad', attrs: { id: 'carrier-block' } },
      h('span', { class: 'd-held-label' }, 'On the do-not-use list'),
      h(
        'span',
        { class: 'd-held-hint' },
        `${b.reason} — blocked by ${b.blocked_by}, ${fmtLocal(b.blocked_at)} (${fmtAge(b.blocked_at)}). Every tender to this carrier is refused until someone lifts it.`,
      ),
      open
        ? h(
            'form',
            {
              class: 'carrier-lift',
              attrs: { 'aria-label': 'Lift the block' },
              on: {
                submit: (e) => {
                  e.preventDefault();
                  void this.lift(b, name);
                },
              },
            },
            h(
              'p',
              { class: 'dp-mode', attrs: { id: 'carrier-lift-question', 'aria-live': 'polite' } },
              `Lift the block on ${name}? Its next tender is screened on its score again.`,
            ),
            h(
              'div',
              { class: 'dp-fields' },
              signed === null
                ? h('label', { class: 'dp-label' }, 'Dispatcher', this.liftName)
                : h('div', { class: 'dp-label' }, 'Dispatcher', h('strong', null, signed)),
              h('label', { class: 'dp-label dp-label-note' }, 'Note', this.liftNote),
            ),
            this.liftError,
            h(
              'div',
              { class: 'dp-buttons' },
              h(
                'button',
                {
                  class: 'btn btn-confirm btn-lift',
                  attrs: { type: 'submit', id: 'carrier-lift-confirm', disabled: this.liftBusy || off !== null },
                },
                'Lift block',
              ),
              h('button', { class: 'btn btn-cancel', attrs: { type: 'button' }, on: { click: () => this.cancelLift() } }, 'Cancel'),
            ),
          )
        : h(
            'button',
            {
              class: 'btn btn-small',
              attrs: { type: 'button', id: 'carrier-lift-start', disabled: off !== null, title: off ?? 'Lift the block (asks why)' },
              on: { click: () => this.startLift(b) },
            },
            'Lift block…',
          ),
      off !== null ? h('span', { class: 'muted' }, off) : null,
    );
  }

  private startLift(b: LocalBlock): void {
    this.lifting = b.id;
    this.liftNote.value = '';
    this.liftError.textContent = '';
    this.render();
    (this.model.signedInName() === null && this.liftName.value.trim() === '' ? this.liftName : this.liftNote).focus();
  }

  private cancelLift(): void {
    this.lifting = null;
    this.render();
  }

  private async lift(b: LocalBlock, name: string): Promise<void> {
    if (this.liftBusy) return;
    const by = this.model.signedInName() ?? this.liftName.value.trim();
    if (by === '') {
      this.liftError.textContent = 'Enter your name first: it is recorded with the lift.';
      this.liftName.focus();
      return;
    }
    saveDispatcherName(by);
    this.liftBusy = true;
    this.render();
    try {
      await this.model.lift(b, by, this.liftNote.value.trim());
      this.lifting = null;
      this.toast.show(`Block lifted: ${name}. Recorded for ${by}. Its next tender is screened again.`, 'ok');
    } catch (err) {
      this.liftError.textContent = `Not lifted. ${friendlyError(err instanceof Error ? err.message : String(err))}`;
    } finally {
      this.liftBusy = false;
      if (this.state.kind === 'page') await this.open(this.state.page.ref, this.state.page.via);
    }
  }

  /** Keys while the view is shown: Escape closes the lift form. */
  handleKey(e: KeyboardEvent): boolean {
    if (e.key === 'Escape' && this.lifting !== null) {
      this.cancelLift();
      return true;
    }
    return false;
  }
}

// ---- pieces ----

function refOf(s: Screening): CarrierRef {
  const n = carrierNames(s);
  return { dot: n.dot, mc: n.mc };
}

function sameCarrier(a: CarrierRef, b: CarrierRef): boolean {
  return (a.dot !== null && a.dot === b.dot) || (a.mc !== null && a.mc === b.mc);
}

function matches(ref: CarrierRef, dot: string | null, mc: string | null): boolean {
  return (ref.dot !== null && dot === ref.dot) || (ref.mc !== null && mc === ref.mc);
}

function idsText(ref: CarrierRef): string {
  return [ref.dot ? `DOT ${ref.dot}` : null, ref.mc].filter(Boolean).join(' · ') || 'unknown carrier';
}

/** SAFER and L&I, opened outside the app (Electron's main opens exactly these in the browser). */
function linksOut(dot: string | null): HTMLElement {
  if (dot === null) return h('p', { class: 'carrier-links muted' }, 'No DOT number known: the FMCSA links need one.');
  const link = (id: string, href: string, text: string, title: string): HTMLElement =>
    h(
      'a',
      { class: 'ext-link', attrs: { id, href, target: '_blank', rel: 'noopener noreferrer', title } },
      text,
      h('span', { attrs: { 'aria-hidden': 'true' } }, ' ↗'),
      h('span', { class: 'sr-only' }, ' (opens in your browser)'),
    );
  return h(
    'p',
    { class: 'carrier-links' },
    link('carrier-safer', saferSnapshotUrl(dot), 'FMCSA SAFER snapshot', `The carrier's public record at FMCSA (USDOT ${dot})`),
    link(
      'carrier-authority',
      authorityRecordUrl(dot),
      'Operating authority (FMCSA L&I)',
      `Authority and insurance on file at FMCSA (USDOT ${dot})`,
    ),
  );
}

function scoreBox(score: SvcScore | null, block: LocalBlock | null): HTMLElement {
  if (!score)
    return h(
      'div',
      { class: 'd-score tone-muted' },
      h('div', { class: 'd-score-num' }, '—'),
      h('div', { class: 'd-score-grade' }, block ? 'no score · do not use' : 'no score'),
    );
  const d = decisionTerm(score.decision);
  return h(
    'div',
    { class: `d-score tone-${d.tone}` },
    h('div', { class: 'd-score-num' }, String(score.score)),
    h('div', { class: 'd-score-grade' }, `grade ${score.grade} · ${d.label}`),
    block ? h('div', { class: 'd-score-grade' }, 'blocked here') : null,
  );
}

/** The score in a dispatcher's words: what the service says, knockouts, then every reason, most serious first. */
function scoreDetail(score: SvcScore): HTMLElement[] {
  const d = decisionTerm(score.decision);
  const out: HTMLElement[] = [
    h(
      'div',
      { class: 'd-verdict' },
      h('span', { class: 'd-k' }, 'The scoring service says'),
      chip(d),
      score.needs_manual_review ? h('span', { class: 'chip tone-warn' }, 'asks a person to look') : null,
      score.verdict ? h('span', { class: 'd-verdict-text' }, plainVerdict(score.verdict)) : null,
    ),
  ];
  if (score.knockout.triggered || score.knockout.reasons.length > 0)
    out.push(
      h(
        'div',
        { class: 'd-knockout' },
        h('h4', null, score.knockout.triggered ? 'Knockout triggered' : 'Knockout reasons'),
        h('ul', null, ...score.knockout.reasons.map((k) => h('li', null, k.message, ' ', h('span', { class: 'muted' }, `(${k.code})`)))),
      ),
    );
  if (score.reasons.length === 0) out.push(h('p', { class: 'muted' }, 'No check found a problem.'));
  else
    out.push(
      h(
        'ol',
        { class: 'reasons carrier-reasons', attrs: { 'aria-label': `Reasons (${score.reasons.length})` } },
        ...sortReasons(score.reasons).map((r) => {
          const sev = severityTerm(r.severity);
          return h(
            'li',
            { class: `reason ${sev.tone}${sev.known ? '' : ' unknown'}` },
            h(
              'div',
              { class: 'reason-head' },
              h('span', { class: `sev-badge ${sev.tone}${sev.known ? '' : ' unknown'}` }, sev.label),
              h('span', { class: 'reason-check' }, r.check),
              h('span', { class: 'reason-area' }, r.area),
            ),
            h('p', { class: 'reason-detail' }, r.detail),
            r.facts.length
              ? h('dl', { class: 'facts' }, ...r.facts.flatMap((f) => [h('dt', null, f.label), h('dd', null, String(f.value))]))
              : null,
          );
        }),
      ),
    );
  return out;
}

/** "1 finding(s)" as a person writes it. */
function plainVerdict(v: string): string {
  return v
    .replace(/\b1 finding\(s\) needs?\b/g, '1 finding needs')
    .replace(/\b1 finding\(s\)/g, '1 finding')
    .replace(/finding\(s\)/g, 'findings');
}

function tenderRow(s: Screening): HTMLElement {
  const rv = s.review;
  return h(
    'tr',
    { dataset: { screeningId: s.id } },
    h('td', { attrs: { title: fmtUtc(s.created_at) } }, fmtLocal(s.created_at), h('div', { class: 'muted' }, fmtAge(s.created_at))),
    h('td', null, s.tender_id ?? h('span', { class: 'muted' }, s.refresh ? 're-check' : `${s.priority} check`)),
    h('td', null, s.status === 'done' ? chip(actionTerm(s.action)) : h('span', { class: 'muted' }, s.status)),
    h(
      'td',
      null,
      s.error?.code === 'local_block'
        ? h('span', { class: 'chip tone-bad' }, 'on the do-not-use list')
        : s.hold_reason
          ? chip(holdReasonTerm(s.hold_reason))
          : '—',
    ),
    h('td', null, s.score ? `${s.score.score} · ${s.score.grade}` : '—'),
    h(
      'td',
      null,
      rv && rv.state !== 'pending'
        ? h('span', { attrs: { title: rv.note ?? '' } }, `${rv.state}${rv.decided_by ? ` by ${rv.decided_by}` : ''}`)
        : rv
          ? h('span', { class: 'chip tone-warn' }, 'waiting on the desk')
          : s.settled_by === 'standing_decision'
            ? h('span', { class: 'muted' }, 'by a standing decision')
            : '—',
    ),
  );
}

function uniqueReviews(screenings: readonly Screening[]): Map<string, ReviewSummary> {
  const out = new Map<string, ReviewSummary>();
  for (const s of screenings) if (s.review && !out.has(s.review.id)) out.set(s.review.id, s.review);
  return out;
}

function noteLine(note: string | null | undefined, label = 'Note'): HTMLElement {
  return note
    ? h('div', { class: 'carrier-note' }, h('span', { class: 'd-k' }, `${label}: `), note)
    : h('div', { class: 'muted carrier-note' }, `${label}: none`);
}

function decisionItem(d: Decision, review: ReviewSummary | undefined): HTMLElement {
  const verdict = d.decision === 'approved' ? 'Approved → tender' : 'Rejected → block';
  return h(
    'li',
    { class: `carrier-decision dc-${d.state}`, dataset: { decisionId: d.id } },
    h(
      'div',
      null,
      h(
        'span',
        { class: `badge ${d.state === 'standing' ? `tone-${d.decision === 'approved' ? 'ok' : 'bad'}` : `badge-ended badge-${d.state}`}` },
        d.state,
      ),
      ' ',
      d.state === 'standing' ? h('strong', null, verdict) : h('s', { attrs: { title: 'no longer stands' } }, verdict),
      ` by ${d.decided_by}, ${fmtLocal(d.decided_at)}`,
      d.state === 'standing' ? h('span', { class: 'muted' }, ` · stands until ${fmtLocal(d.expires_at)}`) : null,
    ),
    noteLine(review?.note),
    d.state !== 'standing'
      ? h(
          'div',
          { class: 'carrier-ended' },
          `${d.state === 'revoked' ? 'Revoked' : 'Lapsed'}${d.ended_by ? ` by ${d.ended_by}` : ''}, ${fmtLocal(d.ended_at)}${d.end_reason ? `: ${d.end_reason}` : ''}`,
        )
      : null,
  );
}

function reviewItem(r: ReviewSummary): HTMLElement {
  return h(
    'li',
    { class: `carrier-review rv-${r.state}`, dataset: { reviewId: r.id } },
    h(
      'div',
      null,
      h('span', { class: 'badge tone-muted' }, r.state === 'pending' ? 'waiting on the desk' : r.state),
      r.decided_by ? ` by ${r.decided_by}, ${fmtLocal(r.decided_at)}` : '',
    ),
    r.state === 'pending' ? null : noteLine(r.note),
  );
}

function changeItem(c: CarrierChange): HTMLElement {
  const snap = (x: CarrierChange['before']): string => `${x.score ?? '—'} · ${x.grade ?? '—'} · ${actionTerm(x.action).label}`;
  return h(
    'li',
    { class: 'carrier-change', dataset: { changeId: c.id } },
    h('div', null, h('strong', null, fmtLocal(c.detected_at)), ' ', ...c.reasons.map((r) => chip(changeReasonTerm(r)))),
    h('div', null, `was ${snap(c.before)} → now ${snap(c.after)}`),
    h(
      'div',
      { class: 'muted' },
      c.state === 'new' ? 'not acknowledged yet' : `acknowledged by ${c.acknowledged_by ?? '?'}, ${fmtLocal(c.acknowledged_at)}`,
    ),
  );
}

function blockItem(b: LocalBlock): HTMLElement {
  return h(
    'li',
    { class: `carrier-block-item bl-${b.state}`, dataset: { blockId: b.id } },
    h(
      'div',
      null,
      h('span', { class: `badge ${b.state === 'active' ? 'tone-bad' : 'tone-muted'}` }, b.state === 'active' ? 'do not use' : 'lifted'),
      ` ${b.reason}`,
    ),
    h('div', { class: 'muted' }, `blocked by ${b.blocked_by}, ${fmtLocal(b.blocked_at)}`),
    b.state === 'lifted' ? h('div', null, `lifted by ${b.lifted_by ?? '?'}, ${fmtLocal(b.lifted_at)}`) : null,
    b.state === 'lifted' ? noteLine(b.lift_note, 'Why lifted') : null,
  );
}
